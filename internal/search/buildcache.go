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
// frequency in each field, sorted by term in an analysis that is kept
// (docAnalyzer.analyze; a one-off index reads each term once, in any
// order, docAnalyzer.count), each field's norm, and the raw tokens (with
// their parts) of all its fields. Terms are one sorted slice, not a map
// per field: a fleet's index holds the analysis of every host at once,
// and four small maps per document were most of that.
type docStats struct {
	terms []termStats
	norms [numFields]float64
	raws  []string
	// A one-off index's analysis holds its terms' numbers in the
	// docAnalyzer that counted it in place of terms: 20 bytes a term,
	// not 32.
	counts []termCount
}

// termCount is a term's frequencies in a document, by the term's number
// (docAnalyzer.id).
type termCount struct {
	id int32
	tf [numFields]int32
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
func (u reuse) doc(d *Doc, da *docAnalyzer) *docStats {
	if u.r == nil {
		return da.count(d)
	}
	parts := [numFields + 1]string{string(u.aliases[:])} // the aliases, then each field's text
	for f, name := range Fields {
		parts[f+1] = fieldText(d, name)
	}
	k := page.Key{Kind: kindAnalysis, Sum: page.Sum(parts[:]...)}
	return page.Reused(u.r, k, func() *docStats { return da.analyze(d) })
}

func analyzeDoc(d *Doc, an *Analyzer) *docStats { return newDocAnalyzer(an).analyze(d) }

// docAnalyzer analyzes one document after another, on one goroutine:
// each distinct raw token's lexeme is made once (up to maxExpanded of
// them) and its maps and slices are reused. Looking a token up as
// written, lower case and aliases included, is one map access; each
// occurrence cost a lower-casing, a compacting copy and three lookups
// (a third of a 10k build's static index).
//
// Each distinct term it meets is numbered once (id), and a lexeme keeps
// its terms' numbers: a document's terms are counted in slices indexed
// by number, where a map keyed by the term's text was looked up for
// each lexeme in each document.
type docAnalyzer struct {
	an    *Analyzer
	lex   map[string]*lexeme // by the raw token as written
	spans [][2]int
	// spans2 are a lexeme's raw token's spans read again (lexed).
	spans2 [][2]int
	raws   []raw
	lxs    []*lexeme // lxs[i] is raws[i]'s
	seen   map[string]bool
	gen    uint64 // the number of the document being read, from 1
	// Each term's number, and names[id] the term of each number.
	ids   map[string]int32
	names []string
	// at[id] is 1 + the place of term id in the document's terms, or 0
	// while the document holds none of it.
	at []int32
	// The document's terms and raw tokens as they are counted, copied
	// out at its end: each document's grew from empty, twice the size
	// they end at in garbage.
	counts   []termCount
	rawsSeen []string
	// rawSet, when not nil, holds the raw tokens (with their parts) of
	// all the documents read, each put there when its lexeme is made,
	// and no document lists its own (docStats.raws): a one-off index
	// reads only which raw tokens there are, and listing each
	// document's, a map look-up per distinct raw token and part, was a
	// twentieth of making it. A one-off index also has each document
	// give its terms by number (docStats.counts) and has df, by term
	// number, count the documents whose field f holds the term in
	// df[id][f], and those that hold it in any field in held[id]: the
	// postings' frequencies and lengths.
	rawSet map[string]int
	df     [][numFields]int32
	held   []int32
	// lexed holds, for a one-off index, the terms of each raw token a
	// lexeme was made for that Analyze reads as that one token: its
	// query terms are those terms (lexedTerms), not analyzed again.
	lexed map[string][]term
}

func newDocAnalyzer(an *Analyzer) *docAnalyzer {
	return &docAnalyzer{an: an, lex: map[string]*lexeme{}, seen: map[string]bool{}, ids: map[string]int32{}}
}

// oneOff has da analyze for a one-off index: see rawSet.
func (da *docAnalyzer) oneOff() { da.rawSet, da.lexed = map[string]int{}, map[string][]term{} }

// id returns the number of term t, numbering it if it has none.
func (da *docAnalyzer) id(t string) int32 {
	id, ok := da.ids[t]
	if !ok {
		id = int32(len(da.names))
		da.ids[t] = id
		da.names = append(da.names, t)
		da.at = append(da.at, 0)
		if da.rawSet != nil {
			da.df = append(da.df, [numFields]int32{})
			da.held = append(da.held, 0)
		}
	}
	return id
}

// lexemes reads text's raw tokens and their lexemes into da.raws and
// da.lxs.
func (da *docAnalyzer) lexemes(text string) {
	da.spans = appendSpans(da.spans[:0], text)
	da.raws, da.lxs = da.raws[:0], da.lxs[:0]
	for _, l := range da.spans {
		s := text[l[0]:l[1]]
		lx := da.lex[s]
		if lx == nil {
			// A clone, so the table keeps no document's text alive.
			s = strings.Clone(s)
			lx = &lexeme{}
			da.an.lexemeOf(strings.ToLower(s), lx)
			lx.terms = slices.Clip(lx.terms)
			lx.ids = make([]int32, len(lx.terms))
			for k, t := range lx.terms {
				lx.ids[k] = da.id(t.text)
			}
			lx.parts = splitParts(lx.lower)
			if da.rawSet != nil {
				da.rawSet[lx.lower]++
				for _, p := range lx.parts {
					da.rawSet[p]++
				}
				// A CJK run's terms are cut where it occurs: it has none
				// here. Lower case may cut a token apart (ɓ is no letter
				// of the pattern, Ɓ is); lowering it again changes no rune.
				if da.spans2 = appendSpans(da.spans2[:0], lx.lower); !lx.cjk && len(da.spans2) == 1 && da.spans2[0] == [2]int{0, len(lx.lower)} {
					da.lexed[lx.lower] = lx.terms
				}
			}
			if len(da.lex) < maxExpanded {
				da.lex[s] = lx
			}
		}
		da.raws = append(da.raws, raw{text: lx.lower, start: l[0], end: l[1]})
		da.lxs = append(da.lxs, lx)
	}
}

// analyze is count, with the terms sorted for docStats.term.
func (da *docAnalyzer) analyze(d *Doc) *docStats {
	st := da.count(d)
	slices.SortFunc(st.terms, func(a, b termStats) int { return strings.Compare(a.term, b.term) })
	return st
}

// count analyzes d, its terms in the order it first holds them.
func (da *docAnalyzer) count(d *Doc) *docStats {
	st := &docStats{}
	clear(da.seen)
	da.gen++
	da.counts, da.rawsSeen = da.counts[:0], da.rawsSeen[:0]
	// place returns the place of term id in the document's terms.
	place := func(id int32) int {
		p := da.at[id]
		if p == 0 {
			da.counts = append(da.counts, termCount{id: id})
			p = int32(len(da.counts))
			da.at[id] = p
		}
		return int(p - 1)
	}
	var (
		cur  *lexeme
		f, n int      // the field, its tokens so far
		here []string // tokensAt's
	)
	yield := func(t Token, k int) {
		n++
		var id int32
		if k >= 0 {
			id = cur.ids[k]
		} else {
			id = da.id(t.Term)
		}
		da.counts[place(id)].tf[f]++
	}
	for f = range Fields {
		text := fieldText(d, Fields[f])
		da.lexemes(text)
		n = 0
		for i, lx := range da.lxs {
			// Most raw tokens yield their lexeme's terms alone: counted
			// here, not as tokens one at a time.
			if lx.plain(da.raws, i) {
				for _, id := range lx.ids {
					da.counts[place(id)].tf[f]++
				}
				n += len(lx.ids)
				continue
			}
			cur = lx
			here = da.an.tokensAt(text, da.raws, i, lx, here[:0], yield)
		}
		if n > 0 {
			// bleve keeps norms as float32.
			st.norms[f] = float64(float32(1 / math.Sqrt(float64(n))))
		}
		if da.rawSet != nil {
			continue // counted as their lexemes were made
		}
		for _, lx := range da.lxs {
			if lx.rawGen == da.gen {
				continue
			}
			lx.rawGen = da.gen
			if da.seen[lx.lower] {
				continue
			}
			da.seen[lx.lower] = true
			da.rawsSeen = append(da.rawsSeen, lx.lower)
			for _, p := range lx.parts {
				if !da.seen[p] {
					da.seen[p] = true
					da.rawsSeen = append(da.rawsSeen, p)
				}
			}
		}
	}
	for _, c := range da.counts {
		da.at[c.id] = 0
	}
	if da.rawSet != nil {
		for _, c := range da.counts {
			da.held[c.id]++
			for f, tf := range c.tf {
				if tf > 0 {
					da.df[c.id][f]++
				}
			}
		}
		st.counts = append([]termCount(nil), da.counts...)
		return st
	}
	st.terms = make([]termStats, len(da.counts))
	for j, c := range da.counts {
		st.terms[j] = termStats{term: da.names[c.id], tf: c.tf}
	}
	st.raws = append([]string(nil), da.rawsSeen...)
	return st
}

// lexedTerms are the query terms of a raw token that yields terms ts
// alone: queryTerms(an.Analyze(r)) for a token r of docAnalyzer.lexed.
func lexedTerms(ts []term) []QueryTerm {
	toks := make([]Token, len(ts))
	for i, t := range ts {
		toks[i] = Token{Term: t.text, Kind: t.kind}
	}
	return queryTerms(toks)
}

// raw returns the query terms of raw token r.
func (u reuse) raw(r string, an *Analyzer) []QueryTerm {
	if u.r == nil {
		return queryTerms(an.Analyze(r))
	}
	return page.Reused(u.r, page.Key{Kind: kindRaw, Name: r, Sum: u.aliases}, func() []QueryTerm { return queryTerms(an.Analyze(r)) })
}
