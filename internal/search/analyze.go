package search

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
)

// Kind says what a term is; queries weigh terms by kind (KindWeight).
type Kind uint8

// Term kinds.
const (
	Word    Kind = iota // English word, stemmed (failed → fail)
	Ident               // identifier kept whole: mlx5_core, 15b3:1017, rocev2, MCX516A-CCAT
	Part                // a part of an identifier: mlx5 and core of mlx5_core
	Version             // a version, whole: 16.35.2000, 5.1(2x)
	Prefix              // a version prefix, index side only: 16.35 of 16.35.2000
	Number              // bare decimal or hex number: 22, 4791, 0x8915
	Alias               // canonical id of a matrix or glossary alias: connectx-5
	CJK                 // CJK bigram (or a lone ideograph)
)

var kindNames = [...]string{"word", "ident", "part", "version", "prefix", "number", "alias", "cjk"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// KindWeight is how much a query term of each kind counts. Identifiers,
// versions and aliases say more than prose words; identifier parts and bare
// numbers say little, so the numbers in a pasted log line cannot outvote
// its words. Prefixes are never query terms (a version in a query matches
// longer versions through the prefixes indexed for them).
var KindWeight = [...]float64{Word: 1, Ident: 1.5, Part: 0.3, Version: 1.5, Prefix: 0, Number: 0.3, Alias: 1.5, CJK: 1}

// Token is one analyzed term with where it came from in the text.
type Token struct {
	Term       string
	Kind       Kind
	Pos        int // 1-based raw token position; expansions share it
	Start, End int // byte offsets in the text
}

// cjkRanges are the scripts cut into bigrams: kana, CJK ideographs
// (extension A, unified, compatibility) and Hangul syllables.
var cjkRanges = [][2]rune{{0x3040, 0x30ff}, {0x3400, 0x4dbf}, {0x4e00, 0x9fff}, {0xac00, 0xd7af}, {0xf900, 0xfaff}}

// letterRanges are letters beyond ASCII kept inside words (Latin-1 and
// Latin Extended-A/B).
var letterRanges = [][2]rune{{0x00c0, 0x00d6}, {0x00d8, 0x00f6}, {0x00f8, 0x024f}}

// tokenPattern renders the raw-token pattern with esc for code points, so
// Go (\x{4e00}) and JavaScript (\u4e00) use one definition. A raw token is
// an identifier-like run (letters, digits, _, joined by - . : +, with an
// optional parenthesised suffix that has a digit, as in Cisco's 5.1(2x))
// or a run of CJK. A suffix of letters alone is a word in parentheses, not
// a release: "1024B(MTU)" (SoftRoCE/rxe-dev#76) is 1024B and the word MTU,
// "Intel(R)" is Intel.
func tokenPattern(esc func(rune) string) string {
	class := func(rs [][2]rune) string {
		var b strings.Builder
		for _, r := range rs {
			b.WriteString(esc(r[0]) + "-" + esc(r[1]))
		}
		return b.String()
	}
	w := "[0-9A-Za-z_" + class(letterRanges) + "]"
	return w + "+(?:[-.:+]" + w + "+)*(?:\\([A-Za-z]*[0-9][0-9A-Za-z]*\\))?|[" + class(cjkRanges) + "]+"
}

func goEsc(r rune) string { return fmt.Sprintf(`\x{%04x}`, r) }
func jsEsc(r rune) string { return fmt.Sprintf(`\u%04x`, r) }

var rawRe = regexp.MustCompile(tokenPattern(goEsc))

// noisePattern matches raw tokens (lower case) that carry no meaning in a
// pasted kernel or tool line, at index and query time: PCI addresses,
// clock times, dmesg timestamps, dates, MAC addresses, GIDs and long hex
// words (pointers, GUIDs). It is plain syntax shared with JavaScript.
const noisePattern = `^(?:` +
	`(?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]` + // 0000:3b:00.0
	`|\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?` + // 03:04:05
	`|\d+\.\d{6}` + // [   12.345678]
	`|\d{4}-\d{2}-\d{2}(?:t[0-9:.]+)?(?:z|[+-]\d{2}:?\d{2})?` + // 2024-05-01T10:00:00+00:00
	`|(?:[0-9a-f]{2}[:-]){5}[0-9a-f]{2}` + // MAC
	`|(?:[0-9a-f]{4}:){3,}[0-9a-f:]*` + // GID, IPv6
	`|(?:0x)?[0-9a-f]{12,}` + // pointers, GUIDs
	`)$`

// numberPattern and alphaPattern classify a lower-case raw token; both are
// plain syntax shared with JavaScript. A link speed (25g, 200gb, 100gbe,
// 10gbps, 400gbit) counts as a number: it is a quantity, which a complaint
// ("ib_read_bw is far less than 200Gb/s") names as often as a card's name
// does, not an identifier of one card.
const (
	numberPattern = `^(?:\d+|0x[0-9a-f]+|\d+g(?:b(?:e|ps|it)?)?)$`
	alphaPattern  = "^[a-z\u00c0-\u024f]+$"
)

// splitPattern cuts an identifier into its parts.
const splitPattern = `[-_.:+()]+`

var (
	noiseRe   = regexp.MustCompile(noisePattern)
	splitRe   = regexp.MustCompile(splitPattern)
	numberRe  = regexp.MustCompile(numberPattern)
	versionRe = regexp.MustCompile(`^v?\d+(?:\.\d+)+`)
	alphaRe   = regexp.MustCompile(alphaPattern)
	compactRe = regexp.MustCompile(`[^0-9a-z\x{0080}-\x{ffff}]+`)
)

// compact is the form single-token aliases match by: lower case, with
// hyphens, underscores, dots and the like removed (CX-5 → cx5).
func compact(s string) string { return compactFast(s) }

// keptWords are English stop words that mean something here ("port down").
var keptWords = map[string]bool{"up": true, "down": true, "off": true}

var stopWords = func() analysis.TokenMap {
	tm := analysis.NewTokenMap()
	if err := tm.LoadBytes(en.EnglishStopWords); err != nil {
		panic(err)
	}
	for w := range keptWords {
		delete(tm, w)
	}
	// A negation's raw token before its apostrophe ("doesn't" is read
	// as doesn and t) is a stop word as the negation is.
	for w := range tm {
		if base, ok := strings.CutSuffix(w, "n't"); ok {
			tm[base+"n"] = true
		}
	}
	for _, w := range []string{"work", "works", "worked", "working", "support", "supports", "supported", "supporting", "add", "adds", "added", "adding", "fix", "fixes", "fixed", "fixing"} {
		tm[w] = true
	}
	return tm
}()

var stemmer = porter.NewPorterStemmer()

// stem is the Porter stem of a lower-case word.
func stem(w string) string {
	ts := stemmer.Filter(analysis.TokenStream{&analysis.Token{Term: []byte(w)}})
	return string(ts[0].Term)
}

// term is one term that expand emits, with its kind.
type term struct {
	text string
	kind Kind
}

// The terms of a raw token depend on its text alone, and the same texts
// recur in every document, so each distinct text is expanded once (up to
// maxExpanded of them: a fleet's identifiers should not grow the map
// without bound). The map is read far more than written, by every
// analyzing goroutine at once: a sync.Map's reads take no lock (a
// read-write mutex's reader count was 2% of a 10k build's CPU).
const maxExpanded = 1 << 17

var (
	expanded  sync.Map // text → []term
	nExpanded atomic.Int64
)

// raw is one raw token: lower-cased text and its byte span.
type raw struct {
	text       string
	start, end int
}

func rawTokens(text string) []raw {
	locs := rawSpans(text)
	out := make([]raw, 0, len(locs))
	for _, l := range locs {
		out = append(out, raw{text: strings.ToLower(text[l[0]:l[1]]), start: l[0], end: l[1]})
	}
	return out
}

// Analyzer is the domain analyzer. The zero value has no aliases.
type Analyzer struct {
	Aliases *Aliases
}

// Analyze returns the index terms of text, in order.
func (a *Analyzer) Analyze(text string) []Token {
	raws := rawTokens(text)
	out := make([]Token, 0, len(raws)*2)
	a.tokens(text, raws, func(t Token) { out = append(out, t) })
	return out
}

// tokens yields the terms of text's raw tokens raws, in order, each term
// once per position.
func (a *Analyzer) tokens(text string, raws []raw, yield func(Token)) {
	var (
		lx   lexeme
		here []string // this position's terms so far, where lx.terms are not all
	)
	y := func(t Token, _ int) { yield(t) }
	for i := range raws {
		a.lexemeOf(raws[i].text, &lx)
		here = a.tokensAt(text, raws, i, &lx, here[:0], y)
	}
}

// lexeme is what one raw token's text yields wherever it occurs: its
// terms apart from the multi-token aliases, which depend on the tokens
// after it.
type lexeme struct {
	lower string              // the raw token in lower case
	cjk   bool                // a run of CJK, cut into bigrams where it occurs
	terms []term              // expand's terms, then its single-token aliases: each once, none empty
	next  map[string][]phrase // Aliases.next of the token: its phrases by their second raw token
	parts []string            // splitParts(lower), for a document's raw tokens (docAnalyzer only)
	// ids[k] is the number of terms[k] in the docAnalyzer that made it
	// (docAnalyzer.id), and rawGen the number of the document it last
	// listed the raw token of (docAnalyzer only).
	ids    []int32
	rawGen uint64
}

// lexemeOf fills lx (reusing its terms' array) for the lower-case raw
// token lower.
func (a *Analyzer) lexemeOf(lower string, lx *lexeme) {
	*lx = lexeme{lower: lower, terms: lx.terms[:0]}
	if isCJK(lower) {
		lx.cjk = true
		return
	}
	add := func(s string, k Kind) {
		if s != "" && !hasTerm(lx.terms, s) {
			lx.terms = append(lx.terms, term{s, k})
		}
	}
	expand(lower, add)
	if a.Aliases != nil {
		for _, c := range a.Aliases.single[compact(lower)] {
			add(c, Alias)
		}
		lx.next = a.Aliases.next[lower]
	}
}

func hasTerm(ts []term, s string) bool {
	for _, t := range ts {
		if t.text == s {
			return true
		}
	}
	return false
}

// plain reports whether lx's terms are all that raws[i] yields, in
// order: it is no CJK run and no phrase alias can start at it.
func (lx *lexeme) plain(raws []raw, i int) bool {
	return !lx.cjk && (lx.next == nil || i+1 >= len(raws))
}

// tokensAt yields the terms of the raw token raws[i] of text, whose
// lexeme is lx, each with its place in lx.terms, or -1 for a term the
// lexeme does not hold (a CJK bigram, a phrase alias); here is an empty
// slice to use for the position's terms, returned for the next.
func (a *Analyzer) tokensAt(text string, raws []raw, i int, lx *lexeme, here []string, yield func(t Token, k int)) []string {
	r, pos := raws[i], i+1
	if lx.cjk {
		emit := func(term string, start, end int) {
			if term == "" || slices.Contains(here, term) {
				return
			}
			here = append(here, term)
			yield(Token{Term: term, Kind: CJK, Pos: pos, Start: start, End: end}, -1)
		}
		// Bigrams carry their own span so snippets mark just them.
		off := r.start
		rs := []rune(text[r.start:r.end])
		if len(rs) == 1 {
			emit(r.text, r.start, r.end)
		}
		ends := make([]int, len(rs))
		for j, c := range rs {
			off += len(string(c))
			ends[j] = off
		}
		for j := 0; j+1 < len(rs); j++ {
			s := r.start
			if j > 0 {
				s = ends[j-1]
			}
			emit(strings.ToLower(string(rs[j:j+2])), s, ends[j+1])
		}
		zhSynonymsIn(rs, func(c string, i, j int) {
			s := r.start
			if i > 0 {
				s = ends[i-1]
			}
			cjkPairs(c, func(p string) { emit(p, s, ends[j-1]) })
		})
		return here
	}
	for k, t := range lx.terms {
		yield(Token{Term: t.text, Kind: t.kind, Pos: pos, Start: r.start, End: r.end}, k)
	}
	if lx.plain(raws, i) {
		return here
	}
	for _, p := range lx.next[raws[i+1].text] {
		if p.follows(raws, i) && p.Canon != "" && !hasTerm(lx.terms, p.Canon) && !slices.Contains(here, p.Canon) {
			here = append(here, p.Canon)
			yield(Token{Term: p.Canon, Kind: Alias, Pos: pos, Start: r.start, End: raws[i+len(p.Rest)].end}, -1)
		}
	}
	return here
}

func isCJK(s string) bool {
	for _, c := range s {
		for _, rg := range cjkRanges {
			if c >= rg[0] && c <= rg[1] {
				return true
			}
		}
		return false
	}
	return false
}

// expand emits the terms of one raw token's text, without aliases.
func expand(text string, emit func(string, Kind)) {
	var ts []term
	if v, ok := expanded.Load(text); ok {
		ts = v.([]term)
	} else {
		// A clone, so neither the key nor the terms (its substrings)
		// keep the whole document's text alive.
		t := strings.Clone(text)
		ts = []term{}
		expandText(t, func(s string, k Kind) { ts = append(ts, term{s, k}) })
		if nExpanded.Load() < maxExpanded {
			if _, loaded := expanded.LoadOrStore(t, ts); !loaded {
				nExpanded.Add(1)
			}
		}
	}
	for _, t := range ts {
		emit(t.text, t.kind)
	}
}

// expandText emits the terms of one raw token's text t.
func expandText(t string, emit func(string, Kind)) {
	switch {
	case isCJK(t):
		rs := []rune(t)
		if len(rs) == 1 {
			emit(t, CJK)
			return
		}
		for i := 0; i+1 < len(rs); i++ {
			emit(string(rs[i:i+2]), CJK)
		}
	case isNoise(t):
		// dropped: see noisePattern
	case isNumber(t):
		emit(t, Number)
	case versionPrefix(t) != "":
		emit(t, Version)
		for _, seg := range strings.Split(t, "-") {
			lead := versionPrefix(seg)
			if lead == "" {
				parts(seg, emit)
				continue
			}
			// Segments and leading versions are parts: a query for the
			// whole version should not rank 5.1(1x) with 5.1-0.6.6.0.
			if seg != t {
				emit(seg, Part)
			}
			if lead != seg {
				emit(lead, Part)
				parts(seg[len(lead):], emit)
			}
			comps := strings.Split(strings.TrimPrefix(lead, "v"), ".")
			for k := len(comps) - 1; k >= 2; k-- {
				emit(strings.Join(comps[:k], "."), Prefix)
			}
		}
	case !strings.ContainsAny(t, "-_.:+("):
		word(t, Ident, emit)
	default:
		emit(t, Ident)
		parts(t, emit)
	}
}

// word emits a single word: stemmed when it is all letters, dropped when it
// is a stop word or one letter, else kept whole as kind k.
func word(t string, k Kind, emit func(string, Kind)) {
	switch {
	case isAlpha(t):
		if len(t) < 2 || stopWords[t] {
			return
		}
		if k == Ident {
			k = Word
		}
		emit(stem(t), k)
	case isNumber(t):
		if k == Ident {
			k = Number
		}
		emit(t, k)
	default:
		emit(t, k)
	}
}

// parts emits the parts of an identifier that carry letters or digits.
func parts(t string, emit func(string, Kind)) {
	for _, p := range splitParts(t) {
		if p != "" && p != t {
			word(p, Part, emit)
		}
	}
}

// QueryTerm is a distinct term of a query with its weight.
type QueryTerm struct {
	Term   string  `json:"term"`
	Kind   Kind    `json:"-"`
	Weight float64 `json:"weight"`
}

// QueryTerms analyzes a query: distinct terms in order of first
// appearance, each with the highest weight of its kinds, with the names
// only a query reads (queryNames); prefixes and a vendor that only
// qualifies its adapter (Aliases.Qualifiers) dropped.
func (a *Analyzer) QueryTerms(q string) []QueryTerm {
	return queryTerms(a.Aliases.Qualifiers(a.queryTokens(cjkExpand(q))))
}

func queryTerms(toks []Token) []QueryTerm {
	var out []QueryTerm
	at := map[string]int{}
	for _, t := range toks {
		w := KindWeight[t.Kind]
		if w == 0 {
			continue
		}
		if i, ok := at[t.Term]; ok {
			if w > out[i].Weight {
				out[i].Weight, out[i].Kind = w, t.Kind
			}
			continue
		}
		at[t.Term] = len(out)
		out = append(out, QueryTerm{Term: t.Term, Kind: t.Kind, Weight: w})
	}
	return out
}

// Terms returns the index terms of text, for tests and tools.
func (a *Analyzer) Terms(text string) []string {
	toks := a.Analyze(text)
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.Term
	}
	return out
}
