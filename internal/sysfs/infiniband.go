package sysfs

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// IBDevice is /sys/class/infiniband/<name>.
type IBDevice struct {
	Name     string
	NodeType string // node_type
	FwVer    string // fw_ver
	HCAType  string // hca_type
	BoardID  string // board_id
	NodeGUID string // node_guid
	Parent   string // parent: the netdev of a software device (rxe)
	// PCIAddress is the PCI function the device link resolves to; empty
	// for software devices or when the link cannot be read.
	PCIAddress string
	Ports      []IBPort
}

// IBPort is /sys/class/infiniband/<dev>/ports/<n>.
type IBPort struct {
	Number    int
	State     string // state, e.g. "4: ACTIVE"
	PhysState string // phys_state, e.g. "5: LinkUp"
	LinkLayer string // link_layer
	Rate      string // rate
	GIDs      []GIDEntry
}

// GIDEntry is one populated gids/<i> with its gid_attrs.
type GIDEntry struct {
	Index  int
	GID    string // gids/<i>
	Type   string // gid_attrs/types/<i>
	Netdev string // gid_attrs/ndevs/<i>
}

const ibClass = "sys/class/infiniband"

// ErrAbsent is returned when the class folder does not exist.
var ErrAbsent = errors.New("absent")

// InfiniBand reads every device under sys/class/infiniband. A missing
// class folder returns ErrAbsent; missing attribute files leave fields empty.
func InfiniBand(fsys fs.FS) ([]IBDevice, error) {
	entries, err := fs.ReadDir(fsys, ibClass)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrAbsent
	}
	if err != nil {
		return nil, err
	}
	var devs []IBDevice
	for _, e := range entries {
		dir := path.Join(ibClass, e.Name())
		d := IBDevice{
			Name:     e.Name(),
			NodeType: attr(fsys, dir, "node_type"),
			FwVer:    attr(fsys, dir, "fw_ver"),
			HCAType:  attr(fsys, dir, "hca_type"),
			BoardID:  attr(fsys, dir, "board_id"),
			NodeGUID: attr(fsys, dir, "node_guid"),
			Parent:   attr(fsys, dir, "parent"),
		}
		d.PCIAddress = PCIAddressOf(fsys, path.Join(dir, "device"))
		ports, _ := fs.ReadDir(fsys, path.Join(dir, "ports"))
		for _, p := range ports {
			n, err := strconv.Atoi(p.Name())
			if err != nil {
				continue
			}
			pdir := path.Join(dir, "ports", p.Name())
			port := IBPort{
				Number:    n,
				State:     attr(fsys, pdir, "state"),
				PhysState: attr(fsys, pdir, "phys_state"),
				LinkLayer: attr(fsys, pdir, "link_layer"),
				Rate:      attr(fsys, pdir, "rate"),
			}
			port.GIDs = gids(fsys, pdir)
			d.Ports = append(d.Ports, port)
		}
		sort.Slice(d.Ports, func(i, j int) bool { return d.Ports[i].Number < d.Ports[j].Number })
		devs = append(devs, d)
	}
	return devs, nil
}

// gids reads the populated GID entries of a port. The kernel lists every
// table slot; unused ones read as all zeros (and their type file fails).
func gids(fsys fs.FS, pdir string) []GIDEntry {
	entries, _ := fs.ReadDir(fsys, path.Join(pdir, "gids"))
	var out []GIDEntry
	for _, e := range entries {
		i, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		g := attr(fsys, pdir, "gids/"+e.Name())
		if g == "" || strings.Trim(g, "0:") == "" {
			continue
		}
		out = append(out, GIDEntry{
			Index:  i,
			GID:    g,
			Type:   attr(fsys, pdir, "gid_attrs/types/"+e.Name()),
			Netdev: attr(fsys, pdir, "gid_attrs/ndevs/"+e.Name()),
		})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Index < out[b].Index })
	return out
}

// maxAttr bounds one attribute read: sysfs attributes are at most a page.
const maxAttr = 4096

// attr reads one sysfs attribute, trimmed; unreadable means empty.
func attr(fsys fs.FS, dir, name string) string {
	f, err := fsys.Open(path.Join(dir, name))
	if err != nil {
		return ""
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.IsDir() {
		return ""
	}
	b, _ := io.ReadAll(io.LimitReader(f, maxAttr))
	return strings.TrimSpace(string(b))
}
