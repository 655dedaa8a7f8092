package sysfs

import (
	"errors"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// PCIFunc is /sys/bus/pci/devices/<address>.
type PCIFunc struct {
	Address         string   // domain:bus:device.function
	Vendor          string   // vendor, 4 hex digits without 0x
	Device          string   // device
	SubsystemVendor string   // subsystem_vendor
	SubsystemDevice string   // subsystem_device
	Class           string   // class, e.g. 020000
	Driver          string   // base name of the driver link
	MSIIRQs         *int     // entries in msi_irqs/; nil when the folder is absent
	Netdevs         []string // net/*
	IBDevices       []string // infiniband/*
}

// NetDev is /sys/class/net/<name>.
type NetDev struct {
	Name       string
	PCIAddress string // where the device link resolves to; empty for virtual netdevs
	Driver     string // base name of device/driver
}

// CMPort is /sys/kernel/config/rdma_cm/<dev>/ports/<n>
// (Documentation/ABI/testing/configfs-rdma_cm).
type CMPort struct {
	Device          string
	Port            int
	DefaultRoCEMode string // default_roce_mode: "IB/RoCE v1" or "RoCE v2"
	DefaultRoCETOS  *int   // default_roce_tos: 0-255
}

var bdfRE = regexp.MustCompile(`^[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]$`)

// IsPCIAddress reports whether s looks like domain:bus:device.function.
func IsPCIAddress(s string) bool { return bdfRE.MatchString(s) }

const pciDevices = "sys/bus/pci/devices"

// PCIDevices reads every function under sys/bus/pci/devices. A missing
// folder returns ErrAbsent.
func PCIDevices(fsys fs.FS) ([]PCIFunc, error) {
	entries, err := fs.ReadDir(fsys, pciDevices)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrAbsent
	}
	if err != nil {
		return nil, err
	}
	var out []PCIFunc
	for _, e := range entries {
		if !IsPCIAddress(e.Name()) {
			continue
		}
		out = append(out, PCIDevice(fsys, path.Join(pciDevices, e.Name()), e.Name()))
	}
	return out, nil
}

// PCIDevice reads the PCI function folder dir (any path that leads to it,
// such as sys/class/net/eth0/device).
func PCIDevice(fsys fs.FS, dir, address string) PCIFunc {
	f := PCIFunc{
		Address:         strings.ToLower(address),
		Vendor:          hexID(attr(fsys, dir, "vendor")),
		Device:          hexID(attr(fsys, dir, "device")),
		SubsystemVendor: hexID(attr(fsys, dir, "subsystem_vendor")),
		SubsystemDevice: hexID(attr(fsys, dir, "subsystem_device")),
		Class:           strings.TrimPrefix(attr(fsys, dir, "class"), "0x"),
		Driver:          linkBase(fsys, path.Join(dir, "driver")),
	}
	if f.Driver == "" {
		f.Driver = uevent(fsys, dir, "DRIVER")
	}
	if irqs, err := fs.ReadDir(fsys, path.Join(dir, "msi_irqs")); err == nil {
		n := len(irqs)
		f.MSIIRQs = &n
	}
	f.Netdevs = names(fsys, path.Join(dir, "net"))
	f.IBDevices = names(fsys, path.Join(dir, "infiniband"))
	return f
}

func hexID(s string) string { return strings.ToLower(strings.TrimPrefix(s, "0x")) }

func names(fsys fs.FS, dir string) []string {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// NetDevs reads sys/class/net. Entries may be symlinks (live sysfs) or
// plain folders (a copied tree); both work. A missing folder returns
// ErrAbsent.
func NetDevs(fsys fs.FS) ([]NetDev, error) {
	entries, err := fs.ReadDir(fsys, "sys/class/net")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrAbsent
	}
	if err != nil {
		return nil, err
	}
	var out []NetDev
	for _, e := range entries {
		dir := path.Join("sys/class/net", e.Name())
		n := NetDev{Name: e.Name(), PCIAddress: PCIAddressOf(fsys, path.Join(dir, "device"))}
		n.Driver = linkBase(fsys, path.Join(dir, "device", "driver"))
		if n.Driver == "" && n.PCIAddress != "" {
			n.Driver = uevent(fsys, path.Join(dir, "device"), "DRIVER")
		}
		out = append(out, n)
	}
	return out, nil
}

// RDMACM reads the rdma_cm configfs ports. The folder exists only for
// devices someone created it for (mkdir rdma_cm/<dev>), so absence is
// common. A missing folder returns ErrAbsent.
func RDMACM(fsys fs.FS) ([]CMPort, error) {
	const root = "sys/kernel/config/rdma_cm"
	devs, err := fs.ReadDir(fsys, root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrAbsent
	}
	if err != nil {
		return nil, err
	}
	var out []CMPort
	for _, d := range devs {
		ports, _ := fs.ReadDir(fsys, path.Join(root, d.Name(), "ports"))
		for _, p := range ports {
			n, err := strconv.Atoi(p.Name())
			if err != nil {
				continue
			}
			dir := path.Join(root, d.Name(), "ports", p.Name())
			c := CMPort{Device: d.Name(), Port: n, DefaultRoCEMode: attr(fsys, dir, "default_roce_mode")}
			if tos, err := strconv.Atoi(attr(fsys, dir, "default_roce_tos")); err == nil {
				c.DefaultRoCETOS = &tos
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// PCIAddressOf resolves a device link (…/device) to the PCI function it
// names: the last path element that is a PCI address, following every
// symlink on the way. Without symlink support it falls back to the
// device's uevent PCI_SLOT_NAME. Empty when neither works.
func PCIAddressOf(fsys fs.FS, link string) string {
	if real, ok := realPath(fsys, link); ok {
		parts := strings.Split(real, "/")
		for i := len(parts) - 1; i >= 0; i-- {
			if IsPCIAddress(parts[i]) {
				return strings.ToLower(parts[i])
			}
		}
	}
	if s := uevent(fsys, link, "PCI_SLOT_NAME"); IsPCIAddress(s) {
		return strings.ToLower(s)
	}
	return ""
}

// linkBase returns the base name of a symlink's target, e.g. the driver
// name of a driver link. Dangling links (common in copied trees) still
// have a target.
func linkBase(fsys fs.FS, link string) string {
	t, err := fs.ReadLink(fsys, link)
	if err != nil {
		if real, ok := realPath(fsys, path.Dir(link)); ok && real != path.Dir(link) {
			if t, err = fs.ReadLink(fsys, path.Join(real, path.Base(link))); err != nil {
				return ""
			}
		} else {
			return ""
		}
	}
	return path.Base(t)
}

// maxHops bounds symlink resolution, as the kernel's MAXSYMLINKS does, so
// that a loop in a copied tree ends.
const maxHops = 40

// realPath resolves every symlink in p inside fsys. Targets that climb
// above the root stay at the root: nothing resolves outside the snapshot.
// ok is false on a loop or when fsys cannot read links.
func realPath(fsys fs.FS, p string) (string, bool) {
	if _, ok := fsys.(fs.ReadLinkFS); !ok {
		return "", false
	}
	todo := strings.Split(path.Clean(p), "/")
	var done []string
	hops := 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(done) > 0 {
				done = done[:len(done)-1]
			}
			continue
		}
		next := strings.Join(append(done[:len(done):len(done)], c), "/")
		t, err := fs.ReadLink(fsys, next)
		if err != nil {
			done = append(done, c)
			continue
		}
		if hops++; hops > maxHops {
			return "", false
		}
		if strings.HasPrefix(t, "/") {
			done = nil
		}
		todo = append(strings.Split(t, "/"), todo...)
	}
	return strings.Join(done, "/"), true
}

// uevent reads KEY=value from dir/uevent.
func uevent(fsys fs.FS, dir, key string) string {
	for _, line := range strings.Split(attr(fsys, dir, "uevent"), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), key+"="); ok {
			return v
		}
	}
	return ""
}
