package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/record"
)

// summary is the one line kbcollect prints on standard error after a
// record: what it found, and which tools of source.Tools that a
// distribution package provides were absent, with those packages.
func summary(h *record.Host) string { return summaryOf(h, false) }

// summaryOf is summary; for a paste it asks for the missing outputs, and
// for an sosreport or copied tree it only names them: packages are worth
// naming only where kbcollect ran the tools (live, or a capture).
func summaryOf(h *record.Host, pasted bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "kbcollect: %s, %s", count(len(h.Devices), "RDMA device"), count(len(h.Adapters), "adapter"))
	absent, pkgs := absentTools(h)
	switch {
	case len(absent) > 0 && pasted:
		fmt.Fprintf(&b, "; not in the paste: %s (ask for their output for a fuller record)", strings.Join(absent, ", "))
	case len(absent) > 0 && h.Host.SourceKind != record.KindLive && h.Host.SourceKind != record.KindCapture:
		// Someone else's sosreport or copied tree: installing packages
		// here changes nothing.
		fmt.Fprintf(&b, "; not in the snapshot: %s", strings.Join(absent, ", "))
	case len(absent) > 0:
		fmt.Fprintf(&b, "; absent: %s (install %s for a fuller record)", strings.Join(absent, ", "), strings.Join(pkgs, ", "))
	}
	return b.String()
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// absentTools names the tools Host.AbsentTools lists, and their packages
// once each.
func absentTools(h *record.Host) (tools, pkgs []string) {
	for _, t := range h.AbsentTools() {
		tools = append(tools, t.Name)
		if !slices.Contains(pkgs, t.Package) {
			pkgs = append(pkgs, t.Package)
		}
	}
	return tools, pkgs
}
