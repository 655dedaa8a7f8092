package build

import (
	"crypto/sha256"
	"sync"

	"github.com/rocekb/rocekb/internal/page"
)

// cache is the one store of what a rebuild reuses (kbgen serve's
// rebuilds): the loaded matrix and its lint (kb), the verdicts and each
// FAQ page's HTML and text (site), each FAQ file's parse and its links'
// problems (content), each page's digests (keys), each host page's state
// and search documents, the search aliases, and each search document's
// analysis, each raw token's query terms and the static index itself
// (search). Everything is kept under a page.Key: what the work made, the
// input it was made from, and the digest of everything it read, so an
// entry is found again only when none of that changed. The packages that
// do the work take it as a page.Reuse and keep nothing themselves; a value
// holds the problems its work found, so reusing it reports them again.
//
// Entries are grouped by Key.Kind. A kind that a finished build looked up
// keeps only the entries that build used or made; a kind it did not look
// up keeps what it had (an update of the static index in place analyzes
// only the documents that changed, and the analyses of the rest stay for
// the next build that makes the index afresh). What a build that failed
// made is kept only if the next build uses it.
type cache struct {
	mu    sync.Mutex
	build uint64 // the build under way, counted from 1
	kinds map[string]*entries
}

// entries are one kind's.
type entries struct {
	looked uint64 // the last build that looked the kind up
	by     map[entryKey]*entry
}

type entryKey struct {
	name string
	sum  [sha256.Size]byte
}

type entry struct {
	v    any
	used uint64 // the last build that used or made it
}

func newCache() *cache { return &cache{kinds: map[string]*entries{}} }

// begin starts a build.
func (c *cache) begin() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.build++
}

// end finishes a build: each kind it looked up keeps what it used.
func (c *cache) end() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.kinds {
		if e.looked != c.build {
			continue
		}
		for k, v := range e.by {
			if v.used != c.build {
				delete(e.by, k)
			}
		}
	}
}

// reuse is c as the packages take it: nil when c is.
func (c *cache) reuse() page.Reuse {
	if c == nil {
		return nil
	}
	return c
}

func (c *cache) Load(k page.Key) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := c.entries(k.Kind).by[entryKey{k.Name, k.Sum}]
	if v == nil {
		return nil, false
	}
	v.used = c.build
	return v.v, true
}

func (c *cache) Store(k page.Key, v any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	by := c.entries(k.Kind).by
	if old := by[entryKey{k.Name, k.Sum}]; old != nil {
		old.v, old.used = v, c.build
		return
	}
	by[entryKey{k.Name, k.Sum}] = &entry{v, c.build}
}

// entries are kind's, marked looked up by this build.
func (c *cache) entries(kind string) *entries {
	e := c.kinds[kind]
	if e == nil {
		e = &entries{by: map[entryKey]*entry{}}
		c.kinds[kind] = e
	}
	e.looked = c.build
	return e
}
