package escape

import "unicode/utf8"

// The CSV and JSON writers read long texts (a verdict's conditions and
// sources, some 150 MB of them in a 10k build's matrix.csv and as much
// in its adapter files) in which few bytes need quoting or escaping. They
// read them eight bytes at a time, as one little-endian word, and test
// each word for the bytes they look for with the usual exact tests on
// all of its bytes at once.

const (
	lows  = 0x0101010101010101 // 0x01 in every byte
	highs = 0x8080808080808080 // 0x80 in every byte
)

// word is the eight bytes of v from i on, the first the lowest.
func word[S string | []byte](v S, i int) uint64 {
	_ = v[i+7]
	return uint64(v[i]) | uint64(v[i+1])<<8 | uint64(v[i+2])<<16 | uint64(v[i+3])<<24 |
		uint64(v[i+4])<<32 | uint64(v[i+5])<<40 | uint64(v[i+6])<<48 | uint64(v[i+7])<<56
}

// below is whether a byte of x is less than n (n <= 0x80).
func below(x uint64, n byte) bool { return (x-lows*uint64(n))&^x&highs != 0 }

// holds is whether a byte of x is c.
func holds(x uint64, c byte) bool { return below(x^(lows*uint64(c)), 1) }

// CSVPlain is the length of v's leading run of bytes that do not make
// encoding/csv quote a field: all but \n, \r, " and ,.
func CSVPlain[S string | []byte](v S) int {
	i := 0
	for ; i+8 <= len(v); i += 8 {
		if x := word(v, i); holds(x, '\n') || holds(x, '\r') || holds(x, '"') || holds(x, ',') {
			break
		}
	}
	for i < len(v) && v[i] != '\n' && v[i] != '\r' && v[i] != '"' && v[i] != ',' {
		i++
	}
	return i
}

// Unquoted is the length of v's leading run of bytes other than ", the
// byte a quoted CSV field doubles.
func Unquoted[S string | []byte](v S) int {
	i := 0
	for ; i+8 <= len(v); i += 8 {
		if holds(word(v, i), '"') {
			break
		}
	}
	for i < len(v) && v[i] != '"' {
		i++
	}
	return i
}

// jsonPlain is the length of s's leading run of bytes encoding/json
// writes as they are: printable ASCII (and DEL) but " and \.
func jsonPlain(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if x := word(s, i); x&highs != 0 || below(x, 0x20) || holds(x, '"') || holds(x, '\\') {
			break
		}
	}
	for i < len(s) && s[i] >= 0x20 && s[i] < 0x80 && s[i] != '"' && s[i] != '\\' {
		i++
	}
	return i
}

const hexDigits = "0123456789abcdef"

// JSONString appends s quoted as encoding/json quotes a string with
// HTML escaping off: \" \\ \b \f \n \r \t, other control bytes as \u00XX,
// invalid UTF-8 as \ufffd, and U+2028 and U+2029 escaped.
func JSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if i += jsonPlain(s[i:]); i == len(s) {
			break
		}
		if b := s[i]; b < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
