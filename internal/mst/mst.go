package mst

import (
	"bufio"
	"io"
	"regexp"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// Device is one row of the PCI devices table (mst status -v), or one node
// of the device list (mst status).
type Device struct {
	Type       string   // DEVICE_TYPE without the revision, e.g. ConnectX5, BlueField3; "" in the list, which prints none
	Revision   string   // the rev: value, e.g. 0, 1, b0, or the list's "Chip revision is:"
	MST        string   // the MST device node, e.g. /dev/mst/mt4121_pciconf0
	PCIID      string   // the PCI id of a -v row: the vendor its type names (TypeVendor), the device its node's name (NodeDevice), e.g. 15b3:1019; "" without either, and in the list, which names no type
	PCIAddress string   // as printed: 01:00.0 or 0004:01:00.0
	RDMA       []string // RDMA devices, e.g. mlx5_0; several, with commas, when the function has more (an SMI device added with rdma dev add … type SMI); none when the row has none
	Netdevs    []string // netdev names without their "net-" prefix
	NUMA       string   // NUMA node as printed, e.g. 0 or -1
	Line       int      // 1-based line of the row
}

// Status is what ParseStatus found.
type Status struct {
	Devices []Device
	Errors  []string // "-E- …" lines
	Lines   int

	section string // the heading the lines are under: "MST devices:", "Cables:", …
	node    bool   // the last device is a node of the list, its detail lines to come
}

// MaxDevices bounds Status.Devices.
const MaxDevices = 1024

var (
	typeRE = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_-]*)\(rev:([0-9A-Za-z]+)\)$`)
	pciRE  = regexp.MustCompile(`^(?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]$`)
	rdmaRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*\d(?:,[A-Za-z][A-Za-z0-9_-]*\d)*$`)
	numRE  = regexp.MustCompile(`^-?\d+$`)
	// The list's detail lines under a node (MFT's mst script; captures
	// in testdata/captures/mst): "domain:bus:dev.fn=0000:03:00.0
	// addr.reg=88 …" and "Chip revision is: 01".
	bdfRE = regexp.MustCompile(`^domain:bus:dev\.fn=([0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])(?:\s|$)`)
	revRE = regexp.MustCompile(`^Chip revision is:\s*([0-9A-Fa-f]+)$`)
)

// ParseStatus reads `mst status -v` and `mst status` output. Lines before
// the table (modules, prompts, other commands) are skipped; a row is a
// line whose first field is a device type such as "ConnectX5(rev:0)".
// Without -v, mst lists under "MST devices:" each node with a dash and
// its access method, then its PCI address and chip revision on lines of
// their own; a node for direct access (_pci_cr0) and one through
// configuration cycles (_pciconf0) of the same function are two entries.
// Under "Cables:" it lists the cables' nodes (mst cable add), which are
// no PCI function. Without MST's kernel modules it lists, under "PCI
// Devices:", the functions' addresses alone (MFT's "Running mst in an
// Environment without a Kernel"), and -v prints NA for the node.
func ParseStatus(r io.Reader) (Status, error) {
	var st Status
	br := bufio.NewReader(r)
	for {
		raw, err := lines.Read(br)
		if raw != "" || err == nil {
			st.Lines++
			st.line(raw)
		}
		if err == io.EOF {
			return st, nil
		}
		if err != nil {
			return st, err
		}
	}
}

func (st *Status) line(raw string) {
	t := strings.TrimSpace(raw)
	if strings.HasPrefix(t, "-E-") {
		if len(st.Errors) < 64 {
			st.Errors = append(st.Errors, t)
		}
		return
	}
	if strings.HasSuffix(t, ":") && !strings.Contains(t, " -") && len(t) < 40 {
		st.section, st.node = strings.ToLower(t), false
		return
	}
	if st.listLine(t) {
		return
	}
	f := strings.Fields(t)
	// A NUMA value wrapped onto its own line belongs to the row above.
	if len(f) == 1 && numRE.MatchString(f[0]) && len(st.Devices) > 0 {
		if d := &st.Devices[len(st.Devices)-1]; d.NUMA == "" && d.Line == st.Lines-1 {
			d.NUMA = f[0]
		}
		return
	}
	if len(f) < 2 || len(st.Devices) >= MaxDevices {
		return
	}
	m := typeRE.FindStringSubmatch(f[0])
	if m == nil {
		return
	}
	d := Device{Type: m[1], Revision: m[2], Line: st.Lines}
	for _, w := range f[1:] {
		switch {
		case (strings.HasPrefix(w, "/dev/mst/") || NodeDevice(w) != "") && d.MST == "":
			d.MST = w
			if v, dev := TypeVendor(d.Type), NodeDevice(w); v != "" && dev != "" {
				d.PCIID = v + ":" + dev
			}
		case pciRE.MatchString(w) && d.PCIAddress == "":
			d.PCIAddress = strings.ToLower(w)
		case strings.HasPrefix(w, "net-"):
			for _, n := range strings.Split(w, ",") {
				if n = strings.TrimPrefix(n, "net-"); n != "" {
					d.Netdevs = append(d.Netdevs, n)
				}
			}
		case numRE.MatchString(w) && d.NUMA == "":
			d.NUMA = w
		case rdmaRE.MatchString(w) && len(d.RDMA) == 0 && d.PCIAddress != "" && len(d.Netdevs) == 0:
			d.RDMA = strings.Split(w, ",")
		}
	}
	st.Devices = append(st.Devices, d)
}

// listLine reads a line of mst status without -v, and reports whether it
// was one: a node, its PCI address or revision, or an address alone.
func (st *Status) listLine(t string) bool {
	f := strings.Fields(t)
	switch {
	case st.section == "cables:":
		return true
	case len(f) == 0:
		return false
	case st.node && len(st.Devices) > 0:
		d := &st.Devices[len(st.Devices)-1]
		if m := bdfRE.FindStringSubmatch(t); m != nil {
			if d.PCIAddress == "" {
				d.PCIAddress = strings.ToLower(m[1])
			}
			return true
		}
		if m := revRE.FindStringSubmatch(t); m != nil {
			if d.Revision == "" {
				d.Revision = m[1]
			}
			return true
		}
	}
	if len(st.Devices) >= MaxDevices {
		return false
	}
	switch {
	case st.section == "mst devices:" && len(f) >= 2 && f[1] == "-" && (strings.HasPrefix(f[0], "/dev/") || NodeDevice(f[0]) != ""):
		st.Devices = append(st.Devices, Device{MST: f[0], Line: st.Lines})
		st.node = true
		return true
	case st.section == "pci devices:" && len(f) == 1 && pciRE.MatchString(f[0]):
		st.Devices = append(st.Devices, Device{PCIAddress: strings.ToLower(f[0]), Line: st.Lines})
		st.node = false
		return true
	}
	st.node = false
	return false
}

// FullPCIAddress adds the 0000 domain to an address printed without one.
func FullPCIAddress(a string) string {
	if strings.Count(a, ":") == 1 {
		return "0000:" + a
	}
	return a
}
