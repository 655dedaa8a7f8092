package export

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

// csvPlain is the length of v's leading run of bytes that do not make
// encoding/csv quote a field: all but \n, \r, " and ,.
func csvPlain[S string | []byte](v S) int {
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

// unquoted is the length of v's leading run of bytes other than ", the
// byte a quoted CSV field doubles.
func unquoted[S string | []byte](v S) int {
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
