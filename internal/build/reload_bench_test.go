package build

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/rocekb/rocekb"
	"github.com/rocekb/rocekb/internal/corpus"
)

// BenchmarkUpdateOneFAQ times kbgen serve's rebuild after one FAQ page's
// body changed: the update build.Site makes with the build before as
// Options.Previous, the path serve takes. It builds the smoke corpus, or
// the knowledge base in $ROCEKB_BENCH_KB (a corpus from bench/gencorpus,
// such as its 10k size's kb folder). $ROCEKB_BENCH_PROFILE names a CPU
// profile of the updates alone (go test's -cpuprofile has the full build).
func BenchmarkUpdateOneFAQ(b *testing.B) {
	kb := os.Getenv("ROCEKB_BENCH_KB")
	if kb == "" {
		kb = filepath.Join(b.TempDir(), "corpus")
		s, err := corpus.SizeNamed("smoke")
		if err != nil {
			b.Fatal(err)
		}
		in := corpus.Inputs{Matrix: os.DirFS("../../matrix"), Content: os.DirFS("../../content"), Hosts: os.DirFS("../../testdata/hosts")}
		if err := corpus.Write(kb, in, s, corpus.Seed); err != nil {
			b.Fatal(err)
		}
		kb = filepath.Join(kb, "kb")
	}
	cfg := bundled(filepath.Join(b.TempDir(), "public"))
	cfg.Matrix, cfg.Content, cfg.Records = filepath.Join(kb, "matrix"), filepath.Join(kb, "content"), filepath.Join(kb, "records")
	t0 := time.Now()
	prev, err := Site(cfg, Options{Assets: rocekb.Assets, Keep: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("full build: %s, %d outputs", time.Since(t0), prev.Outputs)
	pages, _ := filepath.Glob(filepath.Join(cfg.Content, "faq", "*.md"))
	sort.Strings(pages)
	if len(pages) == 0 {
		b.Fatal("no FAQ pages")
	}
	orig, err := os.ReadFile(pages[0])
	if err != nil {
		b.Fatal(err)
	}
	defer os.WriteFile(pages[0], orig, 0o644)
	if f := os.Getenv("ROCEKB_BENCH_PROFILE"); f != "" {
		pf, err := os.Create(f)
		if err != nil {
			b.Fatal(err)
		}
		pprof.StartCPUProfile(pf)
		defer func() { pprof.StopCPUProfile(); pf.Close() }()
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := range b.N {
		if err := os.WriteFile(pages[0], fmt.Appendf(append([]byte(nil), orig...), "\nEdited %d.\n", i), 0o644); err != nil {
			b.Fatal(err)
		}
		res, err := Site(cfg, Options{Assets: rocekb.Assets, Previous: prev})
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			b.Logf("update: rendered %d, changed %d of %d, %s (index %s)", res.Rendered, res.Changed, res.Outputs, res.Elapsed, res.IndexDur)
		}
		prev = res
	}
	b.StopTimer()
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// cpuTime is the CPU time the process has used, user and system: on a
// shared machine it moves less than the wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
