package need

import (
	"regexp"
	"regexp/syntax"
	"strings"
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
type Regexp struct {
	*regexp.Regexp
	Need Set
	alts []branch // nil when the pattern is no alternation
}

// A branch is one top-level alternative and the literal sets one of each
// of which its every match holds.
type branch struct {
	re  *regexp.Regexp
	all []Set
}

// MustCompile compiles pattern as regexp.MustCompile does, with its need.
func MustCompile(pattern string) *Regexp {
	r := &Regexp{Regexp: regexp.MustCompile(pattern), Need: Of(pattern)}
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil || re.Op != syntax.OpAlternate {
		return r
	}
	for _, sub := range re.Sub {
		r.alts = append(r.alts, branch{re: regexp.MustCompile(sub.String()), all: allOf(sub.Simplify())})
	}
	return r
}

// allOf is the literal sets every match of re holds one of each of: a
// concatenation's children's needs, or re's own.
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

// MatchLower reports whether s matches, as MatchString does, given s
// lower-cased as lower. A line that is not all ASCII runs the whole
// pattern (see Set).
func (r *Regexp) MatchLower(s, lower string) bool {
	if !ASCII(lower) {
		return r.MatchString(s)
	}
	if r.alts == nil {
		return r.Need.MayMatch(lower, true) && r.MatchString(s)
	}
next:
	for _, b := range r.alts {
		for _, n := range b.all {
			if !n.MayMatch(lower, true) {
				continue next
			}
		}
		if b.re.MatchString(s) {
			return true
		}
	}
	return false
}
