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

// ParseDevinfo reads ibv_devinfo output in any verbosity, and the -l list.
func ParseDevinfo(r io.Reader) (Devinfo, error) {
	var out Devinfo
	var dev *Device
	var port *Port
	list := false
	err := lines.Each(r, func(raw string) {
		line := strings.TrimSpace(raw)
		if line == "" {
			return
		}
		if strings.HasPrefix(line, "Failed to ") || strings.HasPrefix(line, "libibverbs:") || strings.HasPrefix(line, "No IB devices") {
			out.Errors = append(out.Errors, line)
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
