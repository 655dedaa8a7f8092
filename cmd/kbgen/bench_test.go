package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkBuildBundled builds the shipped knowledge base with the
// fixture hosts, as `kbgen build` does, into a fresh folder each time.
func BenchmarkBuildBundled(b *testing.B) {
	dir := b.TempDir()
	out := filepath.Join(dir, "public")
	for b.Loop() {
		var stderr bytes.Buffer
		code := run([]string{"build", "--matrix", "../../matrix", "--content", "../../content", "--records", "../../testdata/hosts", "--out", out}, nil, &bytes.Buffer{}, &stderr)
		if code != 0 {
			b.Fatalf("build: exit %d: %s", code, stderr.String())
		}
		b.StopTimer()
		if err := os.RemoveAll(out); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
