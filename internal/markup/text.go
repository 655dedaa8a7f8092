package markup

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"

	"github.com/rocekb/rocekb/internal/bufpool"
)

// Text is what a reader finds in a markdown text, as the page renders
// it: the headings, the body text (a link's text, a code block's lines;
// no citation, emphasis or table rule) and the code spans (error strings,
// commands and module names that a search should find verbatim).
type Text struct {
	Headings []string
	Body     string
	// Code is the code spans of 2 to 80 bytes and one line, in order, each
	// ended by "\n": one string, not one per span (a 10k build's FAQ
	// bodies have about 300,000).
	Code string
}

// TextOf reads markdown with the parser Render uses, so search indexes
// the words the page shows.
func TextOf(src string) Text {
	b := []byte(src)
	root, _ := parse(b, Doc{})
	return textOf(root, b, "")
}

// textOf reads the text of the tree root parsed from b, its Body led by
// lead.
func textOf(root ast.Node, b []byte, lead string) Text {
	var t Text
	body, code := bufpool.Get(), bufpool.Get()
	defer bufpool.Put(body)
	defer bufpool.Put(code)
	body.WriteString(lead)
	from := body.Len()
	var inline func(n ast.Node, w *bytes.Buffer)
	inline = func(n ast.Node, w *bytes.Buffer) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *Citation: // dropped with the space before it
				if n := w.Len(); n > 0 && w.Bytes()[n-1] == ' ' {
					w.Truncate(n - 1)
				}
			case *ast.Text:
				if _, code := n.(*ast.CodeSpan); code {
					w.Write(c.Segment.Value(b)) // a code span's text is as written
				} else {
					w.Write(shown(c.Segment.Value(b)))
				}
				if c.SoftLineBreak() || c.HardLineBreak() {
					w.WriteByte('\n')
				}
			case *ast.String:
				w.Write(c.Value)
			case *ast.CodeSpan:
				// Read in place, where the span's text goes: a buffer
				// of its own per span, and its copies, were most of what
				// reading a FAQ body's text allocated.
				from := w.Len()
				inline(c, w)
				if s := w.Bytes()[from:]; len(s) >= 2 && len(s) <= 80 && bytes.IndexByte(s, '\n') < 0 {
					code.Write(s)
					code.WriteByte('\n')
				}
			case *ast.AutoLink:
				w.Write(c.URL(b))
			case *ast.RawHTML, *ast.Image:
			default:
				inline(c, w)
			}
		}
	}
	var block func(n ast.Node)
	block = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Heading:
				var h bytes.Buffer
				inline(c, &h)
				t.Headings = append(t.Headings, strings.TrimSpace(h.String()))
			case *ast.FencedCodeBlock, *ast.CodeBlock:
				lines := c.Lines()
				for i := 0; i < lines.Len(); i++ {
					seg := lines.At(i)
					body.Write(seg.Value(b))
				}
				body.WriteByte('\n')
			case *ast.HTMLBlock, *ast.ThematicBreak:
			case *east.TableCell:
				inline(c, body)
				body.WriteByte(' ')
			case *east.TableRow, *east.TableHeader:
				block(c)
				body.WriteByte('\n')
			default:
				if c.Type() == ast.TypeBlock && c.HasChildren() && c.FirstChild().Type() == ast.TypeInline {
					inline(c, body)
					body.WriteByte('\n')
					continue
				}
				block(c)
			}
		}
	}
	block(root)
	// The text read is trimmed in place, after the lead.
	all := body.Bytes()
	text := bytes.TrimSpace(all[from:])
	t.Body = string(all[:from+copy(all[from:], text)])
	t.Code = code.String()
	return t
}

// InlineText is the text of src read as inline markdown (TextOf), and
// whether src is one paragraph: a text markdown makes a list, a heading
// or more than one paragraph of is not inline.
func InlineText(src string) (string, bool) {
	b := []byte(src)
	root, _ := parse(b, Doc{})
	if p := root.FirstChild(); p == nil || p.Kind() != ast.KindParagraph || p.NextSibling() != nil {
		return "", false
	}
	return textOf(root, b, "").Body, true
}

// shown is a text segment as the page shows it: backslash escapes and
// character references resolved (\[ is [, &amp; is &), as goldmark's
// HTML writer resolves them.
func shown(v []byte) []byte {
	if bytes.IndexByte(v, '\\') < 0 && bytes.IndexByte(v, '&') < 0 {
		return v
	}
	return util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
}

// EscapeInline makes a matrix field's text the inline markdown it stands
// for: outside code spans, [ and ] are not links and < opens no HTML
// (goldmark would omit "5.10.0-<abi>-amd64"'s tag); a code span is kept
// as written, as markdown shows its backslashes.
func EscapeInline(s string) string {
	if !strings.ContainsAny(s, "[]<") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c == '`' {
			n := 1
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			if end := closingRun(s, i+n, n); end >= 0 {
				b.WriteString(s[i:end])
				i = end
				continue
			}
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		if c == '[' || c == ']' || c == '<' {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// closingRun is the end of the first run of exactly n backticks in s
// from i, or -1.
func closingRun(s string, i, n int) int {
	for i < len(s) {
		if s[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		if j-i == n {
			return j
		}
		i = j
	}
	return -1
}
