package build

import (
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
// do the work take it as a page.Reuse and keep nothing themselves.
//
// Entries are grouped by Key.Kind. A kind that a build looked up keeps, for
// the next build, only the entries that build used or made; a kind a build
// did not look up at all keeps what it had (an update of the static index
// in place analyzes only the documents that changed, and the analyses of
// the rest stay for the next build that makes the index afresh). Only a
// build that finishes changes what is kept: one that fails leaves the
// store as the last one that finished left it.
type cache struct {
	mu    sync.Mutex
	kinds map[string]*entries
}

// entries are one kind's: those the last finished build kept, and those
// this build used or made so far (nil: none yet).
type entries struct {
	last, now map[page.Key]any
}

func newCache() *cache { return &cache{kinds: map[string]*entries{}} }

// begin starts a build: what an unfinished build used is forgotten.
func (c *cache) begin() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.kinds {
		e.now = nil
	}
}

// end finishes a build: each kind it looked up keeps what it used.
func (c *cache) end() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.kinds {
		if e.now != nil {
			e.last, e.now = e.now, nil
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
	e := c.entries(k.Kind)
	v, ok := e.now[k]
	if !ok {
		if v, ok = e.last[k]; ok {
			e.now[k] = v
		}
	}
	return v, ok
}

func (c *cache) Store(k page.Key, v any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries(k.Kind).now[k] = v
}

// entries are kind's, marked looked up by this build.
func (c *cache) entries(kind string) *entries {
	e := c.kinds[kind]
	if e == nil {
		e = &entries{}
		c.kinds[kind] = e
	}
	if e.now == nil {
		e.now = map[page.Key]any{}
	}
	return e
}
