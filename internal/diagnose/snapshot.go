package diagnose

import (
	"slices"

	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/source"
)

// Snapshot is what was wrong with the snapshot itself, for the host report
// (kbgen check and the host page): the collector's problems (a truncated
// file, a cap hit, error lines a tool printed) and the tools of the source
// table none of whose sources the snapshot held.
type Snapshot struct {
	Problems []record.Problem `json:"problems,omitempty"`
	Absent   []AbsentTool     `json:"absent_tools,omitempty"`
}

// AbsentTool is a tool (a row of the source table) the snapshot has no
// output of, and the distribution package that installs it.
type AbsentTool struct {
	Tool    string `json:"tool"`
	Package string `json:"package,omitempty"`
}

// Empty reports whether nothing was wrong with the snapshot.
func (s Snapshot) Empty() bool { return len(s.Problems) == 0 && len(s.Absent) == 0 }

// snapshotOf lists the record's problems and, in source-table order, the
// tools with a package whose every recorded source is absent (a failed
// tool is installed; a row with no source recorded was not looked for).
// kbcollect's summary line names the same tools.
func snapshotOf(h *record.Host) Snapshot {
	s := Snapshot{Problems: slices.Clone(h.Problems)}
	seen, ok := map[string]bool{}, map[string]bool{}
	for _, src := range h.Sources {
		t, found := source.Of(source.ID(src.ID))
		if !found {
			continue
		}
		seen[t.Name] = true
		if src.Status != record.StatusAbsent {
			ok[t.Name] = true
		}
	}
	for _, t := range source.Tools {
		if t.Package == "" || !seen[t.Name] || ok[t.Name] {
			continue
		}
		s.Absent = append(s.Absent, AbsentTool{Tool: t.Name, Package: t.Package})
	}
	return s
}
