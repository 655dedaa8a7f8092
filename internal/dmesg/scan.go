package dmesg

import (
	"strings"
	"sync"

	"github.com/rocekb/rocekb/internal/need"
)

// The classifier tests each message for some hundreds of literals: its
// own gates (the words below) and the literals its patterns cannot match
// without (need.Regexp.Literals). One need.Dict finds them all in one pass
// over the lower-cased message, where a substring search per literal per
// gate took a third of ParseLog's time on a log of RDMA lines.

// words are the classifier's own literals, in lower case; lit gives each
// its ID in dict.
var (
	words   []string
	wordIDs = map[string]int{}
)

// lit registers w (lower-case ASCII) and returns its ID.
func lit(w string) int {
	if id, ok := wordIDs[w]; ok {
		return id
	}
	words = append(words, w)
	wordIDs[w] = len(words) - 1
	return len(words) - 1
}

// lits registers each of ws.
func lits(ws ...string) []int {
	ids := make([]int, len(ws))
	for i, w := range ws {
		ids[i] = lit(strings.ToLower(w))
	}
	return ids
}

// gatedREs are the patterns run through MatchHits; dict holds their
// literals after words, whose IDs are their places.
var gatedREs = []*need.Regexp{timeoutRE, cmdFailRE, cmdSendRE, queueRE, gidRE, roceOffRE, resourceRE, mrRE, resetRE, qpRE}

// dict is made when the first log is read: package variables register
// their words first.
var dict = sync.OnceValue(func() *need.Dict {
	all := append([]string(nil), words...)
	for _, r := range gatedREs {
		all = append(all, r.Literals()...)
	}
	return need.NewDict(all)
})

// A msg is one message as event reads it: its text, the literals of
// dict it holds (its ASCII letters folded), read when first asked for
// (most messages are passed over before), and its lower case, made only
// when a test needs more than the literals.
type msg struct {
	text    string
	lower   string // strings.ToLower(text), once made
	ascii   bool
	scanned bool
	lowered bool
	h       need.Hits
	tailH   need.Hits // a part's own scan, when it is no tail of text (see part)
}

// reset makes m the message text, not yet scanned.
func (m *msg) reset(text string) { m.text, m.scanned, m.lowered = text, false, false }

// scan scans the text, once.
func (m *msg) scan() {
	if !m.scanned {
		m.scanned, m.ascii = true, need.ASCII(m.text)
		dict().Scan(&m.h, m.text)
	}
}

// lowerText is the text lower-cased, made once.
func (m *msg) lowerText() string {
	if !m.lowered {
		m.lowered, m.lower = true, strings.ToLower(m.text)
	}
	return m.lower
}

// has reports whether the text, its ASCII letters lower-cased, holds the
// literal id: a test the text must pass before it can hold the literal in
// any case.
func (m *msg) has(id int) bool {
	m.scan()
	return m.h.Has(id, 0)
}

// hasAny reports whether the text holds any of ids (as has).
func (m *msg) hasAny(ids []int) bool {
	m.scan()
	return m.h.HasAny(ids, 0)
}

// A part is a message's text after its speaker (or the whole text), with
// a scan that holds its literals, in lower case, from off on.
type part struct {
	s     string
	ascii bool // s is all ASCII
	h     *need.Hits
	off   int
	m     *msg   // the message whose text s is the tail of, from off on; nil when s was scanned on its own
	lower string // s lower-cased, when m is nil
}

// part returns s, a tail of m's text, as a part. When m's text is ASCII,
// the tail's literals (and lower case) are read from the text's;
// otherwise (lower-casing may change the length of what comes before, and
// folds more than ASCII) s is lower-cased and scanned on its own. Only
// one such part is valid at a time.
func (m *msg) part(s string) part {
	m.scan()
	if m.ascii && strings.HasSuffix(m.text, s) {
		o := len(m.text) - len(s)
		return part{s: s, ascii: true, h: &m.h, off: o, m: m}
	}
	lower := strings.ToLower(s)
	dict().Scan(&m.tailH, lower)
	return part{s: s, lower: lower, ascii: need.ASCII(s), h: &m.tailH}
}

// low is the part lower-cased.
func (p part) low() string {
	if p.m != nil {
		return p.m.lowerText()[p.off:]
	}
	return p.lower
}

// hasSuffixFold reports whether p.low() ends in w (lower-case ASCII).
func (p part) hasSuffixFold(w string) bool {
	if p.ascii {
		return len(p.s) >= len(w) && strings.EqualFold(p.s[len(p.s)-len(w):], w)
	}
	return strings.HasSuffix(p.low(), w)
}

// has reports whether the part, lower-cased, holds the literal id.
func (p part) has(id int) bool { return p.h.Has(id, p.off) }

// hasAny reports whether the part, lower-cased, holds any of ids.
func (p part) hasAny(ids []int) bool { return p.h.HasAny(ids, p.off) }

// match reports whether the part matches r (r.MatchString(p.s)).
func (p part) match(r *need.Regexp) bool {
	return r.MatchHits(p.s, p.low, p.ascii, dict(), p.h, p.off)
}
