package report

import (
	"strings"

	"github.com/rocekb/rocekb/internal/diagnose"
)

// findingGroup is one finding, or the same finding on every function of
// one card that has it: same check and severity, same message once the
// function's own address is taken out, functions of one PCI slot.
type findingGroup struct {
	Findings []diagnose.Finding
}

func (g findingGroup) First() diagnose.Finding { return g.Findings[0] }

// groupKey is what two findings on functions of one card share when they
// are the same finding; "" for findings not on a PCI function.
func groupKey(f diagnose.Finding) string {
	a := f.Adapter
	if len(a) < 12 || a[len(a)-2] != '.' {
		return ""
	}
	slot := a[:len(a)-2]
	msg := strings.ReplaceAll(f.Message, a, "<fn>")
	subj := strings.ReplaceAll(f.Subject, a, "<fn>")
	if subj == f.Subject && f.Subject != "host" {
		// subjects that are not the function itself (devices, ports)
		// differ by name; the message minus the subject must agree
		msg = strings.ReplaceAll(msg, f.Subject, "<subject>")
		subj = "<subject>"
	}
	return f.Check + "|" + string(f.Severity) + "|" + slot + "|" + subj + "|" + msg
}

// groupFindings groups findings (in their order) as findingGroup says;
// a group keeps the position of its first finding.
func groupFindings(fs []diagnose.Finding) []findingGroup {
	var out []findingGroup
	at := map[string]int{}
	for _, f := range fs {
		k := groupKey(f)
		if k != "" {
			if i, ok := at[k]; ok {
				out[i].Findings = append(out[i].Findings, f)
				continue
			}
			at[k] = len(out)
		}
		out = append(out, findingGroup{Findings: []diagnose.Finding{f}})
	}
	return out
}
