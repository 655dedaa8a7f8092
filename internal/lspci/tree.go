package lspci

import (
	"regexp"
	"strings"
)

// treeTokenRE is one mark of an "lspci -t" diagram (pciutils ls-tree.c):
// a host bridge's bus "[0000:80]" (old pciutils, with no domains: "[80]"),
// a bridge's secondary and subordinate buses "[82]" or "[54-7b]", or a
// function "04.0". Between marks there are only the drawing's characters.
var treeTokenRE = regexp.MustCompile(`^\[(?:([0-9a-fA-F]{4,8}):)?([0-9a-fA-F]{2})(?:-[0-9a-fA-F]{2})?\]|^([0-9a-fA-F]{2}\.[0-7])`)

// treeBus is a bus of the diagram: its domain and number.
type treeBus struct{ domain, bus string }

// parseTree reads the diagram "lspci -t" prints, with the names -v adds
// and the ids -nn adds to them. Each function's address is the bus its
// branch hangs from: a bus mark to its left on the same line ("-[82]--+-00.0"),
// else the bus of the function whose branch is drawn at the same column on a
// line above ("|            +-00.1"), as ls-tree.c draws a bus's functions
// one below the other. A function whose bus the text does not show (an
// excerpt starting mid-tree) is left out. The diagram prints no class, so
// a function's Class and ClassID are empty.
func parseTree(lines []string) []Device {
	var out []Device
	busAt := map[int]treeBus{} // the bus whose functions branch at a column
	for _, raw := range lines {
		line := strings.TrimRight(unquoteAll(raw), " \t\r")
		var (
			lineBus *treeBus // the bus mark last read on this line
			last    *treeBus // the bus of the function last read on this line
		)
		i := 0
		for i < len(line) {
			c := line[i]
			if strings.IndexByte(" |+-\\`", c) >= 0 {
				i++
				continue
			}
			m := treeTokenRE.FindStringSubmatchIndex(line[i:])
			if m == nil {
				break // a comment or prose: the line's diagram ends here
			}
			tok := line[i+m[0] : i+m[1]]
			if m[6] < 0 { // a bus mark
				domain, bus := "", strings.ToLower(line[i+m[4]:i+m[5]])
				if m[2] >= 0 {
					domain = strings.ToLower(line[i+m[2] : i+m[3]])
				}
				switch {
				case domain != "":
				case i >= 1 && last != nil && line[i-1] == '-' && i >= 6 && treeTokenRE.MatchString(line[i-5:i-1]):
					// A bridge's buses, right after the bridge: its domain.
					domain = last.domain
				case i >= 1 && last == nil:
					// A host bridge's bus in a diagram of old pciutils,
					// which knew no domains: lspci prints them as 0000.
					domain = "0000"
				}
				b := treeBus{domain, bus}
				if domain == "" {
					lineBus = nil
				} else {
					lineBus = &b
				}
				i += len(tok)
				continue
			}
			// A function: its branch is drawn two columns to its left.
			col := i - 2
			var b *treeBus
			if lineBus != nil {
				b = lineBus
				busAt[col] = *b
			} else if prev, ok := busAt[col]; ok && (i < 2 || line[i-2] == '+' || line[i-2] == '\\') {
				b = &prev
			}
			lineBus = nil
			i += len(tok)
			name := ""
			if rest := line[i:]; strings.HasPrefix(rest, "  ") || strings.HasPrefix(rest, "\t") {
				name = strings.TrimSpace(rest)
				i = len(line)
			}
			if b == nil {
				last = nil
				continue
			}
			last = b
			d := Device{Slot: b.domain + ":" + b.bus + ":" + strings.ToLower(tok)}
			if m := idsRE.FindStringSubmatch(name); m != nil {
				d.Vendor, d.Device = strings.ToLower(m[1]), strings.ToLower(m[2])
				name = strings.TrimSpace(name[:len(name)-len(m[0])])
			}
			if name != "" || d.Vendor != "" {
				d.Name = name
				out = append(out, d)
			}
		}
	}
	return out
}

// unquoteAll removes every mail quote mark (">> ", "> > ") from the start
// of a line.
func unquoteAll(line string) string {
	for {
		t := strings.TrimLeft(line, " ")
		rest, ok := strings.CutPrefix(t, ">")
		if !ok {
			return line
		}
		line = strings.TrimPrefix(rest, " ")
	}
}
