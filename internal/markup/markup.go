package markup

import (
	"bytes"
	"html/template"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/rocekb/rocekb/internal/bufpool"
	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/page"
)

// md is shared: goldmark instances are safe for concurrent use, and the
// state of one conversion travels in its parser.Context.
var md = newMarkdown(extension.Linkify)

// plain is md without GFM's linkify, for a text in which linkify finds
// nothing (linkable): its parser is tried at every space of a text,
// which split the text at each (a fifth of parsing a 10k build's FAQ
// bodies), and a text it leaves unlinked parses to the same HTML and
// text without it (TestPlainIsMarkdown).
var plain = newMarkdown()

// newMarkdown is goldmark with GFM (linkify if given), footnotes,
// definition lists and this package's refs.
func newMarkdown(linkify ...goldmark.Extender) goldmark.Markdown {
	exts := append(linkify, extension.Table, extension.Strikethrough, extension.TaskList, // extension.GFM, in its order
		extension.Footnote, extension.DefinitionList, refs{})
	return goldmark.New(
		goldmark.WithExtensions(exts...),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		// Raw HTML in content is not rendered: content is data, and a site
		// published as internal docs must not run what a page author pasted.
	)
}

// linkable reports whether linkify may find a link in b: a URL it links
// starts with "www." or a scheme and "://", an e-mail address has an @.
func linkable(b []byte) bool {
	return bytes.IndexByte(b, '@') >= 0 || bytes.Contains(b, []byte("://")) || bytes.Contains(b, []byte("www."))
}

// markdownOf is the instance that parses b: md, or plain where it gives
// the same.
func markdownOf(b []byte) goldmark.Markdown {
	if linkable(b) {
		return md
	}
	return plain
}

// Doc says where a markdown text comes from and what it may point at.
type Doc struct {
	File    string   // the file problems name
	Line    int      // the line of File the text starts on (after front matter); 0 means 1
	Page    string   // output path of the page the HTML goes on; links are made relative to it
	Sources []string // the source ids the page lists; a citation must name one
	Pages   Resolver // which pages exist; nil checks only the form of links
	// Lead is what the page shows above the text (an FAQ page's
	// summary): RenderText's Text.Body is Lead, a line break and the
	// text, the search document's text made in one string where it was
	// copied again to be led by the summary.
	Lead string
}

// Resolver says whether the site has the page (and anchor) a link names.
type Resolver interface {
	Has(r page.Ref) bool
}

// Render converts markdown to HTML, resolving kb: links and citations. The
// problems are every broken link and citation, with positions in d.File.
func Render(src string, d Doc) (template.HTML, diag.List) {
	html, _, probs := render([]byte(src), d)
	return html, probs
}

// RenderText is Render of the markdown in b, which it reads and does not
// keep, that also reads the text the page shows (TextOf) from the same
// parse, for the page's search document.
func RenderText(b []byte, d Doc) (template.HTML, Text, diag.List) {
	html, root, probs := render(b, d)
	return html, textOf(root, b, d.Lead+"\n"), probs
}

// parse parses b for d: the tree, and the state that collects the
// problems of its links and citations.
func parse(b []byte, d Doc) (ast.Node, *state) {
	st := &state{doc: d, src: b}
	pc := parser.NewContext()
	pc.Set(stateKey, st)
	return markdownOf(b).Parser().Parse(text.NewReader(b), parser.WithContext(pc)), st
}

// render parses b once and renders it, giving the tree as well.
func render(b []byte, d Doc) (template.HTML, ast.Node, diag.List) {
	root, st := parse(b, d)
	// Lent, as textOf's: a FAQ body's HTML and text grew a new buffer
	// each, doubling from empty (about 180 MB of garbage in a 10k build).
	buf := bufpool.Get()
	defer bufpool.Put(buf)
	if err := markdownOf(b).Renderer().Render(bufWriter{buf}, b, root); err != nil {
		st.probs.Add(d.File, diag.Pos{Line: max(d.Line, 1)}, "render markdown: %v", err)
	}
	return template.HTML(buf.String()), root, st.probs
}

// bufWriter is a bytes.Buffer as goldmark's renderer writes to one
// (util.BufWriter), which has nothing to flush: given a plain io.Writer,
// the renderer wraps it in a bufio.Writer of 4 KB of its own, made and
// copied through for every text.
type bufWriter struct{ *bytes.Buffer }

func (bufWriter) Buffered() int { return 0 }
func (bufWriter) Flush() error  { return nil }

// Check reports the broken links and citations of a markdown text, as
// Render would, without rendering it.
func Check(src string, d Doc) diag.List {
	_, st := parse([]byte(src), d)
	return st.probs
}

// PlainInline is the HTML goldmark gives for s as one paragraph's inline
// content, without running it, when s holds nothing markdown reads: no
// punctuation that opens emphasis, code, links, HTML, entities or escapes,
// no line break or control character, nothing a block could start with,
// nothing linkify would turn into a link. ok is false for any other s,
// which must go through goldmark. Most texts of a verdict grid are plain:
// parsing each was a tenth of an adapter page's rendering.
func PlainInline(s string) (html string, ok bool) {
	if s == "" || !plainStart(s[0]) || s[len(s)-1] == ' ' {
		return "", false
	}
	quotes := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < ' ' || c == 0x7f:
			return "", false
		case c == '"':
			quotes++
		case c == '_':
			// A run of _ between letters or digits opens and closes no
			// emphasis (mlx5_ib, distro_support).
			j := i
			for j < len(s) && s[j] == '_' {
				j++
			}
			if i == 0 || j == len(s) || !alnum(s[i-1]) || !alnum(s[j]) {
				return "", false
			}
			i = j - 1
		case strings.IndexByte("\\`*~[]<>&@", c) >= 0:
			return "", false
		case c == ':' && strings.HasPrefix(s[i+1:], "//"):
			return "", false
		case (c == 'w' || c == 'W') && i+3 <= len(s) && strings.EqualFold(s[i:i+3], "www"):
			return "", false
		}
	}
	if quotes == 0 {
		return s, true
	}
	return strings.ReplaceAll(s, `"`, "&quot;"), true
}

func alnum(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// plainStart: a paragraph starting with c is not a block of another kind
// (a list, a heading, a quote, a code block, a table, a thematic break).
func plainStart(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '(' || c >= 0x80
}

var _ util.BufWriter = bufWriter{}
