package render

import (
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/rocekb/rocekb/internal/dirtest"
)

// tree reads every file under dir but the marker.
func tree(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	for name, b := range dirtest.Read(t, dir) {
		if name != Marker {
			out[name] = string(b)
		}
	}
	return out
}

func TestUpdateRendersAndWritesOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "out")
	var renders atomic.Int64
	counted := func(name, body string) Output {
		return Func(name, func(w io.Writer) error { renders.Add(1); _, err := io.WriteString(w, body); return err })
	}
	site := func(keyB, bodyB, c string, gone bool) Producer {
		return func(emit func(Output) error) error {
			outs := []Output{Keyed(counted("a.html", "A"), "ka"), Keyed(counted("dir/b.html", bodyB), keyB), counted("c.html", c)}
			if !gone {
				outs = append(outs, counted("old.html", "O"))
			}
			for _, o := range outs {
				if err := emit(o); err != nil {
					return err
				}
			}
			return nil
		}
	}
	st, err := Build(dir, site("kb1", "B1", "C", false))
	if err != nil || st.Outputs != 4 || st.Rendered != 4 {
		t.Fatalf("Build = %+v, %v", st, err)
	}
	cInfo, _ := os.Stat(filepath.Join(dir, "c.html"))

	renders.Store(0)
	st, err = Update(dir, st.Manifest, site("kb2", "B2", "C", true))
	if err != nil {
		t.Fatal(err)
	}
	// a.html is kept by its key; b.html's key changed; c.html has no key,
	// so it is rendered, but its bytes are the same; old.html is gone.
	if st.Outputs != 3 || st.Rendered != 2 || renders.Load() != 2 || st.Changed != 2 {
		t.Errorf("Update = outputs %d, rendered %d (%d calls), changed %d; want 3, 2 (2), 2", st.Outputs, st.Rendered, renders.Load(), st.Changed)
	}
	want := map[string]string{"a.html": "A", "dir/b.html": "B2", "c.html": "C"}
	if got := tree(t, dir); len(got) != len(want) || got["dir/b.html"] != "B2" || got["a.html"] != "A" || got["c.html"] != "C" {
		t.Errorf("after Update: %v, want %v", got, want)
	}
	if now, _ := os.Stat(filepath.Join(dir, "c.html")); !os.SameFile(cInfo, now) || !now.ModTime().Equal(cInfo.ModTime()) {
		t.Error("c.html was rewritten although its bytes did not change")
	}

	// A file removed behind the build's back is written again.
	os.Remove(filepath.Join(dir, "a.html"))
	if st, err = Update(dir, st.Manifest, site("kb2", "B2", "C", true)); err != nil {
		t.Fatal(err)
	}
	if got := tree(t, dir)["a.html"]; got != "A" {
		t.Errorf("a.html = %q after it was deleted and updated", got)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "dir"))
	if len(entries) != 1 {
		t.Errorf("temporary files left in the folder: %v", entries)
	}
}

func TestUpdateWithoutManifestBuilds(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "out")
	st, err := Update(dir, nil, files(map[string]string{"x.html": "1"}))
	if err != nil || st.Manifest == nil {
		t.Fatalf("Update(nil) = %+v, %v", st, err)
	}
	if _, err := os.Stat(filepath.Join(dir, Marker)); err != nil {
		t.Errorf("Update without a manifest did not build: %v", err)
	}
}
