package search

import (
	"crypto/sha256"
	"math"
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/page"
)

// reuse is a static index's way to the work an earlier build did with
// the same aliases, through the build's store (page.Reuse): each
// document's analysis, each raw token's query terms, and the index
// itself. The zero reuse keeps nothing.
type reuse struct {
	r       page.Reuse
	aliases [sha256.Size]byte // names the aliases the analysis uses
}

// Kinds of the work a static index keeps (page.Key.Kind).
const (
	kindAnalysis = "search: document analysis" // Sum: the aliases and the fields' text
	kindRaw      = "search: raw token terms"   // Name: the token; Sum: the aliases
	kindIndex    = "search: static index"      // Sum: the aliases
)

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

// doc analyzes d, or returns the analysis of a document with its text.
func (u reuse) doc(d *Doc, an *Analyzer) *docStats {
	if u.r == nil {
		return analyzeDoc(d, an)
	}
	parts := [numFields + 1]string{string(u.aliases[:])} // the aliases, then each field's text
	for f, name := range Fields {
		parts[f+1] = fieldText(d, name)
	}
	k := page.Key{Kind: kindAnalysis, Sum: page.Sum(parts[:]...)}
	return page.Reused(u.r, k, func() *docStats { return analyzeDoc(d, an) })
}

func analyzeDoc(d *Doc, an *Analyzer) *docStats {
	st := &docStats{}
	seen := map[string]bool{}
	at := map[string]int{} // term → its place in st.terms
	for f, name := range Fields {
		text := fieldText(d, name)
		rs := rawTokens(text)
		n := 0
		an.tokens(text, rs, func(t Token) {
			n++
			i, ok := at[t.Term]
			if !ok {
				i = len(st.terms)
				at[t.Term] = i
				st.terms = append(st.terms, termStats{term: t.Term})
			}
			st.terms[i].tf[f]++
		})
		if n > 0 {
			// bleve keeps norms as float32.
			st.norms[f] = float64(float32(1 / math.Sqrt(float64(n))))
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
func (u reuse) raw(r string, an *Analyzer) []QueryTerm {
	if u.r == nil {
		return queryTerms(an.Analyze(r))
	}
	return page.Reused(u.r, page.Key{Kind: kindRaw, Name: r, Sum: u.aliases}, func() []QueryTerm { return queryTerms(an.Analyze(r)) })
}
