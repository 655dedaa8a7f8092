package build

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/rocekb/rocekb"
)

// TestReloadTiming measures kbgen serve's update after one FAQ body edit
// on a knowledge base named by KBGEN_RELOAD_KB (a folder holding matrix/
// and content/, such as bench/gencorpus's kb): a kept build, then a few
// updates, each after appending a line to the first FAQ page (restored at
// the end). KBGEN_RELOAD_PROFILE names a CPU profile of the updates. It
// logs times and asserts nothing about them; it is skipped without the
// variable.
func TestReloadTiming(t *testing.T) {
	kb := os.Getenv("KBGEN_RELOAD_KB")
	if kb == "" {
		t.Skip("KBGEN_RELOAD_KB names no knowledge base")
	}
	pages, _ := filepath.Glob(filepath.Join(kb, "content", "faq", "*.md"))
	if len(pages) == 0 {
		t.Fatal("no FAQ pages")
	}
	sort.Strings(pages)
	faq := pages[0]
	orig, err := os.ReadFile(faq)
	if err != nil {
		t.Fatal(err)
	}
	defer os.WriteFile(faq, orig, 0o644)

	cfg := bundled(filepath.Join(t.TempDir(), "public"))
	cfg.Matrix, cfg.Content, cfg.Records = filepath.Join(kb, "matrix"), filepath.Join(kb, "content"), t.TempDir()
	clock := func() (time.Time, time.Duration) {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Now(), time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	load := func() string {
		b, _ := os.ReadFile("/proc/loadavg")
		return string(b[:min(len(b), 14)])
	}
	w0, c0 := clock()
	prev, err := Site(cfg, Options{Assets: rocekb.Assets, Keep: true})
	if err != nil {
		t.Fatal(err)
	}
	w1, c1 := clock()
	t.Logf("build: wall %.2fs cpu %.2fs, %d outputs, load %s", w1.Sub(w0).Seconds(), (c1 - c0).Seconds(), prev.Outputs, load())
	if f := os.Getenv("KBGEN_RELOAD_PROFILE"); f != "" {
		pf, err := os.Create(f)
		if err != nil {
			t.Fatal(err)
		}
		pprof.StartCPUProfile(pf)
		defer func() { pprof.StopCPUProfile(); pf.Close() }()
	}
	for i := range 4 {
		runtime.GC()
		b := append(append([]byte(nil), orig...), []byte("\nEdited "+time.Now().Format(time.RFC3339Nano)+".\n")...)
		if err := os.WriteFile(faq, b, 0o644); err != nil {
			t.Fatal(err)
		}
		w0, c0 := clock()
		res, err := Site(cfg, Options{Assets: rocekb.Assets, Previous: prev})
		if err != nil {
			t.Fatal(err)
		}
		w1, c1 := clock()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		t.Logf("update %d: wall %.3fs cpu %.3fs, rendered %d changed %d of %d, index kept %t (%.3fs), heap %d MiB, load %s",
			i, w1.Sub(w0).Seconds(), (c1 - c0).Seconds(), res.Rendered, res.Changed, res.Outputs, res.IndexKept, res.IndexDur.Seconds(), ms.HeapAlloc>>20, load())
		prev = res
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	t.Logf("peak RSS %d MiB", ru.Maxrss>>10)
}
