package search

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"maps"
	"math"
	"os"
	"slices"

	"github.com/rocekb/rocekb/internal/cachefile"
)

// Cached is Build, with the tables that answer queries (the term index and
// the snippets' marks, most of Build's work) kept in the file at path
// between runs: when the file was made from the same documents, the same
// aliases and the same program (code names it: its build ID), they are
// read from it; otherwise they are made as Build makes them and the file
// is written anew. The file's key digests all three, so an edit of the
// matrix or the content, or another kbgen, never reads an old index.
// path "" or code "" keeps no file, and a file that cannot be read,
// written or decoded is only work redone: the answers are Build's either
// way. hit reports whether the tables came from the file.
func Cached(path, code string, docs []Doc, al *Aliases) (ix *Index, hit bool, err error) {
	if ix, err = newIndex(docs, al); err != nil {
		return nil, false, err
	}
	if path == "" || code == "" {
		return ix, false, ix.index()
	}
	key := cacheKey(code, ix.docs, al)
	if b, err := os.ReadFile(path); err == nil && ix.readTables(b, key) == nil {
		return ix, true, nil
	}
	if err := ix.index(); err != nil {
		return nil, false, err
	}
	cachefile.Write(path, ix.appendTables(nil, key))
	return ix, false, nil
}

// cacheMagic starts a cache file; its number changes with the layout.
const cacheMagic = "rocekb search tables 1\n"

// cacheKey digests what the tables are made from: the program, the
// documents in index order (every field) and the aliases the analyzer uses.
func cacheKey(code string, docs []Doc, al *Aliases) [sha256.Size]byte {
	h := sha256.New()
	str := func(s string) {
		var n [binary.MaxVarintLen64]byte
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
		h.Write([]byte(s))
	}
	strs := func(l []string) {
		str(fmt.Sprint(len(l)))
		for _, s := range l {
			str(s)
		}
	}
	str(cacheMagic)
	str(code)
	str(fmt.Sprint(len(docs)))
	for i := range docs {
		d := &docs[i]
		for _, s := range []string{d.URL, d.Title, d.Kind, d.Vendor, d.Lang, d.Body} {
			str(s)
		}
		strs(d.Headings)
		strs(d.IDs)
	}
	al.digest(h, str, strs)
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// digest writes every table of the aliases into h, in key order (next is
// made from multi, keyNames is a cache of what the others give).
func (a *Aliases) digest(h hash.Hash, str func(string), strs func([]string)) {
	if a == nil {
		str("no aliases")
		return
	}
	lists := func(name string, m map[string][]string) {
		str(name)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			str(k)
			strs(m[k])
		}
	}
	set := func(name string, m map[string]bool) {
		str(name)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			str(k)
			str(fmt.Sprint(m[k]))
		}
	}
	lists("single", a.single)
	lists("fwLine", a.fwLine)
	set("words", a.words)
	set("names", a.names)
	str("owner")
	for _, k := range slices.Sorted(maps.Keys(a.owner)) {
		str(k)
		str(a.owner[k])
	}
	str("multi")
	for _, k := range slices.Sorted(maps.Keys(a.multi)) {
		str(k)
		str(fmt.Sprint(len(a.multi[k])))
		for _, p := range a.multi[k] {
			strs(p.Rest)
			str(p.Canon)
		}
	}
}

// appendTables appends the cache file of the index's tables under key:
// the magic, the key, the term index (each term in order: its query norm
// part, its documents as ascending deltas and their weights), then the
// marks (each document's, then each term's keys).
func (ix *Index) appendTables(b []byte, key [sha256.Size]byte) []byte {
	b = append(b, cacheMagic...)
	b = append(b, key[:]...)
	uv := func(v int) { b = binary.AppendUvarint(b, uint64(v)) }
	f64 := func(v float64) { b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v)) }
	str := func(s string) { uv(len(s)); b = append(b, s...) }
	ti := ix.terms
	f64(ti.absent)
	uv(len(ti.post))
	for _, t := range slices.Sorted(maps.Keys(ti.post)) {
		p := ti.post[t]
		str(t)
		f64(p.sq)
		uv(len(p.docs))
		prev := int32(0)
		for _, d := range p.docs {
			uv(int(d - prev))
			prev = d
		}
		for _, w := range p.w {
			f64(w)
		}
	}
	m := ix.marks
	uv(m.nkeys)
	uv(len(m.docs))
	for _, l := range m.docs {
		uv(len(l))
		for _, mk := range l {
			uv(int(mk.key))
			uv(int(mk.start))
			uv(int(mk.end))
		}
	}
	uv(len(m.rev))
	for _, t := range slices.Sorted(maps.Keys(m.rev)) {
		str(t)
		uv(len(m.rev[t]))
		for _, k := range m.rev[t] {
			uv(int(k))
		}
	}
	return b
}

var errCacheFile = errors.New("search: not a cache file of these documents")

// readTables reads the tables appendTables wrote under key into ix, whose
// documents they index; a file of another key, or one cut short or
// otherwise malformed, is an error and leaves ix without tables.
func (ix *Index) readTables(b []byte, key [sha256.Size]byte) (err error) {
	if !bytes.HasPrefix(b, []byte(cacheMagic)) || len(b) < len(cacheMagic)+len(key) || !bytes.Equal(b[len(cacheMagic):len(cacheMagic)+len(key)], key[:]) {
		return errCacheFile
	}
	r := cacheReader{b: b[len(cacheMagic)+len(key):]}
	n := len(ix.docs)
	ti := &termIndex{absent: r.f64()}
	nt := r.count(1)
	ti.post = make(map[string]*termPosts, nt)
	for range nt {
		t := r.str()
		p := &termPosts{sq: r.f64()}
		nd := r.count(2)
		p.docs, p.w = make([]int32, nd), make([]float64, nd)
		d := 0
		for i := range p.docs {
			if d += r.uv(); d >= n {
				r.fail()
			}
			p.docs[i] = int32(d)
		}
		for i := range p.w {
			p.w[i] = r.f64()
		}
		ti.post[t] = p
	}
	m := &marks{nkeys: r.uv()}
	if r.count(1) != n {
		r.fail()
	}
	m.docs = make([][]mark, n)
	for i := range m.docs {
		l := make([]mark, r.count(3))
		for j := range l {
			l[j] = mark{key: r.below(m.nkeys), start: r.below(len(ix.docs[i].Body) + 1), end: r.below(len(ix.docs[i].Body) + 1)}
		}
		if len(l) > 0 {
			m.docs[i] = l
		}
	}
	nr := r.count(2)
	m.rev = make(map[string][]int32, nr)
	for range nr {
		t := r.str()
		l := make([]int32, r.count(1))
		for j := range l {
			l[j] = r.below(m.nkeys)
		}
		m.rev[t] = l
	}
	if r.bad || len(r.b) != 0 {
		return errCacheFile
	}
	ti.sizeScratch(n)
	ix.terms, ix.marks = ti, m
	return nil
}

// cacheReader reads what appendTables wrote; a value past the end or out
// of range sets bad, and reads after it give zeros.
type cacheReader struct {
	b   []byte
	bad bool
}

func (r *cacheReader) fail() { r.bad, r.b = true, nil }

func (r *cacheReader) uv() int {
	v, k := binary.Uvarint(r.b)
	if k <= 0 || v > math.MaxInt32 {
		r.fail()
		return 0
	}
	r.b = r.b[k:]
	return int(v)
}

// count reads a length of items at least min bytes each, bounded by the
// bytes left, so a bad length allocates nothing large.
func (r *cacheReader) count(min int) int {
	v := r.uv()
	if v > len(r.b)/min {
		r.fail()
		return 0
	}
	return v
}

// below reads a number less than n.
func (r *cacheReader) below(n int) int32 {
	v := r.uv()
	if v >= n {
		r.fail()
		return 0
	}
	return int32(v)
}

func (r *cacheReader) f64() float64 {
	if len(r.b) < 8 {
		r.fail()
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
	r.b = r.b[8:]
	return v
}

func (r *cacheReader) str() string {
	n := r.count(1)
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}
