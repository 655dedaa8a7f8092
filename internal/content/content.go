package content

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/parallel"
	"github.com/rocekb/rocekb/internal/visible"
)

// Page is one FAQ page: content/faq/<slug>.md (or <slug>.<lang>.md).
type Page struct {
	Meta Front
	Slug string // file name without .md, e.g. roce-modes or roce-modes.zh
	File string // path used in problems
	Body string // markdown after the front matter
	// Sum is the digest of the file's bytes: the work done on the page
	// (its lint, HTML and digests) is reused by it (page.Key).
	Sum [sha256.Size]byte
	// BodyLine is the 1-based line of the first body line in File, so
	// problems in the body can be positioned.
	BodyLine int
	// bodyAt is where Body starts in the file's bytes, which hold it as
	// it is (no CRLF line ends); 0: they do not.
	bodyAt int
	loc    *diag.Locator
	// reread reads the page's file again into a buffer (Source after
	// DropBody); nil for a page not read from a folder, or read through a
	// Reuse.
	reread  func(*bytes.Buffer) error
	dropped bool
}

// Front is the TOML front matter of a page.
type Front struct {
	Title          string     `toml:"title"`
	Summary        string     `toml:"summary"`
	Tags           []string   `toml:"tags,omitempty"`
	Adapters       []string   `toml:"adapters,omitempty"` // matrix adapter ids
	Drivers        []string   `toml:"drivers,omitempty"`  // matrix driver ids
	Distros        []string   `toml:"distros,omitempty"`  // matrix distro ids
	Stacks         []string   `toml:"stacks,omitempty"`   // matrix stack ids, or id@version for one release
	Sources        []string   `toml:"sources"`            // matrix source ids
	LastVerified   *time.Time `toml:"last_verified"`
	Lang           string     `toml:"lang"`                      // en, zh …
	TranslationKey string     `toml:"translation_key,omitempty"` // pages with the same key translate each other
	Weight         int        `toml:"weight,omitempty"`          // lower sorts first in lists
	Checks         []string   `toml:"checks,omitempty"`          // engine check ids the page explains
}

// PosOf returns the position of a front matter key, for lint.
func (p *Page) PosOf(key string) diag.Pos {
	if p.loc == nil {
		return diag.Pos{Line: 1, Col: 1}
	}
	pos := p.loc.Pos(key)
	if pos.Line == 0 {
		return diag.Pos{Line: 1, Col: 1}
	}
	pos.Line++ // the locator counts from the line after the opening +++
	return pos
}

// Tree is one troubleshooting decision tree: content/trees/<id>.toml.
type Tree struct {
	ID      string   `toml:"id"`
	Title   string   `toml:"title"`
	Summary string   `toml:"summary"`
	Lang    string   `toml:"lang,omitempty"`
	Tags    []string `toml:"tags,omitempty"`
	Start   string   `toml:"start"` // id of the first node
	Sources []string `toml:"sources,omitempty"`
	Nodes   []Node   `toml:"node"`

	File string        `toml:"-"`
	loc  *diag.Locator `toml:"-"`
}

// Node is a question (with branches) or a leaf (with a fix).
type Node struct {
	ID       string   `toml:"id"`
	Question string   `toml:"question,omitempty"` // questions only
	How      string   `toml:"how,omitempty"`      // the exact command to run
	LookFor  string   `toml:"look_for,omitempty"` // what in its output answers the question
	Check    string   `toml:"check,omitempty"`    // engine check id that answers it from a host record
	YesWhen  string   `toml:"yes_when,omitempty"` // with check: "ok" (default) answers yes when the check passes, "finding" when it finds the problem
	Yes      string   `toml:"yes,omitempty"`      // next node when the answer is yes
	No       string   `toml:"no,omitempty"`       // next node when the answer is no
	Cause    string   `toml:"cause,omitempty"`    // leaves: the likely cause
	Fix      string   `toml:"fix,omitempty"`      // leaves: what to do
	Links    []string `toml:"links,omitempty"`    // faq/<slug>, tree/<id>, adapter/<id>, glossary/<term> or URLs
	Sources  []string `toml:"sources,omitempty"`
}

// Leaf reports whether the node ends the walk.
func (n *Node) Leaf() bool { return n.Yes == "" && n.No == "" }

// PosOf returns where node i's key was written.
func (t *Tree) PosOf(i int, key string) diag.Pos {
	if t.loc == nil {
		return diag.Pos{}
	}
	p := "node"
	if i >= 0 {
		p = "node." + strconv.Itoa(i)
		if key != "" {
			p += "." + key
		}
	} else if key != "" {
		p = key
	}
	return t.loc.Pos(p)
}

// Node returns the node with the given id, or nil.
func (t *Tree) Node(id string) *Node {
	for i := range t.Nodes {
		if t.Nodes[i].ID == id {
			return &t.Nodes[i]
		}
	}
	return nil
}

// Term is one glossary entry: content/glossary.toml [[term]].
type Term struct {
	ID         string   `toml:"id"`
	Term       string   `toml:"term"`
	Definition string   `toml:"definition"`
	Aliases    []string `toml:"aliases,omitempty"`
	See        []string `toml:"see,omitempty"` // links, as in Node.Links
	Sources    []string `toml:"sources,omitempty"`
}

// Content is everything under content/.
type Content struct {
	Pages     []*Page
	Trees     []*Tree
	Glossary  []Term
	glossLoc  *diag.Locator
	glossFile string
	bySlug    map[string]*Page // Load's index of Pages, the first of a slug
	tagsOnce  sync.Once
	tags      map[string]bool // HasTag's slugs
}

// Load reads content/ from fsys: faq/*.md, trees/*.toml and glossary.toml.
// name prefixes file names in problems. Missing folders are empty content.
func Load(fsys fs.FS, name string) (*Content, diag.List) { return load(fsys, name, nil, true) }

// LoadLate is Load for a build that renders each FAQ body when its page
// is written (site.Input.LateBodies): no page holds its markdown, which
// Source reads from its file again, where each file's body was copied out
// to be let go of before it was read (33 MB of the 10k corpus's 36).
func LoadLate(fsys fs.FS, name string) (*Content, diag.List) { return load(fsys, name, nil, false) }

// load reads content/; keep is whether a page read from a folder holds
// its markdown (Page.Body).
func load(fsys fs.FS, name string, r page.Reuse, keep bool) (*Content, diag.List) {
	c := &Content{}
	var probs diag.List
	mds, _ := fs.Glob(fsys, "faq/*.md")
	sort.Strings(mds)
	// Pages are read and parsed on every CPU, then kept in file order.
	read := make([]loaded, len(mds))
	errs := make([]error, len(mds))
	parallel.Each(len(mds), func(i int) {
		read[i], errs[i] = readPage(fsys, mds[i], path.Join(name, mds[i]), r, keep)
	})
	for i, f := range mds {
		display := path.Join(name, f)
		if errs[i] != nil {
			probs.Add(display, diag.Pos{}, "read: %v", errs[i])
			continue
		}
		e := read[i]
		probs = append(probs, e.probs...)
		if e.page != nil {
			c.Pages = append(c.Pages, e.page)
		}
	}
	c.bySlug = make(map[string]*Page, len(c.Pages))
	for _, p := range c.Pages {
		if _, ok := c.bySlug[p.Slug]; !ok {
			c.bySlug[p.Slug] = p
		}
	}
	trees, _ := fs.Glob(fsys, "trees/*.toml")
	sort.Strings(trees)
	for _, f := range trees {
		display := path.Join(name, f)
		src, err := fs.ReadFile(fsys, f)
		if err != nil {
			probs.Add(display, diag.Pos{}, "read: %v", err)
			continue
		}
		t := &Tree{File: display}
		loc, ps := diag.DecodeTOML(display, src, t)
		probs = append(probs, ps...)
		if ps.Errors() > 0 {
			continue
		}
		t.loc = loc
		c.Trees = append(c.Trees, t)
	}
	if src, err := fs.ReadFile(fsys, "glossary.toml"); err == nil {
		display := path.Join(name, "glossary.toml")
		var g struct {
			Terms []Term `toml:"term"`
		}
		loc, ps := diag.DecodeTOML(display, src, &g)
		probs = append(probs, ps...)
		c.Glossary, c.glossLoc, c.glossFile = g.Terms, loc, display
	}
	probs.Sort()
	return c, probs
}

// ParsePage splits +++ front matter from the markdown body and decodes it
// strictly. The page keeps no part of src: a file's bytes can be read
// into a lent buffer.
func ParsePage(file string, src []byte) (*Page, diag.List) { return parsePage(file, src, true) }

// parsePage is ParsePage; a page made without its body (keep false) has
// it read again by Source, as DropBody leaves it.
func parsePage(file string, src []byte, keep bool) (*Page, diag.List) {
	var probs diag.List
	sum := sha256.Sum256(src)
	size := len(src)
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	// Pages are published as UTF-8: a byte that is not would reach
	// readers as it is. Hidden characters (controls, bidi overrides,
	// zero-width) make the text read differently from what it says.
	if pos, what, ok := badText(src); !ok {
		probs.Add(file, pos, "%s", what)
		return nil, probs
	} else if what != "" {
		probs.Warn(file, pos, "%s", what)
	}
	text := lfOnly(src)
	front, body, problem := split(text)
	if problem != "" {
		probs.Add(file, diag.Pos{Line: 1, Col: 1}, "%s", problem)
		return nil, probs
	}
	p := &Page{File: file, Sum: sum, dropped: !keep}
	if keep {
		p.Body = string(body)
	}
	p.BodyLine = bytes.Count(text[:len(text)-len(body)], []byte("\n")) + 1
	if len(text) == len(src) { // no CRLF: the body is the file's last bytes
		p.bodyAt = size - len(body)
	}
	base := path.Base(file)
	p.Slug = strings.TrimSuffix(base, ".md")
	// A copy: the positions of its keys are found in it later (PosOf).
	loc, ps := diag.DecodeTOML(file, bytes.Clone(front), &p.Meta)
	// Front matter starts on line 2 of the file.
	for i := range ps {
		if ps[i].Line > 0 {
			ps[i].Line++
		}
	}
	probs = append(probs, ps...)
	if ps.Errors() > 0 {
		return nil, probs
	}
	p.loc = loc
	return p, probs
}

// lfOnly is src with its CRLF line ends made LF: src itself when it has
// none, a copy otherwise.
func lfOnly(src []byte) []byte {
	if bytes.Contains(src, []byte("\r\n")) {
		return bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	}
	return src
}

// split cuts a page's text (LF line ends) into its front matter and its
// markdown body, or says why it cannot.
func split(text []byte) (front, body []byte, problem string) {
	if !bytes.HasPrefix(text, []byte("+++\n")) {
		return nil, nil, "page must start with TOML front matter between +++ lines"
	}
	rest := text[len("+++\n"):]
	end := bytes.Index(rest, []byte("\n+++"))
	if end < 0 {
		return nil, nil, "front matter is not closed by a +++ line"
	}
	return rest[:end+1], bytes.TrimPrefix(rest[end+len("\n+++"):], []byte("\n")), ""
}

// Source is the page's markdown body, read into buf (emptied first),
// which the caller lends and may take back once done with the bytes:
// Body, or, once DropBody let go of it, the body of the page's file read
// again (the file's own bytes, where they hold it as it is). A file whose
// bytes are no longer those the page was parsed from is an error: the
// page's front matter and lint were of the other bytes.
func (p *Page) Source(buf *bytes.Buffer) ([]byte, error) {
	buf.Reset()
	if !p.dropped {
		buf.WriteString(p.Body)
		return buf.Bytes(), nil
	}
	if err := p.reread(buf); err != nil {
		return nil, err
	}
	src := buf.Bytes()
	if sha256.Sum256(src) != p.Sum {
		return nil, fmt.Errorf("the file changed while the site was built; build again")
	}
	if p.bodyAt > 0 {
		return src[p.bodyAt:], nil
	}
	// CRLF line ends: the body is a copy of the file's, which buf holds.
	_, body, _ := split(lfOnly(bytes.TrimPrefix(src, []byte("\ufeff"))))
	buf.Reset()
	buf.Write(body)
	return buf.Bytes(), nil
}

// DropBody lets go of the page's markdown when its file can be read again
// (Source reads it then), for a build that has linted the page and will
// render it later: at 8,000 pages the markdown is 41 MB of a build's heap
// while the verdict grid is judged.
func (p *Page) DropBody() {
	if p.reread != nil {
		p.Body, p.dropped = "", true
	}
}

// DropSource lets go of the page's markdown and the positions of its
// front matter (and with them the file's text, which Body is a part of),
// for a build that has linted and rendered it and that no update follows.
func (p *Page) DropSource() { p.Body, p.loc = "", nil }

// Page returns the page with the given slug, or nil.
func (c *Content) Page(slug string) *Page {
	if c.bySlug != nil {
		return c.bySlug[slug]
	}
	for _, p := range c.Pages {
		if p.Slug == slug {
			return p
		}
	}
	return nil
}

// Tree returns the tree with the given id, or nil.
func (c *Content) Tree(id string) *Tree {
	for _, t := range c.Trees {
		if t.ID == id {
			return t
		}
	}
	return nil
}

// Has reports whether a site of c has the page r names (with its anchor,
// where the page has named ones), and decided is whether c can tell: it
// can for the pages every site has (page.Spec.Always), FAQ pages, trees
// and their nodes, tags and the glossary's terms, not for the pages of
// the matrix or of host records. The content lint and the site's link
// resolver both ask it first.
func (c *Content) Has(r page.Ref) (has, decided bool) {
	if page.SpecOf(r.Kind).Always() {
		return r.Anchor == "", true
	}
	switch r.Kind {
	case page.FAQ:
		return c.Page(r.ID) != nil, true
	case page.Tag:
		return r.Anchor == "" && c.HasTag(r.ID), true
	case page.Tree:
		t := c.Tree(r.ID)
		return t != nil && (r.Anchor == "" || t.Node(r.Anchor) != nil), true
	case page.Glossary:
		for _, t := range c.Glossary {
			if r.Anchor == "" || t.ID == r.Anchor {
				return true, true
			}
		}
		return false, true
	}
	return false, false
}

// GlossaryPos returns where glossary term i's key was written.
func (c *Content) GlossaryPos(i int, key string) (string, diag.Pos) {
	if c.glossLoc == nil {
		return c.glossFile, diag.Pos{}
	}
	p := "term." + strconv.Itoa(i)
	if key != "" {
		p += "." + key
	}
	return c.glossFile, c.glossLoc.Pos(p)
}

// badText finds the first byte of src that is not UTF-8 (ok false), or the
// first hidden character (a warning: what is set, ok true), with its
// line and column.
func badText(src []byte) (pos diag.Pos, what string, ok bool) {
	line, col := 1, 1
	for i := 0; i < len(src); {
		// A run of printable ASCII, most of a page, has nothing to
		// report: it is stepped over in a loop of its own.
		if j := i; src[j]-0x20 < 0x7f-0x20 {
			for j++; j < len(src) && src[j]-0x20 < 0x7f-0x20; j++ {
			}
			col += j - i
			i = j
			continue
		}
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
