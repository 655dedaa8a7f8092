package build

import (
	"testing"

	"github.com/rocekb/rocekb/internal/page"
)

// TestCacheKeepsWhatABuildUsed: a kind a build looked up keeps only the
// entries that build used or made, a kind it did not look up keeps all
// of its own, and a build that does not finish changes nothing.
func TestCacheKeepsWhatABuildUsed(t *testing.T) {
	t.Parallel()
	a, b := page.Key{Kind: "k", Name: "a"}, page.Key{Kind: "k", Name: "b"}
	other := page.Key{Kind: "other", Name: "x"}
	c := newCache()
	has := func(k page.Key) bool {
		t.Helper()
		_, ok := c.Load(k)
		return ok
	}

	c.begin()
	c.Store(a, 1)
	c.Store(b, 2)
	c.Store(other, 3)
	c.end()

	c.begin() // uses a only, and looks nothing up of other
	if v, ok := c.Load(a); !ok || v != 1 {
		t.Fatalf("a = %v, %t after the build that made it", v, ok)
	}
	c.end()

	c.begin() // a build that fails: what it makes is not kept
	c.Store(page.Key{Kind: "k", Name: "failed"}, 4)
	c.begin()
	if !has(a) || has(b) || has(page.Key{Kind: "k", Name: "failed"}) {
		t.Errorf("kind k: a %t, b %t, failed %t; want only a", has(a), has(b), has(page.Key{Kind: "k", Name: "failed"}))
	}
	if !has(other) {
		t.Error("kind other, which the build before did not look up, lost its entry")
	}
	c.end()
}
