package record

import "github.com/rocekb/rocekb/internal/source"

// AbsentTools lists, in source-table order, the tools a distribution
// package provides whose every recorded source is absent: a failed tool is
// installed, and a row with no source recorded was not looked for. The
// kbcollect summary line and the host report both name them.
func (h *Host) AbsentTools() []source.Tool {
	seen, ok := map[string]bool{}, map[string]bool{}
	for _, s := range h.Sources {
		t, found := source.Of(source.ID(s.ID))
		if !found {
			continue
		}
		seen[t.Name] = true
		if s.Status != StatusAbsent {
			ok[t.Name] = true
		}
	}
	var out []source.Tool
	for _, t := range source.Tools {
		if t.Package != "" && seen[t.Name] && !ok[t.Name] {
			out = append(out, t)
		}
	}
	return out
}
