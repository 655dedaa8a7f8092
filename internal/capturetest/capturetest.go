package capturetest

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// dir is testdata/captures, found from this file so any package can call in.
func dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "captures")
}

// Read returns testdata/captures/<tool>/<name> without its header lines
// (line 1 the capture command, line 2 its source, both starting with "# ").
func Read(t testing.TB, tool, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir(), tool, name))
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if i := bytes.IndexByte(b, '\n'); i >= 0 && bytes.HasPrefix(b, []byte("# ")) {
			b = b[i+1:]
		}
	}
	return b
}

// Seed adds every capture of the tools, whole, to a fuzz corpus.
func Seed(f *testing.F, tools ...string) {
	f.Helper()
	for _, tool := range tools {
		files, err := filepath.Glob(filepath.Join(dir(), tool, "*.txt"))
		if err != nil || len(files) == 0 {
			f.Fatalf("no captures for %s", tool)
		}
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
}
