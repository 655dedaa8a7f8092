package render

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestBuildSwapNeverMissing reads a page that every build writes, over and
// over, while builds replace the site: no read may find it missing (the
// old swap, two renames, left a gap with no site at all).
func TestBuildSwapNeverMissing(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "out")
	site := map[string]string{"index.html": "home"}
	for i := range 200 {
		site["p/"+string(rune('a'+i%26))+strings.Repeat("x", i)+".html"] = "page"
	}
	if _, err := Build(dir, files(site)); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var reads, missing atomic.Int64
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				if _, err := os.ReadFile(filepath.Join(dir, "index.html")); err != nil {
					missing.Add(1)
				}
				reads.Add(1)
			}
		}()
	}
	for range 15 {
		if _, err := Build(dir, files(site)); err != nil {
			t.Fatal(err)
		}
	}
	stop.Store(true)
	wg.Wait()
	if exchange(t.TempDir(), t.TempDir()) == errNoExchange {
		t.Skipf("no atomic exchange here; %d of %d reads missed the page", missing.Load(), reads.Load())
	}
	if missing.Load() > 0 {
		t.Errorf("%d of %d reads found no index.html while builds replaced the site", missing.Load(), reads.Load())
	}
}

// TestBuildRemovesDebris: the trees killed builds left beside the output
// (an unfinished one and an old one on its way out) are gone after the
// next build, and nothing else beside the output is touched.
func TestBuildRemovesDebris(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	for _, d := range []string{".out.tmp-123", ".out.tmp-456.old/host", ".other.tmp-1", "out2"} {
		if err := os.MkdirAll(filepath.Join(parent, d), 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(parent, d, "page.html"), []byte("x"), 0o644)
	}
	if _, err := Build(dir, files(map[string]string{"index.html": "home"})); err != nil {
		t.Fatal(err)
	}
	var names []string
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != ".other.tmp-1 .out.lock out out2" {
		t.Errorf("beside the output: %s", got)
	}
}

// TestBuildLockSerializes: a build into an output waits while another
// holds its lock, then runs.
func TestBuildLockSerializes(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "out")
	unlock, err := lock(filepath.Join(filepath.Dir(dir), ".out.lock"))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := Build(dir, files(map[string]string{"index.html": "home"}))
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, nil) || lockIsNoop {
			t.Skip("builds are not serialized on this system")
		}
		t.Fatal("the build ran while another held the lock")
	case <-time.After(300 * time.Millisecond):
	}
	unlock()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "index.html")); string(b) != "home" {
		t.Errorf("index.html = %q", b)
	}
}
