package diagnose

import (
	"slices"

	"github.com/rocekb/rocekb/internal/record"
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

// snapshotOf lists the record's problems and the tools it has no output
// of (Host.AbsentTools).
func snapshotOf(h *record.Host) Snapshot {
	s := Snapshot{Problems: slices.Clone(h.Problems)}
	for _, t := range h.AbsentTools() {
		s.Absent = append(s.Absent, AbsentTool{Tool: t.Name, Package: t.Package})
	}
	return s
}
