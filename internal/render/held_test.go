package render

import (
	"html/template"
	"io"
	"strings"
	"testing"
	"testing/fstest"
)

// list is an HTMLWriter: a list written item by item.
type list []string

func (l list) WriteHTML(w io.Writer) error {
	for _, it := range l {
		if _, err := io.WriteString(w, "<li>"+it); err != nil {
			return err
		}
	}
	return nil
}

// TestHeld: a page printing values through held (a string of HTML, an
// HTMLWriter, in a shared template too) is byte for byte the page the
// template prints them in itself (Inline), and held keeps nothing once
// they are written; text that is a token, or HTML holding another
// templates' token, is printed as what it is.
func TestHeld(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"templates/x.html": {Data: []byte(`{{define "item"}}<i>{{held .}}</i>{{end}}` +
		`<p title="{{.Text}}">{{.Text}}</p>{{held .Big}}<b>{{.Other}}</b><ul>{{held .List}}</ul>{{shared "item" .Small}}[{{held .Empty}}]`)}}
	load := func() *Templates {
		tpl, err := LoadTemplates(Layers{fsys})
		if err != nil {
			t.Fatal(err)
		}
		return tpl
	}
	tpl, inline, other := load(), load(), load()
	inline.Inline = true
	type data struct {
		Text              string
		Big, Small, Empty template.HTML
		Other             template.HTML
		List              list
	}
	// Text is a token of a value tpl holds, Other a token of other's.
	forged := tpl.values.hold(template.HTML("FORGED"))
	d := data{
		Text:  string(forged),
		Big:   template.HTML(strings.Repeat(`<a href="x?a=1&amp;b=2">x</a>`, 4000)), // 112,000 bytes: past fmt's and the writer's buffers
		Small: "<em>small</em>",
		Other: other.values.hold(template.HTML("OTHER")),
		List:  list{"a", "b"},
	}
	var got, want strings.Builder
	if err := tpl.run(&got, "x.html", d); err != nil {
		t.Fatal(err)
	}
	if err := inline.run(&want, "x.html", d); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("through held:\n%.300q…\nprinted by the template:\n%.300q…", got.String(), want.String())
	}
	for _, s := range []string{string(d.Big), "<ul><li>a<li>b</ul>", "<i><em>small</em></i>[]", "<b>" + string(d.Other) + "</b>", "\uFFFD"} {
		if !strings.Contains(got.String(), s) {
			t.Errorf("the page lacks %.60q", s)
		}
	}
	if strings.Contains(got.String(), "FORGED") || strings.Contains(got.String(), "OTHER") {
		t.Errorf("text or another templates' token was written as a held value: %.300q", got.String())
	}
	if n := tpl.Holding(); n != 1 {
		t.Errorf("holding %d values after the page, want 1 (the one text named)", n)
	}

	twice := fstest.MapFS{"templates/x.html": {Data: []byte(`{{$x := held .}}{{$x}}{{$x}}`)}}
	tt, err := LoadTemplates(Layers{twice})
	if err != nil {
		t.Fatal(err)
	}
	if err := tt.run(io.Discard, "x.html", template.HTML("<p>")); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a held value printed twice: %v, want an error", err)
	}
	if err := tt.run(io.Discard, "x.html", "<p>"); err == nil || !strings.Contains(err.Error(), "neither") {
		t.Errorf("held of a string: %v, want an error", err)
	}
}
