package search

import (
	"regexp/syntax"
	"strings"
)

// A template's need is a set of lower-case ASCII strings one of which
// every line it matches holds (lower-cased): the literals its pattern
// cannot match without. A line holding none of them is passed over without
// running the pattern, as most lines of a pasted log match no template
// and every pattern used to be run on every line.
//
// The need is exact only for ASCII: under (?i) a k also matches the Kelvin
// sign and an s the long s, which lower-casing does not fold, so a line
// with any other byte is always run through the patterns (see mayMatch).
type need []string

// needOf reads a pattern's need; nil when it has none (a pattern that can
// match without any literal, or only with one outside ASCII).
func needOf(pattern string) need {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	return needRe(re.Simplify())
}

// needRe is the literal set one of which every match of re holds.
func needRe(re *syntax.Regexp) need {
	switch re.Op {
	case syntax.OpLiteral:
		s := string(re.Rune)
		if !isASCII(s) {
			return nil
		}
		return need{strings.ToLower(s)}
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
		var best need
		for _, sub := range re.Sub {
			if n := needRe(sub); n != nil && (best == nil || n.shortest() > best.shortest()) {
				best = n
			}
		}
		return best
	case syntax.OpAlternate:
		var all need
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

func (n need) shortest() int {
	min := -1
	for _, s := range n {
		if min < 0 || len(s) < min {
			min = len(s)
		}
	}
	return min
}

// mayMatch reports whether a line, given lower-cased as lower, can match
// a pattern of this need. ascii says whether the line is all ASCII.
func (n need) mayMatch(lower string, ascii bool) bool {
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
