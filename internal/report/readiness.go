package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/rocekb/rocekb/internal/diagnose"
	"github.com/rocekb/rocekb/internal/readiness"
)

// ReadinessSeverity maps a readiness report onto the exit status: a
// blocked host is an error, an unknown or one needing action a warning.
func ReadinessSeverity(r readiness.Report) diagnose.Severity {
	switch {
	case r.Totals[readiness.Blocked] > 0:
		return diagnose.Error
	case r.Totals[readiness.Unknown]+r.Totals[readiness.NeedsAction] > 0:
		return diagnose.Warning
	}
	return ""
}

// status is the status word, padded to a column unless it ends the line.
func (p painter) status(s readiness.Status, pad bool) string {
	word := s.Label()
	if pad {
		word = fmt.Sprintf("%-12s", word)
	}
	switch s {
	case readiness.Ready:
		return p.paint("32", word)
	case readiness.NeedsAction:
		return p.paint("33", word)
	case readiness.Blocked:
		return p.paint("1;31", word)
	}
	return p.paint("35", word)
}

// writeReadiness writes each host worst first with what blocks it, what
// must be done, or what is unknown, then the totals.
func writeReadiness(w io.Writer, p painter, r readiness.Report) {
	fmt.Fprintf(w, "target: %s\n", p.bold(r.Target.Label()))
	for _, h := range r.Hosts {
		fmt.Fprintf(w, "%s %s", p.status(h.Status, true), p.bold(h.Host))
		if h.File != "" && h.File != h.Host {
			fmt.Fprintf(w, "  (%s)", h.File)
		}
		fmt.Fprintln(w)
		if h.Reason != "" {
			fmt.Fprintf(w, "    %s\n", h.Reason)
		}
		for _, a := range h.Adapters {
			head := a.Name + " " + a.PCI
			if len(a.OtherPCI) > 0 {
				head += " (also " + strings.Join(a.OtherPCI, ", ") + ")"
			}
			if a.Firmware != "" {
				head += "  firmware " + a.Firmware
			}
			head += "  now " + a.CurrentStack
			fmt.Fprintf(w, "    %s  %s\n", head, p.status(a.Status, false))
			for _, s := range a.Reasons {
				fmt.Fprintf(w, "      - %s\n", s)
			}
			for _, s := range a.Actions {
				fmt.Fprintf(w, "      → %s\n", s)
			}
		}
	}
	var parts []string
	for _, s := range readiness.Statuses {
		parts = append(parts, fmt.Sprintf("%d %s", r.Totals[s], s.Label()))
	}
	fmt.Fprintf(w, "\n%s against %s: %s\n", plural(len(r.Hosts), "host"), r.Target.Label(), strings.Join(parts, ", "))
}
