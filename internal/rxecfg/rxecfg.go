package rxecfg

import (
	"io"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// Interface is one row of the rxe_cfg table: an Ethernet interface and,
// when one is bound to it, its rdma_rxe device.
type Interface struct {
	Name     string // Name: the netdev
	Link     string // Link: "yes" or "no"; empty when not printed
	Driver   string // Driver: the netdev's driver (from ethtool -i)
	Speed    string // Speed, as printed
	NMTU     string // NMTU: the netdev MTU
	IPv4Addr string // IPv4_addr
	RDEV     string // RDEV: the rxe device on this netdev, e.g. "rxe0"
	RMTU     string // RMTU: the rxe active MTU as printed, e.g. "1024  (3)"
	Line     int    // 1-based line of the row
}

// Up reports the Link column: true for "yes", false for "no", nil when
// the cell is empty.
func (i Interface) Up() *bool {
	var b bool
	switch i.Link {
	case "yes":
		b = true
	case "no":
	default:
		return nil
	}
	return &b
}

// Message kinds.
const (
	// PerlWarning: "Use of uninitialized value … at /bin/rxe_cfg line N."
	PerlWarning = "perl-warning"
	// ConfigfsError: a failed mkdir or write under
	// /sys/kernel/config/rdma_cm, so the RDMA CM default RoCE mode was
	// not set for the rxe device.
	ConfigfsError = "configfs-error"
	// WriteError: a shell echo into an rdma_rxe module parameter failed
	// ("sh: echo: I/O error" from dash, "sh: line 0: echo: write error:
	// Invalid argument" from bash): the interface name written to
	// /sys/module/rdma_rxe/parameters/add (rxe_cfg add, and rxe_cfg start
	// for every interface in its persistence file /var/rxe/rxe) or the
	// device written to …/remove was refused, so no rxe device was added
	// (or removed) by that write. It is not a RoCE mode write: every
	// rxe_cfg wrote default_roce_mode through tee, whose errors name the
	// configfs path (ConfigfsError). Sources: rxe_add and do_start in
	// SoftRoCE/librxe-dev's rxe_cfg and rdma-core's
	// providers/rxe/rxe_cfg.in; dash prints "<command>: I/O error" for a
	// builtin whose output failed, whatever the errno (evalbltin, dash
	// src/eval.c).
	WriteError = "write-error"
	// ModuleNotLoaded: "rdma_rxe module not loaded".
	ModuleNotLoaded = "module-not-loaded"
	// Other: any other line outside the table, e.g. "IBOE V2", the mode
	// tee echoed while writing default_roce_mode.
	Other = "other"
)

// Message is one line printed outside the table.
type Message struct {
	Kind string
	Text string // trimmed
	Line int    // 1-based
}

// Output is what Parse found.
type Output struct {
	// Interfaces are the table rows; when the output holds several tables
	// (start, then status), a later row for the same Name replaces an
	// earlier one.
	Interfaces []Interface
	Messages   []Message
}

// ConfigfsFailed reports whether a configfs error was printed: the RDMA
// CM default RoCE mode of an rxe device was not set.
func (o Output) ConfigfsFailed() bool {
	for _, m := range o.Messages {
		if m.Kind == ConfigfsError {
			return true
		}
	}
	return false
}

// MaxMessages bounds Output.Messages.
const MaxMessages = 200

type column struct {
	name  string
	start int
}

// Parse reads rxe_cfg output. Table cells can be empty, so each cell is
// taken by where it starts against the header's column offsets, not by
// counting fields.
func Parse(r io.Reader) (Output, error) {
	var out Output
	var cols []column
	n := 0
	err := lines.Each(r, func(raw string) {
		n++
		line := strings.TrimRight(raw, " \t")
		trim := strings.TrimSpace(line)
		if trim == "" {
			cols = nil
			return
		}
		if c := header(line); c != nil {
			cols = c
			return
		}
		// rxe_cfg indents its rows as its header; a paste that dropped
		// the indent (markdown, a mail) dropped it from both, so a row
		// is a line indented at least as far as the header was.
		if cols != nil && indent(line) >= cols[0].start {
			if row, ok := parseRow(line, cols); ok {
				row.Line = n
				out.add(row)
				return
			}
		}
		cols = nil
		if k := kind(trim); k != "" && len(out.Messages) < MaxMessages {
			out.Messages = append(out.Messages, Message{Kind: k, Text: trim, Line: n})
		}
	})
	return out, err
}

func indent(line string) int {
	return len(line) - len(strings.TrimLeft(line, " \t"))
}

func (o *Output) add(row Interface) {
	for i := range o.Interfaces {
		if o.Interfaces[i].Name == row.Name {
			o.Interfaces[i] = row
			return
		}
	}
	o.Interfaces = append(o.Interfaces, row)
}

// header recognises the table header "  Name  Link  Driver … RMTU".
func header(line string) []column {
	f := fields(line)
	if len(f) < 3 || f[0].name != "Name" || f[1].name != "Link" || f[2].name != "Driver" {
		return nil
	}
	return f
}

// fields splits a line into words with their byte offsets.
func fields(line string) []column {
	var out []column
	start := -1
	for i := 0; i <= len(line); i++ {
		if i == len(line) || line[i] == ' ' || line[i] == '\t' {
			if start >= 0 {
				out = append(out, column{line[start:i], start})
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return out
}

// parseRow assigns each word of a row to the header column whose span
// holds the word's start; the last column takes the rest of the line.
func parseRow(line string, cols []column) (Interface, bool) {
	cells := map[string]string{}
	lastAt := -1
	for _, w := range fields(line) {
		c := 0
		for i, col := range cols {
			if w.start >= col.start {
				c = i
			}
		}
		name := cols[c].name
		if c == len(cols)-1 && lastAt < 0 {
			lastAt = w.start
		}
		if cells[name] != "" {
			cells[name] += " "
		}
		cells[name] += w.name
	}
	row := Interface{
		Name: cells["Name"], Link: cells["Link"], Driver: cells["Driver"], Speed: cells["Speed"],
		NMTU: cells["NMTU"], IPv4Addr: cells["IPv4_addr"], RDEV: cells["RDEV"], RMTU: cells["RMTU"],
	}
	if cols[len(cols)-1].name == "RMTU" && lastAt >= 0 {
		row.RMTU = strings.TrimSpace(line[lastAt:])
	}
	if row.Name == "" || strings.ContainsAny(row.Name, "#$@:`*") {
		return Interface{}, false
	}
	return row, true
}

// kind classifies a line outside the table; "" skips it (shell prompts
// and prose).
func kind(line string) string {
	switch {
	case strings.HasPrefix(line, "Use of uninitialized value") || strings.Contains(line, "rxe_cfg line "):
		return PerlWarning
	case strings.Contains(line, "/sys/kernel/config/rdma_cm") || strings.Contains(line, "default_roce_mode"):
		return ConfigfsError
	case strings.HasPrefix(line, "sh: ") && strings.Contains(line, "error"):
		return WriteError
	case strings.Contains(line, "rdma_rxe module not loaded") || strings.Contains(line, "rxe module not loaded"):
		return ModuleNotLoaded
	case line == "IBOE V2" || line == "RoCE v2" || line == "IB/RoCE v1":
		return Other
	}
	return ""
}
