package export

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rocekb/rocekb/internal/escape"
)

// formulaLeads are the first characters that make a spreadsheet read a
// cell as a formula (OWASP, "CSV Injection"): = + - @, tab and carriage
// return, and the full-width forms some spreadsheets fold into them.
const formulaLeads = "=+-@\t\r\n＝＋－＠"

// cells guards a CSV row against spreadsheet formulas: a cell that starts
// with a formula lead is prefixed with ' so that it is read as text. Leading
// spaces do not hide a lead: " =1+1" is guarded as well.
func cells(vs ...string) []string {
	for i, v := range vs {
		if formulaLed(v) {
			vs[i] = "'" + v
		}
	}
	return vs
}

// formulaLed is whether a cell's first character after spaces is a
// formula lead.
func formulaLed[S string | []byte](v S) bool {
	i := 0
	for i < len(v) && v[i] == ' ' {
		i++
	}
	var r rune
	if i < len(v) && v[i] < utf8.RuneSelf {
		r = rune(v[i])
	} else {
		r, _ = utf8.DecodeRuneInString(string(v[i:min(len(v), i+utf8.UTFMax)]))
	}
	return i < len(v) && r != utf8.RuneError && strings.ContainsRune(formulaLeads, r)
}

// appendCell appends one field of a CSV record as encoding/csv's Writer
// writes it (comma-separated, LF line ends), guarded against formulas
// as cells guards it when guard is set.
func appendCell[S string | []byte](dst []byte, v S, guard bool) []byte {
	lead := guard && formulaLed(v)
	quote := false
	if len(v) > 0 {
		quote = escape.CSVPlain(v) < len(v)
		if !lead && !quote {
			r, _ := utf8.DecodeRuneInString(string(v[:min(len(v), utf8.UTFMax)]))
			quote = unicode.IsSpace(r) || string(v) == `\.`
		}
	}
	if quote {
		dst = append(dst, '"')
	}
	if lead {
		dst = append(dst, '\'')
	}
	if !quote {
		return append(dst, v...)
	}
	for {
		i := escape.Unquoted(v)
		if i == len(v) {
			dst = append(dst, v...)
			return append(dst, '"')
		}
		dst = append(append(dst, v[:i+1]...), '"')
		v = v[i+1:]
	}
}
