package lshw

import (
	"io"
	"regexp"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// Device is one network function lshw describes.
type Device struct {
	BusInfo       string // the PCI address of "bus info: pci@<address>", lower case; empty when not printed
	Netdev        string // the first "logical name" that is an interface, not a /dev path
	Product       string // product, as printed
	Driver        string // configuration driver=
	DriverVersion string // configuration driverversion=
	Firmware      string // configuration firmware=, as printed (mlx5_core appends the PSID in parentheses)
	Link          string // configuration link=: yes or no
	Disabled      bool   // the node's header says DISABLED: lshw saw the interface down
	Line          int    // 1-based line where the block starts
}

var (
	// A node's header in the tree: "*-network", "*-network:1",
	// "*-network DISABLED", "*-pci:1", "*-generic:0 UNCLAIMED".
	reHeader = regexp.MustCompile(`^\*-([a-z]+)(?::\d+)?(?:\s+([A-Z]+))?\s*$`)
	// A row of `lshw -businfo` for a PCI network function: bus info,
	// device, class, description ("pci@0000:01:00.0  enp1s0f0np0  network  MT42822 …").
	// The device column is the node's logical name, blank for a function
	// with none (lshw print.cc printbusinfo: entry.devname =
	// node.getLogicalName(), padded to the column).
	reBusinfoRow = regexp.MustCompile(`^pci@([0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])\s+(?:(\S+)\s+)?network\b`)
	rePCI        = regexp.MustCompile(`^pci@([0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])$`)
)

// Parse reads every network function in r. A block is a node of lshw's
// tree, from its "*-class" header to the next header, or, in a grep of
// the output that cut the headers away, the lines between grep's "--"
// separators. Nodes of other classes (bridges, storage) are skipped; a
// block with no header is kept when it names a PCI function. Indentation,
// prompts, quote marks and lines no key names are ignored.
func Parse(r io.Reader) ([]Device, error) {
	var out []Device
	var cur *Device
	class := "" // the current node's class; "" when the block had no header
	n := 0
	flush := func() {
		if cur != nil && (class == "" || class == "network") && cur.BusInfo != "" {
			out = append(out, *cur)
		}
		cur = nil
	}
	start := func(c string) {
		flush()
		class = c
		cur = &Device{Line: n}
	}
	err := lines.Each(r, func(line string) {
		n++
		trim := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), ">|"))
		if m := reBusinfoRow.FindStringSubmatch(trim); m != nil {
			flush()
			out = append(out, Device{BusInfo: strings.ToLower(m[1]), Netdev: m[2], Line: n})
			class = ""
			return
		}
		if m := reHeader.FindStringSubmatch(trim); m != nil {
			start(m[1])
			cur.Disabled = m[2] == "DISABLED"
			return
		}
		if trim == "--" {
			flush()
			class = ""
			return
		}
		key, val, ok := strings.Cut(trim, ": ")
		if !ok {
			return
		}
		val = strings.TrimSpace(val)
		if cur == nil {
			start("")
		}
		switch strings.TrimSpace(key) {
		case "bus info":
			if m := rePCI.FindStringSubmatch(val); m != nil {
				cur.BusInfo = strings.ToLower(m[1])
			}
		case "logical name":
			if cur.Netdev == "" && !strings.HasPrefix(val, "/") {
				cur.Netdev = val
			}
		case "product":
			cur.Product = val
		case "configuration":
			for k, v := range Config(val) {
				switch k {
				case "driver":
					cur.Driver = v
				case "driverversion":
					cur.DriverVersion = v
				case "firmware":
					cur.Firmware = v
				case "link":
					cur.Link = v
				}
			}
		}
	})
	flush()
	return shared(out), err
}

// shared clears a netdev that several functions are given: an interface
// name is one interface's on the host lshw read, so a device column
// repeated on several rows ("????" on four E822 functions that ice left
// without one) names none of them.
func shared(ds []Device) []Device {
	funcs := map[string]map[string]bool{}
	for _, d := range ds {
		if d.Netdev != "" {
			if funcs[d.Netdev] == nil {
				funcs[d.Netdev] = map[string]bool{}
			}
			funcs[d.Netdev][d.BusInfo] = true
		}
	}
	for i := range ds {
		if len(funcs[ds[i].Netdev]) > 1 {
			ds[i].Netdev = ""
		}
	}
	return ds
}

// Config splits a configuration line ("driver=mlx5_core firmware=20.27.4006
// (NVD0000000001) link=yes") into its settings. A value runs to the next
// word holding "=": lshw prints values with spaces unquoted.
func Config(s string) map[string]string {
	out := map[string]string{}
	key := ""
	for _, w := range strings.Fields(s) {
		if k, v, ok := strings.Cut(w, "="); ok && k != "" {
			key = k
			out[key] = v
			continue
		}
		if key != "" {
			out[key] += " " + w
		}
	}
	return out
}
