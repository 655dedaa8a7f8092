package record

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkDecode strictly decodes every golden host record, the work a
// fleet build does once per record.
func BenchmarkDecode(b *testing.B) {
	names, err := filepath.Glob("../../testdata/hosts/*.golden.toml")
	if err != nil || len(names) == 0 {
		b.Fatalf("no golden records: %v", err)
	}
	var srcs [][]byte
	size := 0
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
		size += len(src)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for i, src := range srcs {
			if h, probs := Decode(names[i], src); h == nil {
				b.Fatal(probs)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(srcs)), "ns/record")
}
