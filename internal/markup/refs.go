package markup

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/page"
)

// Scheme prefixes a link to another page of the site:
// [text](kb:tree/no-rdma-traffic), [text](kb:glossary/gid),
// [text](kb:faq/roce-v1-vs-v2#modes). What follows is a page reference as
// page.Parse reads it.
const Scheme = "kb:"

// state is one conversion's input and problems, kept in the parser.Context.
type state struct {
	doc   Doc
	src   []byte
	probs diag.List
}

var stateKey = parser.NewContextKey()

func stateOf(pc parser.Context) *state {
	if st, ok := pc.Get(stateKey).(*state); ok {
		return st
	}
	return &state{}
}

// pos turns a byte offset of the text into a position in the file.
func (st *state) pos(off int) diag.Pos {
	if off < 0 || off > len(st.src) {
		return diag.Pos{Line: max(st.doc.Line, 1)}
	}
	before := st.src[:off]
	line := bytes.Count(before, []byte("\n"))
	col := off - (bytes.LastIndexByte(before, '\n') + 1)
	return diag.Pos{Line: max(st.doc.Line, 1) + line, Col: col + 1}
}

// refs is the goldmark extension: the citation parser and renderer, and
// the link resolver.
type refs struct{}

func (refs) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		// Before the link parser (200), which would otherwise take the '['.
		parser.WithInlineParsers(util.Prioritized(citationParser{}, 199)),
		parser.WithASTTransformers(util.Prioritized(linkResolver{}, 100)),
	)
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(citationRenderer{}, 100)))
}

// ---- citations ----

// KindCitation is the AST node kind of a citation.
var KindCitation = ast.NewNodeKind("Citation")

// Citation is an inline [source-id] that links to #src-<id> on its page.
type Citation struct {
	ast.BaseInline
	ID string
}

// Kind implements ast.Node.
func (*Citation) Kind() ast.NodeKind { return KindCitation }

// Dump implements ast.Node.
func (c *Citation) Dump(src []byte, level int) {
	ast.DumpHelper(c, src, level, map[string]string{"ID": c.ID}, nil)
}

// citation is the id of the citation that starts line, and the length
// of its markup, or "" for none: an id in brackets, of lower-case letters,
// digits, '.', '_' and '-', starting with a letter or a digit and holding
// a letter, so [1] and [0] stay text. It is tried at every '[' of a text:
// a regular expression's matcher cleared state the length of the rest of
// the line each time (a tenth of parsing a 10k build's FAQ bodies).
func citation(line []byte) (id string, n int) {
	letter := false
	for i := 1; i < len(line); i++ {
		switch c := line[i]; {
		case c >= 'a' && c <= 'z':
			letter = true
		case c >= '0' && c <= '9':
		case (c == '.' || c == '_' || c == '-') && i > 1:
		case c == ']' && i > 1 && letter:
			return string(line[1:i]), i + 1
		default:
			return "", 0
		}
	}
	return "", 0
}

type citationParser struct{}

func (citationParser) Trigger() []byte { return []byte{'['} }

func (citationParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	id, n := citation(line)
	if n == 0 {
		return nil
	}
	// [id](dest), [id][ref] and a defined [id] reference link are links,
	// not citations. "[id]:" is one too: a definition ([id]: dest) is
	// taken from its paragraph before inline parsing, so what reaches here
	// is a citation that a colon follows ("… on a timer\n[src]: …").
	if n < len(line) && (line[n] == '(' || line[n] == '[') {
		return nil
	}
	// A reference's label is looked up case-folded with its spaces made
	// one (util.ToLinkReference), which leaves an id as it is.
	if _, ok := pc.Reference(id); ok {
		return nil
	}
	st := stateOf(pc)
	if !contains(st.doc.Sources, id) {
		st.probs.Add(st.doc.File, st.pos(seg.Start), "citation [%s] is not in the page's sources", id)
	}
	block.Advance(n)
	c := &Citation{ID: id}
	c.SetPos(seg.Start)
	return c
}

type citationRenderer struct{}

func (citationRenderer) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(KindCitation, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			// An id holds nothing HTML escapes (citation).
			id := n.(*Citation).ID
			w.WriteString(`<a href="#src-`)
			w.WriteString(id)
			w.WriteString(`">[`)
			w.WriteString(id)
			w.WriteString(`]</a>`)
		}
		return ast.WalkSkipChildren, nil
	})
}

// ---- links ----

// linkResolver rewrites kb: links to relative site paths and reports
// broken ones; a relative link that is not kb: is reported too, since its
// target cannot be checked and moves when the page does.
type linkResolver struct{}

var schemeRe = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

func (linkResolver) Transform(doc *ast.Document, r text.Reader, pc parser.Context) {
	if !mayLink(r.Source(), pc) {
		return
	}
	st := stateOf(pc)
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest *[]byte
		switch l := n.(type) {
		case *ast.Link:
			dest = &l.Destination
		case *ast.Image:
			dest = &l.Destination
		default:
			return ast.WalkContinue, nil
		}
		target := string(*dest)
		at := func() diag.Pos { return st.pos(n.Pos()) }
		switch {
		case strings.HasPrefix(target, Scheme):
			ref, err := page.Parse(strings.TrimPrefix(target, Scheme))
			if err != nil {
				st.probs.Add(st.doc.File, at(), "link %q: %v", target, err)
				return ast.WalkContinue, nil
			}
			if st.doc.Pages != nil && !st.doc.Pages.Has(ref) {
				st.probs.Add(st.doc.File, at(), "broken link %q: %s", target, ref.Missing())
				return ast.WalkContinue, nil
			}
			*dest = []byte(page.RelRef(st.doc.Page, ref))
		case schemeRe.MatchString(target):
			if !strings.HasPrefix(target, "https://") && !strings.HasPrefix(target, "http://") && !strings.HasPrefix(target, "mailto:") {
				st.probs.Add(st.doc.File, at(), "link %q: only http, https and mailto URLs are allowed", target)
			}
		case strings.HasPrefix(target, "#"):
		default:
			st.probs.Add(st.doc.File, at(), "link %q: write links to pages of this site as %s<kind>/<id>, e.g. %stree/no-rdma-traffic", target, Scheme, Scheme)
		}
		return ast.WalkContinue, nil
	})
}

// mayLink reports whether the text src, parsed with pc, may hold a link or
// an image: one written inline has "](" (its text's closing bracket and
// the parenthesis of its destination, which nothing may separate), any
// other names a reference the text defines. A text with neither, most of
// a 10k build's FAQ bodies, is not walked for links.
func mayLink(src []byte, pc parser.Context) bool {
	return bytes.Contains(src, []byte("](")) || len(pc.References()) > 0
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
