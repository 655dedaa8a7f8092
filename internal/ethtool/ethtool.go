package ethtool

import (
	"io"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// Info is one `ethtool -i` block.
type Info struct {
	Driver              string // driver
	Version             string // version: a driver version, or the kernel release for in-tree drivers
	FirmwareVersion     string // firmware-version, as printed (may carry a PSID in parentheses)
	ExpansionROMVersion string // expansion-rom-version
	BusInfo             string // bus-info: a PCI address for PCI devices, empty for virtual ones
	// NoBusInfo is set when the block has no bus-info line at all: a
	// paste cut short or elided ("..."), so whether the device is virtual
	// is not known, as it is from an empty bus-info.
	NoBusInfo bool
}

// lines.Max bounds one input line; longer lines are cut, never buffered whole.

// Parse reads every `ethtool -i` block in r. A block starts at a "driver:"
// line. Shell prompts, blank lines and unknown keys are skipped, and
// surrounding indentation, trailing spaces and a poster's "# note" after a
// value are ignored, so pasted and quoted output parses too.
func Parse(r io.Reader) ([]Info, error) {
	var out []Info
	var cur *Info
	err := lines.Each(r, func(line string) {
		key, val, ok := strings.Cut(strings.TrimSpace(lines.DropNote(line)), ":")
		if !ok {
			return
		}
		val = strings.TrimSpace(val)
		switch key {
		case "driver":
			out = append(out, Info{Driver: val, NoBusInfo: true})
			cur = &out[len(out)-1]
		case "version":
			if cur != nil {
				cur.Version = val
			}
		case "firmware-version":
			if cur != nil {
				cur.FirmwareVersion = val
			}
		case "expansion-rom-version":
			if cur != nil {
				cur.ExpansionROMVersion = val
			}
		case "bus-info":
			if cur != nil {
				cur.BusInfo, cur.NoBusInfo = val, false
			}
		}
	})
	return out, err
}

// SplitFirmware splits a firmware-version such as "14.23.1020 (MT_2420110034)"
// into the version and the parenthesised PSID that mlx5_core appends.
func SplitFirmware(fw string) (version, psid string) {
	fw = strings.TrimSpace(fw)
	if i := strings.Index(fw, " ("); i >= 0 && strings.HasSuffix(fw, ")") {
		return fw[:i], fw[i+2 : len(fw)-1]
	}
	return fw, ""
}
