package mlxconfig

import (
	"bufio"
	"io"
	"regexp"
	"strings"
)

// Column names of the "Configurations:" header, as mlxconfig prints them.
const (
	ColDefault  = "Default"
	ColCurrent  = "Current"
	ColNextBoot = "Next Boot"
)

// Output is what one query gave.
type Output struct {
	Devices []Device
}

// Device is one "Device #N:" block, or the parameters of a paste that
// lost the block's header (Number 0, no Device).
type Device struct {
	Number      int      // N of "Device #N:"; 0 when the paste lost it
	Line        int      // 1-based line of the header, or of the first key or parameter
	Type        string   // "Device type:", e.g. ConnectX7
	Name        string   // "Name:", the part number, e.g. MCX631102AC-ADA_Ax; empty when N/A
	Description string   // "Description:"; empty when N/A
	Device      string   // "Device:": a PCI address (0000:05:00.1, 3b:00.0) or an mst device (/dev/mst/mt4129_pciconf0)
	Columns     []string // the header's columns, in order; nil when the paste lost it
	Params      []Param
}

// Param is one parameter line: its name and its values under the header's
// columns. A value is as printed, e.g. "IB(1)", "True(1)", "0",
// "Array[0..7]".
type Param struct {
	Name     string
	Default  string // the Default column (-e)
	Current  string // the Current column
	NextBoot string // the Next Boot column: what the device loads after a reset
	// Values are the values in the order printed; without a header
	// they are all a paste gives, their columns unknown.
	Values []string
	// Modified is mlxconfig's "*" before the name: the value was set,
	// not left at the device default.
	Modified bool
	Line     int // 1-based line in the input
}

// Value returns the value the device runs with when known: Current, else
// a lone Next Boot column (mlxconfig q without -e prints only it, and it
// equals the running value unless a change is pending).
func (p Param) Value() (v, column string) {
	if p.Current != "" {
		return p.Current, ColCurrent
	}
	if p.NextBoot != "" {
		return p.NextBoot, ColNextBoot
	}
	return "", ""
}

var (
	reDevice = regexp.MustCompile(`^Device #(\d+):\s*$`)
	reKey    = regexp.MustCompile(`^(Device type|Name|Description|Device):\s*(.*?)\s*$`)
	reHeader = regexp.MustCompile(`^Configurations:\s*(.*?)\s*$`)
	// A parameter: indented, an optional "*" (modified) in the margin, an
	// upper-case name with an underscore, then values split by runs of
	// spaces. Names hold lower case too (EXP_ROM_UEFI_x86_ENABLE); the
	// underscore keeps other indented text ("    MST PCI module …") out.
	reParam = regexp.MustCompile(`^(\*)?\s+([A-Z][A-Za-z0-9]*_[A-Za-z0-9_]*[A-Z0-9])(?:\s+(\S.*?))?\s*$`)
	reCols  = regexp.MustCompile(`\s{2,}|\t+`)
)

// Parse reads a query. Text it does not know is skipped; a half line at
// the end is kept as far as it goes.
func Parse(r io.Reader) (Output, error) {
	var out Output
	var cur *Device
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	n := 0
	start := func(line int) *Device {
		out.Devices = append(out.Devices, Device{Line: line})
		return &out.Devices[len(out.Devices)-1]
	}
	for sc.Scan() {
		n++
		raw := strings.TrimRight(sc.Text(), "\r")
		line := strings.TrimSpace(raw)
		if m := reDevice.FindStringSubmatch(line); m != nil {
			cur = start(n)
			cur.Number = atoi(m[1])
			continue
		}
		if m := reKey.FindStringSubmatch(line); m != nil && raw == strings.TrimLeft(raw, " \t") {
			if cur == nil || len(cur.Params) > 0 {
				cur = start(n)
			}
			v := m[2]
			if strings.EqualFold(v, "N/A") {
				v = ""
			}
			switch m[1] {
			case "Device type":
				cur.Type = v
			case "Name":
				cur.Name = v
			case "Description":
				cur.Description = v
			case "Device":
				cur.Device = v
			}
			continue
		}
		if m := reHeader.FindStringSubmatch(line); m != nil {
			if cur == nil || len(cur.Params) > 0 {
				cur = start(n)
			}
			cur.Columns = columns(m[1])
			continue
		}
		m := reParam.FindStringSubmatch(raw)
		if m == nil {
			continue
		}
		if cur == nil {
			cur = start(n)
		}
		p := Param{Name: m[2], Modified: m[1] == "*", Line: n}
		// Values are single tokens ("IB(1)", "Array[0..7]"); a value that
		// fills its column is followed by one space only
		// ("DEVICE_DEFAULT(0) DEVICE_DEFAULT(0)").
		p.Values = strings.Fields(m[3])
		if len(p.Values) == len(cur.Columns) {
			for i, c := range cur.Columns {
				switch c {
				case ColDefault:
					p.Default = p.Values[i]
				case ColCurrent:
					p.Current = p.Values[i]
				case ColNextBoot:
					p.NextBoot = p.Values[i]
				}
			}
		}
		cur.Params = append(cur.Params, p)
	}
	return out, sc.Err()
}

// columns splits the header's tail into its column names: "Next Boot" is
// one name, so names are split on runs of spaces.
func columns(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	for _, f := range reCols.Split(s, -1) {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' || n > 1<<20 {
			return n
		}
		n = n*10 + int(c-'0')
	}
	return n
}
