package build

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"
	"weak"

	"github.com/rocekb/rocekb"
	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/dirtest"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/site"
)

// bundled is the site configuration of the repository's matrix, content
// and fixture hosts, built into out.
func bundled(out string) config.Config {
	cfg := config.Default()
	cfg.Matrix, cfg.Content, cfg.Records, cfg.Output = "../../matrix", "../../content", "../../testdata/hosts", out
	return cfg
}

// tiny is a site of the one-adapter matrix and empty content in
// testdata, for the tests about records: a build of it costs little.
func tiny(out string) config.Config {
	cfg := bundled(out)
	cfg.Matrix, cfg.Content = "testdata/matrix", "testdata/content"
	return cfg
}

// TestMain removes the shared build's folder (sharedSite) after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// shared is one build of the bundled site with the fixture hosts, made
// by the first test that asks for it and read by the others.
var shared struct {
	once sync.Once
	dir  string // holds the site in "site"
	res  *Result
	err  error

	readOnce sync.Once
	files    map[string][]byte // sharedFiles
}

// sharedSite builds the bundled knowledge base with the fixture hosts
// once per test binary and returns its result and output folder.
func sharedSite(t *testing.T) (*Result, string) {
	t.Helper()
	shared.once.Do(func() {
		if shared.dir, shared.err = os.MkdirTemp("", "build-test-"); shared.err != nil {
			return
		}
		shared.res, shared.err = Site(bundled(filepath.Join(shared.dir, "site")), Options{Assets: rocekb.Assets})
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.res, filepath.Join(shared.dir, "site")
}

// sharedFiles is every file of the shared build (sharedSite) by its slash
// path, read once for the tests that read the whole site or most of it.
func sharedFiles(t *testing.T) map[string][]byte {
	t.Helper()
	_, out := sharedSite(t)
	shared.readOnce.Do(func() { shared.files = dirtest.Read(t, out) })
	if shared.files == nil {
		t.Fatal("the shared build could not be read")
	}
	return shared.files
}

// TestBuildHostAndFleetFragments builds the fixture hosts and checks what
// their host and fleet pages say, through the real templates.
func TestBuildHostAndFleetFragments(t *testing.T) {
	t.Parallel()
	res, out := sharedSite(t)
	records, _ := filepath.Glob("../../testdata/hosts/*.toml")
	n := len(records)
	if n < 49 || res.Records != n || res.Skipped != 0 || res.Pages == 0 || res.Outputs <= res.Pages || len(res.Docs) == 0 {
		t.Errorf("result: %d records, %d skipped, %d pages, %d files, %d search docs", res.Records, res.Skipped, res.Pages, res.Outputs, len(res.Docs))
	}
	for file, fragments := range map[string][]string{
		"host/mlx5-cx4-rhel7-rdma-cm-mode.golden.html": {
			`<title>Host record mlx5-cx4-rhel7-rdma-cm-mode.golden · rocekb: RoCE adapter compatibility</title>`,
			`<link rel="stylesheet" href="../style.css">`,
			`<strong>0 errors, 1 warning, 0 info.</strong>`,
			`<h3><span class="badge sev-warning">warning</span> 1 warning</h3>`,
			`<p class="check-title">Is the RDMA_CM default RoCE mode v2 on v2-capable ports?</p>`,
			`<a href="mlx5-cx4-rhel7-rdma-cm-mode.golden.toml" download>`,
			`<div class="finding warning" id="roce-mode-v1-mlx5_0/1">`,
			`<a href="../tree/rdma-cm-connection-fails.html">`,
		},
		"host/mlx5-cx4lx-hpe-probe-failed.golden.html": {
			`<span class="badge sev-error">error</span>`,
			`<span class="meta">on 0000:0b:00.0, also on 0000:0b:00.1 (the same finding on each function of this card)</span>`,
		},
		"host/mlx5-cx5-mlnxofed.golden.html": {
			`<dt>Operating system</dt><dd><span class="absent">not recorded</span></dd>`,
			`<td data-label="PCI address"><code>0000:b3:00.0</code></td>
<td data-label="PCI ids"><span class="absent">not recorded</span></td>`,
		},
		"fleet.html": {
			fmt.Sprintf(`<p class="lede">%d host records, diagnosed against the matrix. Hosts worst first.</p>`, n),
			`<td><a href="host/mlx5-cx4-rhel7-rdma-cm-mode.golden.html">mlx5-cx4-rhel7-rdma-cm-mode.golden</a></td>`,
			`<a href="hosts.csv">hosts.csv</a>`,
			`<svg class="chart" role="img"`,
			`<h2 id="roce-modes">RDMA_CM default RoCE modes</h2>`,
		},
		"index.html": {fmt.Sprintf(`<a href="fleet.html">Fleet view</a>: drift and counts across %d host records.`, n)},
		// Without JavaScript, search.html sends readers to the adapters
		// index and the FAQ list.
		"search.html": {`<a href="adapter/index.html">adapters index</a>`, `<a href="faq/index.html">FAQ list</a>`, `<ol id="search-results">`},
	} {
		b, err := os.ReadFile(filepath.Join(out, file))
		if err != nil {
			t.Error(err)
			continue
		}
		for _, f := range fragments {
			if !bytes.Contains(b, []byte(f)) {
				t.Errorf("%s lacks %s", file, f)
			}
		}
	}
}

// TestInvalidRecord: a record that does not validate is left out with a
// warning at its field; Strict makes it an InputError and keeps the
// previous site.
func TestInvalidRecord(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	recs := filepath.Join(dir, "records")
	os.MkdirAll(recs, 0o755)
	os.WriteFile(filepath.Join(recs, "good.toml"), []byte("schema = 2\n[host]\nid = \"db-01\"\nsource_kind = \"root\"\nredacted = false\nhas_rdma = false\n"), 0o644)
	os.WriteFile(filepath.Join(recs, "bad.toml"), []byte("schema = 2\n[host]\nid = \"evil\"\nsource_kind = \"root\"\nredacted = false\nhas_rdma = false\n\n[[adapter]]\npci_address = \"javascript:alert(1)\"\n"), 0o644)
	cfg := tiny(filepath.Join(dir, "public"))
	cfg.Records = recs
	var stderr bytes.Buffer
	res, err := Site(cfg, Options{Assets: rocekb.Assets, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	if res.Records != 1 || res.Skipped != 1 || res.Warnings != 2 {
		t.Errorf("%d records, %d skipped, %d warnings; want 1, 1, 2", res.Records, res.Skipped, res.Warnings)
	}
	if s := res.Summary("public"); !strings.Contains(s, "from 1 record (1 left out) into public: ") || !strings.HasSuffix(s, ", 2 warnings") {
		t.Errorf("summary %q", s)
	}
	if !strings.Contains(stderr.String(), "bad.toml: warning: record left out of the site") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	_, err = Site(cfg, Options{Assets: rocekb.Assets, Strict: true})
	var input *InputError
	if !errors.As(err, &input) || !strings.Contains(err.Error(), "pci_address") {
		t.Errorf("Strict: %v, want an InputError naming pci_address", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "public", "host", "db-01.html")); err != nil {
		t.Errorf("the failed Strict build removed the previous site: %v", err)
	}
}

// TestBadMatrixIsInputError: a matrix that does not lint stops the build
// before anything is written.
func TestBadMatrixIsInputError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bad.toml"), []byte("[[vendor]]\nid = \n"), 0o644)
	cfg := bundled(filepath.Join(dir, "public"))
	cfg.Matrix = dir
	_, err := Site(cfg, Options{Assets: rocekb.Assets})
	var input *InputError
	if !errors.As(err, &input) || !strings.Contains(err.Error(), "bad.toml:") {
		t.Errorf("got %v, want an InputError at bad.toml", err)
	}
	if _, err := os.Stat(cfg.Output); err == nil {
		t.Errorf("a failed build wrote %s", cfg.Output)
	}
}

// TestBrokenBodyLinkIsInputError: a link in an FAQ body that names no
// page loads (the load leaves body links to the build), and fails the
// build, one-off (the bodies rendered as their pages are written) or kept
// (rendered with the site model), with every such link at its
// file:line:col, and the site built before stays in place.
func TestBrokenBodyLinkIsInputError(t *testing.T) {
	t.Parallel()
	for _, keep := range []bool{false, true} {
		dir := t.TempDir()
		cfg := tiny(filepath.Join(dir, "public"))
		if _, err := Site(cfg, Options{Assets: rocekb.Assets}); err != nil {
			t.Fatal(err)
		}
		cfg.Content = filepath.Join(dir, "content")
		os.MkdirAll(filepath.Join(cfg.Content, "faq"), 0o755)
		for _, name := range []string{"a", "b"} {
			page := "+++\ntitle = \"" + name + "\"\nsummary = \"S\"\nsources = [\"doc\"]\nlast_verified = 2026-11-30\nlang = \"en\"\n+++\nCites [doc].\n\nSee [x](kb:faq/nowhere-" + name + ").\n"
			os.WriteFile(filepath.Join(cfg.Content, "faq", name+".md"), []byte(page), 0o644)
		}
		_, err := Site(cfg, Options{Assets: rocekb.Assets, Keep: keep})
		var input *InputError
		if !errors.As(err, &input) {
			t.Fatalf("keep %v: got %v, want an InputError", keep, err)
		}
		for _, want := range []string{"a.md:10:5: broken link \"kb:faq/nowhere-a\"", "b.md:10:5: broken link \"kb:faq/nowhere-b\""} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("keep %v: %v\nwant %s", keep, err, want)
			}
		}
		if _, err := os.Stat(filepath.Join(cfg.Output, "faq", "a.html")); err == nil {
			t.Errorf("keep %v: the failed build replaced the site before", keep)
		}
	}
}

// TestSummary: the one line, with its plurals and time formats.
func TestSummary(t *testing.T) {
	t.Parallel()
	r := &Result{Pages: 1, Outputs: 3, Records: 1, Warnings: 0, Elapsed: 12340 * time.Millisecond, IndexDur: 250 * time.Millisecond}
	want := "built 1 page from 1 record into out: 3 files in 12.3s (search index 0.25s), 0 warnings"
	if got := r.Summary("out"); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestRecordDownloadIsItsBytes: the record beside a host page is the
// record file as it came, comments and all, not the record encoded
// again, and a JSON record is downloaded as JSON.
func TestRecordDownloadIsItsBytes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	recs := filepath.Join(dir, "records")
	os.MkdirAll(recs, 0o755)
	tomlSrc := []byte("# collected by hand\nschema = 2\n[host]\nid = \"db-01\"\nsource_kind = \"root\"\nredacted = false\nhas_rdma = false  # no adapters\n")
	h, probs := record.Decode("db-02", []byte("schema = 2\n[host]\nid = \"db-02\"\nsource_kind = \"root\"\nredacted = false\nhas_rdma = false\n"))
	if h == nil {
		t.Fatal(probs)
	}
	var jsonSrc bytes.Buffer
	if err := record.Encode(&jsonSrc, h, "json"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(recs, "db-01.toml"), tomlSrc, 0o644)
	os.WriteFile(filepath.Join(recs, "db-02.json"), jsonSrc.Bytes(), 0o644)
	cfg := tiny(filepath.Join(dir, "public"))
	cfg.Records = recs
	if _, err := Site(cfg, Options{Assets: rocekb.Assets}); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string][]byte{"host/db-01.toml": tomlSrc, "host/db-02.json": jsonSrc.Bytes()} {
		got, err := os.ReadFile(filepath.Join(cfg.Output, file))
		if err != nil {
			t.Error(err)
		} else if !bytes.Equal(got, want) {
			t.Errorf("%s:\n%s\nwant the record's bytes:\n%s", file, got, want)
		}
	}
	page, err := os.ReadFile(filepath.Join(cfg.Output, "host/db-02.html"))
	if err != nil || !bytes.Contains(page, []byte(`<a href="db-02.json" download>`)) {
		t.Errorf("host/db-02.html does not link its JSON record (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(cfg.Output, "host/db-02.toml")); err == nil {
		t.Errorf("a JSON record was also written as TOML")
	}
}

// TestOneOffBuildLetsGo builds the shipped knowledge base a second time.
// It holds the build to what it lets go of (docs/architecture.md, "What a
// one-off build lets go of"): an FAQ page's body is not rendered before
// its page is written, its markdown is not held but read again from its
// file then, and its HTML is let go of once the page is written; an adapter page's grid once the page is written; and the site
// model, the inputs and the templates before the search index is made,
// so that nothing but the documents is live then.
// And the build is deterministic: it makes the tree the shared build made,
// byte for byte (the hooks that watch it only read).
func TestOneOffBuildLetsGo(t *testing.T) {
	t.Parallel()
	want := sharedFiles(t)
	out := filepath.Join(t.TempDir(), "site")
	var (
		faqs     []*site.FAQ
		adapters []*site.AdapterPage
		gone     []func() bool
		names    []string
		indexing bool
	)
	watch := func(name string, gc func() bool) { names, gone = append(names, name), append(gone, gc) }
	h := &hooks{
		begun: func(b *builder) {
			for _, p := range b.s.Pages {
				if f, ok := p.(*site.FAQ); ok && len(faqs) < 5 {
					if f.HTML != "" {
						t.Errorf("%s: the body is rendered before its page is written", f.Path())
					}
					if f.Page.Body != "" {
						t.Errorf("%s: the markdown is held until the page is written", f.Path())
					}
					if src, err := f.Page.Source(new(bytes.Buffer)); err != nil || len(src) == 0 {
						t.Fatalf("%s: the markdown cannot be read again for its page: %q, %v", f.Path(), src, err)
					}
					faqs = append(faqs, f)
				}
			}
			for _, p := range b.s.Late() {
				if a, ok := p.(*site.AdapterPage); ok && len(adapters) < 5 {
					adapters = append(adapters, a)
				}
			}
			if len(faqs) == 0 || len(adapters) == 0 {
				t.Fatal("the bundled site has no FAQ or adapter page")
			}
			s, k, c, tpl := weak.Make(b.s), weak.Make(b.k), weak.Make(b.k.Content), weak.Make(b.tpl)
			watch("the site model", func() bool { return s.Value() == nil })
			watch("the inputs", func() bool { return k.Value() == nil })
			watch("the content", func() bool { return c.Value() == nil })
			watch("the templates", func() bool { return tpl.Value() == nil })
		},
		indexing: func(b *builder) {
			indexing = true
			runtime.GC()
			for i, gc := range gone {
				if !gc() {
					t.Errorf("%s is still live when the search index is made", names[i])
				}
			}
			for _, f := range faqs {
				if f.HTML != "" || f.Page.Body != "" {
					t.Errorf("%s: the body or its markdown is kept after the page was written", f.Path())
				}
				if docs := site.DocsOf(f); len(docs) != 1 || docs[0].Body == "" {
					t.Errorf("%s: no search text kept for the index: %+v", f.Path(), docs)
				}
			}
			for _, a := range adapters {
				if a.Grid() != nil || a.Sources != nil {
					t.Errorf("%s: the grid or its sources are kept after the page was written", a.Path())
				}
			}
		},
	}
	if _, err := Site(bundled(out), Options{Assets: rocekb.Assets, hooks: h}); err != nil {
		t.Fatal(err)
	}
	if !indexing {
		t.Fatal("the search index was not made")
	}
	trees := [2]map[string][]byte{want, dirtest.Read(t, out)}
	if len(trees[0]) < 3 {
		t.Fatalf("only %d files built", len(trees[0]))
	}
	if len(trees[0]) != len(trees[1]) {
		t.Fatalf("file counts differ: %d vs %d", len(trees[0]), len(trees[1]))
	}
	for name, a := range trees[0] {
		if !bytes.Equal(a, trees[1][name]) {
			t.Errorf("%s differs between builds", name)
		}
	}
}

// TestHostsGC checks that Options.HostsGC paces the collector while the
// host records are read, and that the build leaves the pace as it found
// it.
func TestHostsGC(t *testing.T) {
	pace := func() uint64 {
		s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	before := pace()
	var during uint64
	h := &hooks{hosts: func(*builder) { during = pace() }}
	if _, err := Site(tiny(filepath.Join(t.TempDir(), "site")), Options{Assets: rocekb.Assets, HostsGC: int(before) + 123, hooks: h}); err != nil {
		t.Fatal(err)
	}
	if during != before+123 {
		t.Errorf("GOGC while the records were read = %d, want %d", during, before+123)
	}
	if after := pace(); after != before {
		t.Errorf("GOGC after the build = %d, want it back at %d", after, before)
	}
}
