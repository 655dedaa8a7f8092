package dmesg

import (
	"bytes"
	"testing"

	"github.com/rocekb/rocekb/internal/dmesg/internal/baseline"
)

// BenchmarkParseLog4MiB classifies a 4 MiB kernel log of real RDMA
// captures, repeated: every line is about RDMA hardware, the worst case
// (a real log is mostly other subsystems, which are skipped early).
func BenchmarkParseLog4MiB(b *testing.B) {
	big := log4MiB(b)
	b.SetBytes(int64(len(big)))
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		if _, err := ParseLog(bytes.NewReader(big)); err != nil {
			b.Fatal(err)
		}
	}
}

// log4MiB is BenchmarkParseLog4MiB's log.
func log4MiB(tb testing.TB) []byte {
	var in []byte
	for _, name := range []string{"qedr-null-deref-rdma-res-show-qp-oops.txt", "mlx5-cx4lx-create-eq-probe-failed-22-wrapped.txt",
		"mlx5-cx4lx-handle_hca_cap-probe-failed-22.txt"} {
		in = append(in, capture(tb, name)...)
	}
	return bytes.Repeat(in, 4<<20/len(in)+1)[:4<<20]
}

// BenchmarkParseLog4MiBBaseline is the same log through the frozen
// classifier (internal/dmesg/internal/baseline), so that one run measures
// before and after in the same window of a shared machine.
func BenchmarkParseLog4MiBBaseline(b *testing.B) {
	big := log4MiB(b)
	b.SetBytes(int64(len(big)))
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		if _, err := baseline.ParseLog(bytes.NewReader(big)); err != nil {
			b.Fatal(err)
		}
	}
}

// reportCPU adds the process's CPU time per iteration (cpu-ns/op, the
// garbage collector's included) to a benchmark's report, when the system
// tells it: call it before the loop, and its result after.
func reportCPU(b *testing.B) func() {
	start, ok := cpuTime()
	return func() {
		if end, ok2 := cpuTime(); ok && ok2 && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
		}
	}
}
