package corpus

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/matrix"
)

func inputs() Inputs {
	return Inputs{Matrix: os.DirFS("../../matrix"), Content: os.DirFS("../../content"), Hosts: os.DirFS("../../testdata/hosts")}
}

func TestWriteDeterministicAndLoadable(t *testing.T) {
	t.Parallel()
	s, err := SizeNamed("smoke")
	if err != nil {
		t.Fatal(err)
	}
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if err := Write(dir, inputs(), s, Seed); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(a, p)
		x, _ := os.ReadFile(p)
		y, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two runs with the same seed", rel)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no files written")
	}
	recs, _ := filepath.Glob(filepath.Join(a, "kb", "records", "*", "*.toml"))
	if len(recs) != s.Hosts {
		t.Errorf("wrote %d records, want %d", len(recs), s.Hosts)
	}
	faqs, _ := filepath.Glob(filepath.Join(a, "hugo", "content", "faq", "*.md"))
	if len(faqs) != s.FAQ {
		t.Errorf("wrote %d Hugo FAQ pages, want %d", len(faqs), s.FAQ)
	}
	m, probs := matrix.Load(os.DirFS(filepath.Join(a, "kb", "matrix")), "matrix")
	if m == nil || probs.Errors() > 0 {
		t.Fatalf("synthetic matrix does not load: %v", probs)
	}
	if got := len(m.Adapters); got < s.Adapters {
		t.Errorf("matrix has %d adapters, want at least %d", got, s.Adapters)
	}
	c, probs := content.Load(os.DirFS(filepath.Join(a, "kb", "content")), "content")
	if c == nil || probs.Errors() > 0 {
		t.Fatalf("synthetic content does not load: %v", probs)
	}
}

func TestSizeNamedUnknown(t *testing.T) {
	t.Parallel()
	if _, err := SizeNamed("huge"); err == nil {
		t.Fatal("SizeNamed(huge) gave no error")
	}
}
