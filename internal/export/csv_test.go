package export

import (
	"bytes"
	"encoding/csv"
	"strings"
	"sync"
	"testing"

	"github.com/rocekb/rocekb/internal/rule"
	"github.com/rocekb/rocekb/internal/verdict"
)

// TestCellsGuardEveryFormulaLead writes each lead OWASP lists through a
// CSV writer and requires the cell read back to start with the quote.
func TestCellsGuardEveryFormulaLead(t *testing.T) {
	t.Parallel()
	attacks := []string{
		"=1+1", "+1+1", "-2+3+cmd|' /C calc'!A0", "@SUM(1+1)*cmd|' /C calc'!A0",
		"\t=1+1", "\r=1+1", "\n=1+1", " =1+1", "＝1+1", "－1",
	}
	plain := []string{"", "mlx5_core", "5.14.0-362.8.1.el9_3.x86_64", "ConnectX-6 Dx", "0x1017"}
	var b strings.Builder
	w := csv.NewWriter(&b)
	if err := w.Write(cells(append(append([]string{}, attacks...), plain...)...)); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	got, err := csv.NewReader(strings.NewReader(b.String())).Read()
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range attacks {
		if got[i] != "'"+a {
			t.Errorf("cell %q written as %q, want it quoted", a, got[i])
		}
	}
	for i, p := range plain {
		if got[len(attacks)+i] != p {
			t.Errorf("cell %q written as %q, want it unchanged", p, got[len(attacks)+i])
		}
	}
}

// TestAppendCellIsEncodingCSV: appendCell writes a field as encoding/csv
// writes what cells makes of it, for fields at the edges of quoting and
// of the formula guard.
func TestAppendCellIsEncodingCSV(t *testing.T) {
	t.Parallel()
	fields := []string{"", "plain", "a,b", `say "hi"`, "two\nlines", "cr\rlf", " lead space", "\tlead tab", `\.`, `\..`,
		"=1+1", " =1+1", "+x", "-3", "@sum", "\ttab-led", "＝full", "＋", "'already", "\u00a0nbsp lead", "\u2003em lead",
		"\xff bad utf-8", " ", "   ", "=", "=\"q\",x", "-\n", "héllo", "✓*", "a | b", "x\"", "\"", "\x85next line"}
	for _, guard := range []bool{false, true} {
		for _, f := range fields {
			var want bytes.Buffer
			cw := csv.NewWriter(&want)
			rec := []string{f}
			if guard {
				rec = cells(f)
			}
			if err := cw.Write(rec); err != nil {
				t.Fatal(err)
			}
			cw.Flush()
			got := append(appendCell(nil, f, guard), '\n')
			if !bytes.Equal(got, want.Bytes()) {
				t.Errorf("appendCell(%q, %t) = %q, encoding/csv writes %q", f, guard, got, want.Bytes())
			}
			if gotb := append(appendCell(nil, []byte(f), guard), '\n'); !bytes.Equal(gotb, got) {
				t.Errorf("appendCell of %q as bytes = %q, as a string %q", f, gotb, got)
			}
		}
	}
}

// TestMatrixCSVIsEncodingCSV: matrix.csv is, byte for byte, what
// encoding/csv writes for the rows as the export first made them: for the
// bundled matrix, and for verdicts at the edges of joining (empty
// condition texts and source ids, quotes, formula leads).
func TestMatrixCSVIsEncodingCSV(t *testing.T) {
	t.Parallel()
	m, files := judgedExports(t)
	if got, want := files["matrix.csv"], encodingCSV(t, judgedGrid(t)); !bytes.Equal(got, want) {
		t.Errorf("matrix.csv differs from encoding/csv's at byte %d of %d", firstDiff(got, want), len(want))
	}
	odd := &grid{m: m, vs: oddVerdicts{}}
	var got bytes.Buffer
	if err := odd.writeCSV(&got); err != nil {
		t.Fatal(err)
	}
	if want := encodingCSV(t, &grid{m: m, vs: oddVerdicts{}}); !bytes.Equal(got.Bytes(), want) {
		i := firstDiff(got.Bytes(), want)
		t.Errorf("odd verdicts: matrix.csv differs from encoding/csv's at byte %d: %q, want %q", i, got.Bytes()[i:min(got.Len(), i+80)], want[i:min(len(want), i+80)])
	}
}

// oddVerdicts gives every cell conditions and sources at the edges of
// what the CSV joins.
type oddVerdicts struct{}

func (o oddVerdicts) DistroVerdicts(adapter string, stacks, distros []string, yield func(stack, distro string, n int, v *verdict.Verdict)) {
	for _, st := range stacks {
		for _, d := range distros {
			v, _ := o.DistroVerdict(adapter, d, st)
			yield(st, d, 0, &v) // every cell alike
		}
	}
}

func (oddVerdicts) DistroVerdict(adapter, distro, stack string) (verdict.Verdict, bool) {
	src := func(ids ...string) []rule.Ref {
		r := rule.Ref{Entry: "e"}
		for _, id := range ids {
			r.Sources = append(r.Sources, rule.SourceRef{ID: id})
		}
		return []rule.Ref{r}
	}
	return verdict.Verdict{Verdict: verdict.Conditional, Likely: verdict.Supported, Kernel: "=5.14", Nearest: []string{"", `a "b"`},
		Reasons: []verdict.Reason{
			{Verdict: verdict.Conditional, Text: "", Matrix: src("", "s1")},
			{Verdict: verdict.Supported, Text: "ok", Matrix: src("s1", "s2")},
			{Verdict: verdict.Undecided, Text: "-x, \"y\"\nz", Matrix: src("", "s3")},
			{Verdict: verdict.Unsupported, Informs: true, Text: "a note"},
			{Verdict: verdict.Unsupported, Text: " @lead"},
		}}, true
}

func firstDiff(a, b []byte) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// encodingCSV is matrix.csv as encoding/csv writes the rows the export
// first made.
func encodingCSV(t *testing.T, g *grid) []byte {
	t.Helper()
	m := g.m
	var want bytes.Buffer
	cw := csv.NewWriter(&want)
	if err := cw.Write(csvHeader); err != nil {
		t.Fatal(err)
	}
	for _, a := range sortedAdapters(m) {
		for _, c := range g.cells(a) {
			v := c.Verdict
			var srcs []string
			seen := map[string]bool{}
			for _, r := range v.Reasons {
				for _, ref := range r.Matrix {
					for _, s := range ref.Sources {
						if !seen[s.ID] {
							seen[s.ID] = true
							srcs = append(srcs, s.ID)
						}
					}
				}
			}
			err := cw.Write(cells(a.ID, a.Name, a.Vendor, c.Stack, c.Distro, strings.TrimSpace(m.Distro(c.Distro).Name), v.Kernel, string(v.Verdict), string(v.Likely),
				strings.Join(appendConditions(nil, &v), " | "), strings.Join(v.Nearest, " | "), strings.Join(srcs, " ")))
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	cw.Flush()
	return want.Bytes()
}

// TestMatrixExportsReadEachAdapterOnce: matrix.csv and the adapter files
// read each adapter's verdicts from the table once between them, unless
// they hold too many sheets.
func TestMatrixExportsReadEachAdapterOnce(t *testing.T) {
	t.Parallel()
	m := bundledMatrix(t)
	vs := &countedVerdicts{asked: map[string]int{}}
	files := collect(t, Matrix(m, vs))
	if len(files) != len(m.Adapters)+2 {
		t.Fatalf("%d files for %d adapters", len(files), len(m.Adapters))
	}
	for _, a := range m.Adapters {
		if n := vs.asked[a.ID]; n != 1 {
			t.Errorf("%s: its verdicts read %d times", a.ID, n)
		}
	}
	// The sheets held are bounded: holding one, matrix.csv (written first
	// and whole here) keeps the first adapter's, and each other adapter's
	// file reads its verdicts again, to the same bytes.
	vs = &countedVerdicts{asked: map[string]int{}}
	g := &grid{m: m, vs: vs, hold: 1}
	few := collect(t, g.producer())
	for name, b := range files {
		if !bytes.Equal(few[name], b) {
			t.Errorf("%s differs when one sheet is held", name)
		}
	}
	again := 0
	for _, a := range m.Adapters {
		again += vs.asked[a.ID] - 1
	}
	if again != len(m.Adapters)-1 || g.held.Load() != 0 {
		t.Errorf("holding one sheet, %d adapters' verdicts read again (want %d), %d sheets still held", again, len(m.Adapters)-1, g.held.Load())
	}
}

// countedVerdicts are oddVerdicts, counting the reads of each adapter's.
type countedVerdicts struct {
	oddVerdicts
	mu    sync.Mutex
	asked map[string]int
}

func (c *countedVerdicts) DistroVerdicts(adapter string, stacks, distros []string, yield func(stack, distro string, n int, v *verdict.Verdict)) {
	c.mu.Lock()
	c.asked[adapter]++
	c.mu.Unlock()
	c.oddVerdicts.DistroVerdicts(adapter, stacks, distros, yield)
}
