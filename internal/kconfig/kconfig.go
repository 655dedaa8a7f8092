package kconfig

import (
	"bufio"
	"io"
	"regexp"
	"strings"
)

// Option is one line of a configuration.
type Option struct {
	Name  string // CONFIG_INFINIBAND_BNXT_RE
	Value string // y, m, n for "# CONFIG_X is not set", else the value as written (0x10, "string")
	Line  int    // 1-based line of the input
}

// Config is the options of one configuration file, in file order.
type Config struct {
	// File is the file grep named the lines with ("/boot/config-4.15.0-45-generic"
	// of "/boot/config-4.15.0-45-generic:CONFIG_INFINIBAND=m"), "" when
	// the lines had no such prefix.
	File string
	// Header is the "Linux/<arch> <version> Kernel Configuration" comment
	// make writes at the top, when present.
	Header  string
	Options []Option
}

// Values of a tristate option.
const (
	BuiltIn = "y" // built into the kernel image: no module to load, never in lsmod
	Module  = "m" // built as a loadable module
	Off     = "n" // "# CONFIG_X is not set" (or =n): not built
)

var (
	// A grep of several files prefixes each line with "<file>:"; grep -n
	// puts the line number before it ("12:"). The option follows.
	setRE    = regexp.MustCompile(`^(?:(\S*?):)?(?:\d+[:-])?(CONFIG_[A-Za-z0-9_]+)=(.*)$`)
	notSetRE = regexp.MustCompile(`^(?:(\S*?):)?(?:\d+[:-])?#\s*(CONFIG_[A-Za-z0-9_]+) is not set\s*$`)
	headerRE = regexp.MustCompile(`^(?:(\S*?):)?#\s*(Linux/\S+ \S+ Kernel Configuration)\s*$`)
)

// Parse reads configuration lines, one Config per file a grep named (in
// the order first seen) or one for unprefixed lines. Other lines (a
// prompt, comments, a half line where a paste was cut) are skipped. A
// later line for the same option replaces the earlier, as scripts/kconfig
// reads a .config.
func Parse(r io.Reader) ([]Config, error) {
	var out []Config
	index := map[string]int{} // file → out index
	seen := map[string]int{}  // file + "\x00" + name → option index
	at := func(file string) *Config {
		i, ok := index[file]
		if !ok {
			i = len(out)
			index[file] = i
			out = append(out, Config{File: file})
		}
		return &out[i]
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(strings.TrimSuffix(sc.Text(), "\r"))
		var file, name, value string
		if m := setRE.FindStringSubmatch(line); m != nil {
			file, name, value = m[1], m[2], strings.TrimSpace(m[3])
			if value == "" {
				continue // cut after the '=': no value to read
			}
		} else if m := notSetRE.FindStringSubmatch(line); m != nil {
			file, name, value = m[1], m[2], Off
		} else if m := headerRE.FindStringSubmatch(line); m != nil {
			at(m[1]).Header = m[2]
			continue
		} else {
			continue
		}
		if strings.Trim(file, "0123456789") == "" {
			file = "" // grep -n's line number, not a file name
		}
		c := at(file)
		key := file + "\x00" + name
		if i, ok := seen[key]; ok {
			c.Options[i] = Option{Name: name, Value: value, Line: n}
			continue
		}
		seen[key] = len(c.Options)
		c.Options = append(c.Options, Option{Name: name, Value: value, Line: n})
	}
	return out, sc.Err()
}

// Get returns the option named name ("CONFIG_X"), if the lines set it or
// said it is not set.
func (c Config) Get(name string) (Option, bool) {
	for _, o := range c.Options {
		if o.Name == name {
			return o, true
		}
	}
	return Option{}, false
}

// Release is the kernel release a /boot/config-<release> file is for,
// from its name; "" for another name.
func Release(file string) string {
	i := strings.LastIndex(file, "/")
	base := file[i+1:]
	rel, ok := strings.CutPrefix(base, "config-")
	if !ok {
		return ""
	}
	return rel
}

// Text spells an option as a configuration file does:
// "# CONFIG_X is not set" for Off, else "CONFIG_X=<value>".
func (o Option) Text() string {
	if o.Value == Off {
		return "# " + o.Name + " is not set"
	}
	return o.Name + "=" + o.Value
}

// Relevant reports whether a record keeps an option: those of the RDMA
// subsystem and its drivers (CONFIG_INFINIBAND*, CONFIG_RDMA_*,
// CONFIG_MLX4_INFINIBAND …) and of the Ethernet drivers RDMA providers sit
// on, with the vendor menus that gate them. The rest of a configuration
// (thousands of lines) says nothing about RDMA.
func Relevant(name string) bool {
	for _, p := range relevantPrefixes {
		if name == p || strings.HasPrefix(name, p+"_") {
			return true
		}
	}
	return false
}

// relevantPrefixes are option names kept with every option that extends
// them by "_…": the RDMA core and providers, and the Ethernet drivers of
// matrix/drivers.toml's eth_drivers with their vendor menus.
var relevantPrefixes = []string{
	"CONFIG_INFINIBAND", "CONFIG_RDMA", "CONFIG_MLX4", "CONFIG_MLX5", "CONFIG_MLXFW",
	"CONFIG_BNXT", "CONFIG_ICE", "CONFIG_I40E", "CONFIG_QED", "CONFIG_QEDE", "CONFIG_HNS3", "CONFIG_HNS",
	"CONFIG_MICROSOFT_MANA", "CONFIG_MANA_INFINIBAND", "CONFIG_BE2NET", "CONFIG_ENIC", "CONFIG_VMXNET3",
	"CONFIG_CHELSIO_T4", "CONFIG_IONIC", "CONFIG_ENA_ETHERNET",
	"CONFIG_NET_VENDOR_MELLANOX", "CONFIG_NET_VENDOR_BROADCOM", "CONFIG_NET_VENDOR_INTEL",
	"CONFIG_NET_VENDOR_QLOGIC", "CONFIG_NET_VENDOR_HUAWEI", "CONFIG_NET_VENDOR_HISILICON",
	"CONFIG_NET_VENDOR_MICROSOFT", "CONFIG_NET_VENDOR_EMULEX", "CONFIG_NET_VENDOR_CISCO",
	"CONFIG_NET_VENDOR_CHELSIO", "CONFIG_NET_VENDOR_PENSANDO", "CONFIG_NET_VENDOR_AMAZON",
}
