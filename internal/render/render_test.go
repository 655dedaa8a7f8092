package render

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/site"
)

func files(m map[string]string) Producer {
	return func(emit func(Output) error) error {
		for _, n := range sortedKeys(m) {
			if err := emit(Bytes(n, []byte(m[n]))); err != nil {
				return err
			}
		}
		return nil
	}
}

func TestBuildReplacesOnlyItsOwnOutput(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Build(dir, files(map[string]string{"a/b.html": "one"})); err != nil {
		t.Fatal(err)
	}
	st, err := Build(dir, files(map[string]string{"c.html": "two"}))
	if err != nil || st.Outputs != 1 {
		t.Fatalf("Build = %+v, %v", st, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a/b.html")); !os.IsNotExist(err) {
		t.Errorf("stale file from the first build survived: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "c.html")); string(b) != "two" {
		t.Errorf("c.html = %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, Marker)); err != nil {
		t.Errorf("no marker: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 2 || entries[0].Name() != ".out.lock" {
		t.Errorf("temporary folders left beside the output (only its lock may stay): %v", entries)
	}

	foreign := filepath.Join(t.TempDir(), "mine")
	os.MkdirAll(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "keep.txt"), []byte("x"), 0o644)
	_, err = Build(foreign, files(map[string]string{"index.html": ""}))
	if err == nil || !strings.Contains(err.Error(), "refusing") {
		t.Fatalf("want refusal, got %v", err)
	}
	if _, err := os.Stat(filepath.Join(foreign, "keep.txt")); err != nil {
		t.Errorf("foreign file touched: %v", err)
	}
}

func TestBuildFailureLeavesPreviousSite(t *testing.T) {
	t.Parallel()
	for name, bad := range map[string]Producer{
		"escaping path": files(map[string]string{"../escape.html": "x"}),
		"duplicate":     func(emit func(Output) error) error { emit(Bytes("a.html", nil)); return emit(Bytes("a.html", nil)) },
		"failing output": func(emit func(Output) error) error {
			return emit(Func("f.html", func(io.Writer) error { return fmt.Errorf("boom") }))
		},
	} {
		// BuildOnce streams each output into its file: a failure midway
		// must leave the previous site as Build does.
		for how, build := range map[string]func(string, ...Producer) (Stats, error){"Build": Build, "BuildOnce": BuildOnce} {
			dir := filepath.Join(t.TempDir(), "out")
			if _, err := Build(dir, files(map[string]string{"index.html": "v1"})); err != nil {
				t.Fatal(err)
			}
			if _, err := build(dir, files(map[string]string{"ok.html": "v2"}), bad); err == nil {
				t.Fatalf("%s, %s: want an error", how, name)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "index.html")); string(b) != "v1" {
				t.Errorf("%s, %s: previous site damaged: index.html = %q", how, name, b)
			}
			entries, _ := os.ReadDir(filepath.Dir(dir))
			if len(entries) != 2 || entries[0].Name() != ".out.lock" {
				t.Errorf("%s, %s: temporary folders left after a failed build (only the lock may stay): %v", how, name, entries)
			}
		}
	}
}

// TestBuildStagesInOrder: a stage sees every output of the stages before
// it written, which is what lets the home page list the host pages.
func TestBuildStagesInOrder(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "out")
	var made [200]bool
	first := func(emit func(Output) error) error {
		for i := range made {
			if err := emit(Func(fmt.Sprintf("p/%03d.html", i), func(w io.Writer) error { made[i] = true; return nil })); err != nil {
				return err
			}
		}
		return nil
	}
	second := func(emit func(Output) error) error {
		for i, ok := range made {
			if !ok {
				return fmt.Errorf("page %d not written before the next stage", i)
			}
		}
		return emit(Bytes("index.html", []byte("all")))
	}
	if _, err := Build(dir, first, second); err != nil {
		t.Fatal(err)
	}
}

func TestTemplatesLayersAndRelativeLinks(t *testing.T) {
	t.Parallel()
	builtin := fstest.MapFS{
		"templates/base.html":    {Data: []byte(`{{define "head"}}<a href="{{rel . "home"}}">home</a> <link href="{{asset . "style.css"}}">{{end}}`)},
		"templates/adapter.html": {Data: []byte(`{{template "head" .}} builtin {{.Title}}`)},
		"templates/home.html":    {Data: []byte(`{{template "head" .}} <a href="{{rel . "adapter" "x"}}">x</a> <a href="{{link . "glossary/gid"}}">gid</a>`)},
		"static/style.css":       {Data: []byte("a{}")},
	}
	override := fstest.MapFS{"templates/adapter.html": {Data: []byte(`{{template "head" .}} custom {{.Title}}`)}}
	tpl, err := LoadTemplates(Layers{builtin, nil, override})
	if err != nil {
		t.Fatal(err)
	}
	ad := &site.AdapterPage{Meta: site.Meta{Ref: page.Ref{Kind: page.Adapter, ID: "x"}, Title: "X <b>"}}
	home := &site.Home{Meta: site.Meta{Ref: page.Ref{Kind: page.Home}}}
	var b strings.Builder
	if err := tpl.Execute(&b, ad); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), `<a href="../index.html">home</a> <link href="../style.css"> custom X &lt;b&gt;`; got != want {
		t.Errorf("adapter page = %q, want %q", got, want)
	}
	b.Reset()
	if err := tpl.Execute(&b, home); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), `<a href="index.html">home</a> <link href="style.css"> <a href="adapter/x.html">x</a> <a href="glossary.html#gid">gid</a>`; got != want {
		t.Errorf("home page = %q, want %q", got, want)
	}
	if err := tpl.Execute(&b, &site.TreePage{Meta: site.Meta{Ref: page.Ref{Kind: page.Tree, ID: "t"}}}); err == nil {
		t.Error("want an error for a missing template")
	}
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Build(dir, Static(Layers{builtin}), tpl.Pages([]site.Page{ad, home})); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"style.css", "index.html", "adapter/x.html"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

// TestWriteNew checks the file writer every output goes through: the
// bytes land whole (a large file too, past one write on some systems),
// an empty output is an empty file, and an existing file is never
// overwritten (the build's folder is new; a name twice is a bug).
func TestWriteNew(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := strings.Repeat("0123456789abcdef", 1<<18) // 4 MiB
	for name, data := range map[string]string{"a.html": "<p>one</p>", "empty": "", "big": big} {
		target := filepath.Join(dir, name)
		if err := writeNew(target, []byte(data)); err != nil {
			t.Fatalf("writeNew(%s): %v", name, err)
		}
		if b, err := os.ReadFile(target); err != nil || string(b) != data {
			t.Errorf("%s holds %d bytes (%v), want %d", name, len(b), err, len(data))
		}
		if fi, err := os.Stat(target); err != nil || fi.Mode().Perm()&0o444 != 0o444 {
			t.Errorf("%s: mode %v (%v), want readable by all", name, fi.Mode(), err)
		}
	}
	err := writeNew(filepath.Join(dir, "a.html"), []byte("two"))
	if !errors.Is(err, fs.ErrExist) || !strings.Contains(err.Error(), "a.html") {
		t.Errorf("writeNew over an existing file = %v, want an error naming it that is fs.ErrExist", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.html")); string(b) != "<p>one</p>" {
		t.Errorf("existing file overwritten: %q", b)
	}
	if err := writeNew(filepath.Join(dir, "missing", "x"), nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("writeNew in a missing folder = %v, want fs.ErrNotExist", err)
	}
}

// TestBuildOnceKeepsNoManifest: a build no update follows writes the
// same files as Build and returns no manifest.
func TestBuildOnceKeepsNoManifest(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "out")
	big := strings.Repeat("0123456789abcdef", 20000) // 320,000 bytes: several buffer flushes
	st, err := BuildOnce(dir, files(map[string]string{"a/b.html": "one", "c.html": "two", "big.csv": big}))
	if err != nil || st.Outputs != 3 || st.Manifest != nil {
		t.Fatalf("BuildOnce = %+v, %v; want 3 outputs and no manifest", st, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a/b.html")); string(b) != "one" {
		t.Errorf("a/b.html = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "big.csv")); string(b) != big {
		t.Errorf("big.csv: %d bytes, want %d", len(b), len(big))
	}
	if _, err := os.Stat(filepath.Join(dir, Marker)); err != nil {
		t.Errorf("no marker: %v", err)
	}
}
