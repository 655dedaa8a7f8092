package markup

import (
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// plainCases are texts with and without what linkify links: the
// markdown the extensions read, spaces and escapes where linkify's
// parser split the text, and URLs and addresses it makes links of.
var plainCases = []string{
	"see https://x.example/a and www.example.com today",
	"mail ops@example.com or <ops@example.com>",
	"ftp://host.example/x and http://x.example",
	"a www.x.example b",
	"user@host without a dot",
	"<https://x.example/> autolink",
	"plain words, (in parentheses) and *emphasis* _under_ ~~struck~~ ~one~",
	"a  b   c\td",
	"trailing spaces  \nhard break\\\nsoft\nbreak",
	`escaped\ space, \*not\* and a trailing backslash\`,
	"AT&amp;T &#34;x&#34; &copy; & alone",
	"`code span` and ``double ` tick`` and `a  b`",
	"# Heading with `code`\n\n## Same\n\n## Same\n\ntext",
	"| a | b |\n|---|---|\n| 1 `x` | 2 *y* |\n",
	"x[^1] and y[^n]\n\n[^1]: a note\n[^n]: another",
	"term\n: its definition\n\nother\n: more",
	"- [ ] todo\n- [x] done\n  - nested *item*\n\n1. one\n2. two",
	"> quoted [s1] text\n> more",
	"    indented code\n\n```sh\nfenced  code\n```",
	"中文 文本，混合 English 和 `mlx5_core`",
	"ends with space ",
	" starts with space",
	"a [s1] b [s2]: c [link](kb:faq/x) ![img](p.png)",
	"[ref]\n\n[ref]: https://x.example/",
	"***\n\n---\n\n<b>raw</b> <!-- c -->",
}

// convert is the HTML and text m gives for src.
func convert(m goldmark.Markdown, src string) string {
	b := []byte(src)
	pc := parser.NewContext()
	pc.Set(stateKey, &state{doc: Doc{Sources: []string{"s1", "s2"}}, src: b})
	root := m.Parser().Parse(text.NewReader(b), parser.WithContext(pc))
	var html strings.Builder
	if err := m.Renderer().Render(&html, b, root); err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%s\n%#v", html.String(), textOf(root, b, ""))
}

// The instance a text is parsed with (markdownOf) gives the HTML and text
// md gives, for the cases and the bundled FAQ pages: plain, which has no
// linkify, only for a text in which linkify would find nothing.
func TestPlainIsMarkdown(t *testing.T) {
	t.Parallel()
	srcs := append([]string{}, plainCases...)
	faq := os.DirFS("../../content/faq")
	names, _ := fs.Glob(faq, "*.md")
	if len(names) == 0 {
		t.Fatal("no bundled FAQ pages")
	}
	for _, n := range names {
		b, err := fs.ReadFile(faq, n)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(b))
	}
	for _, src := range srcs {
		if got, want := convert(markdownOf([]byte(src)), src), convert(md, src); got != want {
			t.Errorf("%.60q:\n got %s\nwant %s", src, got, want)
		}
	}
}

func FuzzPlainIsMarkdown(f *testing.F) {
	for _, s := range plainCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if got, want := convert(markdownOf([]byte(src)), src), convert(md, src); got != want {
			t.Errorf("%q:\n got %s\nwant %s", src, got, want)
		}
	})
}
