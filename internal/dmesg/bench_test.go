package dmesg

import (
	"bytes"
	"testing"
)

func BenchmarkParse(b *testing.B) {
	in := capture(b, "qedr-null-deref-rdma-res-show-qp-oops.txt")
	in = append(in, capture(b, "mlx5-cx4lx-create-eq-probe-failed-22-wrapped.txt")...)
	big := bytes.Repeat(in, 200)
	b.SetBytes(int64(len(big)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(bytes.NewReader(big)); err != nil {
			b.Fatal(err)
		}
	}
}
