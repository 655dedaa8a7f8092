package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/escape"
)

// TestScansFindEveryByte: appendCell and escape.JSONString write what
// encoding/csv and encoding/json write for a text holding one byte of
// each kind, at every place of the words they read it in, and after
// bytes of every value, and for texts of many quotes, which a quoted CSV
// field doubles.
func TestScansFindEveryByte(t *testing.T) {
	t.Parallel()
	var texts []string
	for b := range 256 {
		for at := range 19 {
			s := []byte(strings.Repeat("x", 19))
			s[at] = byte(b)
			texts = append(texts, string(s))
			if at > 0 { // after a byte that borrows, or sets the high bit
				s[at-1] = 0xff
				texts = append(texts, string(s))
				s[at-1] = 0
				texts = append(texts, string(s))
			}
		}
	}
	texts = append(texts, "héllo, 世界 | ✓", "\u2028 in a long enough text", "a long text with a \" quote",
		strings.Repeat(`a"`, 13), strings.Repeat(`"`, 17), `"a"b"c"d"e"f"g"h, "quoted"`)
	for _, s := range texts {
		var want bytes.Buffer
		cw := csv.NewWriter(&want)
		if err := cw.Write([]string{s}); err != nil {
			t.Fatal(err)
		}
		cw.Flush()
		if got := append(appendCell(nil, s, false), '\n'); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("appendCell(%q) = %q, encoding/csv writes %q", s, got, want.Bytes())
		}
		if got := append(appendCell(nil, []byte(s), false), '\n'); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("appendCell(%q as bytes) = %q, encoding/csv writes %q", s, got, want.Bytes())
		}
		want.Reset()
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := append(escape.JSONString(nil, s), '\n'); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("escape.JSONString(%q) = %q, encoding/json writes %q", s, got, want.Bytes())
		}
	}
}
