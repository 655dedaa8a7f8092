package verdict

import (
	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/parallel"
	"github.com/rocekb/rocekb/internal/rule"
)

// Lint judges every adapter on every distro release, and on each distro's
// kernel base as an upstream release, with the inbox stack, and reports a
// *supported* verdict from a kernel older than the device's first kernel
// with no distro_support row behind it, at the adapter's position; and on
// every distro with each stack its entry names, a supported (or
// with-conditions) verdict whose chain has an unconfirmed step: a deciding
// reason that is unknown or cites an unconfirmed matrix entry. Judge
// cannot give either by construction; Lint guards that against regressions.
func Lint(m *matrix.Matrix) diag.List { return lint(NewEngine(m), nil) }

// LintBy is Lint of the engine's matrix with each plan's verdict from
// judge, which must be the engine's: a caller that keeps the verdicts the
// engine gave (the site's tables) reads them there, and judges with the
// engine, whose memos its grid made, the plans it does not keep. Nil
// judges every plan with e.
func (e *Engine) LintBy(judge func(Plan) Verdict) diag.List {
	if judge == nil {
		return lint(e, nil)
	}
	return lint(e, func(_ *matrix.Matrix, p Plan) Verdict { return judge(p) })
}

// lint is Lint with the judge passed in, so a test can break it; nil
// judges with e.
func lint(e *Engine, judge func(*matrix.Matrix, Plan) Verdict) diag.List {
	m := e.m
	if judge == nil {
		judge = func(_ *matrix.Matrix, p Plan) Verdict { return e.Judge(p) }
	}
	// Adapters are judged in parallel, each into its own list. A peer
	// (matrix.Peers) is judged as its group's first is, but for its name,
	// so it is judged only when the first has a problem.
	peers := e.Peers()
	lists := make([]diag.List, len(m.Adapters))
	firsts := map[string]int{}
	parallel.Each(len(m.Adapters), func(i int) {
		if a := &m.Adapters[i]; peers[a.ID] == a.ID {
			lists[i] = lintAdapter(m, e, judge, a)
		}
	})
	for i, a := range m.Adapters {
		if _, ok := firsts[a.ID]; !ok && peers[a.ID] == a.ID {
			firsts[a.ID] = i
		}
	}
	parallel.Each(len(m.Adapters), func(i int) {
		a := &m.Adapters[i]
		if f := peers[a.ID]; f != a.ID && len(lists[firsts[f]]) > 0 {
			lists[i] = lintAdapter(m, e, judge, a)
		}
	})
	var probs diag.List
	for _, l := range lists {
		probs = append(probs, l...)
	}
	probs.Sort()
	return probs
}

// lintAdapter is lint's problems of one adapter.
func lintAdapter(m *matrix.Matrix, e *Engine, judge func(*matrix.Matrix, Plan) Verdict, a *matrix.Adapter) diag.List {
	var probs diag.List
	drv := m.Driver(a.RDMADriver)
	if drv == nil || !drv.InTree || a.NotRoCE != "" {
		return nil
	}
	am := e.view(m, a) // the rows that bear on a
	dk := deviceKernelOf(am, a, drv, "")
	older := func(base string) bool {
		c, ok := rule.Compare(base, dk.Kernel)
		return dk.Kernel == "" || !ok || c < 0
	}
	for j := range m.Distros {
		d := &m.Distros[j]
		for _, st := range append([]string{matrix.Inbox}, a.Stacks...) {
			if why := unconfirmedYes(judge(m, Plan{Adapter: a.ID, Distro: d.ID, Stack: st})); why != "" {
				probs.Add(a.At.File, m.PosOf(a.At, ""), "adapter %s: %s with %s: a yes whose chain has an unconfirmed step: %s", a.ID, d.ID, st, why)
			}
		}
		if d.KernelBase == "" {
			continue
		}
		if row, _ := DistroRow(am, a, d); row == nil && older(d.KernelBase) {
			if v := judge(m, Plan{Adapter: a.ID, Distro: d.ID}); v.Verdict == Supported {
				probs.Add(a.At.File, m.PosOf(a.At, ""), "adapter %s: supported on %s from kernel %s, older than the device's first kernel %s, with no distro_support row behind it", a.ID, d.ID, d.KernelBase, rule.OrDash(dk.Kernel))
			}
		}
		if older(d.KernelBase) {
			if v := judge(m, Plan{Adapter: a.ID, Kernel: d.KernelBase}); v.Verdict == Supported {
				probs.Add(a.At.File, m.PosOf(a.At, ""), "adapter %s: supported on upstream %s, older than the device's first kernel %s", a.ID, d.KernelBase, rule.OrDash(dk.Kernel))
			}
		}
	}
	return probs
}

// unconfirmedYes says why a yes verdict rests on an unconfirmed step, or
// "" when it does not.
func unconfirmedYes(v Verdict) string {
	if v.Verdict != Supported && v.Verdict != Conditional {
		return ""
	}
	for _, r := range v.Reasons {
		if r.Informs {
			continue
		}
		if r.Verdict == Undecided {
			return "unknown step: " + r.Text
		}
		if ref, ok := unconfirmedRef(r.Matrix); ok {
			return ref.Entry + " is unconfirmed"
		}
	}
	return ""
}
