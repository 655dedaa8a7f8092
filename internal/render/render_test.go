package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rocekb/rocekb/internal/site"
)

func TestWriteTreeReplacesOnlyItsOwnOutput(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "out")
	if err := WriteTree(dir, map[string][]byte{"a/b.html": []byte("one"), Marker: nil}); err != nil {
		t.Fatal(err)
	}
	if err := WriteTree(dir, map[string][]byte{"c.html": []byte("two"), Marker: nil}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a/b.html")); !os.IsNotExist(err) {
		t.Errorf("stale file from the first build survived: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "c.html")); string(b) != "two" {
		t.Errorf("c.html = %q", b)
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("temporary folders left beside the output: %v", entries)
	}

	foreign := filepath.Join(t.TempDir(), "mine")
	os.MkdirAll(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "keep.txt"), []byte("x"), 0o644)
	err := WriteTree(foreign, map[string][]byte{"index.html": nil})
	if err == nil || !strings.Contains(err.Error(), "refusing") {
		t.Fatalf("want refusal, got %v", err)
	}
	if _, err := os.Stat(filepath.Join(foreign, "keep.txt")); err != nil {
		t.Errorf("foreign file touched: %v", err)
	}
}

func TestWriteTreeFailureLeavesPreviousSite(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "out")
	if err := WriteTree(dir, map[string][]byte{"index.html": []byte("v1"), Marker: nil}); err != nil {
		t.Fatal(err)
	}
	if err := WriteTree(dir, map[string][]byte{"../escape.html": []byte("x"), Marker: nil}); err == nil {
		t.Fatal("want an error for an escaping path")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "index.html")); string(b) != "v1" {
		t.Errorf("previous site damaged: index.html = %q", b)
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("temporary folders left after a failed build: %v", entries)
	}
}

func TestPagesLayersAndRelativeLinks(t *testing.T) {
	t.Parallel()
	builtin := fstest.MapFS{
		"templates/base.html": {Data: []byte(`{{define "head"}}<a href="{{.Rel "index.html"}}">home</a>{{end}}`)},
		"templates/page.html": {Data: []byte(`{{template "head" .}} builtin {{.Page.Title}}`)},
	}
	override := fstest.MapFS{"templates/page.html": {Data: []byte(`{{template "head" .}} custom {{.Page.Title}}`)}}
	s := &site.Site{Pages: []site.Page{
		{Path: "index.html", Template: "page", Title: "Home"},
		{Path: "adapter/x.html", Template: "page", Title: "X <b>"},
	}}
	out, err := Pages(s, Layers{builtin, nil, override})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out["adapter/x.html"]), `<a href="../index.html">home</a> custom X &lt;b&gt;`; got != want {
		t.Errorf("adapter page = %q, want %q", got, want)
	}
	if got := string(out["index.html"]); !strings.HasPrefix(got, `<a href="index.html">`) {
		t.Errorf("root page links = %q", got)
	}
	if _, err := Pages(&site.Site{Pages: []site.Page{{Path: "a.html", Template: "missing"}}}, Layers{builtin}); err == nil {
		t.Error("want an error for a missing template")
	}
}
