package search

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rocekb/rocekb/internal/escape"
	"github.com/rocekb/rocekb/internal/ibverbs"
	"github.com/rocekb/rocekb/internal/mst"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/site"
)

// Static is the index the published site searches without a server. Its
// files are JavaScript that registers itself (rocekbSearch.manifest(…),
// .shard(…), .frag(…)), so <script src> loads them over HTTP and from
// file:// alike, where Chromium blocks fetch and XHR:
//
//	search/manifest.js  the token patterns, term weights, shard ranges and facet runs
//	search/s/N.js       term-range shard N: for each key in its range, the
//	                    query terms of that raw token (s), phrase aliases
//	                    starting with it (c), the postings of that term (p,
//	                    see appendPostings), the raw tokens that yield
//	                    the term (r, for marking), the vendor term of
//	                    that adapter term (o, for dropQualifiers) and the
//	                    docs that are the page of that id (e, EntityBoost)
//	search/f/N.js       result fragments of docs N×fg … N×fg+fg-1: url,
//	                    title, facets, the text's start
//
// The browser never analyzes text itself: the s table holds the Go
// analyzer's terms for every raw token of the corpus and of the aliases;
// only CJK bigrams and the fallback for unknown tokens (a word stemmed by a
// port of the Go stemmer, TestStemMatchesGo) are rules (see search.js),
// and StaticTerms mirrors them in Go for the golden test.
type Static struct {
	an                    *Analyzer
	docs                  []Doc
	n                     int
	surf                  map[string][]QueryTerm // raw token → its query terms
	own                   map[string]string      // adapter term → vendor term (Aliases.Owners), for dropQualifiers
	fwLine                map[string][]string    // firmware line → adapters (Aliases.FirmwareLines), for queryNames
	entity                map[string][]int32     // id → the docs that are its page (entities), for EntityBoost
	multi                 map[string][]phrase
	post                  map[string][]posting // term → postings, by doc
	rev                   map[string][]string  // term → raw tokens that yield it
	groups                []group
	kinds, vendors, langs []string
	bilingual             map[string]bool // bilingualKinds of docs
	hosts                 map[string]bool // terms that name a host (hostTerms)
	fuzzy                 []FuzzyName
	byURL                 map[string]int
	inc                   *incState // what a kept index needs to be updated, or nil
}

// posting is a document holding a term: its number and the code of the
// term's score in it (see weightCode), all a posting holds. A fleet's
// index has a posting per term of every host: 8 bytes each.
type posting struct {
	doc, code int32
}

// w is the term's score in the doc, before query weight and coord: the
// weight code stands for it.
func (p posting) w() float64 { return codeWeight(int(p.code)) }

// group is a run of docs with one kind, vendor and lang (docs are sorted so).
type group struct{ start, kind, vendor, lang int }

// Sizes of the static files: shards are cut at about shardBytes, fragment
// text at fragmentText bytes, and fragmentGroup docs share a fragment file
// (neighbours in doc order, so mostly of one kind and vendor).
const (
	shardBytes    = 4 << 10
	fragmentText  = 800
	fragmentGroup = 2
)

// NewStatic builds the static index of docs with the bleve index's scoring
// (tf-idf with field boosts and coord), so both engines rank alike.
func NewStatic(docs []Doc, al *Aliases) *Static { return reuse{}.newStatic(sortDocs(docs), al) }

// NewStaticReusing is NewStatic, taking each document's analysis and each
// raw token's query terms from r when an earlier build made them with the
// same aliases (aliasKey names them; "" reuses nothing), and keeping the
// index in r. When the index r kept had the same aliases and the same
// documents in the same places, differing only in some documents' text
// (kbgen serve's rebuild after an edit), it is updated for those
// documents instead and returned (see update): the index a fresh build
// makes, with only the outputs that changed given new keys
// (KeyedOutputs).
func NewStaticReusing(docs []Doc, al *Aliases, aliasKey string, r page.Reuse) *Static {
	if r == nil || aliasKey == "" {
		return NewStatic(docs, al)
	}
	u := reuse{r, page.Sum(aliasKey)}
	sorted := sortDocs(docs)
	k := page.Key{Kind: kindIndex, Sum: u.aliases}
	if v, ok := r.Load(k); ok {
		if s := v.(*Static); s.update(sorted) {
			return s
		}
	}
	s := u.newStatic(sorted, al)
	r.Store(k, s)
	return s
}

// newStatic builds the static index of sorted docs from nothing.
func (u reuse) newStatic(sorted []Doc, al *Aliases) *Static {
	s := &Static{an: &Analyzer{Aliases: al}, docs: sorted, multi: map[string][]phrase{}}
	if al != nil {
		s.multi = al.multi
	}
	s.own = al.Owners()
	s.fwLine = al.FirmwareLines()
	s.n = len(s.docs)
	stats := make([]*docStats, s.n)
	// Documents are analyzed in parallel, each worker taking the next run
	// of them until none is left (docs are sorted by kind, and a fixed
	// share each left one worker idle while the other analyzed the long
	// FAQ pages), with its own document frequencies and raw tokens,
	// merged after: the result does not depend on the order. A one-off
	// index's workers count by term number (docStats.counts, and
	// docAnalyzer.df); by[i] is the worker that analyzed doc i.
	workers := min(runtime.GOMAXPROCS(0), max(1, s.n/64), math.MaxUint8+1) // by's numbers
	const run = 32
	var next atomic.Int64
	type part struct {
		df   []map[string]int // a kept index's
		raws map[string]int   // raw token → how many documents yield it (a one-off index: any number above 0)
		da   *docAnalyzer
	}
	parts := make([]part, workers)
	by := make([]uint8, s.n)
	var wg sync.WaitGroup
	for w := range parts {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			pt := part{raws: map[string]int{}, da: newDocAnalyzer(s.an)}
			if u.r == nil {
				pt.da.oneOff()
				pt.raws = pt.da.rawSet // how many documents yield each is not read
			} else {
				pt.df = make([]map[string]int, len(Fields))
				for f := range Fields {
					pt.df[f] = map[string]int{}
				}
			}
			for {
				from := int(next.Add(run)) - run
				if from >= s.n {
					break
				}
				for i := from; i < min(from+run, s.n); i++ {
					st := u.doc(&s.docs[i], pt.da)
					stats[i], by[i] = st, uint8(w)
					for _, ts := range st.terms {
						for f, tf := range ts.tf {
							if tf > 0 {
								pt.df[f][ts.term]++
							}
						}
					}
					for _, r := range st.raws {
						pt.raws[r]++
					}
				}
			}
			// The merge reads only its terms' names and counts and the
			// lexed tokens: its lexemes may go.
			pt.da.lex, pt.da.ids = nil, nil
			parts[w] = pt
		}(w)
	}
	wg.Wait()
	rawN := parts[0].raws
	for _, pt := range parts[1:] {
		for r, n := range pt.raws {
			rawN[r] += n
		}
	}
	// Each term's inverse document frequencies are found once, beside the
	// postings they weigh: a posting's look-ups of its term's list and
	// frequencies, one per field, were most of making it. A one-off
	// index finds a term's list by its number in each worker (ids[w]).
	terms := map[string]*termPostings{}
	termOf := func(t string) *termPostings {
		tp := terms[t]
		if tp == nil {
			tp = &termPostings{}
			terms[t] = tp
		}
		return tp
	}
	var df []map[string]int // a kept index's
	ids := make([][]*termPostings, workers)
	if u.r == nil {
		for w, pt := range parts {
			ids[w] = make([]*termPostings, len(pt.da.names))
			for id, t := range pt.da.names {
				if pt.da.df[id] == ([numFields]int32{}) {
					continue
				}
				tp := termOf(t)
				ids[w][id] = tp
				for f, n := range pt.da.df[id] {
					tp.df[f] += int(n)
				}
				tp.held += int(pt.da.held[id])
			}
		}
		for _, tp := range terms {
			tp.post = make([]posting, 0, tp.held)
			for f, n := range tp.df {
				if n > 0 {
					tp.idf[f] = s.idf(n)
				}
			}
		}
	} else {
		df = parts[0].df
		for _, pt := range parts[1:] {
			for f := range Fields {
				for t, n := range pt.df[f] {
					df[f][t] += n
				}
			}
		}
		for f := range df {
			for t, n := range df[f] {
				termOf(t).idf[f] = s.idf(n)
			}
		}
	}
	aliasRaw := map[string]bool{}
	if al != nil {
		for _, w := range al.Words() {
			aliasRaw[w] = true
		}
	}
	// The tables made at the size they end at, not grown: a raw token's
	// terms and a term's raw tokens and postings.
	s.surf = make(map[string][]QueryTerm, len(rawN)+len(aliasRaw))
	s.rev = make(map[string][]string, len(terms))
	s.post = make(map[string][]posting, len(terms))
	// A one-off index's workers have the terms of most raw tokens from
	// their lexemes (docAnalyzer.lexed).
	lexed := func(r string) ([]term, bool) {
		for _, pt := range parts {
			if ts, ok := pt.da.lexed[r]; ok {
				return ts, true
			}
		}
		return nil, false
	}
	addRaw := func(r string) {
		if isCJK(r) {
			return
		}
		var qts []QueryTerm
		if ts, ok := lexed(r); ok {
			qts = lexedTerms(ts)
		} else {
			qts = u.raw(r, s.an)
		}
		s.surf[r] = qts
		for _, t := range qts {
			s.rev[t.Term] = append(s.rev[t.Term], r)
		}
	}
	for r := range rawN {
		addRaw(r)
	}
	for r := range aliasRaw {
		if rawN[r] == 0 {
			addRaw(r)
		}
	}
	for w := range parts {
		parts[w].da = nil // the collector may take its lexemes
	}
	for t := range s.rev {
		sort.Strings(s.rev[t])
	}
	// The host terms and the fuzzy names read the documents alone: they
	// are made while the postings are.
	var side sync.WaitGroup
	side.Add(1)
	go func() {
		defer side.Done()
		s.hosts = hostTerms(s.an, s.docs)
		s.fuzzy = fuzzyNames(s.docs, al)
	}()
	for i := range s.docs {
		st := stats[i]
		for _, ts := range st.terms {
			tp := terms[ts.term]
			tp.post = append(tp.post, s.score(i, st, ts.tf, &tp.idf))
		}
		for _, c := range st.counts {
			tp := ids[by[i]][c.id]
			tp.post = append(tp.post, s.score(i, st, c.tf, &tp.idf))
		}
		if u.r == nil {
			stats[i] = nil // its postings are made: the collector may take it
		}
	}
	for t, tp := range terms {
		s.post[t] = tp.post
	}
	s.groupDocs()
	s.entity = entities(s.docs)
	side.Wait()
	s.byURL = make(map[string]int, s.n)
	for i := range s.docs {
		s.byURL[s.docs[i].URL] = i
	}
	if u.r != nil {
		s.inc = &incState{keep: true, fresh: true, al: al, stats: stats, df: df, rawN: rawN, aliasRaw: aliasRaw}
	}
	return s
}

// posting is doc i's posting of term t: the term's score in the doc, of
// its analysis st, with the document frequencies df.
func (s *Static) posting(i int, st *docStats, df []map[string]int, t string) posting {
	ts, _ := st.term(t)
	return s.weigh(i, st, ts, df)
}

// weigh is doc i's posting of the term ts counts, of its analysis st.
func (s *Static) weigh(i int, st *docStats, ts termStats, df []map[string]int) posting {
	var idf [numFields]float64
	for f := range idf {
		if ts.tf[f] > 0 {
			idf[f] = s.idf(df[f][ts.term])
		}
	}
	return s.score(i, st, ts.tf, &idf)
}

// termPostings is a term's postings as they are made, with its inverse
// document frequency in each field it is in.
type termPostings struct {
	// A one-off index's document frequencies, and the number of
	// documents holding the term, as its workers' are summed.
	df   [numFields]int
	held int
	idf  [numFields]float64
	post []posting
}

// idf is the inverse document frequency of a term df documents hold.
func (s *Static) idf(df int) float64 { return 1 + math.Log(float64(s.n)/float64(df+1)) }

// fieldBoosts are FieldBoost by field number.
var fieldBoosts = func() (b [numFields]float64) {
	for f, name := range Fields {
		b[f] = FieldBoost[name]
	}
	return b
}()

// score is doc i's posting of a term with frequencies tf in it, of its
// analysis st, with the term's inverse document frequencies idf.
func (s *Static) score(i int, st *docStats, tf [numFields]int32, idf *[numFields]float64) posting {
	var sum float64
	matched := 0
	for f, tf := range tf {
		if tf == 0 {
			continue
		}
		matched++
		sum += fieldBoosts[f] * idf[f] * idf[f] * math.Sqrt(float64(tf)) * st.norms[f]
	}
	code, _ := weightCode(sum * float64(matched) / float64(len(Fields)))
	return posting{doc: int32(i), code: int32(code)}
}

// weightCode keeps four significant digits of a posting's weight w as
// the code e×10000 + m, which stands for m / 10^e (m in 1000…9999, e in
// 0…9), and returns the code and the weight it stands for. Dividing an
// integer by an exact power of ten rounds the same in Go and JavaScript,
// so both rank with the same numbers.
func weightCode(w float64) (int, float64) {
	// Most weights are scaled to m's four digits in one product and
	// rounded here: strconv's exact digits are needed only where the
	// product may lie on the other side of a half (within 1e-9 of it;
	// the product is off by at most 2e-12) or rounds to 10000, and at
	// the saturated ends.
	if w >= 1e-6 && w < 1e4 {
		x := 3 // w's decimal exponent, or one off near a power of ten
		for x > -6 && w < tenths[3-x] {
			x--
		}
		scaled := w * pow10[3-x]
		if f := scaled - math.Floor(scaled); scaled >= 1000 && math.Abs(f-0.5) > 1e-9 {
			if m := int(scaled + 0.5); m < 10000 {
				e := 3 - x
				return e*10000 + m, float64(m) / pow10[e]
			}
		}
	}
	return weightCodeExact(w)
}

// tenths[k] is the float64 nearest 10^(3-k): the least weight of
// exponent 3-k, up to the rounding of its power (weightCode checks the
// product it scales to).
var tenths = [...]float64{1e3, 1e2, 1e1, 1, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6}

// weightCodeExact is weightCode from strconv's digits of w.
func weightCodeExact(w float64) (int, float64) {
	// Read in place from a buffer on the stack: a posting's two strings
	// and their conversions were a tenth of making the index.
	var buf [24]byte
	str := strconv.AppendFloat(buf[:0], w, 'e', 3, 64) // d.ddde±x
	m := int(str[0]-'0')*1000 + int(str[2]-'0')*100 + int(str[3]-'0')*10 + int(str[4]-'0')
	x := 0
	for _, c := range str[7:] {
		x = x*10 + int(c-'0')
	}
	if str[6] == '-' {
		x = -x
	}
	e := 3 - x
	switch {
	case e < 0: // w ≥ 10000: saturate
		m, e = 9999, 0
	case e > 9: // w < 1e-6
		m, e = 1000, 9
	}
	return e*10000 + m, float64(m) / pow10[e]
}

var pow10 = [...]float64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9}

// codeWeight is the weight a code of weightCode stands for.
func codeWeight(code int) float64 { return float64(code%10000) / pow10[code/10000] }

// Postings are stored as one string per term: per posting, the doc
// number's distance from the previous one (a varint: digits 32…63 carry
// five low bits and continue, a digit 0…31 ends) and then the weight
// code in three digits, most significant first. Digits are the 64
// characters of b64 (no quote or backslash, so JSON leaves them as they
// are).
const b64 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"

// appendPostings appends the string of postings ps to b.
func appendPostings(b []byte, ps []posting) []byte {
	prev := 0
	for _, p := range ps {
		d := int(p.doc) - prev
		prev = int(p.doc)
		for d >= 32 {
			b = append(b, b64[32+d&31])
			d >>= 5
		}
		b = append(b, b64[d], b64[p.code>>12&63], b64[p.code>>6&63], b64[p.code&63])
	}
	return b
}

// postingsLen is the length of the string of postings ps (appendPostings).
func postingsLen(ps []posting) int {
	n, prev := 0, 0
	for _, p := range ps {
		d := int(p.doc) - prev
		prev = int(p.doc)
		for d >= 32 {
			n++
			d >>= 5
		}
		n += 4
	}
	return n
}

func (s *Static) groupDocs() {
	s.bilingual = bilingualKinds(s.docs)
	idx := func(list *[]string, v string) int {
		for i, x := range *list {
			if x == v {
				return i
			}
		}
		*list = append(*list, v)
		return len(*list) - 1
	}
	for i, d := range s.docs {
		g := group{start: i, kind: idx(&s.kinds, d.Kind), vendor: idx(&s.vendors, d.Vendor), lang: idx(&s.langs, d.Lang)}
		if n := len(s.groups); n > 0 {
			p := s.groups[n-1]
			if p.kind == g.kind && p.vendor == g.vendor && p.lang == g.lang {
				continue
			}
		}
		s.groups = append(s.groups, g)
	}
}

// StaticTerms analyzes a query the way search.js does: each raw token's
// terms from the s table; CJK runs cut into bigrams; an unknown word
// stemmed (search.js ports the stemmer), an unknown token kept
// whole (unless it is noise) with the known parts of it (of a version, as
// the analyzer has them: versionTerms) and the aliases of its compact form; phrase aliases from the c table; the names only a
// query reads (queryNames); a vendor that only qualifies its adapter
// dropped (the o table of the tokens' shards).
func (s *Static) StaticTerms(q string) []QueryTerm {
	return queryTerms(dropQualifiers(s.own, s.staticTokens(q)))
}

// staticTokens are the tokens of q that StaticTerms merges, before the
// qualifiers are dropped: search.js loads the shards of their terms, whose
// o tables the drop reads.
func (s *Static) staticTokens(q string) []Token { return s.tokensOf(cjkExpand(q), true) }

// tokensOf is staticTokens, with the names only a query reads (queryNames)
// when names is set.
func (s *Static) tokensOf(q string, names bool) []Token {
	raws := rawTokens(q)
	var toks []Token
	pos := 0
	add := func(t string, k Kind) { toks = append(toks, Token{Term: t, Kind: k, Pos: pos}) }
	for i, r := range raws {
		pos = i + 1
		switch e, ok := s.surf[r.text]; {
		case ok:
			for _, t := range e {
				add(t.Term, t.Kind)
			}
		case isCJK(r.text):
			rs := []rune(r.text)
			if len(rs) == 1 {
				add(r.text, CJK)
			}
			for j := 0; j+1 < len(rs); j++ {
				add(string(rs[j:j+2]), CJK)
			}
			zhSynonymsIn(rs, func(c string, _, _ int) { cjkPairs(c, func(p string) { add(p, CJK) }) })
		case isNoise(r.text):
		default:
			// Unknown: a word stemmed (unless a stop word), else kept
			// whole with the kind of its shape.
			switch {
			case isAlpha(r.text):
				if len(r.text) >= 2 && !stopWords[r.text] {
					add(stem(r.text), Word)
				}
			case isNumber(r.text):
				add(r.text, Number)
			case versionPrefix(r.text) != "":
				s.versionTerms(r.text, add)
			default:
				add(r.text, Ident)
				s.knownParts(r.text, add)
			}
			// A name spelled another way (cx-6dx) is an alias by its
			// compact form, as the analyzer's single-token aliases are;
			// the surface table has every alias's compact form.
			if c := compact(r.text); c != r.text {
				for _, t := range s.surf[c] {
					if t.Kind == Alias {
						add(t.Term, Alias)
					}
				}
			}
		}
		for _, p := range s.multi[r.text] {
			if p.follows(raws, i) {
				add(p.Canon, Alias)
			}
		}
		if names {
			queryNames(raws, i, s.keyNames, func(major string) []string { return s.fwLine[major] }, func(n string, _, _ int) { add(n, Alias) })
		}
	}
	return toks
}

// keyNames are the names of compact key: the alias-kind terms the
// surface table holds for it (Analyzer.keyNames).
func (s *Static) keyNames(key []byte) []string {
	var out []string
	for _, t := range s.surf[string(key)] {
		if t.Kind == Alias {
			out = append(out, t.Term)
		}
	}
	return out
}

// knownParts adds, as parts, the terms of t's parts that the surface table
// has, when t has parts.
func (s *Static) knownParts(t string, add func(string, Kind)) {
	if parts := splitParts(t); len(parts) > 1 {
		for _, p := range parts {
			for _, qt := range s.surf[p] {
				if qt.Kind != Alias {
					add(qt.Term, Part)
				}
			}
		}
	}
}

// versionTerms adds the terms the analyzer gives a version no page has
// (expandText's version case): the version, and as parts its "-" segments,
// their leading versions and the known parts of the rest; not its
// components, which would match every page with a 5 or a 15.
func (s *Static) versionTerms(t string, add func(string, Kind)) {
	add(t, Version)
	for _, seg := range strings.Split(t, "-") {
		lead := versionPrefix(seg)
		if lead == "" {
			s.knownParts(seg, add)
			continue
		}
		if seg != t {
			add(seg, Part)
		}
		if lead != seg {
			add(lead, Part)
			s.knownParts(seg[len(lead):], add)
		}
	}
}

// StaticHit is a result of the static ranking.
type StaticHit struct {
	Doc   int
	URL   string
	Score float64
}

// StaticResults are what Static.Search finds: the hits of the page asked
// for, the number of matches, the corrected query and the explanations.
type StaticResults struct {
	Hits       []StaticHit
	Total      int
	DidYouMean string
	Explains   []Explanation
}

// known reports whether a raw token has a main term with postings: its
// terms as the analyzer gives them (Index.known), without the names only a
// query reads, which include a name of one of its parts (mlx5_cor is no
// known token because mlx5 names the mlx5_ib driver).
func (s *Static) known(raw string) bool {
	e, ok := s.surf[raw]
	if !ok {
		e = queryTerms(s.tokensOf(raw, false))
	}
	for _, t := range e {
		if mainTerm(t.Kind) && len(s.post[t.Term]) > 0 {
			return true
		}
	}
	return false
}

// Search ranks as search.js does: the query normalized and corrected as
// Index.Search does it; for each doc, the sum over the query's terms of
// weight × stored score, times the share of terms it matches, times its
// kind's boost; the template-explained pages first, host reports last
// unless the query names a host; ties go to the lower doc number.
func (s *Static) Search(q Query) ([]StaticHit, int) {
	r := s.SearchAll(q)
	return r.Hits, r.Total
}

// SearchAll is Search with the correction and explanations.
func (s *Static) SearchAll(q Query) StaticResults {
	var res StaticResults
	text := Normalize(q.Text)
	if c := correct(text, s.fuzzy, s.known); c != "" {
		text, res.DidYouMean = c, c
	}
	qts := s.StaticTerms(text)
	var pinned []int
	cjk := queryCJK(text, slices.Contains(s.langs, "ja"))
	res.Explains, pinned = explain(text, cjk, func(u string) (int, bool) {
		i, ok := s.byURL[u]
		return i, ok && s.passes(i, q)
	})
	score := map[int]float64{}
	count := map[int]int{}
	for _, t := range qts {
		for _, p := range s.post[t.Term] {
			score[int(p.doc)] += t.Weight * p.w()
			count[int(p.doc)]++
		}
	}
	explained := map[int]bool{}
	for _, d := range pinned {
		explained[d] = true
		if _, ok := score[d]; !ok {
			score[d] = 0
		}
	}
	hostNamed := namesHost(qts, s.hosts)
	named := namedDocs(qts, s.entity)
	var rs []ranked
	for d, sc := range score {
		if !s.passes(d, q) {
			continue
		}
		kind := s.docs[d].Kind
		var v float64
		if count[d] > 0 {
			v = sc * float64(count[d]) / float64(len(qts)) * kindBoost(kind) * langBoost(s.docs[d].Lang, s.bilingual[kind], cjk)
			if named[int32(d)] {
				v *= entityBoost(kind)
			}
		}
		rs = append(rs, ranked{doc: d, tier: tierOf(kind, explained[d], hostNamed), score: v})
	}
	sortRanked(rs)
	res.Total = len(rs)
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	for k := max(q.Offset, 0); k < len(rs) && k < max(q.Offset, 0)+limit; k++ {
		res.Hits = append(res.Hits, StaticHit{Doc: rs[k].doc, URL: s.docs[rs[k].doc].URL, Score: rs[k].score})
	}
	return res
}

func (s *Static) passes(d int, q Query) bool {
	doc := &s.docs[d]
	return (q.Kind == "" || doc.Kind == q.Kind) && (q.Vendor == "" || doc.Vendor == q.Vendor) && (q.Lang == "" || doc.Lang == q.Lang)
}

// Vocabulary reports whether term has postings.
func (s *Static) Vocabulary(term string) bool { return len(s.post[term]) > 0 }

// Outputs emits the static index files, byte for byte the same for the
// same docs and aliases. Paths are relative to the site root.
func (s *Static) Outputs(emit func(path string, data []byte) error) error {
	return s.outputs(func(path, _ string, data func() []byte) error { return emit(path, data()) })
}

// KeyedOutputs emits the files Outputs does, each with a key and a
// function that makes its bytes: a file whose bytes have not changed since
// an earlier call on this index, or on the one it was updated from (see
// NewStaticReusing), keeps that call's key, so a build that wrote it then
// need not make it again. Keys are "" for an index not kept.
func (s *Static) KeyedOutputs(emit func(path, key string, data func() []byte) error) error {
	return s.outputs(emit)
}

func (s *Static) outputs(emit func(path, key string, data func() []byte) error) error {
	inc := s.inc
	if inc == nil {
		inc = &incState{}
	}
	out := inc.begin()
	ok := false
	defer inc.end(&ok)
	sorted := inc.sortedKeys(s)
	// Shards are runs of keys, cut where their size passes shardBytes.
	var spans []shardSpan
	size := 0
	for i, k := range sorted {
		if size == 0 {
			spans = append(spans, shardSpan{first: i})
		}
		size += inc.keySize(s, k)
		if size >= shardBytes {
			spans[len(spans)-1].end, size = i+1, 0
		}
	}
	if size > 0 {
		spans[len(spans)-1].end = len(sorted)
	}
	firsts := make([]string, len(spans))
	for i, sp := range spans {
		firsts[i] = sorted[sp.first]
	}
	changed := inc.changedShards(spans, firsts)
	for n, sp := range spans {
		keys := sorted[sp.first:sp.end]
		err := emit(fmt.Sprintf("search/s/%d.js", n), out.key(fmt.Sprintf("search/s/%d.js", n), changed[n]), func() []byte { return s.shard(n, keys) })
		if err != nil {
			return err
		}
	}
	for g := 0; g*fragmentGroup < s.n; g++ {
		path := fmt.Sprintf("search/f/%d.js", g)
		if err := emit(path, out.key(path, inc.fragChanged(g)), func() []byte { return s.fragments(g) }); err != nil {
			return err
		}
	}
	if err := emit("search/fuzzy.js", out.key("search/fuzzy.js", inc.fuzzyChanged), s.fuzzyFile); err != nil {
		return err
	}
	if err := emit("search/manifest.js", out.key("search/manifest.js", inc.fresh || !slices.Equal(firsts, inc.firsts)), func() []byte { return s.manifest(firsts) }); err != nil {
		return err
	}
	// Each folder has an index page, so a static host lists none.
	for _, d := range [][2]string{{"search", "the search index's data files"}, {"search/f", "the search results' text, in groups"}, {"search/s", "the search index's term shards"}} {
		if err := emit(d[0]+"/index.html", out.key(d[0]+"/index.html", false), func() []byte { return site.DataIndex(d[0], d[1], "search.html") }); err != nil {
			return err
		}
	}
	inc.spans, inc.firsts, ok = spans, firsts, true
	return nil
}

// shardSpan is a shard's keys: sorted keys [first, end).
type shardSpan struct{ first, end int }

// keySize is what key k adds to its shard's size, as shards are cut.
func (s *Static) keySize(k string) int {
	var add int
	if e, ok := s.surf[k]; ok {
		add += len(k) + 12*len(e)
	}
	if ps, ok := s.multi[k]; ok {
		add += len(k) + 20*len(ps)
	}
	if ps, ok := s.post[k]; ok {
		add += len(k) + postingsLen(ps) + 10*len(s.rev[k])
	}
	if v, ok := s.own[k]; ok {
		add += len(k) + len(v) + 6
	}
	if ds, ok := s.entity[k]; ok {
		add += len(k) + 6*len(ds) + 6
	}
	return add
}

// shard is the file of shard n, which holds keys (sorted, each once):
// rocekbSearch.shard(n,{…}); with the object encoding/json writes for
// the tables s, c, p, r, h, o and e of the keys that have an entry in
// them, each table left out when no key has one. It is appended here,
// not encoded by reflection from maps made for it (a tenth of the
// static index), and held to encoding/json by TestShardIsEncodingJSON.
func (s *Static) shard(n int, keys []string) []byte {
	type entry struct {
		k                     string
		surf                  []QueryTerm
		multi                 []phrase
		post                  []posting
		own                   string
		entity                []int32
		inSurf, inPost, inOwn bool
		inEntity              bool
	}
	es := make([]entry, len(keys))
	for i, k := range keys {
		e := &es[i]
		e.k = k
		e.surf, e.inSurf = s.surf[k]
		e.multi = s.multi[k]
		e.post, e.inPost = s.post[k]
		e.own, e.inOwn = s.own[k]
		e.entity, e.inEntity = s.entity[k]
	}
	b := make([]byte, 0, 2*shardBytes)
	b = append(b, "rocekbSearch.shard("...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, ",{"...)
	first := true
	// table writes the table name of the keys has holds, each key's value
	// by value.
	table := func(name string, has func(e *entry) bool, value func(b []byte, e *entry) []byte) {
		open := false
		for i := range es {
			e := &es[i]
			if !has(e) {
				continue
			}
			if !open {
				if !first {
					b = append(b, ',')
				}
				first, open = false, true
				b = append(b, '"')
				b = append(b, name...)
				b = append(b, `":{`...)
			} else {
				b = append(b, ',')
			}
			b = escape.JSONString(b, e.k)
			b = append(b, ':')
			b = value(b, e)
		}
		if open {
			b = append(b, '}')
		}
	}
	table("s", func(e *entry) bool { return e.inSurf }, func(b []byte, e *entry) []byte {
		b = append(b, '[')
		for j, t := range e.surf {
			if j > 0 {
				b = append(b, ',')
			}
			b = escape.JSONString(b, t.Term)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(t.Kind), 10)
		}
		return append(b, ']')
	})
	table("c", func(e *entry) bool { return len(e.multi) > 0 }, func(b []byte, e *entry) []byte {
		b = append(b, '[')
		for j, p := range e.multi {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			b = escape.JSONString(b, p.Canon)
			for _, r := range p.Rest {
				b = append(b, ',')
				b = escape.JSONString(b, r)
			}
			b = append(b, ']')
		}
		return append(b, ']')
	})
	inPost := func(e *entry) bool { return e.inPost }
	table("p", inPost, func(b []byte, e *entry) []byte {
		// The digits of b64 need no escaping.
		return append(appendPostings(append(b, '"'), e.post), '"')
	})
	table("r", inPost, func(b []byte, e *entry) []byte { return appendJSONStrings(b, s.rev[e.k]) })
	table("h", func(e *entry) bool { return e.inPost && s.hosts[e.k] }, func(b []byte, _ *entry) []byte { return append(b, '1') })
	table("o", func(e *entry) bool { return e.inOwn }, func(b []byte, e *entry) []byte { return escape.JSONString(b, e.own) })
	table("e", func(e *entry) bool { return e.inEntity }, func(b []byte, e *entry) []byte {
		if e.entity == nil {
			return append(b, "null"...)
		}
		b = append(b, '[')
		for j, d := range e.entity {
			if j > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(d), 10)
		}
		return append(b, ']')
	})
	return append(b, "});\n"...)
}

// appendJSONStrings appends list as encoding/json writes a []string:
// null when it is nil.
func appendJSONStrings(b []byte, list []string) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for j, v := range list {
		if j > 0 {
			b = append(b, ',')
		}
		b = escape.JSONString(b, v)
	}
	return append(b, ']')
}

// fragments is the file of fragment group g.
func (s *Static) fragments(g int) []byte {
	var list []map[string]string
	for i := g * fragmentGroup; i < min(s.n, (g+1)*fragmentGroup); i++ {
		d := &s.docs[i]
		text := d.Body
		if len(text) > fragmentText {
			text = text[:wordEnd(text, fragmentText)] + "…"
		}
		list = append(list, map[string]string{"u": d.URL, "t": d.Title, "k": d.Kind, "v": d.Vendor, "l": d.Lang, "x": text})
	}
	return jsonp("frags", strconv.Itoa(g), list)
}

func (s *Static) fuzzyFile() []byte {
	fz := make([][2]string, len(s.fuzzy))
	for i, n := range s.fuzzy {
		fz[i] = [2]string{n.Key, n.Show}
	}
	return jsonp("fuzzy", "", fz)
}

// manifest is search/manifest.js; firsts are the shards' first keys.
func (s *Static) manifest(firsts []string) []byte {
	var groups [][4]int
	for _, g := range s.groups {
		groups = append(groups, [4]int{g.start, g.kind, g.vendor, g.lang})
	}
	kw := make([]float64, len(KindWeight))
	copy(kw, KindWeight[:])
	kb := make([]float64, len(s.kinds))
	eb := make([]float64, len(s.kinds)) // EntityBoost by kind
	ol := make([]float64, len(s.kinds)) // OtherLanguage by kind: 1 for a kind in one script
	for i, k := range s.kinds {
		kb[i] = kindBoost(k)
		eb[i] = entityBoost(k)
		ol[i] = langBoost("", s.bilingual[k], true)
	}
	// Templates whose page is indexed: [pattern, doc, means, id, url,
	// {lang: [doc, url]} of the page's versions in CJK languages].
	tpl := [][]any{}
	for _, t := range Templates() {
		if d, ok := s.byURL[t.Page]; ok {
			loc := map[string][]any{}
			for _, l := range cjkLangList() {
				if ld, ok := s.byURL[localizedURL(t.Page, l)]; ok {
					loc[l] = []any{ld, localizedURL(t.Page, l)}
				}
			}
			tpl = append(tpl, []any{t.Match, d, t.Means, t.ID, t.Page, loc})
		}
	}
	man := map[string]any{
		"v": 4, "n": s.n, "fg": fragmentGroup, "b64": b64, "tok": tokenPattern(jsEsc), "noise": noisePattern, "split": splitPattern,
		"cjk": cjkClass(), "alpha": alphaPattern, "number": numberPattern, "kw": kw, "shards": firsts, "fwv": fwVersionPattern, "glue": gluedPattern, "stop": stopList(), "fwl": s.fwLine, "run": maxRun, "groups": groups,
		"kinds": s.kinds, "vendors": s.vendors, "langs": s.langs, "kb": kb, "ver": versionRe.String(), "pci": pciIDPattern, "head": headerPattern, "part": partIDPattern, "vendor": vendorIDPattern, "pv": ibverbs.PCIVendors, "mst": mst.NodePattern, "win": windowsIDPattern, "mstv": mst.PCIVendor, "tpl": tpl,
		"fz": []int{fuzzyMaxTokens, fuzzyMinLen, fuzzyLong, fuzzyDigits}, "eb": eb, "ol": ol, "cjkl": cjkLangList(), "cjkw": cjkWordList(), "zhs": zhSynonymList(),
	}
	return jsonp("manifest", "", man)
}

// stopList is the stop words, sorted: search.js drops them from the
// words no page has, as the analyzer does.
func stopList() []string {
	out := make([]string, 0, len(stopWords))
	for w := range stopWords {
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}

func cjkLangList() []string {
	var out []string
	for l := range cjkLangs {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

func cjkClass() string {
	var b strings.Builder
	b.WriteString("[")
	for _, r := range cjkRanges {
		b.WriteString(jsEsc(r[0]) + "-" + jsEsc(r[1]))
	}
	b.WriteString("]")
	return b.String()
}

// jsonp renders rocekbSearch.fn(arg, data); as one line.
func jsonp(fn, arg string, data any) []byte {
	// Encoded after the call's head, in the one buffer returned.
	var out bytes.Buffer
	out.WriteString("rocekbSearch." + fn + "(")
	if arg != "" {
		out.WriteString(arg + ",")
	}
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(data); err != nil {
		panic(err) // only maps, slices, strings and numbers
	}
	out.Truncate(len(bytes.TrimRight(out.Bytes(), "\n")))
	out.WriteString(");\n")
	return out.Bytes()
}
