package need

import (
	"iter"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"sync"
)

// A Set is a pattern's need: lower-case ASCII strings one of which every
// line it matches holds (lower-cased), the literals the pattern cannot
// match without.
//
// The need is exact only for ASCII: under (?i) a k also matches the Kelvin
// sign and an s the long s, which lower-casing does not fold, so a line
// with any other byte is always run through the pattern (see MayMatch).
type Set []string

// Of reads a pattern's need; nil when it has none (a pattern that can
// match without any literal, or only with one outside ASCII).
func Of(pattern string) Set {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	return needRe(re.Simplify())
}

// needRe is the literal set one of which every match of re holds.
func needRe(re *syntax.Regexp) Set {
	switch re.Op {
	case syntax.OpLiteral:
		s := string(re.Rune)
		if !ASCII(s) {
			return nil
		}
		return Set{strings.ToLower(s)}
	case syntax.OpCapture:
		return needRe(re.Sub[0])
	case syntax.OpPlus:
		return needRe(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return needRe(re.Sub[0])
		}
	case syntax.OpConcat:
		// Any child's need is the whole's: the one whose shortest literal
		// is longest picks out the fewest lines.
		var best Set
		for _, sub := range re.Sub {
			if n := needRe(sub); n != nil && (best == nil || n.shortest() > best.shortest()) {
				best = n
			}
		}
		return best
	case syntax.OpAlternate:
		var all Set
		for _, sub := range re.Sub {
			n := needRe(sub)
			if n == nil {
				return nil
			}
			all = append(all, n...)
		}
		return all
	}
	return nil
}

func (n Set) shortest() int {
	min := -1
	for _, s := range n {
		if min < 0 || len(s) < min {
			min = len(s)
		}
	}
	return min
}

// MayMatch reports whether a line, given lower-cased as lower, can match
// a pattern of this need. ascii says whether the line is all ASCII.
func (n Set) MayMatch(lower string, ascii bool) bool {
	if n == nil || !ascii {
		return true
	}
	for _, s := range n {
		if strings.Contains(lower, s) {
			return true
		}
	}
	return false
}

// ASCII reports whether s is all ASCII.
func ASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// A Regexp is a compiled pattern with its need, and its top-level
// alternatives compiled apart, each with every literal set it cannot match
// without: a line is run through only the alternatives whose sets it all
// holds, not through one machine that tries every branch at every byte.
//
// It is made when first used: a package's patterns are package variables,
// and a command that reads no kernel log should not pay for them.
type Regexp struct {
	pattern string
	once    sync.Once
	re      *regexp.Regexp
	need    Set
	alts    []branch // nil when the pattern is no alternation
	// ids are need's and each branch's literal sets as IDs of the Dict
	// that MatchHits was first given.
	bindOnce sync.Once
	ids      *boundIDs
}

// boundIDs are a Regexp's literal sets as IDs of one Dict.
type boundIDs struct {
	dict *Dict
	need []int
	alts [][]int // per branch, its best set; nil when it has none
}

// A branch is one top-level alternative and the literal sets one of each
// of which its every match holds, in the order its parts match them.
type branch struct {
	alt *syntax.Regexp // the alternative
	all []Set
	// starts are literals one of which every match of the branch begins
	// with, when it has them; the branch's program is then anchored to the
	// start of the text, tried only where one of them begins (see starts).
	starts    Set
	wordStart bool // the branch begins with \b before its starts
	// re is the branch's program, ^(?:alt) when it has starts, else alt,
	// compiled when a line first gets past its literals. Most branches
	// never run in a process, and making them all (printing a (?i)
	// alternative with a negated class alone folds the case of every
	// Unicode range) cost every kbgen and kbcollect command 60 ms before
	// it read anything.
	re func() *regexp.Regexp
}

// newBranch is the branch of the alternative alt.
func newBranch(alt *syntax.Regexp, starts Set, word bool) branch {
	return branch{alt: alt, all: allOf(alt.Simplify()), starts: starts, wordStart: word,
		re: sync.OnceValue(func() *regexp.Regexp {
			if starts != nil {
				return regexp.MustCompile(`^(?:` + alt.String() + `)`)
			}
			return regexp.MustCompile(alt.String())
		})}
}

// MustCompile checks pattern as regexp.MustCompile does, panicking when
// it does not parse; the pattern and its need are made when first used.
func MustCompile(pattern string) *Regexp {
	if _, err := syntax.Parse(pattern, syntax.Perl); err != nil {
		panic(`need: Compile(` + strconv.Quote(pattern) + `): ` + err.Error())
	}
	return &Regexp{pattern: pattern}
}

// make compiles r, once.
func (r *Regexp) make() *Regexp {
	r.once.Do(func() {
		r.re, r.need = regexp.MustCompile(r.pattern), Of(r.pattern)
		re, err := syntax.Parse(r.pattern, syntax.Perl)
		if err != nil || re.Op != syntax.OpAlternate {
			return
		}
		for _, sub := range re.Sub {
			r.alts = append(r.alts, branches(sub)...)
		}
	})
	return r
}

// MatchString reports whether s holds a match of the pattern.
func (r *Regexp) MatchString(s string) bool { return r.make().re.MatchString(s) }

// String is the pattern.
func (r *Regexp) String() string { return r.pattern }

// branches makes one top-level alternative's branches. One that begins (after a
// \b) with an alternation of words is compiled once per word: each copy
// runs only where its own word begins, and is a smaller program (the
// regexp package backtracks only on programs of up to 500 instructions,
// and runs a much slower machine on larger ones).
func branches(sub *syntax.Regexp) []branch {
	var out []branch
	for _, piece := range splitLead(sub) {
		st, word, ok := startsOf(piece.Simplify())
		if !ok {
			out = nil
			break
		}
		out = append(out, newBranch(piece, st, word))
	}
	if out != nil {
		return out
	}
	st, word, _ := startsOf(sub.Simplify())
	return []branch{newBranch(sub, st, word)}
}

// splitLead returns re with its leading alternation (after a \b, if any)
// distributed over the rest, one concatenation per alternative: their
// union matches where re does. re itself when it has none.
func splitLead(re *syntax.Regexp) []*syntax.Regexp {
	c := re
	for c.Op == syntax.OpCapture {
		c = c.Sub[0]
	}
	if c.Op != syntax.OpConcat {
		return []*syntax.Regexp{re}
	}
	i := 0
	if c.Sub[0].Op == syntax.OpWordBoundary {
		i = 1
	}
	if i >= len(c.Sub) {
		return []*syntax.Regexp{re}
	}
	lead := c.Sub[i]
	for lead.Op == syntax.OpCapture {
		lead = lead.Sub[0]
	}
	if lead.Op != syntax.OpAlternate {
		return []*syntax.Regexp{re}
	}
	out := make([]*syntax.Regexp, 0, len(lead.Sub))
	for _, alt := range lead.Sub {
		subs := append(append(append([]*syntax.Regexp{}, c.Sub[:i]...), alt), c.Sub[i+1:]...)
		out = append(out, &syntax.Regexp{Op: syntax.OpConcat, Flags: c.Flags, Sub: subs})
	}
	return out
}

// startsOf returns the literals one of which every match of re begins
// with, lower-cased, and whether re asks for a word boundary (\b) right
// before them. ok is false when re has no such set, or begins with any
// other assertion, which an anchored match of the rest of the text could
// not decide: an anchored match at a place p of a text then answers as
// the pattern does at p, given the boundary at p when word is set.
func startsOf(re *syntax.Regexp) (starts Set, word, ok bool) {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	if re.Op == syntax.OpConcat && len(re.Sub) >= 2 && re.Sub[0].Op == syntax.OpWordBoundary {
		starts, ok := firstLits(re.Sub[1])
		if !ok {
			return nil, false, false
		}
		for _, s := range starts {
			if !IsWordByte(s[0]) {
				return nil, false, false
			}
		}
		return starts, true, true
	}
	starts, ok = firstLits(re)
	return starts, false, ok
}

// firstLits returns the lower-cased literals one of which every match of
// re begins with, consuming it before any assertion.
func firstLits(re *syntax.Regexp) (Set, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		s := string(re.Rune)
		if s == "" || !ASCII(s) {
			return nil, false
		}
		return Set{strings.ToLower(s)}, true
	case syntax.OpCapture:
		return firstLits(re.Sub[0])
	case syntax.OpConcat:
		if len(re.Sub) == 0 {
			return nil, false
		}
		return firstLits(re.Sub[0])
	case syntax.OpAlternate:
		var all Set
		for _, sub := range re.Sub {
			n, ok := firstLits(sub)
			if !ok {
				return nil, false
			}
			all = append(all, n...)
		}
		return all, true
	}
	return nil, false
}

// IsWordByte reports whether c is an ASCII word character, as a
// pattern's \w and \b read it.
func IsWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// Places yields each index of s where w begins, in order; with wordStart,
// only those where no word character comes before it (\b before a word).
func Places(s, w string, wordStart bool) iter.Seq[int] {
	return func(yield func(int) bool) {
		for from := 0; ; {
			i := strings.Index(s[from:], w)
			if i < 0 {
				return
			}
			p := from + i
			from = p + 1
			if wordStart && p > 0 && IsWordByte(s[p-1]) {
				continue
			}
			if !yield(p) {
				return
			}
		}
	}
}

// matchFrom reports whether the branch matches s (lower-cased as lower,
// all ASCII) at some place where one of its starts begins.
func (b *branch) matchFrom(s, lower string) bool {
	var tried [8]int
	n := 0
	for _, w := range b.starts {
	places:
		for p := range Places(lower, w, b.wordStart) {
			for _, q := range tried[:n] {
				if q == p {
					continue places
				}
			}
			if n < len(tried) {
				tried[n] = p
				n++
			}
			if b.re().MatchString(s[p:]) {
				return true
			}
		}
	}
	return false
}

// inOrder reports whether lower holds a literal of each of the sets, one
// after another, as a match of a concatenation whose children need them
// does: each child's literal begins after the one before it begins.
// Taking the earliest literal of each set in turn finds such a chain
// whenever there is one.
func inOrder(lower string, sets []Set) bool {
	from := 0
	for _, n := range sets {
		first := -1
		for _, w := range n {
			if i := strings.Index(lower[from:], w); i >= 0 && (first < 0 || i < first) {
				first = i
			}
		}
		if first < 0 {
			return false
		}
		from += first + 1
	}
	return true
}

// allOf is the literal sets every match of re holds one of each of: a
// concatenation's children's needs, in their order, or re's own.
func allOf(re *syntax.Regexp) []Set {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	if re.Op != syntax.OpConcat {
		if n := needRe(re); n != nil {
			return []Set{n}
		}
		return nil
	}
	var all []Set
	for _, sub := range re.Sub {
		if n := needRe(sub); n != nil {
			all = append(all, n)
		}
	}
	return all
}

// Literals are the literals the pattern's prefilters look for (its
// need, and each branch's best set: the one whose shortest literal is
// longest), for a Dict that finds them all in one pass over a line. The
// other sets are left to inOrder: a Dict of every set was larger and
// slower to scan. A set with a one-byte literal is left out (see gate).
func (r *Regexp) Literals() []string {
	r.make()
	out := append([]string(nil), gate(r.need)...)
	for _, b := range r.alts {
		out = append(out, gate(b.best())...)
	}
	return out
}

// gate is n when a Dict can hold it, nil (taken as found) when it has a
// one-byte literal.
func gate(n Set) Set {
	if n.shortest() < 2 {
		return nil
	}
	return n
}

// best is the branch's literal set that picks out the fewest lines: the
// one whose shortest literal is longest; nil when it has none.
func (b *branch) best() Set {
	var best Set
	for _, n := range b.all {
		if best == nil || n.shortest() > best.shortest() {
			best = n
		}
	}
	return best
}

// bind is r's need and its branches' best sets as IDs of d, a Dict that
// holds Literals(). A Regexp is bound to the first Dict it is given.
func (r *Regexp) bind(d *Dict) *boundIDs {
	r.bindOnce.Do(func() {
		ids := func(n Set) []int {
			n = gate(n)
			if n == nil {
				return nil
			}
			out := make([]int, len(n))
			for i, w := range n {
				out[i] = d.ID(w)
			}
			return out
		}
		b := &boundIDs{dict: d, need: ids(r.need)}
		for i := range r.alts {
			b.alts = append(b.alts, ids(r.alts[i].best()))
		}
		r.ids = b
	})
	if r.ids.dict != d {
		panic("need: " + r.pattern + " is bound to another Dict")
	}
	return r.ids
}

// MatchHits reports whether s matches, as MatchString does, given s
// lower-cased by lower (called only when a branch's literals are found),
// whether s is all ASCII, and the Dict d's scan h
// of a text whose part from off on is lower (d holds the pattern's
// Literals): a pattern or a branch whose literals the scan did not find
// there is passed over without a search.
func (r *Regexp) MatchHits(s string, lower func() string, ascii bool, d *Dict, h *Hits, off int) bool {
	r.make()
	if !ascii {
		return r.re.MatchString(s)
	}
	ids := r.bind(d)
	if ids.need != nil && !h.HasAny(ids.need, off) {
		return false
	}
	if r.alts == nil {
		return r.re.MatchString(s)
	}
	for i := range r.alts {
		b := &r.alts[i]
		if ids.alts[i] != nil && !h.HasAny(ids.alts[i], off) || !inOrder(lower(), b.all) {
			continue
		}
		if b.starts != nil {
			if b.matchFrom(s, lower()) {
				return true
			}
		} else if b.re().MatchString(s) {
			return true
		}
	}
	return false
}
