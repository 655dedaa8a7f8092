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

// A msg is one message as event reads it: its text, lower-cased once,
// and the literals of dict the lower-cased text holds, read when first
// asked for (most messages are passed over before).
type msg struct {
	text    string
	lower   string // strings.ToLower(text), once scanned
	ascii   bool
	scanned bool
	h       need.Hits
	tailH   need.Hits // a part's own scan, when it is no tail of text (see part)
}

// reset makes m the message text, not yet scanned.
func (m *msg) reset(text string) { m.text, m.scanned = text, false }

// scan lower-cases and scans the text, once.
func (m *msg) scan() {
	if !m.scanned {
		m.scanned, m.ascii, m.lower = true, need.ASCII(m.text), strings.ToLower(m.text)
		dict().Scan(&m.h, m.lower)
	}
}

// has reports whether the lower-cased text holds the literal id: a test
// the text itself must pass before it can hold the literal in any case.
func (m *msg) has(id int) bool {
	m.scan()
	return m.h.Has(id, 0)
}

// hasAny reports whether the lower-cased text holds any of ids.
func (m *msg) hasAny(ids []int) bool {
	m.scan()
	return m.h.HasAny(ids, 0)
}

// A part is a message's text after its speaker (or the whole text),
// lower-cased, with a scan that holds its literals from off on.
type part struct {
	s, lower string
	ascii    bool // s is all ASCII
	h        *need.Hits
	off      int
}

// part returns s, a tail of m's text, as a part. When m's text is ASCII,
// the tail's lower case and literals are read from the text's; otherwise
// (lower-casing may change the length of what comes before) s is
// lower-cased and scanned on its own. Only one such part is valid at a
// time.
func (m *msg) part(s string) part {
	m.scan()
	if m.ascii && strings.HasSuffix(m.text, s) {
		o := len(m.text) - len(s)
		return part{s: s, lower: m.lower[o:], ascii: true, h: &m.h, off: o}
	}
	lower := strings.ToLower(s)
	dict().Scan(&m.tailH, lower)
	return part{s: s, lower: lower, ascii: need.ASCII(s), h: &m.tailH}
}

// has reports whether the part, lower-cased, holds the literal id.
func (p part) has(id int) bool { return p.h.Has(id, p.off) }

// hasAny reports whether the part, lower-cased, holds any of ids.
func (p part) hasAny(ids []int) bool { return p.h.HasAny(ids, p.off) }

// match reports whether the part matches r (r.MatchString(p.s)).
func (p part) match(r *need.Regexp) bool {
	return r.MatchHits(p.s, p.lower, p.ascii, dict(), p.h, p.off)
}
