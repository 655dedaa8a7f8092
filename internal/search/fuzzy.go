package search

import (
	"regexp"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/need"
	"github.com/rocekb/rocekb/internal/suggest"
)

// Fuzzy identifiers: a short query with a token no page has (conectx6,
// mlx5_cor) is searched with the closest name the knowledge base knows
// instead, and the result says "did you mean". Both engines use one list
// of names and one rule (the static index ships the list as
// search/fuzzy.js and search.js ports the rule; TestFuzzyAgrees checks it).

// Fuzzy limits: in queries of at most fuzzyMaxTokens raw tokens any
// token is corrected, in longer ones a token with a letter and a digit;
// tokens of at least fuzzyMinLen bytes, within edit distance 1, or 2 from
// fuzzyLong bytes on or, for a token with fuzzyDigits digits, letters
// dropped from the name (CX4121 is MCX4121A, the part number without its
// vendor's M and revision letter).
const (
	fuzzyMaxTokens = 4
	fuzzyMinLen    = 4
	fuzzyLong      = 7
	fuzzyDigits    = 3
)

// FuzzyName is a name a misspelling may mean: its compact form (see
// compact) and how it is shown. Distance is suggest.Transposed: a swap of
// two neighbours is one edit.
type FuzzyName struct {
	Key, Show string
	digits    string // digitsOf(Key), set by newFuzzyName
}

// newFuzzyName is the name key shown as show.
func newFuzzyName(key, show string) FuzzyName {
	return FuzzyName{Key: key, Show: show, digits: digitsOf(key)}
}

// fuzzyNames lists the names of identifiers and models: every alias of
// the matrix and glossary, and the identifiers in the pages' titles and
// identifier fields, sorted by key, one per key (an alias's spelling wins).
func fuzzyNames(docs []Doc, al *Aliases) []FuzzyName {
	byKey := map[string]string{}
	add := func(show string, alias bool) {
		k := compact(show)
		if len(k) < fuzzyMinLen || !need.ASCII(k) || isNumber(k) || isNoise(strings.ToLower(show)) {
			return
		}
		if old, ok := byKey[k]; ok && (!alias || old < show) {
			return
		}
		byKey[k] = show
	}
	if al != nil {
		for _, s := range al.shows() {
			add(s, true)
		}
	}
	// A page's name adds what it added before: each distinct one is read
	// once (the same tags and code spans recur on thousands of pages).
	added := map[string]bool{}
	var spans [][2]int // each text's, in one array
	for i := range docs {
		d := &docs[i]
		if d.Kind == "host" {
			continue
		}
		for _, f := range []string{"title", "ids"} {
			text := fieldText(d, f)
			spans = appendSpans(spans[:0], text)
			for _, l := range spans {
				if r := text[l[0]:l[1]]; !added[r] && (!isAlpha(strings.ToLower(r)) || f == "ids") {
					added[strings.Clone(r)] = true // not the joined text it is part of
					add(r, false)
				}
			}
		}
	}
	out := make([]FuzzyName, 0, len(byKey))
	for k, s := range byKey {
		out = append(out, newFuzzyName(k, s))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// closestName is the name nearest to key within the fuzzy distance that
// has key's digits, the first in key order among the nearest; ok is false
// when none is near. A typo is in a name's letters: its digits say which
// model it is (Bluefild2 is BlueField-2, but ubuntu1404 is not Ubuntu
// 24.04, nor mt4121 MT4125).
func closestName(key string, names []FuzzyName) (FuzzyName, bool) {
	digits := digitsOf(key)
	maxD := 1
	if len(key) >= fuzzyLong {
		maxD = 2
	}
	// Letters dropped from a name with fuzzyDigits digits (CX4121 of
	// MCX4121A) count from fuzzyLong letters' distance on: the name has
	// the token in it.
	dropped := len(digits) >= fuzzyDigits
	best, bestD := FuzzyName{}, 3
	for _, n := range names {
		if n.digits != digits {
			continue
		}
		lim := maxD
		if dropped && len(n.Key) > len(key) && isSubsequence(key, n.Key) {
			lim = 2
		}
		if dl := len(n.Key) - len(key); dl > lim || -dl > lim {
			continue
		}
		if d := suggest.Transposed(key, n.Key); d <= lim && d < bestD {
			best, bestD = n, d
		}
	}
	return best, bestD <= 2
}

// isSubsequence reports whether a's bytes are in b, in order.
func isSubsequence(a, b string) bool {
	i := 0
	for j := 0; i < len(a) && j < len(b); j++ {
		if a[i] == b[j] {
			i++
		}
	}
	return i == len(a)
}

// digitsOf is s's decimal digits, in order.
func digitsOf(s string) string {
	i := strings.IndexAny(s, "0123456789")
	if i < 0 {
		return ""
	}
	var b strings.Builder
	for ; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// correct returns q with each unknown token replaced by the closest name,
// or "" when nothing is corrected. known reports whether a raw token (lower
// case) has any term a page has.
func correct(q string, names []FuzzyName, known func(raw string) bool) string {
	var b strings.Builder
	at, changed := 0, false
	for _, l := range unknownTokens(q, known) {
		key := compact(q[l[0]:l[1]])
		n, ok := closestName(key, names)
		if !ok || n.Key == key {
			continue // a name spelt as the token is no typo ("does")
		}
		b.WriteString(q[at:l[0]])
		b.WriteString(n.Show)
		at, changed = l[1], true
	}
	if !changed {
		return ""
	}
	b.WriteString(q[at:])
	return b.String()
}

// pciIDPattern matches a PCI vendor:device id (lower case), which is never
// corrected: an id one digit off is another device, not a typo (the
// subsystem id 15b3:0016 is not 15b3:1016, a ConnectX-4 Lx virtual
// function). Plain syntax shared with JavaScript.
const pciIDPattern = `^[0-9a-f]{4}:[0-9a-f]{4}$`

var pciIDRe = regexp.MustCompile(pciIDPattern)

// unknownTokens returns the spans of the tokens correct may replace: the
// ASCII tokens of at least fuzzyMinLen letters and digits that are not
// numbers, PCI ids, noise or known; in a query of more than
// fuzzyMaxTokens raw tokens (a title, a question, a pasted line), only
// those with a letter and a digit, the shape of a model or identifier
// (Bluefild2), whose correction keeps its digits: a long query's unknown
// words are more often words no page uses than typos.
func unknownTokens(q string, known func(raw string) bool) [][2]int {
	spans := rawSpans(q)
	long := len(spans) > fuzzyMaxTokens
	var out [][2]int
	for _, l := range spans {
		r := strings.ToLower(q[l[0]:l[1]])
		c := compact(r)
		if len(c) < fuzzyMinLen || !need.ASCII(r) || isNumber(r) || pciIDRe.MatchString(r) || isNoise(r) {
			continue
		}
		if long && (digitsOf(c) == "" || strings.IndexFunc(c, isLetter) < 0) {
			continue
		}
		if known(r) {
			continue
		}
		out = append(out, l)
	}
	return out
}

func isLetter(r rune) bool { return r >= 'a' && r <= 'z' }

// mainTerm reports whether a term of kind k stands for its token: parts,
// bare numbers and prefixes do not (mlx5 of mlx5_cor is known, the token
// is not).
func mainTerm(k Kind) bool { return k != Part && k != Number && k != Prefix }
