package site

import (
	"slices"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/verdict"
)

// TestEveryViewIsTheEngine walks every adapter of the bundled matrix and
// holds each view that shows a verdict, or what a verdict rests on, to the
// engine: the adapter page's grid (level and likely hint of every cell),
// the adapters index (first kernel, RoCE and stack filters), the stack
// pages (the adapters each release covers), the distro pages (inbox
// verdicts) and the driver pages (first kernel per adapter).
func TestEveryViewIsTheEngine(t *testing.T) {
	t.Parallel()
	s, m := bundledSite(t) // its late pages made
	e := verdict.NewEngine(m)
	yes := func(p verdict.Plan) bool { return e.Judge(p).Yes() }

	for _, p := range s.adapterPages {
		a := p.Adapter
		g := p.Grid()
		for _, row := range g.Rows {
			for _, c := range row.Cells {
				want := cellVerdict(t, verdict.Plan{Adapter: a.ID, Distro: row.Distro.Key, Stack: c.Stack})
				if c.Level != want.Verdict || c.Likely != want.Likely {
					t.Errorf("adapter page %s, %s with %s: grid %s (likely %q), engine %s (likely %q)", a.ID, row.Distro.Key, c.Stack, c.Level, c.Likely, want.Verdict, want.Likely)
				}
			}
		}
	}
	var stacksSeen, rowsSeen, releasesSeen, distrosSeen, driversSeen int
	for _, pg := range s.Pages {
		switch p := pg.(type) {
		case *AdaptersPage:
			for _, r := range p.Rows {
				rowsSeen++
				a := r.Adapter
				k, ok := verdict.FirstKernel(m, a)
				if r.FirstKernel != k || r.KernelSourced != ok {
					t.Errorf("index %s: first kernel %q (sourced %v), engine %q (%v)", a.ID, r.FirstKernel, r.KernelSourced, k, ok)
				}
				if _, roce := verdict.RoCE(a); ok && roce && a.NotRoCE == "" && !yes(verdict.Plan{Adapter: a.ID, Kernel: k}) {
					if v := e.Judge(verdict.Plan{Adapter: a.ID, Kernel: k}); v.Verdict != verdict.Unsupported || len(v.Nearest) == 0 {
						t.Errorf("index %s: first kernel %s, but the engine on %s says %s", a.ID, k, k, v.Verdict)
					}
				}
				if _, sourced := verdict.RoCE(a); !sourced && a.NotRoCE == "" && r.RoCE != "unconfirmed" {
					t.Errorf("index %s: RoCE %q, but the engine's RoCE step is unconfirmed", a.ID, r.RoCE)
				}
				for _, st := range m.Stacks {
					if got, want := slices.Contains(r.Stacks, st.ID), yes(verdict.Plan{Adapter: a.ID, Stack: st.ID}); got != want {
						t.Errorf("index %s: stack filter %s is %v, engine yes is %v", a.ID, st.ID, got, want)
					}
					stacksSeen++
				}
			}
		case *StackPage:
			check := func(what, ver string, got []*matrix.Adapter) {
				for i := range m.Adapters {
					a := &m.Adapters[i]
					in := slices.ContainsFunc(got, func(x *matrix.Adapter) bool { return x.ID == a.ID })
					if want := yes(verdict.Plan{Adapter: a.ID, Stack: p.Stack.ID, StackVersion: ver}); in != want {
						t.Errorf("stack page %s %s: lists %s %v, engine yes %v", p.Stack.ID, what, a.ID, in, want)
					}
				}
			}
			check("adapters", "", p.Adapters)
			for _, r := range p.Releases {
				check("release "+r.Version, r.Version, r.Adapters)
				releasesSeen++
			}
		case *DistroPage:
			for _, dv := range p.Inbox() {
				want := cellVerdict(t, verdict.Plan{Adapter: dv.Adapter.ID, Distro: p.Distro.ID, Stack: matrix.Inbox})
				if dv.Level != want.Verdict {
					t.Errorf("distro page %s, %s: %s, engine %s", p.Distro.ID, dv.Adapter.ID, dv.Level, want.Verdict)
				}
			}
			distrosSeen++
		case *DriverPage:
			for _, ak := range p.Kernels {
				if k, ok := verdict.FirstKernel(m, ak.Adapter); ak.Kernel != k || ak.Sourced != ok {
					t.Errorf("driver page %s, %s: first kernel %q (%v), engine %q (%v)", p.Driver.ID, ak.Adapter.ID, ak.Kernel, ak.Sourced, k, ok)
				}
			}
			driversSeen++
		}
	}
	if rowsSeen != len(m.Adapters) || len(s.adapterPages) != len(m.Adapters) || releasesSeen == 0 || distrosSeen == 0 || driversSeen == 0 || stacksSeen == 0 {
		t.Errorf("walked %d index rows, %d adapter pages (of %d adapters), %d releases, %d distro and %d driver pages", rowsSeen, len(s.adapterPages), len(m.Adapters), releasesSeen, distrosSeen, driversSeen)
	}
}

// TestGridShowsEachReasonOnce: on every adapter page of the bundled matrix,
// a cell's reasons as the page gives them (its explanation's, its row's,
// the kernel beside its distro and its column's conditions) are the engine's reasons for the cell, and the
// page writes each reason once.
func TestGridShowsEachReasonOnce(t *testing.T) {
	t.Parallel()
	s, _ := bundledSite(t) // its late pages made, as the tests share it
	cells := 0
	for _, p := range s.adapterPages {
		g := p.Grid()
		if g == nil {
			continue
		}
		byN := map[int]GridReason{}
		texts := map[string]int{}
		var written []GridReason // every reason the page writes, numbered or in an explanation
		for _, r := range append(append([]GridReason(nil), g.Common...), g.Reasons...) {
			if _, dup := byN[r.N]; dup {
				t.Errorf("%s: reason number %d twice", p.Adapter.ID, r.N)
			}
			byN[r.N] = r
			texts[r.text]++
			written = append(written, r)
		}
		for n := 1; n <= len(byN); n++ {
			if _, ok := byN[n]; !ok {
				t.Errorf("%s: reasons numbered without %d", p.Adapter.ID, n)
			}
		}
		for _, w := range g.Whys {
			for _, r := range w.Own {
				texts[r.text]++
				written = append(written, r)
			}
		}
		// A row drawn by the cells above (Span 0) names their explanations.
		head, spans := -1, 0
		for i, row := range g.Rows {
			spans += row.Span
			if row.Span > 0 {
				head = i
				if len(row.Group) != row.Span || row.Group[0].Distro.Key != row.Distro.Key {
					t.Errorf("%s %s: drawn for %d distros, its group holds %d", p.Adapter.ID, row.Distro.Key, row.Span, len(row.Group))
				}
			} else if head < 0 || !slices.EqualFunc(row.Cells, g.Rows[head].Cells, func(a, b GridCell) bool { return a.Why == b.Why }) {
				t.Errorf("%s %s: drawn by the cells above, but its explanations differ", p.Adapter.ID, row.Distro.Key)
			}
		}
		if spans != len(g.Rows) {
			t.Errorf("%s: the drawn cells span %d rows of %d", p.Adapter.ID, spans, len(g.Rows))
		}
		for _, row := range g.Rows {
			for si, c := range row.Cells {
				cells++
				if c.Why < 1 || c.Why > len(g.Whys) {
					t.Fatalf("%s %s %s: explanation %d of %d", p.Adapter.ID, row.Distro.Key, c.Stack, c.Why, len(g.Whys))
				}
				w := g.Whys[c.Why-1]
				var got []string
				for _, n := range append(append([]int(nil), w.Reasons...), row.Reasons...) {
					got = append(got, strings.ReplaceAll(byN[n].text, rowDistro, row.Distro.Label))
				}
				for _, r := range w.Own {
					got = append(got, strings.ReplaceAll(r.text, rowDistro, row.Distro.Label))
				}
				if k := row.Kernel; k != nil {
					got = append(got, k.text)
					shown := " ships kernel " + k.Kernel
					if k.Kernel == "" {
						shown = " ships a Linux " + k.Base + " kernel (its release is not recorded)"
					} else if k.Base != "" {
						shown += " (upstream " + k.Base + ")"
					}
					if !strings.Contains(k.text, shown) {
						t.Errorf("%s %s: the row shows %q, the engine says %q", p.Adapter.ID, row.Distro.Key, shown, k.text)
					}
				}
				for _, r := range g.Common {
					if slices.Contains(r.cols, si) {
						got = append(got, r.text)
					}
				}
				var want []string
				v := cellVerdict(t, verdict.Plan{Adapter: p.Adapter.ID, Distro: row.Distro.Key, Stack: c.Stack})
				for _, r := range v.Reasons {
					if !slices.Contains(want, r.Text) {
						want = append(want, r.Text)
					}
				}
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) || w.Word != (Shown{v.Verdict}).Word() {
					t.Errorf("%s %s %s: the page gives %q (%s), the engine %q (%s)", p.Adapter.ID, row.Distro.Key, c.Stack, got, w.Word, want, v.Verdict)
				}
			}
		}
		// A text twice is two reasons differing in level, hint or entries.
		for text, n := range texts {
			if n > 1 {
				var same []GridReason
				for _, r := range written {
					if r.text == text {
						same = append(same, r)
					}
				}
				for i := range same {
					for j := i + 1; j < len(same); j++ {
						if same[i].Class == same[j].Class && same[i].Likely == same[j].Likely && slices.Equal(same[i].Refs, same[j].Refs) && len(same[i].Own) == len(same[j].Own) {
							t.Errorf("%s: reason %q written twice (%d and %d)", p.Adapter.ID, text, same[i].N, same[j].N)
						}
					}
				}
			}
		}
	}
	if cells == 0 {
		t.Fatal("no grid cell was compared")
	}
}
