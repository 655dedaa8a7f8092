package build

import (
	"testing"

	"github.com/rocekb/rocekb/internal/page"
)

// TestCacheKeepsWhatABuildUsed: a kind a finished build looked up keeps
// only the entries that build used or made, a kind it did not look up
// keeps all of its own, and what a build that failed made is kept only
// when the next build uses it.
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

	failed, unused := page.Key{Kind: "k", Name: "failed"}, page.Key{Kind: "k", Name: "unused"}
	c.begin() // a build that fails
	c.Store(failed, 4)
	c.Store(unused, 5)
	c.begin()
	if !has(a) || has(b) || !has(failed) {
		t.Errorf("kind k: a %t, b %t, failed %t; want a and failed", has(a), has(b), has(failed))
	}
	if !has(other) {
		t.Error("kind other, which the build before did not look up, lost its entry")
	}
	c.end()
	c.begin()
	if has(unused) {
		t.Error("an entry a failed build made and the next did not use is still kept")
	}
	c.end()
}
