package mst

import (
	"bufio"
	"io"
	"regexp"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// Device is one row of the PCI devices table.
type Device struct {
	Type       string   // DEVICE_TYPE without the revision, e.g. ConnectX5, BlueField3
	Revision   string   // the rev: value, e.g. 0, 1, b0
	MST        string   // the MST device node, e.g. /dev/mst/mt4121_pciconf0
	PCIAddress string   // as printed: 01:00.0 or 0004:01:00.0
	RDMA       string   // RDMA device, e.g. mlx5_0; "" when the row has none
	Netdevs    []string // netdev names without their "net-" prefix
	NUMA       string   // NUMA node as printed, e.g. 0 or -1
	Line       int      // 1-based line of the row
}

// Status is what ParseStatus found.
type Status struct {
	Devices []Device
	Errors  []string // "-E- …" lines
	Lines   int
}

// MaxDevices bounds Status.Devices.
const MaxDevices = 1024

var (
	typeRE = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_-]*)\(rev:([0-9A-Za-z]+)\)$`)
	pciRE  = regexp.MustCompile(`^(?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]$`)
	rdmaRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*\d$`)
	numRE  = regexp.MustCompile(`^-?\d+$`)
)

// ParseStatus reads `mst status -v` output. Lines before the table
// (modules, prompts, other commands) are skipped; a row is a line whose
// first field is a device type such as "ConnectX5(rev:0)".
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
		case strings.HasPrefix(w, "/dev/mst/") && d.MST == "":
			d.MST = w
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
		case rdmaRE.MatchString(w) && d.RDMA == "" && d.PCIAddress != "" && len(d.Netdevs) == 0:
			d.RDMA = w
		}
	}
	st.Devices = append(st.Devices, d)
}

// FullPCIAddress adds the 0000 domain to an address printed without one.
func FullPCIAddress(a string) string {
	if strings.Count(a, ":") == 1 {
		return "0000:" + a
	}
	return a
}
