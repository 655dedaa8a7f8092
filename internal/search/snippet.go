package search

import (
	"html"
	"strings"

	"github.com/rocekb/rocekb/internal/page"
)

// Snippet window, in bytes: how much text before the first match and in all.
const (
	snippetLead = 60
	snippetSize = 220
)

// Snippet returns the stretch of text with the most query-term matches,
// HTML-escaped, matches in <mark>. Without a match it is the text's start.
func Snippet(an *Analyzer, text string, terms map[string]bool) string {
	return snippetOf(an.Analyze(text), text, terms)
}

// snippetOf is Snippet over text's tokens, analyzed already.
func snippetOf(toks []Token, text string, terms map[string]bool) string {
	var hits []span
	for _, t := range toks {
		if terms[t.Term] {
			hits = addSpan(hits, t.Start, t.End)
		}
	}
	return renderSnippet(text, hits)
}

type span struct{ s, e int }

// addSpan appends a match, merged into the last one when they overlap.
func addSpan(hits []span, s, e int) []span {
	if n := len(hits); n > 0 && s < hits[n-1].e {
		if e > hits[n-1].e {
			hits[n-1].e = e
		}
		return hits
	}
	return append(hits, span{s, e})
}

// renderSnippet cuts the window with the most hits out of text.
func renderSnippet(text string, hits []span) string {
	// The window starting before hit i that covers the most hits.
	best, bestN := 0, 0
	for i := range hits {
		n := 0
		for j := i; j < len(hits) && hits[j].e-hits[i].s <= snippetSize-snippetLead; j++ {
			n++
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	start := 0
	if bestN > 0 {
		start = hits[best].s - snippetLead
		if start < 0 {
			start = 0
		}
	}
	start = wordStart(text, start)
	end := start + snippetSize
	if end >= len(text) {
		end = len(text)
	} else {
		end = wordEnd(text, end)
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	at := start
	for _, h := range hits {
		if h.s < start || h.e > end {
			continue
		}
		b.WriteString(html.EscapeString(collapse(text[at:h.s])))
		b.WriteString("<mark>" + html.EscapeString(text[h.s:h.e]) + "</mark>")
		at = h.e
	}
	b.WriteString(html.EscapeString(collapse(text[at:end])))
	if end < len(text) {
		b.WriteString("…")
	}
	return strings.TrimSpace(b.String())
}

// wordStart moves i forward to the start of a word, at most a few bytes,
// else to the start of a character (CJK text has no spaces).
func wordStart(s string, i int) int {
	if i <= 0 {
		return 0
	}
	for k := 0; k < 24 && i+k < len(s); k++ {
		if c := s[i+k-1]; c == ' ' || c == '\n' {
			return i + k
		}
	}
	for i < len(s) && s[i]&0xC0 == 0x80 {
		i++
	}
	return i
}

// wordEnd is page.WordEnd.
func wordEnd(s string, i int) int { return page.WordEnd(s, i) }

// collapse folds runs of white space into one space.
func collapse(s string) string {
	if !strings.ContainsAny(s, "\n\t\r") && !strings.Contains(s, "  ") {
		return s
	}
	b := make([]byte, 0, len(s))
	space := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\n', '\t', '\r':
			space = true
		default:
			if space {
				b = append(b, ' ')
				space = false
			}
			b = append(b, c)
		}
	}
	if space {
		b = append(b, ' ')
	}
	return string(b)
}

// marks are the analyzed body texts of an index's documents, kept so a
// query's snippets need no analysis: each document's tokens, one mark per
// distinct span, name the set of terms analysed there (a key), and each
// term lists the keys that hold it. Snippets from marks are byte for byte
// those of Snippet.
type marks struct {
	docs  [][]mark           // by doc number, in text order
	rev   map[string][]int32 // term → keys whose term set holds it
	nkeys int
	// While building: each key's number by its terms, and a scratch list.
	keys map[string]int32
	set  []string
}

type mark struct{ key, start, end int32 }

// newMarks starts the marks of n documents; add gives each its body's
// tokens, and done ends the build.
func newMarks(n int) *marks {
	return &marks{docs: make([][]mark, n), rev: map[string][]int32{}, keys: map[string]int32{}}
}

// add keeps the marks of document i, whose body analyzes to toks.
func (m *marks) add(i int, toks []Token) {
	var out []mark
	for j := 0; j < len(toks); {
		k := j
		m.set = m.set[:0]
		for ; k < len(toks) && toks[k].Start == toks[j].Start && toks[k].End == toks[j].End; k++ {
			m.set = append(m.set, toks[k].Term)
		}
		name := strings.Join(m.set, "\x00")
		id, ok := m.keys[name]
		if !ok {
			id = int32(len(m.keys))
			m.keys[name] = id
			for _, t := range m.set {
				m.rev[t] = append(m.rev[t], id)
			}
		}
		out = append(out, mark{key: id, start: int32(toks[j].Start), end: int32(toks[j].End)})
		j = k
	}
	m.docs[i] = out
}

// done drops what only the build needs.
func (m *marks) done() {
	m.nkeys = len(m.keys)
	m.keys, m.set = nil, nil
}

// want is the set of keys that hold any of the terms, as a bit set.
func (m *marks) want(terms map[string]bool) []uint64 {
	w := make([]uint64, (m.nkeys+63)/64)
	for t := range terms {
		for _, k := range m.rev[t] {
			w[k>>6] |= 1 << (k & 63)
		}
	}
	return w
}

// snippet is Snippet(an, docs[doc].Body, terms), with want from m.want(terms).
func (m *marks) snippet(doc int, text string, want []uint64) string {
	var hits []span
	for _, mk := range m.docs[doc] {
		if want[mk.key>>6]&(1<<(mk.key&63)) != 0 {
			hits = addSpan(hits, int(mk.start), int(mk.end))
		}
	}
	return renderSnippet(text, hits)
}
