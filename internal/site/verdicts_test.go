package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/rule"
	"github.com/rocekb/rocekb/internal/verdict"
)

// bundledSite is the site of the repository's matrix and content, built
// once per test binary and read by the tests that compare its views and
// exports with the engine; its late pages are made before any test reads
// it, as a build makes them after the host pages.
func bundledSite(t *testing.T) (*Site, *matrix.Matrix) {
	t.Helper()
	b := bundledKB()
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.s, b.m
}

// bundledMatrix is the repository's matrix, loaded once: the tests that
// build a site of it share it, and none changes it.
var bundledMatrix = sync.OnceValues(func() (*matrix.Matrix, error) {
	m, probs := matrix.Load(os.DirFS("../../matrix"), "matrix")
	if probs.Errors() > 0 {
		return nil, fmt.Errorf("%v", probs)
	}
	return m, nil
})

// bundledReuse keeps the verdict table (and FAQ bodies) of the first site
// of bundledMatrix a test builds for the others, as kbgen serve's
// rebuilds keep them: each of the four sites (bundledKB, bundledHosts,
// and fixtureFleet's two) judged the whole grid again, about 2 CPU-s
// each. Each Build is still a site of its own, with its own hosts.
var (
	bundledReuse = &page.KeepAll{}
	bundledSum   = page.Sum("the bundled matrix, loaded once by bundledMatrix")
)

var bundledKB = sync.OnceValue(func() (b struct {
	s   *Site
	m   *matrix.Matrix
	err error
}) {
	m, err := bundledMatrix()
	if err != nil {
		b.err = err
		return b
	}
	c, probs := content.Load(os.DirFS("../../content"), "content")
	if probs.Errors() > 0 {
		b.err = fmt.Errorf("%v", probs)
		return b
	}
	if b.s, b.err = Build(Input{Config: config.Default(), Matrix: m, Content: c, Reuse: bundledReuse, MatrixSum: bundledSum}); b.err != nil {
		return b
	}
	b.m = m
	b.s.Late()
	return b
})

// cellVerdict is the engine's verdict on a cell of the bundled grid (an
// adapter on a distro, or on none, with a stack), judged once by one
// engine for the tests that hold a view of the cells to the engine
// (TestExportedVerdictsAreTheEngines, TestEveryViewIsTheEngine,
// TestGridShowsEachReasonOnce), which each judged them again, the first
// with verdict.Judge; verdict's TestEngineIsJudge holds the engine to
// Judge on every such plan (its grid: every adapter on no target and on
// every distro, with every stack).
func cellVerdict(t *testing.T, p verdict.Plan) verdict.Verdict {
	t.Helper()
	if p.Kernel != "" || p.StackVersion != "" || p.Firmware != "" {
		t.Fatalf("%+v is not a cell of the grid", p)
	}
	_, m := bundledSite(t)
	c := &bundledCells
	c.once.Do(func() { c.e, c.v = verdict.NewEngine(m), map[verdict.Plan]verdict.Verdict{} })
	c.mu.Lock()
	v, ok := c.v[p]
	c.mu.Unlock()
	if !ok {
		v = c.e.Judge(p)
		c.mu.Lock()
		c.v[p] = v
		c.mu.Unlock()
	}
	return v
}

// bundledCells holds cellVerdict's engine and the verdicts it gave.
var bundledCells struct {
	once sync.Once
	e    *verdict.Engine
	mu   sync.Mutex
	v    map[verdict.Plan]verdict.Verdict
}

// verdictIndex is the site's verdicts.js, as written and as the browser
// reads it.
func verdictIndex(t *testing.T, s *Site) ([]byte, Index) {
	t.Helper()
	var b bytes.Buffer
	if err := s.WriteVerdictIndex(&b); err != nil {
		t.Fatal(err)
	}
	var ix Index
	decodeJS(t, b.Bytes(), "rocekbVerdicts.index(", &ix)
	return b.Bytes(), ix
}

// decodeJS reads the JSON arguments of a verdicts file's call.
func decodeJS(t *testing.T, b []byte, call string, v any) {
	t.Helper()
	s := string(b)
	i := strings.Index(s, call)
	if i < 0 || !strings.HasSuffix(s, ");\n") {
		t.Fatalf("not a %s… file: %.80q", call, s)
	}
	if err := json.Unmarshal([]byte(s[i+len(call):len(s)-3]), v); err != nil {
		t.Fatal(err)
	}
}

// TestExportedVerdictsAreTheEngines decodes verdicts.js and every
// verdicts/<adapter>.js as the browser does and compares a sample of cells
// (every distro of every tenth adapter, and every cell of a few) with the
// engine's (bundledCells; verdict's TestEngineIsJudge holds them to
// verdict.Judge): level, reasons in order, and nearest changes.
func TestExportedVerdictsAreTheEngines(t *testing.T) {
	t.Parallel()
	s, m := bundledSite(t)
	_, ix := verdictIndex(t, s)
	if len(ix.Targets) < len(m.Distros)+2 || len(ix.Stacks) != len(m.Stacks)+1 || len(ix.Adapters) != len(m.Adapters) {
		t.Fatalf("index: %d targets, %d stacks, %d adapters", len(ix.Targets), len(ix.Stacks), len(ix.Adapters))
	}
	checked := map[verdict.Level]int{}
	var b bytes.Buffer
	for ai, id := range s.VerdictAdapters() {
		b.Reset()
		if err := s.WriteAdapterVerdicts(&b, id); err != nil {
			t.Fatal(err)
		}
		var av AdapterVerdicts
		call := fmt.Sprintf("rocekbVerdicts.adapter(%q,", id)
		decodeJS(t, b.Bytes(), call, &av)
		if len(av.Cells) != len(ix.Targets)*len(ix.Stacks) {
			t.Fatalf("%s: %d cells, want %d", id, len(av.Cells), len(ix.Targets)*len(ix.Stacks))
		}
		for ti, tk := range ix.Targets {
			if strings.Contains(tk, ":") {
				continue // kernel ranges: TestFormKernelMatchesEngine
			}
			if ai%10 != 0 && !slices.Contains([]string{"connectx-3", "connectx-5", "cisco-vic-1400", "e810"}, id) && ti%7 != 0 {
				continue
			}
			for si, st := range ix.Stacks {
				c := av.Cells[ti*len(ix.Stacks)+si]
				want := cellVerdict(t, Target{Key: tk}.Plan(id, st.Key))
				var texts, near []string
				for _, n := range c.Reasons {
					r := exportedReason(&ix, &av, n)
					texts = append(texts, string(ix.Levels[r.Level])+" "+r.Text)
					if r.Nearest != "" && ix.Levels[r.Level] != verdict.Supported && !slices.Contains(near, r.Nearest) {
						near = append(near, r.Nearest)
					}
				}
				if c.Nearest != nil {
					near = c.Nearest
				}
				var wantTexts []string
				for _, r := range want.Reasons {
					wantTexts = append(wantTexts, string(r.Verdict)+" "+r.Text)
				}
				where := fmt.Sprintf("%s on %q with %s", id, tk, st.Key)
				if got := ix.Levels[c.Level]; got != want.Verdict {
					t.Errorf("%s: exported %s, engine %s", where, got, want.Verdict)
				}
				if !slices.Equal(texts, wantTexts) {
					t.Errorf("%s: reasons\n%q\nengine\n%q", where, texts, wantTexts)
				}
				if !slices.Equal(near, want.Nearest) && (len(near) > 0 || len(want.Nearest) > 0) {
					t.Errorf("%s: nearest %q, engine %q", where, near, want.Nearest)
				}
				checked[want.Verdict]++
			}
		}
	}
	for _, l := range Levels {
		if checked[l] == 0 {
			t.Errorf("no %s cell was compared: %v", l, checked)
		}
	}
}

// TestFormFirmwareMatchesEngine runs static/will.js in node on the
// exported verdicts and compares its firmware judgement with
// verdict.Judge given the firmware. It needs node; CI's browser test
// checks the same page in Chromium.
func TestFormFirmwareMatchesEngine(t *testing.T) {
	t.Parallel()
	js := willJS(t)
	s, m := bundledSite(t)
	js.WriteString("var rocekbVerdicts = window.rocekbVerdicts;\n")
	if err := s.WriteVerdictIndex(js); err != nil {
		t.Fatal(err)
	}
	type fwCase struct {
		Adapter, Target, Stack, Firmware string
	}
	var cases []fwCase
	adapters := map[string]bool{}
	for _, f := range m.Firmware {
		if m.Adapter(f.Adapter) == nil {
			continue
		}
		stack := f.Stack
		if stack == "" {
			stack = "inbox"
		}
		for _, fw := range []string{f.Min, below(f.Min), "99.99.9999", "5.2(3a)", "not-a-version!", "firmware-version: " + below(f.Min) + " (MT_0000000359)"} {
			cases = append(cases, fwCase{f.Adapter, "rhel-9.4", stack, fw}, fwCase{f.Adapter, "", stack, fw})
		}
		adapters[f.Adapter] = true
	}
	cases = append(cases, fwCase{"connectx-5", "rhel-9.4", "inbox", "16.35.2000"})
	adapters["connectx-5"] = true
	for _, id := range s.VerdictAdapters() {
		if adapters[id] {
			if err := s.WriteAdapterVerdicts(js, id); err != nil {
				t.Fatal(err)
			}
		}
	}
	cj, _ := json.Marshal(cases)
	js.WriteString(printJudgedJS)
	fmt.Fprintf(js, `var cases = %s, out = [];
cases.forEach(function (c) {
  var names = {};
  var cell = rocekbVerdicts.cell(c.Adapter, c.Target, c.Stack);
  var v = rocekbVerdicts.judge(c.AdapterName, tablesFor(c.Adapter), cell, c.Firmware);
  out.push({l: v.l, t: v.r.map(function (r) { return r.l + " " + r.t; }).sort(), x: v.x.slice().sort()});
});
function tablesFor(id) { return window.__tables[id]; }
printJudged(out);
`, cj)
	// will.js keeps its tables private: expose them for the test by
	// wrapping the registration.
	script := strings.Replace(js.String(), "var rocekbVerdicts = window.rocekbVerdicts;\n",
		"var rocekbVerdicts = window.rocekbVerdicts; window.__tables = {}; var reg = rocekbVerdicts.adapter; rocekbVerdicts.adapter = function (id, d) { window.__tables[id] = d; reg(id, d); };\n", 1)
	names := map[string]string{}
	for _, a := range m.Adapters {
		names[a.ID] = a.Name
	}
	script = strings.Replace(script, "var names = {};", "var names = "+mustJSON(names)+"; c.AdapterName = names[c.Adapter];", 1)
	got := decodeJudged(t, runNode(t, strings.NewReader(script)))
	if len(got) != len(cases) {
		t.Fatalf("node gave %d verdicts for %d cases", len(got), len(cases))
	}
	levels := map[string]int{}
	for i, c := range cases {
		// The case's cell, whose plan names the target's distro and kernel.
		want := cellVerdict(t, Target{Key: c.Target}.Plan(c.Adapter, c.Stack))
		want = verdict.Judge(m, verdict.Plan{Adapter: want.Plan.Adapter, Distro: want.Plan.Distro, Kernel: want.Plan.Kernel, Stack: c.Stack, Firmware: c.Firmware})
		var texts []string
		for _, r := range want.Reasons {
			texts = append(texts, string(r.Verdict)+" "+r.Text)
		}
		slices.Sort(texts)
		near := append([]string(nil), want.Nearest...)
		slices.Sort(near)
		where := fmt.Sprintf("%s on %q with %s, firmware %s", c.Adapter, c.Target, c.Stack, c.Firmware)
		if got[i].L != string(want.Verdict) {
			t.Errorf("%s: form says %s, engine %s", where, got[i].L, want.Verdict)
		}
		if !slices.Equal(got[i].T, texts) {
			t.Errorf("%s: form reasons\n%q\nengine\n%q", where, got[i].T, texts)
		}
		if !slices.Equal(got[i].X, near) && (len(got[i].X) > 0 || len(near) > 0) {
			t.Errorf("%s: form nearest %q, engine %q", where, got[i].X, near)
		}
		levels[got[i].L]++
	}
	if levels[string(verdict.Unsupported)] == 0 || levels[string(verdict.Conditional)] == 0 {
		t.Errorf("firmware cases should reach unsupported and conditional verdicts: %v", levels)
	}
}

// below returns a version just under v's last number, or v when its last
// piece is not a plain number.
func below(v string) string {
	i := strings.LastIndexAny(v, ".")
	if i < 0 {
		return v
	}
	n := v[i+1:]
	if n == "" || strings.Trim(n, "0123456789") != "" || strings.Trim(n, "0") == "" {
		return v[:i] + ".0"
	}
	var x int
	fmt.Sscan(n, &x)
	return fmt.Sprintf("%s.%d", v[:i], x-1)
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// exportedReason is reason n of an adapter's cells as verdicts.js gives
// it: the numbers below len(ix.Reasons) are the shared reasons, the rest
// the adapter's own.
func exportedReason(ix *Index, av *AdapterVerdicts, n int) XReason {
	if n < len(ix.Reasons) {
		return ix.Reasons[n]
	}
	return av.Reasons[n-len(ix.Reasons)]
}

// TestGridLintReadsTheEngine: every plan the grid lint asks of the
// bundled matrix gets from the site (keptVerdict, which reads a distro's
// cells from the tables) the engine's verdict, as far as the lint reads
// it: its level and each reason's level, hint, note, text, nearest
// change and matrix entries with their confidence.
func TestGridLintReadsTheEngine(t *testing.T) {
	t.Parallel()
	s, m := bundledSite(t)
	e := verdict.NewEngine(m)
	var mu sync.Mutex
	kept, judged := 0, 0
	probs := s.verdicts.engine.LintBy(func(p verdict.Plan) verdict.Verdict {
		got, want := s.keptVerdict(p), e.Judge(p)
		same := got.Verdict == want.Verdict && len(got.Reasons) == len(want.Reasons)
		for i := 0; same && i < len(got.Reasons); i++ {
			g, w := got.Reasons[i], want.Reasons[i]
			same = g.Verdict == w.Verdict && g.Likely == w.Likely && g.Informs == w.Informs && g.Text == w.Text && g.Nearest == w.Nearest &&
				slices.EqualFunc(g.Matrix, w.Matrix, func(a, b rule.Ref) bool { return a.Entry == b.Entry && a.Confidence == b.Confidence })
		}
		mu.Lock()
		defer mu.Unlock()
		if !same {
			t.Errorf("%+v: the site gives %s %v, the engine %s %v", p, got.Verdict, got.Reasons, want.Verdict, want.Reasons)
		}
		if p.Distro != "" && p.Kernel == "" {
			kept++
		} else {
			judged++
		}
		return got
	})
	if len(probs) > 0 {
		t.Errorf("the bundled matrix's grid lint: %s", probs)
	}
	if kept == 0 || judged == 0 {
		t.Errorf("the lint asked %d plans the tables hold and %d they do not", kept, judged)
	}
}
