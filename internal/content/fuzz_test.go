package content

import (
	"fmt"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/visible"
)

// FuzzParsePage: parsing and linting any page, alone or next to a tree and
// a glossary, never panics, and a page that parses keeps its body.
func FuzzParsePage(f *testing.F) {
	f.Add([]byte("+++\n" + goodFront + "translation_key = \"k\"\n+++\nBody [src-a] [x](kb:tree/t)\n"))
	f.Add([]byte("+++\ntitle = \"x\"\n+++\n```\n[src-a]\n"))
	f.Add([]byte("+++\nlang = \"zh\"\n+++"))
	f.Add([]byte("\ufeff+++\r\ntitle = 1\r\n+++\r\n"))
	f.Add([]byte("no front matter"))
	f.Fuzz(func(t *testing.T, src []byte) {
		p, _ := ParsePage("content/faq/p.zh.md", src)
		fsys := base()
		fsys["faq/p.zh.md"] = &fstest.MapFile{Data: src}
		c, _ := Load(fsys, "content")
		Lint(c, LintOptions{Refs: refs()})
		if p != nil {
			if p.BodyLine < 2 {
				t.Errorf("BodyLine = %d, want >= 2 after front matter", p.BodyLine)
			}
		}
	})
}

// FuzzLintTree: linting any decodable tree never panics (loops, missing
// starts, duplicate ids and dangling branches included).
func FuzzLintTree(f *testing.F) {
	f.Add([]byte(goodTree))
	f.Add([]byte("id = \"t\"\nstart = \"a\"\n[[node]]\nid = \"a\"\nyes = \"a\"\nno = \"b\"\n[[node]]\nid = \"a\"\n"))
	f.Add([]byte("start = \"x\"\n[[node]]\nyes = \"\"\nno = \"y\"\ncheck = \"zz\"\nyes_when = \"finding\"\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		fsys := base()
		fsys["trees/t.toml"] = &fstest.MapFile{Data: src}
		c, _ := Load(fsys, "content")
		Lint(c, LintOptions{Refs: refs()})
		_ = c.Checks()
	})
}

// frozenBadText is badText as it was before its ASCII fast path
// (494ddaa6), one rune at a time.
func frozenBadText(src []byte) (pos diag.Pos, what string, ok bool) {
	line, col := 1, 1
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			return diag.Pos{Line: line, Col: col}, fmt.Sprintf("invalid UTF-8: byte 0x%02x; pages are published as UTF-8", src[i]), false
		case r == '\n':
			line, col = line+1, 0
		case r != '\r' && visible.Hidden(r) && what == "":
			pos, what = diag.Pos{Line: line, Col: col}, fmt.Sprintf("hidden character U+%04X (a control, bidi or zero-width character): the text reads differently from what it holds", r)
		}
		i += n
		col++
	}
	return pos, what, true
}

// FuzzBadText holds badText to the frozen rune-by-rune reading.
func FuzzBadText(f *testing.F) {
	for _, s := range []string{"plain text\nnext line", "tab\there\r\n", "bidi \u202e here", "bad \xff byte", "zero\u200bwidth\x7f", "中文\n\x01"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		p1, w1, ok1 := badText(src)
		p2, w2, ok2 := frozenBadText(src)
		if p1 != p2 || w1 != w2 || ok1 != ok2 {
			t.Fatalf("%q: badText = %v %q %v, frozen %v %q %v", src, p1, w1, ok1, p2, w2, ok2)
		}
	})
}
