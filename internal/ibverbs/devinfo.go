package ibverbs

import (
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// Devinfo is the output of ibv_devinfo.
type Devinfo struct {
	Devices []Device
	Errors  []string // "Failed to open device" and libibverbs warnings
	// Problems are the error and warning lines, classified, deduplicated
	// and bounded by MaxProblems, in the order first seen.
	Problems []Problem
	// ProblemsDropped counts distinct problem lines beyond MaxProblems.
	ProblemsDropped int
}

// Problem kinds of ibv_devinfo's error and libibverbs warning lines.
const (
	// NoDevice: verbs sees no device ("No IB devices found").
	NoDevice = "no-device"
	// ProviderMissing: libibverbs has no userspace provider for a device
	// ("no userspace device-specific driver found for …/uverbs0") or
	// cannot load a driver's provider ("couldn't load driver 'rxe'").
	ProviderMissing = "provider-missing"
	// ProviderConfigMissing: the provider configuration directory is
	// absent ("couldn't open config directory '/etc/libibverbs.d'").
	ProviderConfigMissing = "provider-config-missing"
	// ABIMismatch: a provider refused the kernel's uverbs ABI ("Driver
	// mlx5 does not support the kernel ABI of 1 (supports 2 to 2) for
	// device /sys/class/infiniband/mlx5_0", rdma-core libibverbs/init.c).
	ABIMismatch = "abi-mismatch"
	// OpenFailed: a device is listed but cannot be opened ("Failed to
	// open device"), e.g. inside a container without its char device.
	OpenFailed = "open-failed"
	// OtherProblem: any other libibverbs warning or failure line.
	OtherProblem = "other"
)

// MaxProblems bounds Devinfo.Problems.
const MaxProblems = 64

// Problem is one distinct error or warning line of ibv_devinfo.
type Problem struct {
	Kind   string // NoDevice, ProviderMissing, ProviderConfigMissing, OpenFailed or OtherProblem
	Device string // uverbs device the line names ("uverbs0"), when it names one
	Driver string // provider driver the line names ("rxe", "mlx4"), when it names one
	Text   string // the line as printed, trimmed
	Count  int    // how many times the line appeared
	Line   int    // 1-based line where it first appeared
}

var (
	noDriverRE   = regexp.MustCompile(`no userspace device-specific driver found for \S*?/?(uverbs\d+)`)
	loadDriverRE = regexp.MustCompile(`couldn't load driver '(?:lib)?([A-Za-z0-9_]+?)(?:-rdmav\d+\.so)?'`)
	abiRE        = regexp.MustCompile(`Driver (\S+) does not support the kernel ABI of \d+ \(supports \d+ to \d+\) for device \S*?/?([A-Za-z0-9_]+)$`)
)

// classify turns one error line into a Problem.
func classify(line string) Problem {
	p := Problem{Kind: OtherProblem, Text: line}
	switch {
	case strings.HasPrefix(line, "No IB devices") || strings.HasPrefix(line, "No RDMA devices"):
		p.Kind = NoDevice
	case strings.Contains(line, "couldn't open config directory"):
		p.Kind = ProviderConfigMissing
	case strings.Contains(line, "no userspace device-specific driver"):
		p.Kind = ProviderMissing
		if m := noDriverRE.FindStringSubmatch(line); m != nil {
			p.Device = m[1]
		}
	case strings.Contains(line, "couldn't load driver"):
		p.Kind = ProviderMissing
		if m := loadDriverRE.FindStringSubmatch(line); m != nil {
			p.Driver = m[1]
		}
	case strings.Contains(line, "does not support the kernel ABI"):
		p.Kind = ABIMismatch
		if m := abiRE.FindStringSubmatch(line); m != nil {
			p.Driver, p.Device = m[1], m[2]
		}
	case strings.HasPrefix(line, "Failed to open device"):
		p.Kind = OpenFailed
	}
	return p
}

func (out *Devinfo) problem(line string, n int) {
	for i := range out.Problems {
		if out.Problems[i].Text == line {
			out.Problems[i].Count++
			return
		}
	}
	if len(out.Problems) >= MaxProblems {
		out.ProblemsDropped++
		return
	}
	p := classify(line)
	p.Count, p.Line = 1, n
	out.Problems = append(out.Problems, p)
}

// Device is one "hca_id:" block.
type Device struct {
	HCAID        string // hca_id
	Transport    string // transport, e.g. "InfiniBand (0)"
	FwVer        string // fw_ver
	NodeGUID     string // node_guid
	SysImageGUID string // sys_image_guid
	VendorID     string // vendor_id, e.g. 0x02c9 (an IEEE OUI, not the PCI vendor)
	VendorPartID string // vendor_part_id, decimal (the PCI device id on most providers)
	HWVer        string // hw_ver
	BoardID      string // board_id
	PhysPortCnt  int    // phys_port_cnt
	Ports        []Port
}

// Port is one "port:" block.
type Port struct {
	Number      int
	State       string // e.g. "PORT_ACTIVE (4)"
	PhysState   string // e.g. "LINK_UP (5)" (-v only)
	LinkLayer   string // Ethernet or InfiniBand
	ActiveMTU   string // e.g. "1024 (3)"
	ActiveWidth string // e.g. "4X (2)" (-v only)
	ActiveSpeed string // e.g. "25.0 Gbps (32)" (-v only)
	PortLID     string // port_lid
	SMLID       string // sm_lid
	GIDTableLen int    // gid_tbl_len (-v only)
	GIDs        []GID  // GID[ n] lines (-v only)
	// Implicit is set when port lines came with no "port:" header before
	// them (an elided -v excerpt); Number is then assumed to be 1.
	Implicit bool
}

// portKeys are the keys only a port block holds.
var portKeys = map[string]bool{
	"state": true, "phys_state": true, "link_layer": true, "active_mtu": true, "max_mtu": true,
	"active_width": true, "active_speed": true, "port_lid": true, "sm_lid": true, "gid_tbl_len": true,
	"port_lmc": true, "max_msg_sz": true, "port_cap_flags": true,
}

// GID is one "GID[ n]: gid, type" line of ibv_devinfo -v.
type GID struct {
	Index int
	GID   string // as printed: full or compressed IPv6 form
	Type  string // "RoCE v2", "IB/RoCE v1", "RoCE v1" (MLNX_OFED) or empty (older rdma-core)
}

var (
	gidRE   = regexp.MustCompile(`^GID\[\s*(\d+)\]:\s*(.*)$`)
	countRE = regexp.MustCompile(`^\d+ HCAs? found:$`)
)

// unemphasize drops the markdown strong emphasis a poster put around
// lines of the output ("**GID[ 14]: …", a run of lines closed by "**"
// at the end of a later one): ibv_devinfo prints no "**" or "__" at the
// start or end of a line.
func unemphasize(line string) string {
	for _, m := range []string{"**", "__"} {
		line = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(line, m), m))
	}
	return line
}

// oneWord are the keys whose value ibv_devinfo prints as one word
// (libibverbs/examples/devinfo.c: the device name, "%s" of a GUID,
// "0x%04x", "%d", "0x%X"); the values that carry a "(n)" of their own
// (transport, state, active_mtu …) are not among them.
var oneWord = map[string]bool{"hca_id": true, "node_guid": true, "sys_image_guid": true, "vendor_id": true, "vendor_part_id": true, "hw_ver": true, "phys_port_cnt": true}

// ParseDevinfo reads ibv_devinfo output in any verbosity, and the -l list.
func ParseDevinfo(r io.Reader) (Devinfo, error) {
	var out Devinfo
	var dev *Device
	var port *Port
	list := false
	n := 0
	err := lines.Each(r, func(raw string) {
		n++
		line := unemphasize(strings.TrimSpace(lines.DropNote(raw)))
		if line == "" {
			return
		}
		if strings.HasPrefix(line, "Failed to ") || strings.HasPrefix(line, "libibverbs:") || strings.HasPrefix(line, "No IB devices") {
			out.Errors = append(out.Errors, line)
			out.problem(line, n)
			return
		}
		if strings.HasPrefix(line, "No RDMA devices") {
			out.problem(line, n)
			return
		}
		if countRE.MatchString(line) {
			list = true
			return
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			if list && !strings.ContainsAny(line, " \t") {
				out.Devices = append(out.Devices, Device{HCAID: line})
			}
			return
		}
		val = strings.TrimSpace(val)
		if oneWord[key] {
			// A poster's note after the value ("0x1d0f      (Amazon)")
			// is not part of it: ibv_devinfo prints these as one word.
			if f := strings.Fields(val); len(f) > 0 {
				val = f[0]
			}
		}
		if key == "hca_id" {
			list = false
			out.Devices = append(out.Devices, Device{HCAID: val})
			dev, port = &out.Devices[len(out.Devices)-1], nil
			return
		}
		if dev == nil {
			return
		}
		if key == "port" {
			n, err := strconv.Atoi(val)
			if err != nil {
				port = nil
				return
			}
			dev.Ports = append(dev.Ports, Port{Number: n})
			port = &dev.Ports[len(dev.Ports)-1]
			return
		}
		if port == nil && (portKeys[key] || strings.HasPrefix(key, "GID[")) {
			dev.Ports = append(dev.Ports, Port{Number: 1, Implicit: true})
			port = &dev.Ports[len(dev.Ports)-1]
		}
		if port != nil {
			if m := gidRE.FindStringSubmatch(line); m != nil {
				i, err := strconv.Atoi(m[1])
				if err != nil {
					return
				}
				g, typ, _ := strings.Cut(m[2], ",")
				port.GIDs = append(port.GIDs, GID{Index: i, GID: strings.TrimSpace(g), Type: strings.TrimSpace(typ)})
				return
			}
			switch key {
			case "state":
				port.State = val
			case "phys_state":
				port.PhysState = val
			case "link_layer":
				port.LinkLayer = val
			case "active_mtu":
				port.ActiveMTU = val
			case "active_width":
				port.ActiveWidth = val
			case "active_speed":
				port.ActiveSpeed = val
			case "port_lid":
				port.PortLID = val
			case "sm_lid":
				port.SMLID = val
			case "gid_tbl_len":
				port.GIDTableLen, _ = strconv.Atoi(val)
			}
			return
		}
		switch key {
		case "transport":
			dev.Transport = val
		case "fw_ver":
			dev.FwVer = val
		case "node_guid":
			dev.NodeGUID = val
		case "sys_image_guid":
			dev.SysImageGUID = val
		case "vendor_id":
			dev.VendorID = val
		case "vendor_part_id":
			dev.VendorPartID = val
		case "hw_ver":
			dev.HWVer = val
		case "board_id":
			dev.BoardID = val
		case "phys_port_cnt":
			dev.PhysPortCnt, _ = strconv.Atoi(val)
		}
	})
	return out, err
}

// RateGbps computes a port's rate from active_width and active_speed,
// e.g. "4X (2)" and "25.0 Gbps (32)" give 100. ok is false when either is
// missing or unparsable.
func (p Port) RateGbps() (float64, bool) {
	w, _, _ := strings.Cut(p.ActiveWidth, "X")
	lanes, err := strconv.Atoi(strings.TrimSpace(w))
	if err != nil || lanes <= 0 {
		return 0, false
	}
	f := strings.Fields(p.ActiveSpeed)
	if len(f) < 2 || f[1] != "Gbps" {
		return 0, false
	}
	s, err := strconv.ParseFloat(f[0], 64)
	if err != nil || s < 0 || s > 1e6 {
		return 0, false
	}
	return float64(lanes) * s, true
}
