package dirfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// TestFS: the folder reads as os.DirFS reads it, by fstest's checks of
// every method (files and folders opened, read, stated and listed), and
// a missing file, a path os.DirFS refuses and a file closed twice fail
// as there.
func TestFS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{"a.md": "+++\ntitle = \"A\"\n+++\nbody\n", "faq/b.md": "b", "faq/deep/c.toml": "", "empty/.keep": "x"}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fsys := New(dir)
	if err := fstest.TestFS(fsys, "a.md", "faq/b.md", "faq/deep/c.toml", "empty/.keep"); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if got, err := fs.ReadFile(fsys, name); err != nil || string(got) != data {
			t.Errorf("ReadFile(%q) = %q, %v; want %q", name, got, err, data)
		}
		f, err := fsys.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := io.ReadAll(f); err != nil || string(got) != data {
			t.Errorf("Open(%q) read %q, %v; want %q", name, got, err, data)
		}
		if err := f.Close(); err != nil {
			t.Errorf("Close(%q): %v", name, err)
		}
		if err := f.Close(); !errors.Is(err, fs.ErrClosed) {
			t.Errorf("Close(%q) again: %v, want %v", name, err, fs.ErrClosed)
		}
	}
	osfs := os.DirFS(dir)
	for _, name := range []string{"missing.md", "../a.md", "/a.md", "a\x00.md", "faq/"} {
		_, err := fsys.Open(name)
		_, want := osfs.Open(name)
		if (err == nil) != (want == nil) || err != nil && err.Error() != want.Error() {
			t.Errorf("Open(%q): %v; os.DirFS: %v", name, err, want)
		}
	}
}
