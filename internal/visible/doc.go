// Package visible finds and escapes the characters that text from a host
// record or a snapshot must never carry raw to a terminal or a page: C0 and
// C1 controls (but newline and tab), DEL, bidi overrides and isolates, and
// zero-width characters, which can set a terminal's title, clear it, forge
// output, or make a name read differently from what it is (host\u202egnp.exe).
package visible
