package build

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rocekb/rocekb"
	"github.com/rocekb/rocekb/internal/dirtest"
)

// edit replaces old with new in file, which must hold old.
func edit(t *testing.T, file, old, new string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s does not hold %q", file, old)
	}
	if err := os.WriteFile(file, bytes.Replace(b, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestUpdateEqualsBuild edits a copy of a small knowledge base one input
// at a time and requires, after each edit, that updating the
// previous build's folder in place gives the tree a fresh build gives:
// the outputs' keys (keys.go) name every input their bytes depend on.
func TestUpdateEqualsBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a site 36 times")
	}
	t.Parallel()
	work := t.TempDir()
	// The engine's small matrix and a FAQ page, a tree and a glossary:
	// every page kind, at a tenth of the bundled site's cost per build.
	for _, d := range []string{"matrix", "content"} {
		dirtest.Copy(t, filepath.Join("testdata/update", d), filepath.Join(work, d))
	}
	// A few records: host pages are not keyed, so more only cost time.
	// The edited one (hostFile) runs a ConnectX-5, so its adapter page,
	// keyed by its hosts, changes with it.
	hosts, _ := filepath.Glob("../../testdata/hosts/*.golden.toml")
	hosts = append(hosts[:min(5, len(hosts))], filepath.Join("../../testdata/hosts", editedHost))
	for _, h := range hosts {
		b, err := os.ReadFile(h)
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(work, "records"), 0o755)
		os.WriteFile(filepath.Join(work, "records", filepath.Base(h)), b, 0o644)
	}
	cfg := bundled(filepath.Join(work, "live"))
	cfg.Matrix, cfg.Content, cfg.Records = filepath.Join(work, "matrix"), filepath.Join(work, "content"), filepath.Join(work, "records")
	cfg.Static, cfg.Templates = filepath.Join(work, "static"), filepath.Join(work, "templates")
	res, err := Site(cfg, Options{Assets: rocekb.Assets, Keep: true})
	if err != nil {
		t.Fatal(err)
	}
	prev := res
	// A fresh build is deterministic (TestOneOffBuildLetsGo), so the tree
	// of inputs already built once is read from that build: the first
	// build's, for "nothing", and the state before the static file and
	// the template override, which the steps that remove them return to.
	freshTrees := map[string]map[string][]byte{inputsDigest(t, work, cfg.Title): dirtest.Read(t, cfg.Output)}
	faq := filepath.Join(work, "content/faq/gid-index-rtr.md")
	steps := []struct {
		name   string
		change func()
		// rendered and changed are the shares of the outputs the update
		// may render and write, where the edit touches little.
		rendered, changed float64
	}{
		// The pages no key covers (host and fleet pages) render on every
		// update: 11 of this site's 96 outputs.
		{"nothing", func() {}, 0.12, 0},
		{"a FAQ body", func() { edit(t, faq, "\n+++\n", "\n+++\nAn added first paragraph.\n\n") }, 1, 0.1},
		{"a FAQ title", func() { edit(t, faq, "title = \"", "title = \"Edited: ") }, 1, 1},
		{"the FAQ body back", func() { edit(t, faq, "\n+++\nAn added first paragraph.\n\n", "\n+++\n") }, 1, 0.1},
		{"a FAQ tag", func() { edit(t, faq, `tags = ["gid",`, `tags = ["edited-tag", "gid",`) }, 1, 1},
		{"a FAQ names another adapter", func() { edit(t, faq, `adapters = ["connectx-5"]`, `adapters = ["connectx-5", "e810"]`) }, 1, 1},
		{"a FAQ page added", func() {
			b, err := os.ReadFile(faq)
			if err != nil {
				t.Fatal(err)
			}
			b = bytes.Replace(b, []byte(`translation_key = "gid-index"`), []byte(`translation_key = "added-page"`), 1)
			b = bytes.Replace(b, []byte(`title = "`), []byte(`title = "Added: `), 1)
			os.WriteFile(filepath.Join(work, "content/faq/added-page.md"), b, 0o644)
		}, 1, 1},
		{"a translation added", func() {
			// The English and Chinese pages' front matter is unchanged; their
			// language switch gains the page that joined their group.
			b, err := os.ReadFile(filepath.Join(work, "content/faq/gid-index-rtr.zh.md"))
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(work, "content/faq/gid-index-rtr.ja.md"), bytes.Replace(b, []byte(`lang = "zh"`), []byte(`lang = "ja"`), 1), 0o644)
		}, 1, 1},
		{"the translation moved", func() {
			// Every page's front matter but the moved one is unchanged, and
			// so are the pages there are: only the translation groups tell
			// the English page it lost a translation and the added page
			// that it gained one.
			edit(t, filepath.Join(work, "content/faq/gid-index-rtr.ja.md"), `translation_key = "gid-index"`, `translation_key = "added-page"`)
		}, 1, 1},
		{"an adapter note", func() {
			edit(t, filepath.Join(work, "matrix/engine.toml"), "v1 only is implied by the RHEL defaults, not stated", "v1 only is implied by the RHEL defaults, not stated. Edited.")
		}, 1, 1},
		{"a glossary definition", func() {
			edit(t, filepath.Join(work, "content/glossary.toml"), "Remote direct memory access:", "Remote direct memory access (edited):")
		}, 1, 1},
		{"a tree title", func() {
			edit(t, filepath.Join(work, "content/trees/gid-table-empty.toml"), "title = \"", "title = \"Edited: ")
		}, 1, 1},
		{"a record edited", func() {
			edit(t, hostFile(work), "redacted = false", "redacted = true")
		}, 1, 1},
		{"a record removed", func() {
			os.Remove(hostFile(work))
		}, 1, 1},
		{"a static file added", func() {
			os.MkdirAll(filepath.Join(work, "static"), 0o755)
			os.WriteFile(filepath.Join(work, "static/extra.txt"), []byte("extra\n"), 0o644)
		}, 1, 1},
		{"the static file removed", func() { os.RemoveAll(filepath.Join(work, "static")) }, 0.12, 0.02},
		{"a template overridden", func() {
			b, err := fs.ReadFile(rocekb.Assets, "templates/faq.html")
			if err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(cfg.Templates, 0o755)
			os.WriteFile(filepath.Join(cfg.Templates, "faq.html"), append(b, "<!-- overridden -->\n"...), 0o644)
		}, 1, 1},
		{"the override removed", func() { os.RemoveAll(cfg.Templates) }, 1, 1},
		{"the site title", func() { cfg.Title = "Edited title" }, 1, 1},
	}
	for i, st := range steps {
		st.change()
		res, err := Site(cfg, Options{Assets: rocekb.Assets, Previous: prev})
		if err != nil {
			t.Fatalf("%s: update: %v", st.name, err)
		}
		if !res.Update {
			t.Fatalf("%s: the build did not update in place", st.name)
		}
		// The search index is kept when no document changed, and only then.
		if st.name == "nothing" && !res.IndexKept || st.name == "a FAQ body" && res.IndexKept {
			t.Errorf("%s: IndexKept = %t", st.name, res.IndexKept)
		}
		prev = res
		t.Logf("%s: rendered %d, changed %d of %d", st.name, res.Rendered, res.Changed, res.Outputs)
		if float64(res.Rendered) > st.rendered*float64(res.Outputs) || float64(res.Changed) > st.changed*float64(res.Outputs) {
			t.Errorf("%s: the update rendered %d and changed %d of %d outputs", st.name, res.Rendered, res.Changed, res.Outputs)
		}
		digest := inputsDigest(t, work, cfg.Title)
		want, built := freshTrees[digest]
		if !built {
			fresh := cfg
			fresh.Output = filepath.Join(work, "fresh", string(rune('a'+i)))
			if _, err := Site(fresh, Options{Assets: rocekb.Assets}); err != nil {
				t.Fatalf("%s: build: %v", st.name, err)
			}
			want = dirtest.Read(t, fresh.Output)
			freshTrees[digest] = want
			os.RemoveAll(fresh.Output)
		}
		got := dirtest.Read(t, cfg.Output)
		for name, b := range want {
			if g, ok := got[name]; !ok {
				t.Errorf("%s: the update lacks %s", st.name, name)
			} else if !bytes.Equal(g, b) {
				t.Errorf("%s: %s differs from a fresh build", st.name, name)
			}
		}
		for name := range got {
			if _, ok := want[name]; !ok && !strings.HasPrefix(filepath.Base(name), ".kbgen-tmp-") {
				t.Errorf("%s: the update left %s, which a fresh build does not have", st.name, name)
			} else if !ok {
				t.Errorf("%s: temporary file %s left behind", st.name, name)
			}
		}
	}
	if len(freshTrees) != len(steps)-2 {
		t.Errorf("%d distinct input states, want %d: the steps that return to an earlier state no longer do", len(freshTrees), len(steps)-2)
	}
}

// inputsDigest is a digest of the site's title and every input file under
// work (the outputs live and fresh left out).
func inputsDigest(t *testing.T, work, title string) string {
	t.Helper()
	h := sha256.New()
	fmt.Fprintf(h, "title %q\n", title)
	files := dirtest.Read(t, work)
	names := make([]string, 0, len(files))
	for name := range files {
		if top, _, _ := strings.Cut(name, "/"); top != "live" && top != "fresh" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(h, "%q %d\n", name, len(files[name]))
		h.Write(files[name])
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// editedHost is the record the test edits and removes: a ConnectX-5
// host, the one adapter of testdata/update's matrix the records run.
const editedHost = "mlx5-cx5-mlnxofed.golden.toml"

// hostFile is the copy of editedHost.
func hostFile(work string) string { return filepath.Join(work, "records", editedHost) }
