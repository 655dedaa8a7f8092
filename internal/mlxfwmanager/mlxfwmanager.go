package mlxfwmanager

import (
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// Device is one "Device #N:" block.
type Device struct {
	Number      int       // N of "Device #N:"; 0 when the paste lost the header
	Line        int       // 1-based line of the header, or of the block's first key
	Type        string    // Device Type, e.g. ConnectX4
	PartNumber  string    // Part Number, e.g. MCX455A-ECA_Ax
	Description string    // Description
	PSID        string    // PSID, e.g. MT_2180110032
	PCIName     string    // PCI Device Name: a PCI address (0000:3b:00.0) or an mst device (/dev/mst/mt4115_pciconf0)
	BaseGUID    string    // Base GUID, 16 hex digits
	BaseMAC     string    // Base MAC, 12 hex digits
	Ports       []Port    // Port<N> GUID / Port<N> MAC lines (ConnectX-3 and older)
	Versions    []Version // the rows under "Versions:"
	Status      string    // Status, e.g. "Up to date", "Update required", "No matching image found"
}

// Port is what a "Port<N> GUID:" or "Port<N> MAC:" line gives.
type Port struct {
	Number int
	GUID   string
	MAC    string
}

// Version is one row of the versions table: "FW  12.28.2040  N/A".
type Version struct {
	Name      string // FW, PXE, UEFI, FCODE, "FW (Running)" …, as printed
	Current   string // empty when printed N/A
	Available string // the image mlxfwmanager would burn; empty when N/A
	Line      int    // 1-based line in the input
}

// Output is the parsed output of one query run.
type Output struct {
	Devices  []Device
	Messages []string // "-E- …" and "-W- …" lines: the tool's own errors and warnings
}

// Version returns the row of a name, and whether it is present.
func (d Device) Version(name string) (Version, bool) {
	for _, v := range d.Versions {
		if v.Name == name {
			return v, true
		}
	}
	return Version{}, false
}

// FirmwareRunning is the firmware the device runs: the "FW (Running)" row,
// which the tools print only when it differs from the flash image (mlxup
// after a burn, before the reset), else the "FW" row.
func (d Device) FirmwareRunning() (Version, bool) {
	if v, ok := d.Version("FW (Running)"); ok && v.Current != "" {
		return v, true
	}
	v, ok := d.Version("FW")
	return v, ok && v.Current != ""
}

// FirmwareFlash is the "FW" row: the image in flash, what boots next.
func (d Device) FirmwareFlash() (Version, bool) {
	v, ok := d.Version("FW")
	return v, ok && v.Current != ""
}

var (
	headerRE = regexp.MustCompile(`^Device #(\d+):$`)
	portRE   = regexp.MustCompile(`^Port(\d+) (GUID|MAC)$`)
)

// versionNames start a version row even without its "Versions:" header
// (a paste filtered with grep keeps the "FW …" rows only).
var versionNames = map[string]bool{"FW": true, "PXE": true, "UEFI": true, "FCODE": true, "BOOT": true}

// na is how the tools print an unknown value.
func na(v string) string {
	v = strings.TrimSpace(v)
	if v == "N/A" {
		return ""
	}
	return v
}

// Parse reads the text output of `mlxfwmanager --query` or `mlxup --query`.
// Indentation is not trusted (pastes re-indent or flatten it); lines that
// are not part of a block (prompts, "Querying Mellanox devices firmware
// ...", burn progress) are skipped, and a truncated tail keeps what it has.
func Parse(r io.Reader) (Output, error) {
	var out Output
	var cur *Device
	inVersions := false
	n := 0
	start := func(num, line int) {
		out.Devices = append(out.Devices, Device{Number: num, Line: line})
		cur = &out.Devices[len(out.Devices)-1]
		inVersions = false
	}
	err := lines.Each(r, func(raw string) {
		n++
		line := strings.TrimSpace(raw)
		if line == "" {
			inVersions = false
			return
		}
		if strings.HasPrefix(line, "-E- ") || strings.HasPrefix(line, "-W- ") {
			out.Messages = append(out.Messages, line)
			return
		}
		if m := headerRE.FindStringSubmatch(line); m != nil {
			num, _ := strconv.Atoi(m[1])
			start(num, n)
			return
		}
		key, val, hasColon := strings.Cut(line, ":")
		key = strings.TrimSpace(key)
		if hasColon && known(key) {
			if cur == nil || cur.Number == 0 && dup(cur, key) {
				start(0, n)
			}
			field(cur, key, val)
			inVersions = key == "Versions"
			return
		}
		if cur == nil {
			return
		}
		f := strings.Fields(line)
		if len(f) < 2 || !(inVersions && !hasColon || versionNames[f[0]]) {
			return
		}
		v := Version{Line: n}
		switch {
		case len(f) == 2:
			v.Name, v.Current = f[0], na(f[1])
		default:
			v.Name, v.Current, v.Available = strings.Join(f[:len(f)-2], " "), na(f[len(f)-2]), na(f[len(f)-1])
		}
		cur.Versions = append(cur.Versions, v)
	})
	return out, err
}

var keys = map[string]bool{
	"Device Type": true, "Part Number": true, "Description": true, "PSID": true,
	"PCI Device Name": true, "Base GUID": true, "Base MAC": true, "Versions": true, "Status": true,
}

func known(key string) bool { return keys[key] || portRE.MatchString(key) }

// dup reports whether a header-less block already has the key, so the
// key starts the next block.
func dup(d *Device, key string) bool {
	switch key {
	case "Device Type":
		return d.Type != ""
	case "PCI Device Name":
		return d.PCIName != ""
	case "PSID":
		return d.PSID != ""
	}
	return false
}

func field(d *Device, key, val string) {
	v := na(val)
	switch key {
	case "Device Type":
		d.Type = v
	case "Part Number":
		d.PartNumber = v
	case "Description":
		d.Description = v
	case "PSID":
		d.PSID = v
	case "PCI Device Name":
		d.PCIName = v
	case "Base GUID":
		d.BaseGUID = v
	case "Base MAC":
		d.BaseMAC = v
	case "Status":
		d.Status = v
	case "Versions":
	default:
		m := portRE.FindStringSubmatch(key)
		num, _ := strconv.Atoi(m[1])
		var p *Port
		for i := range d.Ports {
			if d.Ports[i].Number == num {
				p = &d.Ports[i]
			}
		}
		if p == nil {
			d.Ports = append(d.Ports, Port{Number: num})
			p = &d.Ports[len(d.Ports)-1]
		}
		if m[2] == "GUID" {
			p.GUID = v
		} else {
			p.MAC = v
		}
	}
}
