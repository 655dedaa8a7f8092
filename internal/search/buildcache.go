package search

import (
	"crypto/sha256"
	"math"
	"slices"
	"strings"
	"sync"
)

// Cache keeps, between the builds of one site (kbgen serve's rebuilds),
// the work the static index repeats for inputs that did not change: each
// document's analysis and each raw token's query terms. An entry no
// build used is dropped at the end of the next one. A nil *Cache keeps
// nothing.
type Cache struct {
	aliases string // the aliases docs and raws were analyzed with
	docs    memo[[sha256.Size]byte, *docStats]
	raws    memo[string, []QueryTerm]
	static  *Static // the index NewStatic made last, which the next may update
}

// memo is one table of a Cache: what the last build used, and what this
// one has used so far.
type memo[K comparable, V any] struct {
	mu        sync.Mutex
	last, now map[K]V
}

// get returns the value of k, from this build or the last, and marks it
// used; make makes a missing one.
func (m *memo[K, V]) get(k K, make func() V) V {
	m.mu.Lock()
	v, ok := m.now[k]
	if !ok {
		v, ok = m.last[k]
	}
	m.mu.Unlock()
	if !ok {
		v = make()
	}
	m.mu.Lock()
	if m.now == nil {
		m.now = map[K]V{}
	}
	m.now[k] = v
	m.mu.Unlock()
	return v
}

// done ends a build: what it used is what the next one may reuse.
func (m *memo[K, V]) done() {
	m.mu.Lock()
	m.last, m.now = m.now, nil
	m.mu.Unlock()
}

// forget drops everything.
func (m *memo[K, V]) forget() {
	m.mu.Lock()
	m.last, m.now = nil, nil
	m.mu.Unlock()
}

// docStats is a document's analysis: each distinct term with its
// frequency in each field, sorted by term, each field's norm, and the raw
// tokens (with their parts) of all its fields. Terms are one sorted slice,
// not a map per field: a fleet's index holds the analysis of every host
// at once, and four small maps per document were most of that.
type docStats struct {
	terms []termStats
	norms [numFields]float64
	raws  []string
}

// numFields is len(Fields), which init holds it to.
const numFields = 4

type termStats struct {
	term string
	tf   [numFields]int32 // by field of Fields
}

func init() {
	if len(Fields) != numFields {
		panic("search: numFields must be len(Fields)")
	}
}

// term returns t's frequencies in the document, and whether it holds t.
func (st *docStats) term(t string) (termStats, bool) {
	i, ok := slices.BinarySearchFunc(st.terms, t, func(ts termStats, t string) int { return strings.Compare(ts.term, t) })
	if !ok {
		return termStats{}, false
	}
	return st.terms[i], true
}

// begin starts a static index whose analysis uses the aliases aliasKey
// names; entries made with other aliases are dropped.
func (c *Cache) begin(aliasKey string) {
	if c != nil && (aliasKey == "" || aliasKey != c.aliases) {
		c.docs.forget()
		c.raws.forget()
		c.aliases = aliasKey
	}
}

// end keeps what the index used.
func (c *Cache) end() {
	if c != nil {
		c.docs.done()
		c.raws.done()
	}
}

// doc analyzes d, or returns the analysis of a document with its text.
func (c *Cache) doc(d *Doc, an *Analyzer) *docStats {
	if c == nil {
		return analyzeDoc(d, an)
	}
	h := sha256.New()
	for _, name := range Fields {
		t := fieldText(d, name)
		h.Write([]byte{byte(len(t)), byte(len(t) >> 8), byte(len(t) >> 16), byte(len(t) >> 24)})
		h.Write([]byte(t))
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return c.docs.get(key, func() *docStats { return analyzeDoc(d, an) })
}

func analyzeDoc(d *Doc, an *Analyzer) *docStats {
	st := &docStats{}
	seen := map[string]bool{}
	at := map[string]int{} // term → its place in st.terms
	for f, name := range Fields {
		toks, rs := an.analyze(fieldText(d, name))
		if len(toks) > 0 {
			// bleve keeps norms as float32.
			st.norms[f] = float64(float32(1 / math.Sqrt(float64(len(toks)))))
		}
		for _, t := range toks {
			i, ok := at[t.Term]
			if !ok {
				i = len(st.terms)
				at[t.Term] = i
				st.terms = append(st.terms, termStats{term: t.Term})
			}
			st.terms[i].tf[f]++
		}
		for _, r := range rs {
			if seen[r.text] {
				continue
			}
			seen[r.text] = true
			st.raws = append(st.raws, r.text)
			for _, p := range splitParts(r.text) {
				if !seen[p] {
					seen[p] = true
					st.raws = append(st.raws, p)
				}
			}
		}
	}
	slices.SortFunc(st.terms, func(a, b termStats) int { return strings.Compare(a.term, b.term) })
	st.terms = slices.Clip(st.terms)
	return st
}

// raw returns the query terms of raw token r.
func (c *Cache) raw(r string, an *Analyzer) []QueryTerm {
	if c == nil {
		return queryTerms(an.Analyze(r))
	}
	return c.raws.get(r, func() []QueryTerm { return queryTerms(an.Analyze(r)) })
}
