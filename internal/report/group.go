package report

import (
	"github.com/rocekb/rocekb/internal/diagnose"
)

// findingGroup is one finding, or the same finding on every function of
// one card that has it (diagnose.SameOnCard).
type findingGroup struct {
	Findings []diagnose.Finding
}

func (g findingGroup) First() diagnose.Finding { return g.Findings[0] }

// groupFindings groups findings (in their order) as diagnose.SameOnCard does.
func groupFindings(fs []diagnose.Finding) []findingGroup {
	var out []findingGroup
	for _, g := range diagnose.SameOnCard(fs) {
		out = append(out, findingGroup{Findings: g})
	}
	return out
}
