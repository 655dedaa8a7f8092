package search

import (
	"strings"
	"unicode/utf8"
)

// Hand-written forms of the analyzer's patterns, for speed: the patterns
// (tokenPattern, noisePattern, numberPattern, alphaPattern, splitPattern,
// versionRe, compactRe) stay the definition, the browser runs them, and
// TestLexMatchesPatterns checks these functions against them.

func inRanges(r rune, rs [][2]rune) bool {
	for _, rg := range rs {
		if r >= rg[0] && r <= rg[1] {
			return true
		}
	}
	return false
}

// isWordRune is the class of a raw token's identifier runs.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_'
	}
	return inRanges(r, letterRanges)
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// Classes of a text's bytes, for scanning: an ASCII byte is in a raw
// token's identifier runs or not, and only a byte past ASCII starts a
// rune to decode. One load per byte, where isAlnum was up to six
// comparisons (a fifth of a 10k build's static index is scanning).
const (
	asciiOther = iota // a space or punctuation
	asciiWord         // [0-9A-Za-z_]
	multiByte         // part of a rune past ASCII
)

var byteClass = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c >= utf8.RuneSelf:
			t[c] = multiByte
		case isAlnum(byte(c)) || c == '_':
			t[c] = asciiWord
		}
	}
	return t
}()

// scanWord returns the end of the run of word runes at s[i:].
func scanWord(s string, i int) int {
	for i < len(s) {
		switch byteClass[s[i]] { // most of a text: no rune to decode
		case asciiWord:
			i++
			continue
		case asciiOther:
			return i
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isWordRune(r) {
			break
		}
		i += n
	}
	return i
}

// isJoiner reports whether c joins a raw token's identifier runs.
func isJoiner(c byte) bool { return c == '-' || c == '.' || c == ':' || c == '+' }

// rawSpans is rawRe.FindAllStringIndex(text, -1).
func rawSpans(text string) [][2]int {
	// About one token in every seven bytes of English prose: one
	// allocation for most texts instead of a dozen as the slice grows.
	return appendSpans(make([][2]int, 0, len(text)/7+1), text)
}

// appendSpans appends rawSpans(text) to out.
func appendSpans(out [][2]int, text string) [][2]int {
	for i := 0; i < len(text); {
		var r rune
		n := 1
		switch byteClass[text[i]] {
		case asciiOther:
			i++ // a space or punctuation, as the default case below
			continue
		case asciiWord:
			r = rune(text[i])
		default:
			r, n = utf8.DecodeRuneInString(text[i:])
		}
		switch {
		case isWordRune(r):
			j := scanWord(text, i+n)
			for j+1 < len(text) && isJoiner(text[j]) {
				r2, _ := utf8.DecodeRuneInString(text[j+1:])
				if !isWordRune(r2) {
					break
				}
				j = scanWord(text, j+1)
			}
			if j < len(text) && text[j] == '(' {
				k, digit := j+1, false
				for k < len(text) && isAlnum(text[k]) {
					digit = digit || text[k] >= '0' && text[k] <= '9'
					k++
				}
				if digit && k < len(text) && text[k] == ')' {
					j = k + 1
				}
			}
			out = append(out, [2]int{i, j})
			i = j
		case inRanges(r, cjkRanges):
			j := i + n
			for j < len(text) {
				r2, n2 := utf8.DecodeRuneInString(text[j:])
				if !inRanges(r2, cjkRanges) {
					break
				}
				j += n2
			}
			out = append(out, [2]int{i, j})
			i = j
		default:
			i += n
		}
	}
	return out
}

// isNoise is noiseRe.MatchString(t). Every noise shape is made of hex
// digits and : . - + t z x only, which most tokens fail at once.
func isNoise(t string) bool {
	for i := 0; i < len(t); i++ {
		if strings.IndexByte("0123456789abcdef:.-+tzx", t[i]) < 0 {
			return false
		}
	}
	return noiseRe.MatchString(t)
}

// isNumber is numberRe.MatchString(t).
func isNumber(t string) bool {
	s := t
	if len(t) > 2 && t[0] == '0' && t[1] == 'x' {
		for i := 2; i < len(t); i++ {
			if c := t[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return isDigits(s)
			}
		}
		return true
	}
	return isDigits(s) || isSpeed(s)
}

// isSpeed reports whether t is digits and a link-speed unit: g, gb, gbe,
// gbps, gbit (numberPattern's last branch).
func isSpeed(t string) bool {
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 {
		return false
	}
	switch t[i:] {
	case "g", "gb", "gbe", "gbps", "gbit":
		return true
	}
	return false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isAlpha is alphaRe.MatchString(t).
func isAlpha(t string) bool {
	if t == "" {
		return false
	}
	for _, r := range t {
		if !(r >= 'a' && r <= 'z' || r >= 0xc0 && r <= 0x24f) {
			return false
		}
	}
	return true
}

// versionPrefix is versionRe.FindString(t).
func versionPrefix(t string) string {
	i := 0
	if i < len(t) && t[i] == 'v' && i+1 < len(t) && t[i+1] >= '0' && t[i+1] <= '9' {
		i++
	}
	j := digitsEnd(t, i)
	if j == i {
		return ""
	}
	end := -1
	for j < len(t) && t[j] == '.' {
		k := digitsEnd(t, j+1)
		if k == j+1 {
			break
		}
		end, j = k, k
	}
	if end < 0 {
		return ""
	}
	return t[:end]
}

func digitsEnd(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// splitParts is splitRe.Split(t, -1): the pieces between runs of
// - _ . : + ( ), empty ones at either end included.
func splitParts(t string) []string {
	if t == "" {
		return []string{""}
	}
	var out []string
	beg := 0
	for i := 0; i < len(t); {
		if strings.IndexByte("-_.:+()", t[i]) < 0 {
			i++
			continue
		}
		j := i
		for j < len(t) && strings.IndexByte("-_.:+()", t[j]) >= 0 {
			j++
		}
		out = append(out, t[beg:i])
		beg, i = j, j
	}
	return append(out, t[beg:])
}

// compactFast is compact: lower case, without the runes compactRe drops.
func compactFast(s string) string {
	s = strings.ToLower(s)
	keep := func(r rune) bool { return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 0x80 && r <= 0xffff }
	clean := true
	for _, r := range s {
		if !keep(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if keep(r) {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
