package site

import (
	"html/template"
	"strings"
	"testing"
)

// TestAppendEscapedIsHTMLTemplate: the grid's markup escapes a value as
// html/template does in text and in a quoted attribute.
func TestAppendEscapedIsHTMLTemplate(t *testing.T) {
	t.Parallel()
	tm := template.Must(template.New("").Parse(`<b class="x {{.}}">{{.}}</b>`))
	for _, s := range []string{"", "plain", "a + b", `<"&'>`, "nul\x00byte", "✓* ? ✗", "&#43; already", "Broadcom bnxt_en + bnxt_re"} {
		var want strings.Builder
		if err := tm.Execute(&want, s); err != nil {
			t.Fatal(err)
		}
		esc := string(appendEscaped(nil, s))
		if got := `<b class="x ` + esc + `">` + esc + `</b>`; got != want.String() {
			t.Errorf("appendEscaped(%q) gives %s, html/template %s", s, got, want.String())
		}
	}
}
