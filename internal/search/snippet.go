package search

import (
	"html"
	"strings"
)

// Snippet window, in bytes: how much text before the first match and in all.
const (
	snippetLead = 60
	snippetSize = 220
)

// Snippet returns the stretch of text with the most query-term matches,
// HTML-escaped, matches in <mark>. Without a match it is the text's start.
func Snippet(an *Analyzer, text string, terms map[string]bool) string {
	type span struct{ s, e int }
	var hits []span
	for _, t := range an.Analyze(text) {
		if !terms[t.Term] {
			continue
		}
		if n := len(hits); n > 0 && t.Start < hits[n-1].e {
			if t.End > hits[n-1].e {
				hits[n-1].e = t.End
			}
			continue
		}
		hits = append(hits, span{t.Start, t.End})
	}
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

// wordEnd moves i back to the end of a word, at most a few bytes, else
// forward to the end of a character.
func wordEnd(s string, i int) int {
	for k := 0; k < 24 && i-k > 0; k++ {
		if c := s[i-k]; c == ' ' || c == '\n' {
			return i - k
		}
	}
	for i < len(s) && s[i]&0xC0 == 0x80 {
		i++
	}
	return i
}

// collapse folds runs of white space into one space.
func collapse(s string) string {
	var b strings.Builder
	space := false
	for _, c := range s {
		if c == ' ' || c == '\n' || c == '\t' || c == '\r' {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(c)
	}
	if space {
		b.WriteByte(' ')
	}
	return b.String()
}
