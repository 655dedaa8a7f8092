package matrix

import (
	"os"
	"testing"
)

// BenchmarkLoad loads the bundled matrix, as every kbgen command does, and
// asks where one key of each adapter was written, as lint does.
func BenchmarkLoad(b *testing.B) {
	fsys := os.DirFS("../../matrix")
	b.ReportAllocs()
	for b.Loop() {
		m, probs := Load(fsys, "matrix")
		if probs.Errors() > 0 {
			b.Fatal(probs.Err())
		}
		for _, a := range m.Adapters {
			m.PosOf(a.At, "name")
		}
	}
}
