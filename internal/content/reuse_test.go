package content

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rocekb/rocekb/internal/page"
)

// countFS counts the opens of FAQ pages.
type countFS struct {
	fs.StatFS
	opens int
}

func (c *countFS) Open(name string) (fs.File, error) {
	if strings.HasSuffix(name, ".md") {
		c.opens++
	}
	return c.StatFS.Open(name)
}

// TestReuseStamps: a load that reuses reads again only the pages whose
// size, times or inode changed since it read them, and reads every page
// whose stamp was racy (written within racy of the read).
func TestReuseStamps(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "faq"), 0o755)
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, "faq", name), []byte("+++\n"+goodFront+"+++\n"+body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.md", "Body A.\n")
	write("b.md", "Body B.\n")
	fsys := &countFS{StatFS: os.DirFS(dir).(fs.StatFS)}
	load := func(c *page.KeepAll) map[string]*Page {
		t.Helper()
		fsys.opens = 0
		ct, probs := LoadReusing(fsys, "content", c)
		if probs.Errors() > 0 {
			t.Fatal(probs)
		}
		out := map[string]*Page{}
		for _, p := range ct.Pages {
			out[p.Slug] = p
		}
		return out
	}
	defer func(r time.Duration) { racy = r }(racy)

	racy = time.Hour // every file here was written just now
	var c page.KeepAll
	first := load(&c)
	if again := load(&c); fsys.opens != 2 || again["a"] != first["a"] {
		t.Errorf("racy stamps: %d pages read, want 2 (and the same parse of unchanged bytes)", fsys.opens)
	}

	racy = 0
	load(&c)
	if load(&c); fsys.opens != 0 {
		t.Errorf("unchanged stamps: %d pages read, want 0", fsys.opens)
	}
	// Other bytes of the same size, with the old modification time: the
	// change time tells.
	fi, _ := os.Stat(filepath.Join(dir, "faq", "a.md"))
	write("a.md", "Body Z.\n")
	os.Chtimes(filepath.Join(dir, "faq", "a.md"), fi.ModTime(), fi.ModTime())
	got := load(&c)
	if fsys.opens != 1 || !strings.Contains(got["a"].Body, "Body Z.") || got["b"] != first["b"] {
		t.Errorf("after an edit: %d pages read, a = %q", fsys.opens, got["a"].Body)
	}
}

// TestReuseLinksFollowTheMatrix: a lint that reuses the problems of a
// body checks it again when the ids its links resolve against change, for
// every kind of the matrix's pages.
func TestReuseLinksFollowTheMatrix(t *testing.T) {
	fsys := base()
	fsys["faq/p.md"] = mdPage(goodFront, "Body [src-a] [d](kb:distro/debian-13).\n")
	c, _ := Load(fsys, "content")
	var keep page.KeepAll
	lint := func(r *Refs) int {
		return Lint(c, LintOptions{Refs: r, Reuse: &keep}).Errors()
	}
	r := refs()
	if n := lint(r); n != 1 {
		t.Fatalf("%d errors, want the broken link", n)
	}
	r = refs()
	r.Distros["debian-13"] = true
	if n := lint(r); n != 0 {
		t.Errorf("%d errors after the matrix gained the distro, want 0", n)
	}
}
