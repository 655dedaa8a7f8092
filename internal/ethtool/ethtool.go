package ethtool

import (
	"io"
	"regexp"
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
	// Netdev is the interface a line right before the block names, as a
	// shell loop over interfaces prints one ("----- enp125s0f0 -----",
	// "===== ibp1s0 =====", "eth0:"); empty when there is none.
	Netdev string
}

// lines.Max bounds one input line; longer lines are cut, never buffered whole.

// Parse reads every `ethtool -i` block in r. A block starts at a "driver:"
// line. Shell prompts, blank lines and unknown keys are skipped, and
// surrounding indentation, trailing spaces and a poster's note after a
// value ("# …", "// …", "<--- …", lines.DropNote) are ignored, so pasted and
// quoted output parses too.
//
// A line right before a block that names nothing but an interface, as a
// loop over interfaces echoes it, names the block's netdev (Info.Netdev).
func Parse(r io.Reader) ([]Info, error) {
	var out []Info
	var cur *Info
	banner := "" // the netdev the line before names, if it is a banner
	err := lines.Each(r, func(line string) {
		trim := strings.TrimSpace(lines.DropNote(line))
		name := banner
		banner = Banner(trim)
		key, val, ok := strings.Cut(trim, ":")
		if !ok {
			return
		}
		val = strings.TrimSpace(val)
		switch key {
		case "driver":
			out = append(out, Info{Driver: driverName(val), NoBusInfo: true, Netdev: name})
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

// bannerRE is a line that names one interface between decorations: a
// loop's echo ("----- eth0 -----", "===== ibp1s0 =====", "### ens1f0",
// "[eth0]", "eth0:") or the name alone. A name is at most 15 characters
// (IFNAMSIZ less its NUL), and one with no digit is taken for a word
// ("Output:", "done"), not an interface.
var bannerRE = regexp.MustCompile(`^[-=#*\[<> ]*([A-Za-z][\w.@-]{0,14})[-=#*\]<>: ]*$`)

// Banner is the interface a banner line names, or "". An ethtool -i
// key with no value ("expansion-rom-version:") is none.
func Banner(line string) string {
	m := bannerRE.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil || keys[m[1]] || !strings.ContainsAny(m[1], "0123456789") {
		return ""
	}
	return m[1]
}

// keys are the keys ethtool -i prints.
var keys = map[string]bool{
	"driver": true, "version": true, "firmware-version": true, "expansion-rom-version": true, "bus-info": true,
	"supports-statistics": true, "supports-test": true, "supports-eeprom-access": true,
	"supports-register-dump": true, "supports-priv-flags": true,
}

// driverName is the module an ethtool -i driver line names. mlx5_core's
// IPoIB netdevs print the module with the upper-layer protocol in
// brackets, "mlx5_core[ib_ipoib]" (mlx5i_get_drvinfo in Linux's
// drivers/net/ethernet/mellanox/mlx5/core/ipoib/ethtool.c: KBUILD_MODNAME
// "[ib_ipoib]"); the PCI function's driver is the module before them.
func driverName(val string) string {
	if i := strings.IndexByte(val, '['); i > 0 && strings.HasSuffix(val, "]") {
		return strings.TrimSpace(val[:i])
	}
	return val
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
