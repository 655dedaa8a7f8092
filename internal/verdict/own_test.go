package verdict

import "testing"

// TestVerdictsOwnTheirReasons: what Engine.Judge says a caller may change
// (a verdict's Reasons and Nearest, as the site's kernel cells mark them
// in place) is no memo's, nor another verdict's: every plan of the grid,
// judged again after every earlier verdict was scribbled over, is still
// Judge's. Judged with the reasons of the verdict before it lent
// (JudgeInto, as the site judges a grid), scribbled over, each is Judge's
// too.
func TestVerdictsOwnTheirReasons(t *testing.T) {
	t.Parallel()
	m, e, ps := gridEngine(t)
	ps = ps[:min(len(ps), 3000)]
	var lent []Reason
	for _, p := range ps {
		v := e.JudgeInto(p, lent)
		isJudgeOf(t, m, p, v, "lent the reasons of the verdict before it ")
		if v.Reasons != nil {
			lent = v.Reasons
		}
		for i := range v.Reasons {
			v.Reasons[i].Text += " (scribbled)"
			v.Reasons[i].Nearest += " (scribbled)"
			v.Reasons[i].Verdict = Unsupported
		}
		for i := range v.Nearest {
			v.Nearest[i] += " (scribbled)"
		}
	}
	for _, p := range ps {
		isJudge(t, m, e, p, "after its verdicts were changed ")
	}
}
