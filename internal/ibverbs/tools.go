package ibverbs

import (
	"errors"
	"io"
	"net"
	"regexp"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// DeviceGUID is one row of ibv_devices.
type DeviceGUID struct {
	Name     string // device
	NodeGUID string // node GUID, 16 hex digits without colons
}

// Devices is the output of ibv_devices.
type Devices struct {
	Devices  []DeviceGUID
	Warnings []string // libibverbs warnings, e.g. a provider that does not load
	// Problems are those warnings classified as ibv_devinfo's are: both
	// tools print libibverbs' own lines ("couldn't load driver", "no
	// userspace device-specific driver found for …/uverbs0"), one per
	// distinct line with its count and first line.
	Problems []Problem
}

var guidRE = regexp.MustCompile(`^[0-9a-fA-F]{1,16}$`)

// maskedGUIDRE is a node GUID a poster masked ("xxxxxxxxxxxx",
// "0c42a103xxxxxxxx", "****"): the device is listed, its GUID not given.
var maskedGUIDRE = regexp.MustCompile(`^[0-9a-fA-F]*[xX*]+[0-9a-fA-FxX*]*$`)

// ParseDevices reads ibv_devices output.
func ParseDevices(r io.Reader) (Devices, error) {
	var out Devices
	table := false
	n := 0
	err := lines.Each(r, func(raw string) {
		n++
		line := strings.TrimSpace(raw)
		switch {
		case line == "":
		case strings.HasPrefix(line, "libibverbs:"):
			out.Warnings = append(out.Warnings, line)
			out.problem(line, n)
		case strings.HasPrefix(line, "------"):
			table = true
		case table:
			f := strings.Fields(line)
			switch {
			case len(f) == 2 && guidRE.MatchString(f[1]):
				out.Devices = append(out.Devices, DeviceGUID{Name: f[0], NodeGUID: strings.ToLower(f[1])})
			case len(f) == 2 && len(f[1]) <= 16 && maskedGUIDRE.MatchString(f[1]):
				out.Devices = append(out.Devices, DeviceGUID{Name: f[0]})
			}
		}
	})
	return out, err
}

func (out *Devices) problem(line string, n int) {
	for i := range out.Problems {
		if out.Problems[i].Text == line {
			out.Problems[i].Count++
			return
		}
	}
	if len(out.Problems) >= MaxProblems {
		return
	}
	p := classify(line)
	p.Count, p.Line = 1, n
	out.Problems = append(out.Problems, p)
}

// CA is one "CA '<name>'" block of ibstat.
type CA struct {
	Name         string
	Type         string // CA type, e.g. MT4115
	NumPorts     int    // Number of ports
	FwVersion    string // Firmware version
	HWVersion    string // Hardware version
	NodeGUID     string // Node GUID, 0x-prefixed
	SysImageGUID string // System image GUID
	Ports        []CAPort
}

// CAPort is one "Port N:" block of ibstat.
type CAPort struct {
	Number    int
	State     string // Active, Down, Initializing, Armed
	PhysState string // LinkUp, Disabled, Polling …
	Rate      string // Gb/s as printed, e.g. "100"
	BaseLID   string
	SMLID     string
	PortGUID  string
	LinkLayer string
}

// Ibstat is the output of ibstat.
type Ibstat struct {
	CAs      []CA
	Messages []string // ibwarn / ibpanic lines
}

var caRE = regexp.MustCompile(`^CA '([^']+)'$`)

// ParseIbstat reads ibstat output (all CAs, or one). Values elided as "..."
// are treated as absent.
func ParseIbstat(r io.Reader) (Ibstat, error) {
	var out Ibstat
	var ca *CA
	var port *CAPort
	err := lines.Each(r, func(raw string) {
		line := strings.TrimSpace(raw)
		if line == "" {
			return
		}
		if strings.HasPrefix(line, "ibwarn:") || strings.HasPrefix(line, "ibpanic:") || strings.HasPrefix(line, "ibstat:") {
			out.Messages = append(out.Messages, line)
			return
		}
		if m := caRE.FindStringSubmatch(line); m != nil {
			out.CAs = append(out.CAs, CA{Name: m[1]})
			ca, port = &out.CAs[len(out.CAs)-1], nil
			return
		}
		if ca == nil {
			return
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			return
		}
		val = strings.TrimSpace(val)
		if val == "..." {
			val = ""
		}
		if n, ok := strings.CutPrefix(key, "Port "); ok && val == "" {
			if i, err := strconv.Atoi(n); err == nil {
				ca.Ports = append(ca.Ports, CAPort{Number: i})
				port = &ca.Ports[len(ca.Ports)-1]
			}
			return
		}
		if port != nil {
			switch key {
			case "State":
				port.State = val
			case "Physical state":
				port.PhysState = val
			case "Rate":
				port.Rate = val
			case "Base lid":
				port.BaseLID = val
			case "SM lid":
				port.SMLID = val
			case "Port GUID":
				port.PortGUID = val
			case "Link layer":
				port.LinkLayer = val
			}
			return
		}
		switch key {
		case "CA type":
			ca.Type = val
		case "Number of ports":
			ca.NumPorts, _ = strconv.Atoi(val)
		case "Firmware version":
			ca.FwVersion = val
		case "Hardware version":
			ca.HWVersion = val
		case "Node GUID":
			ca.NodeGUID = val
		case "System image GUID":
			ca.SysImageGUID = val
		}
	})
	return out, err
}

// PortStatus is one "Infiniband device '<dev>' port N status:" block of
// ibstatus.
type PortStatus struct {
	Device     string
	Port       int
	DefaultGID string // default gid
	BaseLID    string
	SMLID      string
	State      string // e.g. "4: ACTIVE"
	PhysState  string // e.g. "5: LinkUp"
	Rate       string // e.g. "100 Gb/sec (4X EDR)"
	LinkLayer  string // link_layer
}

var statusRE = regexp.MustCompile(`^Infiniband device '([^']+)' port (\d+) status:$`)

// ParseIbstatus reads ibstatus output.
func ParseIbstatus(r io.Reader) ([]PortStatus, error) {
	var out []PortStatus
	var cur *PortStatus
	err := lines.Each(r, func(raw string) {
		line := strings.TrimSpace(raw)
		if m := statusRE.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			out = append(out, PortStatus{Device: m[1], Port: n})
			cur = &out[len(out)-1]
			return
		}
		if cur == nil {
			return
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			return
		}
		val = strings.TrimSpace(val)
		switch key {
		case "default gid":
			cur.DefaultGID = val
		case "base lid":
			cur.BaseLID = val
		case "sm lid":
			cur.SMLID = val
		case "state":
			cur.State = val
		case "phys state":
			cur.PhysState = val
		case "rate":
			cur.Rate = val
		case "link_layer":
			cur.LinkLayer = val
		}
	})
	return out, err
}

// shortRow spreads a row with fewer cells than the header over its
// columns: the IPv4 cell is empty unless the cell there is an IPv4
// address, and the cells after the last given one are empty (show_gids
// prints nothing for VER and the netdev where the kernel has no gid_attrs
// for the GID: "qedr0	1	0	fe80:…" under a seven-column header). A row
// that leaves a cell before the GID empty is not spread.
func shortRow(cols, f []string) []string {
	g := index(cols, "GID")
	if g < 0 || len(f) <= g {
		return f
	}
	out := make([]string, 0, len(cols))
	j := 0
	for _, c := range cols {
		switch {
		case j >= len(f):
			out = append(out, "")
		case c == "IPv4" && net.ParseIP(f[j]).To4() == nil:
			out = append(out, "")
		default:
			out = append(out, f[j])
			j++
		}
	}
	if j < len(f) {
		return f
	}
	return out
}

// ShowGID is one row of the MLNX_OFED show_gids script.
type ShowGID struct {
	Device string // DEV
	Port   int    // PORT
	Index  int    // INDEX
	GID    string // GID
	IPv4   string // IPv4, for IPv4-mapped GIDs
	Ver    string // VER: v1 or v2
	Netdev string // the second DEV column
}

// ParseShowGIDs reads show_gids output. When a header row ("DEV PORT
// INDEX GID IPv4 VER DEV", in any of the vendor variants' orders) is
// present, rows are read by its column names; an empty IPv4 cell leaves
// one field fewer. Without a header, rows have six or seven columns in
// the MLNX_OFED order.
func ParseShowGIDs(r io.Reader) ([]ShowGID, error) {
	var out []ShowGID
	var cols []string
	err := lines.Each(r, func(raw string) {
		f := strings.Fields(raw)
		if len(f) >= 4 && f[0] == "DEV" && contains(f, "GID") {
			cols = f
			return
		}
		if cols != nil {
			if g, ok := byHeader(cols, f); ok {
				out = append(out, g)
			}
			return
		}
		if len(f) != 6 && len(f) != 7 {
			return
		}
		port, err1 := strconv.Atoi(f[1])
		idx, err2 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil || !strings.Contains(f[3], ":") {
			return
		}
		g := ShowGID{Device: f[0], Port: port, Index: idx, GID: f[3]}
		rest := f[4:]
		if len(rest) == 3 {
			g.IPv4, rest = rest[0], rest[1:]
		}
		g.Ver, g.Netdev = rest[0], rest[1]
		out = append(out, g)
	})
	return out, err
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// byHeader maps a row's fields to the header's columns. The first "DEV"
// is the RDMA device, a later one the netdev.
func byHeader(cols, f []string) (ShowGID, bool) {
	if len(f) < len(cols) {
		f = shortRow(cols, f)
	}
	if len(f) != len(cols) {
		return ShowGID{}, false
	}
	var g ShowGID
	var err1, err2 error = errNoCol, errNoCol
	devs := 0
	for i, c := range cols {
		switch c {
		case "DEV":
			if devs == 0 {
				g.Device = f[i]
			} else {
				g.Netdev = f[i]
			}
			devs++
		case "PORT":
			g.Port, err1 = strconv.Atoi(f[i])
		case "INDEX":
			g.Index, err2 = strconv.Atoi(f[i])
		case "GID":
			g.GID = f[i]
		case "IPv4":
			g.IPv4 = f[i]
		case "VER":
			g.Ver = f[i]
		}
	}
	if err1 != nil || err2 != nil || !strings.Contains(g.GID, ":") || g.Device == "" {
		return ShowGID{}, false
	}
	return g, true
}

var errNoCol = errors.New("column absent")

func index(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// NetdevMap is one line of the MLNX_OFED ibdev2netdev script.
type NetdevMap struct {
	Device     string // RDMA device
	Port       int
	Netdev     string
	Up         *bool  // (Up) or (Down); nil when not printed
	PCIAddress string // -v only
	// LinkState is the netdev's link as printed after "==>": "Up" or
	// "Down". It is the Ethernet (or IPoIB) interface's state, not the
	// verbs port state.
	LinkState string
	// The rest is printed by -v only: "$pci $dev ($devid - $partid)
	// $devdesc fw $fwver port $port ($ibstate)" (MLNX_OFED ibdev2netdev).
	CAType      string // "MT4119" (the PCI device id in decimal) or "NA"
	PartID      string // the 4th VPD string; see PartNumber
	Description string // the VPD product name, e.g. "CX555A - ConnectX-5 QSFP28"
	Firmware    string // fw_ver
	PortState   string // the verbs port state: "ACTIVE", "DOWN", "INIT" …
}

// PartNumber is PartID when it has the shape of a board part number
// (MCX653105A-HDAT, 900-9D3B4-00EN-EA0). The script takes whatever the
// fourth VPD string is, which on some boards is a serial number
// (MT1523X04353) or a bare number; those are not returned.
func (m NetdevMap) PartNumber() string {
	if strings.Contains(m.PartID, "-") && !strings.HasPrefix(m.PartID, "-") {
		return m.PartID
	}
	return ""
}

// ParseIbdev2netdev reads ibdev2netdev output, plain or -v, and tolerates
// column -t alignment and trailing "# …" comments.
func ParseIbdev2netdev(r io.Reader) ([]NetdevMap, error) {
	var out []NetdevMap
	err := lines.Each(r, func(raw string) {
		left, right, ok := strings.Cut(raw, "==>")
		if !ok {
			return
		}
		if i := strings.Index(right, "#"); i >= 0 {
			right = right[:i]
		}
		lf, rf := strings.Fields(left), strings.Fields(right)
		if len(rf) == 0 {
			return
		}
		if len(lf) > 1 && nodePrefix(lf[0]) {
			// pdsh, clush or xCAT's xdsh print each node's lines after
			// its name: "node1: 0003:01:00.0 mlx5_0 (MT4121 - …".
			left = left[strings.Index(left, lf[0])+len(lf[0]):]
			lf = lf[1:]
		}
		m := NetdevMap{Netdev: rf[0]}
		for i := len(lf) - 1; i >= 1; i-- {
			if lf[i-1] == "port" {
				if n, err := strconv.Atoi(lf[i]); err == nil && i >= 2 {
					m.Port, m.Device = n, lf[i-2]
					// -v prints "fw <version> port <n>": the word before
					// the port is then the firmware, not the device.
					if lf[i-2] == ")" || strings.HasSuffix(lf[i-2], ")") || i >= 3 && lf[i-3] == "fw" {
						m.Device = ""
					}
				}
				break
			}
		}
		if len(lf) > 0 && strings.Count(lf[0], ":") == 2 && strings.Contains(lf[0], ".") {
			m.PCIAddress = lf[0]
			if len(lf) > 1 {
				m.Device = lf[1]
			}
			verbose(&m, left)
		}
		if len(rf) > 1 {
			switch st := strings.Trim(rf[1], "()"); st {
			case "Up":
				t := true
				m.Up, m.LinkState = &t, st
			case "Down":
				f := false
				m.Up, m.LinkState = &f, st
			}
		}
		if m.Device != "" {
			out = append(out, m)
		}
	})
	return out, err
}

// nodePrefix reports whether a line's first word is a node's name and a
// colon that a parallel shell put before it ("node1:"), not a PCI address
// ("0003:01:00.0") or a device.
func nodePrefix(w string) bool {
	name, ok := strings.CutSuffix(w, ":")
	if !ok || name == "" || strings.ContainsAny(name, ":()") {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// verbose reads the -v fields between the device name and "==>".
func verbose(m *NetdevMap, left string) {
	rest := left
	if i := strings.Index(rest, m.Device); m.Device != "" && i >= 0 {
		rest = rest[i+len(m.Device):]
	}
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "(") {
		if end := strings.IndexByte(rest, ')'); end > 0 {
			typ, part, _ := strings.Cut(rest[1:end], " - ")
			m.CAType = na(typ)
			m.PartID = na(part)
			rest = rest[end+1:]
		}
	}
	fw := strings.LastIndex(rest, " fw ")
	if fw < 0 && strings.HasPrefix(strings.TrimSpace(rest), "fw ") {
		fw = strings.Index(rest, "fw ") - 1
	}
	if fw < 0 {
		return
	}
	m.Description = strings.TrimSpace(rest[:max(fw, 0)])
	tail := strings.Fields(rest[fw+1:])
	if len(tail) >= 2 && tail[0] == "fw" {
		m.Firmware = na(tail[1])
	}
	if o := strings.LastIndexByte(rest, '('); o >= 0 {
		if c := strings.IndexByte(rest[o:], ')'); c > 0 {
			m.PortState = strings.TrimSpace(rest[o+1 : o+c])
		}
	}
}

// na turns the script's "NA" placeholder into absent.
func na(s string) string {
	s = strings.TrimSpace(s)
	if s == "NA" {
		return ""
	}
	return s
}
