package content

import (
	"testing"
	"testing/fstest"
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
