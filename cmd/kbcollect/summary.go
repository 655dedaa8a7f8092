package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/source"
)

// summary is the one line kbcollect prints on standard error after a
// record: what it found, and which tools of source.Tools that a
// distribution package provides were absent, with those packages.
func summary(h *record.Host) string {
	var b strings.Builder
	fmt.Fprintf(&b, "kbcollect: %s, %s", count(len(h.Devices), "RDMA device"), count(len(h.Adapters), "adapter"))
	absent, pkgs := absentTools(h)
	if len(absent) > 0 {
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

// absentTools lists, in table order, the rows with a package whose every
// recorded source is absent (a failed tool is installed; a row with no
// source recorded was not needed), and their packages once each.
func absentTools(h *record.Host) (tools, pkgs []string) {
	seen, ok := map[string]bool{}, map[string]bool{}
	for _, s := range h.Sources {
		t, found := source.Of(source.ID(s.ID))
		if !found {
			continue
		}
		seen[t.Name] = true
		if s.Status != record.StatusAbsent {
			ok[t.Name] = true
		}
	}
	for _, t := range source.Tools {
		if t.Package == "" || !seen[t.Name] || ok[t.Name] {
			continue
		}
		tools = append(tools, t.Name)
		if !slices.Contains(pkgs, t.Package) {
			pkgs = append(pkgs, t.Package)
		}
	}
	return tools, pkgs
}
