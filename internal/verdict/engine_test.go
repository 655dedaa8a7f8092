package verdict

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"

	"github.com/rocekb/rocekb/internal/hosttest"
	"github.com/rocekb/rocekb/internal/matrix"
)

// gridPlans are the plans the site judges: every adapter on every distro
// and upstream kernel the matrix names, and with nothing given, on inbox
// and every stack; then the golden table's plans, which name adapters,
// distros and stacks in every way a person does.
func gridPlans(m *matrix.Matrix) ([]Plan, error) {
	targets := gridTargets(m)
	stacks := []string{matrix.Inbox}
	for _, s := range m.Stacks {
		stacks = append(stacks, s.ID)
	}
	var out []Plan
	for _, a := range m.Adapters {
		for _, tg := range targets {
			for _, s := range stacks {
				p := tg
				p.Adapter, p.Stack = a.ID, s
				out = append(out, p)
			}
		}
	}
	var f struct {
		Case []goldenCase `toml:"case"`
	}
	if _, err := toml.DecodeFile(filepath.Join(hosttest.Root, "testdata", "verdicts", "cases.toml"), &f); err != nil {
		return nil, err
	}
	for _, c := range f.Case {
		out = append(out, Plan{Adapter: c.Adapter, Distro: c.Distro, Kernel: c.Kernel, Stack: c.Stack, StackVersion: c.StackVersion, Firmware: c.Firmware})
	}
	return out, nil
}

// bundledGrid is gridPlans of the bundled matrix, made once for the tests
// and the benchmark that judge it. Callers must not change it.
var bundledGrid = sync.OnceValues(func() ([]Plan, error) {
	m, err := realMatrix()
	if err != nil {
		return nil, err
	}
	return gridPlans(m)
})

// gridEngine is the bundled matrix, a fresh engine of it and its grid's
// plans (bundledGrid, not to be changed).
func gridEngine(t *testing.T) (*matrix.Matrix, *Engine, []Plan) {
	t.Helper()
	m, err := realMatrix()
	if err != nil {
		t.Fatal(err)
	}
	ps, err := bundledGrid()
	if err != nil {
		t.Fatal(err)
	}
	return m, NewEngine(m), ps
}

// isJudge fails t when e's verdict on p is not Judge's; when says after
// what ("" or ending in a space). reflect.DeepEqual is the fast check;
// cmp.Diff, ten times its cost, says how they differ.
func isJudge(t *testing.T, m *matrix.Matrix, e *Engine, p Plan, when string) {
	t.Helper()
	isJudgeOf(t, m, p, e.Judge(p), when)
}

// isJudgeOf fails t when got, the engine's verdict on p, is not Judge's.
func isJudgeOf(t *testing.T, m *matrix.Matrix, p Plan, got Verdict, when string) {
	t.Helper()
	if want := Judge(m, p); !reflect.DeepEqual(want, got) {
		t.Fatalf("%+v: %sthe engine differs from Judge (-Judge +engine):\n%s", p, when, cmp.Diff(want, got, cmp.AllowUnexported(Verdict{})))
	}
}

// gridTargets are the OS a grid's plans name: none, every distro, and
// every upstream kernel that dates a PCI id.
func gridTargets(m *matrix.Matrix) []Plan {
	targets := []Plan{{}}
	for _, d := range m.Distros {
		targets = append(targets, Plan{Distro: d.ID})
	}
	for _, k := range m.PCIKernels {
		if k.FirstKernel != "" {
			targets = append(targets, Plan{Kernel: k.FirstKernel})
		}
	}
	return targets
}

// TestEngineIsJudge: the engine's verdicts are Judge's, reason for reason,
// over the whole bundled grid and the golden plans: the engine's memoized
// parts (the kernel a plan runs, an adapter's first kernel, the distro
// row its plans read, its firmware and conditions on a stack, a stack
// release's steps) change no answer. The memos must be hit,
// or the comparison tests nothing of them.
func TestEngineIsJudge(t *testing.T) {
	t.Parallel()
	m, e, ps := gridEngine(t)
	if len(ps) < 1000 {
		t.Fatalf("only %d plans", len(ps))
	}
	for _, p := range ps {
		isJudge(t, m, e, p, "")
	}
	kernels, devices, rows, tails, heads, steps := memos(&e.kernels), memos(&e.devices), memos(&e.rows), memos(&e.tails), memos(&e.heads), memos(&e.steps)
	asked := memos(&e.rowKeys) // adapters whose distro rows were read
	if kernels == 0 || kernels*10 > len(ps) || devices == 0 || devices*10 > len(ps) || tails == 0 || tails*10 > len(ps) || heads == 0 || heads*10 > len(ps) || steps == 0 || rows == 0 || rows >= asked*len(m.Distros) {
		t.Errorf("%d plans judged with %d kernel, %d device-kernel, %d distro-row (%d adapters), %d firmware-and-conditions, %d stack-head and %d stack-step memos: a memo is not shared", len(ps), kernels, devices, rows, asked, tails, heads, steps)
	}
	t.Logf("%d plans: %d kernels, %d device kernels, %d distro row choices, %d firmware-and-conditions, %d stack heads, %d stack steps judged", len(ps), kernels, devices, rows, tails, heads, steps)
}

// TestViewsShareDistroRows: adapters whose views hold the same distro
// rows (a driver's, no row of their own) share one copy of them, and the
// views still hold each row once, in file order (TestEngineIsJudge checks
// the answers).
func TestViewsShareDistroRows(t *testing.T) {
	t.Parallel()
	m, err := realMatrix()
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(m)
	copies := map[*matrix.DistroRow]string{} // a copy's first row → its rows' positions
	lists := map[string]bool{}
	views := 0
	for _, v := range e.views {
		if len(v.DistroRows) == 0 {
			continue
		}
		views++
		var key strings.Builder
		last := -1
		for _, r := range v.DistroRows {
			i := slices.IndexFunc(m.DistroRows, func(o matrix.DistroRow) bool { return reflect.DeepEqual(o, r) })
			if i <= last {
				t.Fatalf("a view's distro rows are not the matrix's in file order: row %d after %d", i, last)
			}
			last = i
			fmt.Fprintf(&key, "%d,", i)
		}
		lists[key.String()] = true
		if k, ok := copies[&v.DistroRows[0]]; ok && k != key.String() {
			t.Fatalf("two views share a copy of different rows: %s and %s", k, key.String())
		}
		copies[&v.DistroRows[0]] = key.String()
	}
	if len(copies) != len(lists) || len(lists) >= views {
		t.Errorf("%d views hold %d distinct lists of distro rows in %d copies: views with the same rows must share one", views, len(lists), len(copies))
	}
}

// BenchmarkJudgeGrid judges the site's whole grid of the bundled matrix
// once per iteration, with Judge and with an Engine (its indexing counted).
func BenchmarkJudgeGrid(b *testing.B) {
	m, err := realMatrix()
	if err != nil {
		b.Fatal(err)
	}
	ps, err := bundledGrid()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Judge", func(b *testing.B) {
		for b.Loop() {
			for _, p := range ps {
				Judge(m, p)
			}
		}
		b.ReportMetric(float64(len(ps)), "plans/op")
	})
	b.Run("Engine", func(b *testing.B) {
		for b.Loop() {
			e := NewEngine(m)
			for _, p := range ps {
				e.Judge(p)
			}
		}
		b.ReportMetric(float64(len(ps)), "plans/op")
	})
}

// TestForget: Forget empties every memo, and the plans judged after it
// are judged anew to Judge's answers, the memos filled again.
func TestForget(t *testing.T) {
	t.Parallel()
	m, e, ps := gridEngine(t)
	ps = ps[:min(len(ps), 2000)]
	for _, p := range ps {
		e.Judge(p)
	}
	count := func() int {
		return memos(&e.kernels, &e.devices, &e.rowKeys, &e.rows, &e.soft, &e.tails, &e.heads, &e.softs, &e.roce, &e.steps, &e.anys, &e.tagged, &e.uek)
	}
	if count() == 0 {
		t.Fatal("no memo was filled")
	}
	e.Forget()
	if n := count(); n != 0 {
		t.Fatalf("%d memos kept after Forget", n)
	}
	for _, p := range ps {
		isJudge(t, m, e, p, "after Forget ")
	}
	if count() == 0 {
		t.Error("no memo was filled again after Forget")
	}
}

// memos counts the entries of an engine's memos.
func memos(sms ...*sync.Map) (n int) {
	for _, sm := range sms {
		sm.Range(func(any, any) bool { n++; return true })
	}
	return n
}

// TestListsHoldNoMemo: plans naming no distro and no kernel (the site's
// lists ask every adapter's stacks so, each once) leave no memo of their
// adapter's own steps, which would only be held.
func TestListsHoldNoMemo(t *testing.T) {
	t.Parallel()
	m, err := realMatrix()
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(m)
	for _, a := range m.Adapters {
		for _, st := range m.Stacks {
			e.Judge(Plan{Adapter: a.ID, Stack: st.ID})
			for _, r := range st.Releases {
				e.Judge(Plan{Adapter: a.ID, Stack: st.ID, StackVersion: r.Version})
			}
		}
	}
	if n := memos(&e.devices, &e.roce, &e.heads, &e.softs, &e.anys); n != 0 {
		t.Errorf("%d memos of adapters' steps held after plans naming no OS", n)
	}
}
