package kb

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rocekb/rocekb/internal/dirtest"
	"github.com/rocekb/rocekb/internal/matrix"
)

// checkOptions loads as kbgen check does.
var checkOptions = Options{SkipRecords: true, SkipGridLint: true, SkipBodyLinks: true, SkipContent: true}

// TestMatrixCacheIsLoad: the matrix and lint a load reads back from its
// cache file are the ones decoding the TOML gives: every exported field
// (a list left empty may come back as none: only their lengths are read),
// every problem, where each entry and key was written, and the lookups by
// id. Two years on, the sources' staleness gives the lint warnings to keep.
func TestMatrixCacheIsLoad(t *testing.T) {
	t.Parallel()
	cfg := bundledConfig("")
	opts := checkOptions
	opts.Now = day.AddDate(2, 0, 0)
	want, wantProbs := Load(cfg, opts)
	if want == nil || len(wantProbs) == 0 {
		t.Fatalf("the bundled matrix two years on: %d warnings, %v", len(wantProbs), wantProbs)
	}
	opts.MatrixCache, opts.Code = filepath.Join(t.TempDir(), "matrix"), "code 1"
	for _, load := range []string{"made", "read"} {
		got, probs := Load(cfg, opts)
		if got == nil {
			t.Fatal(probs)
		}
		if _, err := os.Stat(opts.MatrixCache); err != nil {
			t.Fatalf("the first load left no cache file: %v", err)
		}
		if d := cmp.Diff(want.Matrix, got.Matrix, cmpopts.IgnoreUnexported(matrix.Matrix{}), cmpopts.EquateEmpty()); d != "" {
			t.Errorf("the matrix %s by a load through the cache differs (-decoded +cached):\n%s", load, d)
		}
		if !reflect.DeepEqual(probs, wantProbs) {
			t.Errorf("the lint %s by a load through the cache: %d problems, want %d:\n%s", load, len(probs), len(wantProbs), probs)
		}
		for _, a := range want.Matrix.Adapters {
			if g := got.Matrix.Adapter(a.ID); g == nil || g.ID != a.ID {
				t.Fatalf("the matrix %s by a load through the cache finds no adapter %s", load, a.ID)
			}
			if w, g := want.Matrix.PosOf(a.At, "name"), got.Matrix.PosOf(a.At, "name"); w != g || w.Line == 0 {
				t.Errorf("adapter %s's name: at %v through the cache, %v decoded", a.ID, g, w)
			}
		}
	}
	b, err := os.ReadFile(opts.MatrixCache)
	if err != nil {
		t.Fatal(err)
	}
	_, key, err := matrixKey(cfg, opts.Now, opts.SkipGridLint, opts.Code)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := decodeMatrix(b, key); !ok {
		t.Error("the cache file was not made with the key of the loads")
	}
}

// TestMatrixCacheNeverStale: a load reads the cache file only when it was
// made from the same matrix files, lint options, day and program; an edit
// is loaded, and a file that is not a cache is only work redone.
func TestMatrixCacheNeverStale(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dirtest.Copy(t, "../../matrix", filepath.Join(dir, "matrix"))
	cfg := bundledConfig("")
	cfg.Matrix = filepath.Join(dir, "matrix")
	opts := checkOptions
	opts.Now, opts.MatrixCache, opts.Code = day, filepath.Join(dir, "cache"), "code 1"
	k, probs := Load(cfg, opts)
	if k == nil {
		t.Fatal(probs)
	}
	name := k.Matrix.Adapter("connectx-5").Name
	_, key, err := matrixKey(cfg, opts.Now, opts.SkipGridLint, opts.Code)
	if err != nil {
		t.Fatal(err)
	}
	for what, change := range map[string]func() ([32]byte, error){
		"another program": func() ([32]byte, error) {
			_, k, err := matrixKey(cfg, opts.Now, opts.SkipGridLint, "code 2")
			return k, err
		},
		"another day": func() ([32]byte, error) {
			_, k, err := matrixKey(cfg, opts.Now.AddDate(0, 0, 1), opts.SkipGridLint, opts.Code)
			return k, err
		},
		"the grid lint": func() ([32]byte, error) {
			_, k, err := matrixKey(cfg, opts.Now, !opts.SkipGridLint, opts.Code)
			return k, err
		},
		"another stale limit": func() ([32]byte, error) {
			c := cfg
			c.StaleDays++
			_, k, err := matrixKey(c, opts.Now, opts.SkipGridLint, opts.Code)
			return k, err
		},
	} {
		if k, err := change(); err != nil || k == key {
			t.Errorf("%s: the same key (%v)", what, err)
		}
	}
	nvidia := filepath.Join(cfg.Matrix, "nvidia.toml")
	b, err := os.ReadFile(nvidia)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `name = "`+name+`"`) {
		t.Fatalf("nvidia.toml does not name %q", name)
	}
	if err := os.WriteFile(nvidia, []byte(strings.Replace(string(b), `name = "`+name+`"`, `name = "`+name+` (edited)"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if k, probs = Load(cfg, opts); k == nil {
		t.Fatal(probs)
	}
	if got := k.Matrix.Adapter("connectx-5").Name; got != name+" (edited)" {
		t.Errorf("after an edit, the load through the cache names connectx-5 %q", got)
	}
	if err := os.WriteFile(opts.MatrixCache, []byte("not a cache"), 0o644); err != nil {
		t.Fatal(err)
	}
	if k, probs = Load(cfg, opts); k == nil || k.Matrix.Adapter("connectx-5").Name != name+" (edited)" {
		t.Errorf("a load over a file that is not a cache: %v", probs)
	}
}
