package markup

import (
	"reflect"
	"strings"
	"testing"
)

// TextOf keeps what the page shows: link text, code block lines (a
// "# comment" inside one is not a heading) and code spans, and drops
// citations, emphasis marks, images and table rules.
func TestTextOf(t *testing.T) {
	src := "# Why RoCE v2 fails\n\nThe **GID** at [index 3](kb:faq/gid) is `::ffff:10.0.0.1` [nvidia-doc].\n\n" +
		"```\n# show_gids\nmlx5_0 1 3 ::ffff:10.0.0.1 v2\n```\n\n| Port | State |\n|---|---|\n| 1 | ACTIVE |\n\n![diagram](x.png)\n"
	got := TextOf(src)
	want := Text{
		Headings: []string{"Why RoCE v2 fails"},
		Body:     "The GID at index 3 is ::ffff:10.0.0.1.\n# show_gids\nmlx5_0 1 3 ::ffff:10.0.0.1 v2\n\nPort State \n1 ACTIVE",
		Code:     "::ffff:10.0.0.1\n",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("TextOf:\n got %#v\nwant %#v", got, want)
	}
}

// FuzzTextOf: any text reads without panic, and its body holds no
// citation markup for an id the text cites alone on a line.
func FuzzTextOf(f *testing.F) {
	f.Add("# h\n\ntext [src-1] `code`\n\n```\nlog line\n```\n")
	f.Add("| a | b |\n|---|---|\n| [x](kb:faq/y) | ![i](p.png) |\n")
	f.Add("[nvidia-doc]\n")
	f.Fuzz(func(t *testing.T, src string) {
		tx := TextOf(src)
		if src == "[nvidia-doc]\n" && tx.Body != "" {
			t.Errorf("citation kept: %q", tx.Body)
		}
	})
}

// The text holds what escapes and character references stand for, as
// the HTML shows them, except in a code span, which shows what is written.
func TestTextOfEscapes(t *testing.T) {
	got := TextOf(`the \[\[pci_kernel\]\] row, AT&amp;T &#34;x&#34; \*not emphasis\* ` + "`a\\*b &amp;`")
	want := `the [[pci_kernel]] row, AT&T "x" *not emphasis* a\*b &amp;`
	if got.Body != want {
		t.Errorf("body %q, want %q", got.Body, want)
	}
}

// InlineText reads one paragraph; a list, a heading or two paragraphs
// are not inline.
func TestInlineText(t *testing.T) {
	for src, want := range map[string]string{
		"Check `devlink dev param show` on **new** kernels.": "Check devlink dev param show on new kernels.",
		"two\nlines": "two\nlines",
	} {
		if got, ok := InlineText(src); !ok || got != want {
			t.Errorf("InlineText(%q) = %q, %t; want %q", src, got, ok, want)
		}
	}
	for _, src := range []string{"- a list", "# a heading", "one\n\ntwo", ""} {
		if got, ok := InlineText(src); ok {
			t.Errorf("InlineText(%q) = %q, inline; want not inline", src, got)
		}
	}
}

// RenderText gives the HTML Render gives and the text TextOf reads, led
// by the Doc's Lead and a line break, from one parse, and the same
// problems.
func TestRenderText(t *testing.T) {
	src := "# Why RoCE v2 fails\n\nThe **GID** at [index 3](kb:faq/gid) is `::ffff:10.0.0.1` [nvidia-doc] [other].\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
	for _, lead := range []string{"", "A summary.", " spaced "} {
		d := Doc{File: "content/faq/x.md", Line: 4, Page: "faq/x.html", Sources: []string{"nvidia-doc"}, Lead: lead}
		html, text, probs := RenderText([]byte(src), d)
		wantHTML, wantProbs := Render(src, d)
		if html != wantHTML {
			t.Errorf("HTML:\n got %s\nwant %s", html, wantHTML)
		}
		want := TextOf(src)
		want.Body = lead + "\n" + want.Body
		if !reflect.DeepEqual(text, want) {
			t.Errorf("text %#v, want %#v", text, want)
		}
		if probs.String() != wantProbs.String() || len(probs) != 1 {
			t.Errorf("problems %q, Render's %q (want the one uncited [other])", probs, wantProbs)
		}
	}
}

func TestEscapeInline(t *testing.T) {
	for _, c := range []struct{ in, html string }{
		{"uname -r is 5.10.0-<abi>-amd64", "uname -r is 5.10.0-&lt;abi&gt;-amd64"},
		{"see [1] and a[0]", "see [1] and a[0]"},
		{"run `devlink dev param show pci/<bdf>` and `x[0]`", "run <code>devlink dev param show pci/&lt;bdf&gt;</code> and <code>x[0]</code>"},
		{"a `` `tick` `` span, then <b>", "a <code>`tick`</code> span, then &lt;b&gt;"},
		{"an open ` tick [x] <y>", "an open ` tick [x] &lt;y&gt;"},
		{"plain *emphasis*", "plain <em>emphasis</em>"},
	} {
		html, probs := Render(EscapeInline(c.in), Doc{File: "matrix"})
		if len(probs) > 0 {
			t.Errorf("%q: %v", c.in, probs)
		}
		if got := strings.TrimSuffix(strings.TrimPrefix(string(html), "<p>"), "</p>\n"); got != c.html {
			t.Errorf("%q renders %q, want %q", c.in, got, c.html)
		}
	}
}

// inlineByGoldmark is s rendered by goldmark as one paragraph's content,
// or false when goldmark makes something else of it.
func inlineByGoldmark(s string) (string, bool) {
	html, _ := Render(EscapeInline(s), Doc{File: "matrix"})
	body, ok := strings.CutPrefix(string(html), "<p>")
	if !ok {
		return "", false
	}
	body, ok = strings.CutSuffix(body, "</p>\n")
	return body, ok && !strings.Contains(body, "<p>")
}

// PlainInline answers only for texts goldmark renders as it says.
func TestPlainInline(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"the distro_support row for rhel 9.4: mlx5_ib builds", "the distro_support row for rhel 9.4: mlx5_ib builds", true},
		{`Debian 12 "bookworm" (6.1)`, "Debian 12 &quot;bookworm&quot; (6.1)", true},
		{"RoCE v2 | iWARP # 3! done", "RoCE v2 | iWARP # 3! done", true},
		{"_emphasis_ here", "", false},
		{"a _b_ c", "", false},
		{"see https://example.com", "", false},
		{"see www.example.com", "", false},
		{"mail a@b.org", "", false},
		{"1. a list", "", false},
		{"- a list", "", false},
		{"# heading", "", false},
		{"`code`", "", false},
		{"a\nb", "", false},
		{"trailing ", "", false},
		{"x &amp; y", "", false},
		{"", "", false},
	} {
		got, ok := PlainInline(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("PlainInline(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
		if ok {
			if g, gok := inlineByGoldmark(tc.in); !gok || g != got {
				t.Errorf("PlainInline(%q) = %q, goldmark %q", tc.in, got, g)
			}
		}
	}
}

// FuzzPlainInline: whatever PlainInline answers for is what goldmark
// renders.
func FuzzPlainInline(f *testing.F) {
	for _, s := range []string{"mlx5_ib on rhel-9.4", `a "b" c`, "x__y_z", "Réseau 网卡 (v2)", "a | b # c ! d", "ww.w", "aa:/b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := PlainInline(s)
		if !ok {
			return
		}
		if want, gok := inlineByGoldmark(s); !gok || want != got {
			t.Errorf("PlainInline(%q) = %q, goldmark gives %q (a paragraph: %v)", s, got, want, gok)
		}
	})
}
