package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/readiness"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/render"
	"github.com/rocekb/rocekb/internal/site"
	"github.com/rocekb/rocekb/internal/verdict"
)

// collect runs producers and returns what they wrote, by path.
func collect(t *testing.T, ps ...render.Producer) map[string][]byte {
	t.Helper()
	out, err := produce(ps...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// produce runs producers and returns what they wrote, by path; a path
// written twice is an error.
func produce(ps ...render.Producer) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, p := range ps {
		err := p(func(o render.Output) error {
			var b bytes.Buffer
			if err := o.Render(&b); err != nil {
				return err
			}
			if _, dup := out[o.Path()]; dup {
				return fmt.Errorf("%s emitted twice", o.Path())
			}
			out[o.Path()] = b.Bytes()
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// judgedOnce is the bundled matrix and its exports with every cell judged
// anew (engineVerdicts), made once: TestMatrixExports reads them,
// TestMatrixExportsFromSiteVerdicts compares the exports read from a site
// with them.
var judgedOnce = sync.OnceValues(func() (*judgedMatrix, error) {
	m, err := matrixOnce()
	if err != nil {
		return nil, err
	}
	g := &grid{m: m, vs: &engineVerdicts{e: verdict.NewEngine(m), cells: map[string][]verdict.Verdict{}}}
	files, err := produce(g.producer())
	return &judgedMatrix{m, g, files}, err
})

// engineVerdicts judge each cell with an engine of their own, once, each
// verdict its own (n is -1), and hold no verdict for every 97th cell of an
// adapter, which the grid then judges with verdict.Judge. They stand for
// Judge on every cell, which cost judgedOnce 1.3 CPU-s where the engine
// costs a fifth of that: verdict's TestEngineIsJudge holds the engine to
// Judge on every plan of this grid (every adapter on every distro, with
// every stack).
type engineVerdicts struct {
	e     *verdict.Engine
	mu    sync.Mutex
	cells map[string][]verdict.Verdict // adapter id → its cells, stack-major
}

func (ev *engineVerdicts) DistroVerdicts(adapter string, stacks, distros []string, yield func(stack, distro string, n int, v *verdict.Verdict)) {
	ev.mu.Lock()
	cs, ok := ev.cells[adapter]
	if !ok {
		for _, st := range stacks {
			for _, d := range distros {
				cs = append(cs, ev.e.Judge(verdict.Plan{Adapter: adapter, Distro: d, Stack: st}))
			}
		}
		ev.cells[adapter] = cs
	}
	ev.mu.Unlock()
	for i := range cs {
		st, d := stacks[i/len(distros)], distros[i%len(distros)]
		if i%97 == 0 {
			yield(st, d, -1, nil)
			continue
		}
		yield(st, d, -1, &cs[i])
	}
}

type judgedMatrix struct {
	m     *matrix.Matrix
	g     *grid // the grid the files were made with: every cell judged
	files map[string][]byte
}

func judgedExports(t *testing.T) (*matrix.Matrix, map[string][]byte) {
	t.Helper()
	j, err := judgedOnce()
	if err != nil {
		t.Fatal(err)
	}
	return j.m, j.files
}

// judgedGrid is the grid judgedExports' files were made with, for the
// tests that read its cells (judged once, kept by engineVerdicts) again.
func judgedGrid(t *testing.T) *grid {
	t.Helper()
	j, err := judgedOnce()
	if err != nil {
		t.Fatal(err)
	}
	return j.g
}

// matrixOnce and contentOnce load the bundled matrix and content once for
// every test: none of them changes what it reads.
var matrixOnce = sync.OnceValues(func() (*matrix.Matrix, error) {
	m, probs := matrix.Load(os.DirFS("../../matrix"), "matrix")
	if probs.Errors() > 0 {
		return nil, fmt.Errorf("%v", probs)
	}
	return m, nil
})

var contentOnce = sync.OnceValues(func() (*content.Content, error) {
	c, probs := content.Load(os.DirFS("../../content"), "content")
	if probs.Errors() > 0 {
		return nil, fmt.Errorf("%v", probs)
	}
	return c, nil
})

func bundledMatrix(t testing.TB) *matrix.Matrix {
	t.Helper()
	m, err := matrixOnce()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// siteReuse keeps the verdict table (and the FAQ bodies) of the first site
// a test builds of the bundled matrix for the others, as kbgen serve's
// rebuilds do: each site.Build judged the whole grid again, 1.5 CPU-s
// each, when these tests read hosts' pages and exports from it.
// TestMatrixExportsFromSiteVerdicts holds the table to the engine's.
var siteReuse = &page.KeepAll{}

// buildSite is site.Build of the bundled matrix m with cfg and c, reusing
// the verdicts siteReuse keeps. Each call is a site of its own: its hosts
// are only those its test adds.
func buildSite(t *testing.T, cfg config.Config, m *matrix.Matrix, c *content.Content) *site.Site {
	t.Helper()
	s, err := site.Build(site.Input{Config: cfg, Matrix: m, Content: c, Reuse: siteReuse, MatrixSum: page.Sum("the bundled matrix, loaded once by matrixOnce")})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestMatrixExports checks the bundled matrix's exports: the CSV has one
// row per adapter × stack × distro whose verdict is verdict.Judge's (a
// spread of rows judged again), and
// the JSON holds every adapter under its TOML names and no file positions.
// That two runs give the same bytes is TestMatrixExportsFromSiteVerdicts':
// its run from the site's table and judgedExports' are two runs of the
// same writers, and a third run here judged the whole grid again.
func TestMatrixExports(t *testing.T) {
	t.Parallel()
	m, a := judgedExports(t)
	rows, err := csv.NewReader(bytes.NewReader(a["matrix.csv"])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := 1
	for i := range m.Adapters {
		want += len(verdict.AdapterStacks(m, &m.Adapters[i])) * len(m.Distros)
	}
	if len(rows) != want || strings.Join(rows[0], ",") != strings.Join(csvHeader, ",") {
		t.Fatalf("matrix.csv: %d rows (want %d), header %v", len(rows), want, rows[0])
	}
	levels := map[string]int{}
	for i, r := range rows[1:] {
		levels[r[7]]++
		if d := m.Distro(r[4]); d == nil || r[5] != d.Name || strings.HasSuffix(r[5], " "+d.Version+" "+d.Version) {
			t.Errorf("row %d: distro_name %q for %s", i+2, r[5], r[4]) // once "Red Hat Enterprise Linux 9.4 9.4"
		}
		if i%97 == 0 { // a spread of rows, judged again here
			v := verdict.Judge(m, verdict.Plan{Adapter: r[0], Stack: r[3], Distro: r[4]})
			if string(v.Verdict) != r[7] {
				t.Errorf("row %d %s/%s/%s: verdict %s, Judge says %s", i+2, r[0], r[3], r[4], r[7], v.Verdict)
			}
		}
	}
	for _, l := range []verdict.Level{verdict.Supported, verdict.Conditional, verdict.Unsupported} {
		if levels[string(l)] == 0 {
			t.Errorf("no %s row in matrix.csv: %v", l, levels)
		}
	}

	var whole map[string]any
	if err := json.Unmarshal(a["matrix.json"], &whole); err != nil {
		t.Fatal(err)
	}
	if n := len(whole["adapter"].([]any)); n != len(m.Adapters) {
		t.Errorf("matrix.json: %d adapters, want %d", n, len(m.Adapters))
	}
	for _, k := range []string{"source", "distro", "stack", "driver", "firmware_min"} {
		if _, ok := whole[k]; !ok {
			t.Errorf("matrix.json lacks %q", k)
		}
	}
	if bytes.Contains(a["matrix.json"], []byte(`"At"`)) || bytes.Contains(a["matrix.json"], []byte(`matrix/`)) {
		t.Error("matrix.json leaks file positions")
	}

	var cx map[string]any
	if err := json.Unmarshal(a["adapter/connectx-5.json"], &cx); err != nil {
		t.Fatal(err)
	}
	if n := len(cx["verdicts"].([]any)); n != len(verdict.AdapterStacks(m, m.Adapter("connectx-5")))*len(m.Distros) {
		t.Errorf("connectx-5.json: %d verdicts", n)
	}
	if len(cx["sources"].([]any)) == 0 || cx["page"] != "adapter/connectx-5.html" {
		t.Errorf("connectx-5.json: sources %v, page %v", cx["sources"], cx["page"])
	}
}

// TestMatrixExportsFromSiteVerdicts: the exports that read the site's
// verdict table (as a build writes them) are byte for byte those that
// judge every cell anew (engineVerdicts); as two runs of the writers, they
// also hold the exports to the same bytes on every run.
func TestMatrixExportsFromSiteVerdicts(t *testing.T) {
	t.Parallel()
	m, judged := judgedExports(t)
	s := buildSite(t, config.Default(), m, &content.Content{})
	read := collect(t, Matrix(m, s))
	if len(judged) != len(read) {
		t.Fatalf("%d files judged, %d read from the site", len(judged), len(read))
	}
	for name, want := range judged {
		if !bytes.Equal(read[name], want) {
			t.Errorf("%s differs when read from the site's verdicts", name)
		}
	}
	if _, ok := s.DistroVerdict("connectx-5", "rhel-9.4", "no-such-stack"); ok {
		t.Error("DistroVerdict answers for a stack the table does not hold")
	}
	// DistroVerdicts lends its verdicts' memory to the next call: the
	// verdict DistroVerdict returns is its own.
	var want verdict.Verdict
	s.DistroVerdicts("connectx-5", []string{"inbox"}, []string{"rhel-9.4"}, func(_, _ string, _ int, v *verdict.Verdict) {
		want = *v
		want.Reasons = slices.Clone(v.Reasons)
	})
	got, _ := s.DistroVerdict("connectx-5", "rhel-9.4", "inbox")
	var distros []string
	for _, d := range m.Distros {
		distros = append(distros, d.ID)
	}
	s.DistroVerdicts("bluefield-3", []string{"inbox"}, distros, func(string, string, int, *verdict.Verdict) {})
	if len(want.Reasons) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("DistroVerdict's connectx-5 on rhel-9.4 changed after it returned:\n got %+v\nwant %+v", got, want)
	}
}

// TestFeedAndSitemap: the feed parses, newest entry first; the sitemap
// needs a base URL and then lists absolute locations.
func TestFeedAndSitemap(t *testing.T) {
	t.Parallel()
	m := bundledMatrix(t)
	out := collect(t, Feed(m, "kb", ""), Sitemap("", func() []string { return []string{"index.html"} }))
	if _, ok := out["sitemap.xml"]; ok {
		t.Error("sitemap.xml written without a base URL")
	}
	var f atomFeed
	if err := xml.Unmarshal(out["feed.xml"], &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Entries) == 0 || f.Updated != f.Entries[0].Updated {
		t.Fatalf("feed: %d entries, updated %s", len(f.Entries), f.Updated)
	}
	if !sort.SliceIsSorted(f.Entries, func(i, j int) bool { return f.Entries[i].Updated > f.Entries[j].Updated }) {
		t.Error("feed entries are not newest first")
	}
	out = collect(t, Sitemap("https://kb.example/roce", func() []string { return []string{"adapter/index.html", "index.html", "fleet.html"} }))
	s := string(out["sitemap.xml"])
	for _, want := range []string{"<loc>https://kb.example/roce/adapter/</loc>", "<loc>https://kb.example/roce/</loc>", "<loc>https://kb.example/roce/fleet.html</loc>"} {
		if !strings.Contains(s, want) {
			t.Errorf("sitemap lacks %s:\n%s", want, s)
		}
	}
}

// hostFixtures are the bundled matrix and content and the fixture hosts.
func hostFixtures(t *testing.T) (*matrix.Matrix, *content.Content, []*record.Host) {
	t.Helper()
	c, err := contentOnce()
	if err != nil {
		t.Fatal(err)
	}
	hosts, probs := record.LoadDir(os.DirFS("../../testdata/hosts"), "testdata/hosts")
	if probs.Errors() > 0 {
		t.Fatal(probs)
	}
	return bundledMatrix(t), c, hosts
}

// TestHostExports builds the fixture hosts as a build does and checks
// hosts.csv and findings.json against the pages' own reports.
func TestHostExports(t *testing.T) {
	t.Parallel()
	m, c, hosts := hostFixtures(t)
	s := buildSite(t, config.Default(), m, c)
	if len(collect(t, Hosts(s))) != 0 {
		t.Error("host exports written with no hosts")
	}
	findings := 0
	for _, h := range hosts {
		findings += len(s.Host(h).Page().Report.Findings)
	}
	out := collect(t, Hosts(s))
	rows, err := csv.NewReader(bytes.NewReader(out["hosts.csv"])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(hosts)+1 {
		t.Errorf("hosts.csv: %d rows for %d hosts", len(rows), len(hosts))
	}
	var fj struct {
		Hosts    int               `json:"hosts"`
		Findings []site.FindingRow `json:"findings"`
	}
	if err := json.Unmarshal(out["findings.json"], &fj); err != nil {
		t.Fatal(err)
	}
	if fj.Hosts != len(hosts) || len(fj.Findings) != findings || findings == 0 {
		t.Errorf("findings.json: %d hosts, %d findings; want %d, %d", fj.Hosts, len(fj.Findings), len(hosts), findings)
	}
	for _, f := range fj.Findings {
		if f.Title == "" || strings.HasPrefix(f.Host, "(") {
			t.Errorf("finding %+v: no check title or a raw host label", f)
		}
	}
}

// TestReadinessExport: with target plans, readiness.csv has every host of
// every plan with its status as the readiness engine judged it, one row per
// judged adapter function or one for a host with none; without plans there
// is no file.
func TestReadinessExport(t *testing.T) {
	t.Parallel()
	m, c, hosts := hostFixtures(t)
	cfg := config.Default()
	cfg.Targets = []readiness.Target{{Name: "RHEL 9.4, inbox", Distro: "rhel-9.4", Stack: "inbox"}, {Stack: "mlnx-ofed", StackVersion: "24.10-1.1.4.0.105"}}
	s := buildSite(t, cfg, m, c)
	for _, h := range hosts {
		s.Host(h).Page()
	}
	out := collect(t, Hosts(s))
	rows, err := csv.NewReader(bytes.NewReader(out["readiness.csv"])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{} // target label + host page → status
	n := 1
	for _, r := range s.ReadinessReports() {
		if len(r.Hosts) != len(hosts) {
			t.Fatalf("%s: %d hosts judged of %d", r.Target.Label(), len(r.Hosts), len(hosts))
		}
		for _, h := range r.Hosts {
			want[r.Target.Label()+" "+page.Path(page.Host, h.File)] = string(h.Status)
			n += max(1, len(h.Adapters))
			for _, a := range h.Adapters {
				n += len(a.OtherPCI)
			}
		}
	}
	if len(rows) != n || len(want) != 2*len(hosts) {
		t.Fatalf("readiness.csv: %d rows, want %d (%d host-plan pairs)", len(rows), n, len(want))
	}
	statuses := map[string]bool{}
	for _, row := range rows[1:] {
		key := row[0] + " " + row[2]
		if st, ok := want[key]; !ok || row[3] != st {
			t.Errorf("row %v: host status %q, want %q", row[:4], row[3], st)
		}
		statuses[row[3]] = true
	}
	if len(statuses) < 2 {
		t.Errorf("every row has the same status %v: the plans judge nothing", statuses)
	}
	plain := buildSite(t, config.Default(), m, c)
	plain.Host(hosts[0]).Page()
	if _, ok := collect(t, Hosts(plain))["readiness.csv"]; ok {
		t.Error("readiness.csv written without target plans")
	}
}

// TestDriftExport holds drift.csv to the fleet page's drift: a row per
// host of each drifting value, with the host's page, and no file for a
// fleet that does not drift.
func TestDriftExport(t *testing.T) {
	t.Parallel()
	m, c, hosts := hostFixtures(t)
	s := buildSite(t, config.Default(), m, c)
	for _, h := range hosts {
		s.Host(h).Page()
	}
	drift := s.DriftRows()
	if len(drift) == 0 {
		t.Fatal("the fixture hosts do not drift: the test judges nothing")
	}
	rows, err := csv.NewReader(bytes.NewReader(collect(t, Hosts(s))["drift.csv"])).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("drift.csv: %d rows, %v", len(rows), err)
	}
	var want [][]string
	for _, r := range drift {
		for _, h := range r.Hosts {
			if h.Slug == "" {
				t.Errorf("%s %s %s: host %q has no page", r.Model, r.What, r.Value, h.Label)
			}
			want = append(want, []string{r.Model, r.Adapter, r.What, r.Value, strconv.Itoa(r.N), h.Label, page.Path(page.Host, h.Slug)})
		}
	}
	if !reflect.DeepEqual(rows[1:], want) {
		t.Errorf("drift.csv rows:\n%q\nwant\n%q", rows[1:], want)
	}
	plain := buildSite(t, config.Default(), m, c)
	plain.Host(hosts[0]).Page()
	if _, ok := collect(t, Hosts(plain))["drift.csv"]; ok {
		t.Error("drift.csv written for one host, which cannot drift")
	}
}

// TestAdapterSourcesFollowRows: an adapter file's sources are those its
// adapter, vendor, driver and rows cite, each once, in the order the file
// lists what cites them (a distro_support row's ids are made once for
// every file that lists the row).
func TestAdapterSourcesFollowRows(t *testing.T) {
	t.Parallel()
	m, files := judgedExports(t)
	cited := 0
	for i := range m.Adapters {
		id := m.Adapters[i].ID
		var f map[string]any
		if err := json.Unmarshal(files[AdapterJSON(id)], &f); err != nil {
			t.Fatal(err)
		}
		var parts []any
		for _, k := range []string{"adapter", "vendor", "driver", "firmware_min", "part_number", "pci_kernel", "distro_support", "stack_support"} {
			parts = append(parts, f[k])
		}
		want := sourcesOf(parts, map[string]bool{}, nil)
		var got []string
		for _, s := range f["sources"].([]any) {
			got = append(got, s.(map[string]any)["id"].(string))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: sources %v, want %v", AdapterJSON(id), got, want)
		}
		if len(f["distro_support"].([]any)) > 0 {
			cited++
		}
	}
	if cited == 0 {
		t.Error("no adapter file lists a distro_support row")
	}
}
