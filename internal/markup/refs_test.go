package markup

import (
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// citeRe is what a citation is, written as a regular expression: an id
// in brackets at the start of the line, which must hold a letter.
var citeRe = regexp.MustCompile(`^\[([a-z0-9][a-z0-9._-]*)\]`)

// citationCases are lines at a '[', as the citation parser is given them.
var citationCases = []string{
	"[s1] b", "[s1]", "[1] x", "[0]", "[]", "[", "[a", "[a]", "[A]", "[-a]", "[a-]",
	"[.a]", "[_a]", "[a.b_c-d]", "[9a]", "[a b]", "[a]]", "[[a]]", "[a](x)", "[a][b]",
	"[linux-pull-net-2019-11-22] Traffic", "[é]", "[aé]", "[a\n]", "[a]: x", "[12.3]",
}

// FuzzCitation holds citation to citeRe: the same ids, of the same length.
func FuzzCitation(f *testing.F) {
	for _, c := range citationCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if !strings.HasPrefix(line, "[") {
			return
		}
		var want string
		wantN := 0
		if m := citeRe.FindStringSubmatch(line); m != nil && strings.ContainsAny(m[1], "abcdefghijklmnopqrstuvwxyz") {
			want, wantN = m[1], len(m[0])
		}
		if id, n := citation([]byte(line)); id != want || n != wantN {
			t.Errorf("citation(%q) = %q, %d; want %q, %d", line, id, n, want, wantN)
		}
	})
}

// FuzzMayLink: a text that mayLink says holds no link parses to a tree
// without a link or an image, so the link resolver has nothing to walk.
func FuzzMayLink(f *testing.F) {
	for _, c := range append(plainCases, citationCases...) {
		f.Add(c)
	}
	for _, c := range []string{"[a] (b)", "[a]\n(b)", "![i](p.png)", "[a][r]\n\n[r]: /x", "[r]\n\n[R]: /x", "![i][]\n\n[i]: p.png", "[a](<b c>)", "[a]\\(b)", "<https://x.example/>"} {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, src string) {
		b := []byte(src)
		pc := parser.NewContext()
		pc.Set(stateKey, &state{src: b})
		root := md.Parser().Parse(text.NewReader(b), parser.WithContext(pc))
		if mayLink(b, pc) {
			return
		}
		ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			switch n.(type) {
			case *ast.Link, *ast.Image:
				t.Fatalf("%q: mayLink is false, and it holds %s", src, n.Kind())
			}
			return ast.WalkContinue, nil
		})
	})
}
