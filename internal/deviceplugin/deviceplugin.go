package deviceplugin

import (
	"io"
	"regexp"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// Device is one PCI function a plugin logged.
type Device struct {
	Address     string // PCI address as printed, e.g. "0000:07:00.0"
	Class       string // the "found" line's class id, e.g. "02" (network)
	Description string // "<vendor> <device>" as the "found" line names them, whitespace made single; "..." marks a name the plugin cut
	Vendor      string // the "added" line's PCI vendor id, e.g. "15b3"
	Device      string // the "added" line's PCI device id, e.g. "1018"
	Driver      string // the "added" line's driver, e.g. "mlx5_core", "vfio-pci"
	Line        int    // 1-based line of the first line that named it
}

// Log is what one plugin log says about the node's PCI functions.
type Log struct {
	Devices []Device // in the order first named, each address once
}

var (
	// "… device found: 0000:07:00.0\t02\tMellanox Technolo...\tMT27800 Family [ConnectX-5]"
	// ("PCI device found:" in later releases of the shared plugin).
	reFound = regexp.MustCompile(`(?:DiscoverHostDevices\(\)|discoverDevices\(\)|AddTargetDevices\(\)): (?:PCI )?device found: ((?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])\s+([0-9a-fA-F]{2,6})\b(.*)$`)
	// "device added: [pciAddr: 0000:3b:02.0, vendor: 8086, device: 154c, driver: iavf]"
	// ("identifier:" since the plugin keys devices by more than PCI).
	reAdded = regexp.MustCompile(`device added: \[(?:pciAddr|identifier): ((?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]), vendor: ([0-9a-fA-F]{4}), device: ([0-9a-fA-F]{4}), driver: ([^\]\s,]*)`)
)

// Parse reads a device plugin's log. Lines of other kinds are skipped; a
// log without the plugin's lines gives no device.
func Parse(r io.Reader) (Log, error) {
	var out Log
	at := map[string]int{}
	dev := func(addr string, n int) *Device {
		addr = strings.ToLower(addr)
		if len(addr) == 7 {
			addr = "0000:" + addr
		}
		i, ok := at[addr]
		if !ok {
			i = len(out.Devices)
			at[addr] = i
			out.Devices = append(out.Devices, Device{Address: addr, Line: n})
		}
		return &out.Devices[i]
	}
	n := 0
	err := lines.Each(r, func(l string) {
		n++
		if !strings.Contains(l, "device ") {
			return
		}
		if m := reFound.FindStringSubmatch(l); m != nil {
			d := dev(m[1], n)
			if d.Class == "" {
				d.Class = strings.ToLower(m[2])
			}
			if d.Description == "" {
				d.Description = describe(m[3])
			}
			return
		}
		if m := reAdded.FindStringSubmatch(l); m != nil {
			d := dev(m[1], n)
			d.Vendor, d.Device, d.Driver = strings.ToLower(m[2]), strings.ToLower(m[3]), m[4]
		}
	})
	return out, err
}

// Network reports whether the function is a network controller: PCI base
// class 02 (the "found" line's class), or a function only an "added" line
// named (the SR-IOV plugin adds network functions to its pools; its
// accelerator pools, class 12, are named by "found" lines first).
func (d Device) Network() bool {
	return d.Class == "" || strings.HasPrefix(d.Class, "02")
}

// unknown is what ghw (jaypipes/ghw, which both plugins read the PCI bus
// with) names a vendor or device pci.ids does not list.
const unknown = "unknown"

// describe joins the vendor and device names of a "found" line, leaving
// out a name ghw did not know: with its tabs kept, a column that says
// "unknown"; with them made spaces, the word "unknown" first or last.
func describe(names string) string {
	if cols := strings.Split(strings.TrimSpace(names), "\t"); len(cols) > 1 {
		var kept []string
		for _, c := range cols {
			if c = strings.TrimSpace(c); c != "" && c != unknown {
				kept = append(kept, c)
			}
		}
		names = strings.Join(kept, " ")
	}
	w := strings.Fields(names)
	if len(w) > 0 && w[len(w)-1] == unknown {
		w = w[:len(w)-1]
	}
	if len(w) > 0 && w[0] == unknown {
		w = w[1:]
	}
	return strings.Join(w, " ")
}
