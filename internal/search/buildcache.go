package search

import (
	"crypto/sha256"
	"math"
	"sync"
)

// Cache keeps, between the builds of one site (kbgen serve's rebuilds),
// the work the static index and FromKB repeat for inputs that did not
// change: each document's analysis, each raw token's query terms and
// each FAQ body's text. An entry no build used is dropped at the end of
// the next one. A nil *Cache keeps nothing.
type Cache struct {
	mu       sync.Mutex
	aliases  string
	docs     map[[sha256.Size]byte]*docStats
	raws     map[string][]QueryTerm
	bodies   map[string]*bodyText
	usedDocs map[[sha256.Size]byte]*docStats
	usedRaws map[string][]QueryTerm
	usedBody map[string]*bodyText
}

// docStats is a document's analysis: per field, its terms' frequencies
// and norm, and the raw tokens (with their parts) of all its fields.
type docStats struct {
	fields []fieldStats
	raws   []string
}

type fieldStats struct {
	tf   map[string]int
	norm float64
}

type bodyText struct {
	headings []string
	body     string
	code     []string
}

// begin starts a build whose analysis uses the aliases aliasKey names;
// entries made with other aliases are dropped.
func (c *Cache) begin(aliasKey string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if aliasKey == "" || aliasKey != c.aliases {
		c.docs, c.raws = nil, nil
	}
	c.aliases = aliasKey
	c.usedDocs, c.usedRaws = map[[sha256.Size]byte]*docStats{}, map[string][]QueryTerm{}
}

// end keeps what the build used.
func (c *Cache) end() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.aliases != "" {
		c.docs, c.raws = c.usedDocs, c.usedRaws
	}
	c.usedDocs, c.usedRaws = nil, nil
}

// doc analyzes d, or returns the analysis of a document with its text.
func (c *Cache) doc(d *Doc, an *Analyzer) *docStats {
	var key [sha256.Size]byte
	if c != nil {
		h := sha256.New()
		for _, name := range Fields {
			t := fieldText(d, name)
			h.Write([]byte{byte(len(t)), byte(len(t) >> 8), byte(len(t) >> 16), byte(len(t) >> 24)})
			h.Write([]byte(t))
		}
		h.Sum(key[:0])
		c.mu.Lock()
		st, ok := c.docs[key]
		if ok {
			c.usedDocs[key] = st
		}
		c.mu.Unlock()
		if ok {
			return st
		}
	}
	st := &docStats{fields: make([]fieldStats, len(Fields))}
	seen := map[string]bool{}
	for f, name := range Fields {
		toks, rs := an.analyze(fieldText(d, name))
		fs := fieldStats{tf: make(map[string]int, len(toks))}
		if len(toks) > 0 {
			// bleve keeps norms as float32.
			fs.norm = float64(float32(1 / math.Sqrt(float64(len(toks)))))
		}
		for _, t := range toks {
			fs.tf[t.Term]++
		}
		st.fields[f] = fs
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
	if c != nil {
		c.mu.Lock()
		c.usedDocs[key] = st
		c.mu.Unlock()
	}
	return st
}

// raw returns the query terms of raw token r.
func (c *Cache) raw(r string, an *Analyzer) []QueryTerm {
	if c != nil {
		if qts, ok := c.raws[r]; ok {
			c.usedRaws[r] = qts
			return qts
		}
	}
	qts := queryTerms(an.Analyze(r))
	if c != nil {
		c.usedRaws[r] = qts
	}
	return qts
}

// body returns the headings, text and code spans of a FAQ body.
func (c *Cache) body(md string) *bodyText {
	if c != nil {
		c.mu.Lock()
		b, ok := c.bodies[md]
		if ok {
			c.usedBody[md] = b
		}
		c.mu.Unlock()
		if ok {
			return b
		}
	}
	b := &bodyText{code: codeSpans(md)}
	b.headings, b.body = markdownText(md)
	if c != nil {
		c.mu.Lock()
		c.usedBody[md] = b
		c.mu.Unlock()
	}
	return b
}

func (c *Cache) beginBodies() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.usedBody = map[string]*bodyText{}
	c.mu.Unlock()
}

func (c *Cache) endBodies() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.bodies, c.usedBody = c.usedBody, nil
	c.mu.Unlock()
}
