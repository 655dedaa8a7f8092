package visible

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Hidden reports whether r is a character Escape writes as an escape:
// a C0 control but tab and newline, DEL, a C1 control, a bidi mark,
// embedding, override or isolate, a zero-width or invisible character.
func Hidden(r rune) bool {
	switch {
	case r >= 0x20 && r < 0x7f, r == '\t' || r == '\n':
		// Printable ASCII, most of any text, is decided by the first
		// case instead of the last.
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
		return true
	case r == 0x061c, // arabic letter mark
		r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0, // hangul fillers, which render as nothing
		r == 0x180e,                  // mongolian vowel separator
		r >= 0x200b && r <= 0x200f,   // zero-width space, joiners, LRM, RLM
		r >= 0x202a && r <= 0x202e,   // bidi embeddings and overrides
		r >= 0x2060 && r <= 0x206f,   // word joiner, invisible operators, bidi isolates, deprecated format controls
		r == 0xfeff,                  // zero-width no-break space (BOM)
		r >= 0xfff9 && r <= 0xfffb,   // interlinear annotation
		r >= 0xe0000 && r <= 0xe007f: // tag characters
		return true
	}
	return false
}

// Find returns the byte offset and the rune of the first character of s
// that is hidden or not valid UTF-8 (utf8.RuneError), or -1.
func Find(s string) (int, rune) {
	for i, r := range s {
		if Hidden(r) {
			return i, r
		}
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return i, r
			}
		}
	}
	return -1, 0
}

// Name says what a rune Find returned is, for a message: "U+202E".
func Name(s string, i int) string {
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && n == 1 {
		return fmt.Sprintf("invalid UTF-8 byte 0x%02x", s[i])
	}
	return fmt.Sprintf("U+%04X", r)
}

// Escape returns s with every hidden character written as a Go escape
// (\x1b, \u202e) and every byte that is not UTF-8 as \xNN; a backslash
// stays as it is. Text without them is returned unchanged.
func Escape(s string) string {
	if i, _ := Find(s); i < 0 {
		return s
	}
	var b strings.Builder
	escapeTo(&b, s)
	return b.String()
}

func escapeTo(b *strings.Builder, s string) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(b, `\x%02x`, s[i])
		case Hidden(r) && r < 0x100:
			fmt.Fprintf(b, `\x%02x`, r)
		case Hidden(r) && r < 0x10000:
			fmt.Fprintf(b, `\u%04x`, r)
		case Hidden(r):
			fmt.Fprintf(b, `\U%08x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
}

// Colour is how a writer made by Writer lets its caller's own colours
// through: the caller writes Colour.SGR("31") where it means ESC [ 31 m,
// and Writer turns that, and only that, into the escape sequence. The
// mark is random, so text from a record cannot forge it.
type Colour struct{ mark string }

// NewColour makes a colour mark of its own.
func NewColour() Colour {
	var b [8]byte
	_, _ = rand.Read(b[:])
	// Private-use characters are not hidden: they pass Escape unchanged.
	return Colour{mark: "\ue000" + hex.EncodeToString(b[:]) + "\ue001"}
}

// SGR is a Select Graphic Rendition sequence (colour and weight) for Writer.
func (c Colour) SGR(code string) string { return c.mark + code + "m" }

// Writer returns a writer that escapes what it is given as Escape does,
// before w sees it; with a Colour, its SGR marks become the escape
// sequences. Each Write is escaped on its own: give it whole lines or
// strings.
func Writer(w io.Writer, c Colour) io.Writer { return &writer{w: w, mark: c.mark} }

type writer struct {
	w    io.Writer
	mark string
}

func (e *writer) Write(p []byte) (int, error) {
	s := string(p)
	i, _ := Find(s)
	if i < 0 && (e.mark == "" || !strings.Contains(s, e.mark)) {
		return e.w.Write(p)
	}
	var b strings.Builder
	escapeTo(&b, s)
	out := b.String()
	if e.mark != "" {
		out = strings.ReplaceAll(out, e.mark, "\x1b[")
	}
	if _, err := io.WriteString(e.w, out); err != nil {
		return 0, err
	}
	return len(p), nil
}
