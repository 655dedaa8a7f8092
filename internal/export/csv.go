package export

import (
	"strings"
	"unicode/utf8"
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
		if r, _ := utf8.DecodeRuneInString(strings.TrimLeft(v, " ")); r != utf8.RuneError && strings.ContainsRune(formulaLeads, r) {
			vs[i] = "'" + v
		}
	}
	return vs
}
