package page

import (
	"crypto/sha256"
	"sync"
)

// Key names one piece of work a build may reuse: what the work made (a
// parse, a rendering, an analysis), the input it was made from (a file's
// name, a token) and the digest of everything it read. The same key is the
// same work: a rebuild finds it again only when no input it read changed.
type Key struct {
	Kind string
	Name string
	Sum  [sha256.Size]byte
}

// Reuse is the one store of work a rebuild reuses (kbgen serve's
// rebuilds), owned by the build (internal/build/cache.go): the packages
// that do the work look it up by Key and keep what they made, and hold
// no state of their own. A nil Reuse keeps nothing.
type Reuse interface {
	// Load returns the value kept under k, if any.
	Load(k Key) (any, bool)
	// Store keeps v under k for this build and the next.
	Store(k Key, v any)
}

// KeepAll is a Reuse that keeps everything it is given, for tests: a build
// keeps what its rebuilds reuse in its own store, which forgets what a
// build no longer uses.
type KeepAll struct {
	mu sync.Mutex
	m  map[Key]any
}

// Load returns the value kept under k, if any.
func (s *KeepAll) Load(k Key) (any, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[k]
	return v, ok
}

// Store keeps v under k.
func (s *KeepAll) Store(k Key, v any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[Key]any{}
	}
	s.m[k] = v
}

// Reused returns the value r keeps under k, or makes it and keeps it.
func Reused[V any](r Reuse, k Key, make func() V) V {
	if r == nil {
		return make()
	}
	if v, ok := r.Load(k); ok {
		return v.(V)
	}
	v := make()
	r.Store(k, v)
	return v
}

// Sum is the digest of parts, each written with its length so that no
// two lists of parts share a digest: the Sum of a Key made from several
// inputs' digests and names.
func Sum(parts ...string) [sha256.Size]byte {
	n := 0
	for _, p := range parts {
		n += 4 + len(p)
	}
	// A key's parts are mostly digests and names: one buffer, on the
	// stack when they fit, and one sha256.Sum256, which allocates nothing.
	var small [512]byte
	buf := small[:0]
	if n > len(small) {
		buf = make([]byte, 0, n)
	}
	for _, p := range parts {
		buf = append(buf, byte(len(p)), byte(len(p)>>8), byte(len(p)>>16), byte(len(p)>>24))
		buf = append(buf, p...)
	}
	return sha256.Sum256(buf)
}
