package content

import (
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/rocekb/rocekb/internal/bufpool"
	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/markup"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/parallel"
)

// DefaultLang is the language every translation must lead back to.
const DefaultLang = "en"

// Refs are the matrix ids content may point at. A nil map skips the checks
// for that kind (lint without a loadable matrix still checks the rest).
type Refs struct {
	Adapters map[string]bool // matrix [[adapter]] ids
	Drivers  map[string]bool // matrix [[driver]] ids
	Distros  map[string]bool // matrix [[distro]] ids
	Stacks   map[string]bool // matrix [[stack]] ids
	Vendors  map[string]bool // matrix [[vendor]] ids
	Sources  map[string]bool // matrix [[source]] ids
}

// page says whether the matrix has the page of kind k and id, for a kind
// whose pages are its entries; decided is false for other kinds. A nil
// Refs or map takes the id on trust.
func (r *Refs) page(k page.Kind, id string) (has, decided bool) {
	var rs Refs
	if r != nil {
		rs = *r
	}
	var known map[string]bool
	switch k {
	case page.Adapter:
		known = rs.Adapters
	case page.Driver:
		known = rs.Drivers
	case page.Distro:
		known = rs.Distros
	case page.Stack:
		known = rs.Stacks
	case page.Vendor:
		known = rs.Vendors
	default:
		return false, false
	}
	return known == nil || known[id], true
}

// LintOptions tune Lint.
type LintOptions struct {
	// Refs resolves matrix ids; nil skips every matrix reference check.
	Refs *Refs
	// Now and StaleAfter warn about pages verified long ago; a zero
	// StaleAfter disables the warning.
	Now        time.Time
	StaleAfter time.Duration
	// Checks are the engine's check ids (checkid.IDs) that trees and
	// pages may name; nil falls back to KnownChecks. kb passes them in so
	// content need not import the engine, which imports content.
	Checks []string
	// Reuse, when set, keeps the problems of each page body, reused for
	// a file whose bytes are unchanged and whose links resolve against
	// the same pages, trees, glossary and matrix ids.
	Reuse page.Reuse
	// SkipBodies leaves out the links and citations of page bodies
	// (LintBodies checks them): a build's rendering of each body reports
	// the same problems, and checking them here too was a second goldmark
	// parse of every page.
	SkipBodies bool
}

// knownCheck reports whether id is an engine check id.
func (l *linter) knownCheck(id string) bool {
	if l.opts.Checks == nil {
		return knownCheck(id)
	}
	for _, c := range l.opts.Checks {
		if c == id {
			return true
		}
	}
	return false
}

var (
	langRe   = regexp.MustCompile(`^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)
	anchorRe = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)
)

type linter struct {
	c       *Content
	opts    LintOptions
	probs   diag.List
	links   string              // linksKey, with Reuse
	checked map[*Page]diag.List // bodies checked ahead, in parallel
}

// Lint checks loaded content for what strict decoding cannot see: required
// front matter, matrix references (adapters, drivers, sources), cross-links
// (faq/, tree/, adapter/, glossary/ and relative links in page bodies),
// inline citations, translations, and the shape of every troubleshooting
// tree (start, unique ids, dangling or missing branches, unreachable nodes,
// cycles, leaves without a fix, unknown check ids). It returns every
// problem, sorted.
func Lint(c *Content, opts LintOptions) diag.List {
	l := &linter{c: c, opts: opts}
	if opts.Reuse != nil {
		l.links = l.linksKey()
	}
	if !opts.SkipBodies {
		l.checkBodies()
	}
	l.pages()
	l.translations()
	l.trees()
	l.glossary()
	l.probs.Sort()
	return l.probs
}

// ---- shared references ----

func (l *linter) sources(file string, pos diag.Pos, ids []string, required bool, what string) {
	if len(ids) == 0 && required {
		l.probs.Add(file, pos, "%s has no sources", what)
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			l.probs.Add(file, pos, "source %q is listed twice", id)
		}
		seen[id] = true
		if r := l.opts.Refs; r != nil && r.Sources != nil && !r.Sources[id] {
			l.probs.Add(file, pos, "unknown source %q (not in matrix sources)", id)
		}
	}
}

func (l *linter) matrixIDs(file string, pos diag.Pos, ids []string, kind string, known map[string]bool) {
	if l.opts.Refs == nil || known == nil {
		return
	}
	for _, id := range ids {
		if !known[id] {
			l.probs.Add(file, pos, "unknown %s %q (not in the matrix)", kind, id)
		}
	}
}

// link checks one content link: a page reference as page.Parse reads it
// (faq/<slug>, tree/<id>, glossary/<id>, a matrix page such as
// distro/<id>, a single page such as sources) or an http(s) URL.
func (l *linter) link(file string, pos diag.Pos, target string) {
	if strings.Contains(target, "://") {
		if !strings.HasPrefix(target, "https://") && !strings.HasPrefix(target, "http://") {
			l.probs.Add(file, pos, "link %q: only http and https URLs are allowed", target)
		}
		return
	}
	ref, err := page.Parse(target)
	if err != nil { // the wanted forms say more than the parser's reason
		l.probs.Add(file, pos, "link %q: want faq/<slug>, tree/<id>, glossary/<id>, adapter/<id> (or distro, driver, stack, vendor), a page such as sources, or a URL", target)
		return
	}
	if !l.Has(ref) {
		l.probs.Add(file, pos, "broken link %q: %s", target, ref.Missing())
	}
}

// Has reports whether the site will have the page r names, so markup can
// check kb: links with the same rules as TOML links: as Content.Has says,
// and for the matrix's kinds (adapter, driver, distro, stack, vendor) from
// its ids, taken on trust without a matrix; other kinds are missing.
func (l *linter) Has(r page.Ref) bool {
	if has, ok := l.c.Has(r); ok {
		return has
	}
	has, _ := l.opts.Refs.page(r.Kind, r.ID)
	return has
}

// ---- FAQ pages ----

func (l *linter) pages() {
	for _, p := range l.c.Pages {
		l.page(p)
	}
}

func (l *linter) page(p *Page) {
	f, m := p.File, p.Meta
	req := func(key string, empty bool) {
		if empty {
			l.probs.Add(f, p.PosOf(key), "front matter: %s is required", key)
		}
	}
	req("title", strings.TrimSpace(m.Title) == "")
	req("summary", strings.TrimSpace(m.Summary) == "")
	req("lang", m.Lang == "")
	req("last_verified", m.LastVerified == nil)
	if m.Lang != "" && !langRe.MatchString(m.Lang) {
		l.probs.Add(f, p.PosOf("lang"), "front matter: lang %q is not a language code like en or zh", m.Lang)
	}
	// A file named <slug>.<lang>.md must say that language.
	if i := strings.LastIndexByte(p.Slug, '.'); i >= 0 {
		if suffix := p.Slug[i+1:]; m.Lang != "" && suffix != m.Lang {
			l.probs.Add(f, p.PosOf("lang"), "file name says %q but lang = %q", suffix, m.Lang)
		}
	}
	if m.LastVerified != nil && l.opts.StaleAfter > 0 && l.opts.Now.Sub(*m.LastVerified) > l.opts.StaleAfter {
		l.probs.Warn(f, p.PosOf("last_verified"), "last verified %s, more than %d days ago", m.LastVerified.Format("2006-01-02"), int(l.opts.StaleAfter.Hours()/24))
	}
	l.sources(f, p.PosOf("sources"), m.Sources, true, "page")
	if r := l.opts.Refs; r != nil {
		l.matrixIDs(f, p.PosOf("adapters"), m.Adapters, "adapter", r.Adapters)
		l.matrixIDs(f, p.PosOf("drivers"), m.Drivers, "driver", r.Drivers)
		l.matrixIDs(f, p.PosOf("distros"), m.Distros, "distro", r.Distros)
		stacks := make([]string, len(m.Stacks))
		for i, s := range m.Stacks {
			stacks[i], _, _ = strings.Cut(s, "@") // a release: its stack must exist
		}
		l.matrixIDs(f, p.PosOf("stacks"), stacks, "stack", r.Stacks)
	}
	for _, c := range m.Checks {
		if !l.knownCheck(c) {
			l.probs.Add(f, p.PosOf("checks"), "unknown check %q", c)
		}
	}
	l.body(p)
}

// checkBodies checks, on every CPU, the bodies whose problems Reuse
// does not keep: most of a lint's work.
func (l *linter) checkBodies() {
	ps := l.c.Pages
	out := make([]diag.List, len(ps))
	parallel.Each(len(ps), func(i int) {
		probs, ok := l.reused(ps[i])
		if !ok {
			probs = l.check(ps[i])
			if l.opts.Reuse != nil {
				l.opts.Reuse.Store(l.linksReuseKey(ps[i]), probs)
			}
		}
		out[i] = probs
	})
	l.checked = make(map[*Page]diag.List, len(ps))
	for i, p := range ps {
		l.checked[p] = out[i]
	}
}

// check checks the links and citations in the markdown with the same
// goldmark pass that renders it; a page that holds no markdown
// (LoadLate) has it read again.
func (l *linter) check(p *Page) diag.List {
	body := p.Body
	if p.dropped {
		buf := bufpool.Get()
		defer bufpool.Put(buf)
		src, err := p.Source(buf)
		if err != nil {
			var probs diag.List
			probs.Add(p.File, diag.Pos{}, "%v", err)
			return probs
		}
		body = string(src)
	}
	return markup.Check(body, markup.Doc{
		File: p.File, Line: p.BodyLine, Page: page.Path(page.FAQ, p.Slug), Sources: p.Meta.Sources, Pages: l,
	})
}

// LintBodies is the part of Lint that SkipBodies leaves out: the problems
// of the links and citations in every page body, sorted.
func LintBodies(c *Content, opts LintOptions) diag.List {
	opts.SkipBodies = false
	l := &linter{c: c, opts: opts}
	if opts.Reuse != nil {
		l.links = l.linksKey()
	}
	l.checkBodies()
	for _, p := range c.Pages {
		l.body(p)
	}
	l.probs.Sort()
	return l.probs
}

// body adds the problems of a page body's links and citations.
func (l *linter) body(p *Page) {
	if l.opts.SkipBodies {
		return
	}
	probs, ok := l.checked[p]
	if !ok {
		probs = l.check(p)
	}
	l.probs = append(l.probs, probs...)
}

// reused returns the problems of p's body kept by Reuse, if any.
func (l *linter) reused(p *Page) (diag.List, bool) {
	if l.opts.Reuse == nil {
		return nil, false
	}
	v, ok := l.opts.Reuse.Load(l.linksReuseKey(p))
	if !ok {
		return nil, false
	}
	return v.(diag.List), true
}

func (l *linter) linksReuseKey(p *Page) page.Key {
	return page.Key{Kind: kindLinks, Name: p.File, Sum: page.Sum(string(p.Sum[:]), l.links)}
}

// translations: pages sharing a translation_key must differ in language,
// and a page in another language than DefaultLang must name a key that a
// page in another language also carries.
func (l *linter) translations() {
	byKey := map[string][]*Page{}
	for _, p := range l.c.Pages {
		if k := p.Meta.TranslationKey; k != "" {
			byKey[k] = append(byKey[k], p)
		}
	}
	for _, p := range l.c.Pages {
		m := p.Meta
		if m.TranslationKey == "" {
			if m.Lang != "" && m.Lang != DefaultLang {
				l.probs.Add(p.File, p.PosOf("lang"), "a %s page needs a translation_key naming the page it translates", m.Lang)
			}
			continue
		}
		others := 0
		for _, o := range byKey[m.TranslationKey] {
			if o == p {
				continue
			}
			if o.Meta.Lang == m.Lang {
				l.probs.Add(p.File, p.PosOf("translation_key"), "translation_key %q: %s is also lang %q", m.TranslationKey, o.File, m.Lang)
				continue
			}
			others++
		}
		if others == 0 && m.Lang != "" && m.Lang != DefaultLang {
			l.probs.Add(p.File, p.PosOf("translation_key"), "translation_key %q points nowhere: no page in another language has it", m.TranslationKey)
		}
	}
}

// ---- troubleshooting trees ----

func (l *linter) trees() {
	seen := map[string]string{}
	for _, t := range l.c.Trees {
		top := func(key string) diag.Pos {
			if p := t.PosOf(-1, key); p.Line > 0 {
				return p
			}
			return diag.Pos{Line: 1, Col: 1}
		}
		if t.ID == "" {
			l.probs.Add(t.File, top("id"), "tree: id is required")
		} else {
			if prev, dup := seen[t.ID]; dup {
				l.probs.Add(t.File, top("id"), "tree id %q is also used by %s", t.ID, prev)
			}
			seen[t.ID] = t.File
			if base := strings.TrimSuffix(path.Base(t.File), ".toml"); base != t.ID {
				l.probs.Add(t.File, top("id"), "tree id %q does not match its file name %q", t.ID, base)
			}
		}
		if strings.TrimSpace(t.Title) == "" {
			l.probs.Add(t.File, top("title"), "tree: title is required")
		}
		if strings.TrimSpace(t.Summary) == "" {
			l.probs.Add(t.File, top("summary"), "tree: summary is required")
		}
		if t.Lang != "" && !langRe.MatchString(t.Lang) {
			l.probs.Add(t.File, top("lang"), "tree: lang %q is not a language code like en or zh", t.Lang)
		}
		l.sources(t.File, top("sources"), t.Sources, true, "tree")
		l.tree(t, top)
	}
}

func (l *linter) tree(t *Tree, top func(string) diag.Pos) {
	f := t.File
	index := map[string]int{}
	for i, n := range t.Nodes {
		at := func(key string) diag.Pos { return t.PosOf(i, key) }
		switch {
		case n.ID == "":
			l.probs.Add(f, at("id"), "node has no id")
		case !anchorRe.MatchString(n.ID):
			l.probs.Add(f, at("id"), "node id %q: use lower-case letters, digits, '.', '_' and '-'", n.ID)
		}
		if _, dup := index[n.ID]; dup && n.ID != "" {
			l.probs.Add(f, at("id"), "duplicate node id %q", n.ID)
		} else {
			index[n.ID] = i
		}
	}
	if t.Start == "" {
		l.probs.Add(f, top("start"), "tree: start is required")
	} else if _, ok := index[t.Start]; !ok {
		l.probs.Add(f, top("start"), "start %q is not a node of this tree", t.Start)
	}
	for i := range t.Nodes {
		n := &t.Nodes[i]
		at := func(key string) diag.Pos { return t.PosOf(i, key) }
		for _, b := range []struct{ key, target string }{{"yes", n.Yes}, {"no", n.No}} {
			if b.target == "" {
				continue
			}
			if _, ok := index[b.target]; !ok {
				l.probs.Add(f, at(b.key), "%s leads to %q, which is not a node of this tree", b.key, b.target)
			} else if b.target == n.ID {
				l.probs.Add(f, at(b.key), "%s leads back to node %q itself", b.key, n.ID)
			}
		}
		if n.Leaf() {
			if n.Question != "" || n.Check != "" {
				l.probs.Add(f, at("question"), "node %q asks a question but has no yes or no branch", n.ID)
			}
			if strings.TrimSpace(n.Fix) == "" {
				l.probs.Add(f, at("fix"), "leaf %q has no fix", n.ID)
			}
			if strings.TrimSpace(n.Cause) == "" {
				l.probs.Add(f, at("cause"), "leaf %q has no cause", n.ID)
			}
			if len(n.Links) == 0 {
				l.probs.Warn(f, at("links"), "leaf %q has no links", n.ID)
			}
		} else {
			if n.Yes == "" || n.No == "" {
				missing := "yes"
				if n.Yes != "" {
					missing = "no"
				}
				l.probs.Add(f, at(missing), "question %q is missing its %s branch", n.ID, missing)
			}
			if strings.TrimSpace(n.Question) == "" {
				l.probs.Add(f, at("question"), "node %q has branches but no question", n.ID)
			}
			if strings.TrimSpace(n.How) == "" {
				l.probs.Add(f, at("how"), "question %q has no how (the exact command to run)", n.ID)
			}
			if strings.TrimSpace(n.LookFor) == "" {
				l.probs.Warn(f, at("look_for"), "question %q has no look_for", n.ID)
			}
			if n.Fix != "" || n.Cause != "" {
				l.probs.Add(f, at("fix"), "question %q has a cause or fix; only leaves do", n.ID)
			}
		}
		if n.Check != "" && !l.knownCheck(n.Check) {
			l.probs.Add(f, at("check"), "unknown check %q", n.Check)
		}
		switch n.YesWhen {
		case "", "ok", "finding":
			if n.YesWhen != "" && n.Check == "" {
				l.probs.Add(f, at("yes_when"), "yes_when without a check")
			}
		default:
			l.probs.Add(f, at("yes_when"), "yes_when %q: want ok or finding", n.YesWhen)
		}
		for _, ln := range n.Links {
			l.link(f, at("links"), ln)
		}
		l.sources(f, at("sources"), n.Sources, false, "node")
	}
	l.reach(t, index)
}

// reach reports nodes the walk from start can never visit, and cycles.
func (l *linter) reach(t *Tree, index map[string]int) {
	start, ok := index[t.Start]
	if !ok {
		return
	}
	const (
		unseen = iota
		active
		done
	)
	state := make([]int, len(t.Nodes))
	var visit func(i int)
	visit = func(i int) {
		state[i] = active
		n := &t.Nodes[i]
		for _, b := range []struct{ key, target string }{{"yes", n.Yes}, {"no", n.No}} {
			j, ok := index[b.target]
			if !ok || b.target == n.ID {
				continue
			}
			switch state[j] {
			case unseen:
				visit(j)
			case active:
				l.probs.Add(t.File, t.PosOf(i, b.key), "%s of %q loops back to %q: a tree walk must end", b.key, n.ID, b.target)
			}
		}
		state[i] = done
	}
	visit(start)
	for i, n := range t.Nodes {
		if state[i] == unseen && n.ID != "" && index[n.ID] == i {
			l.probs.Add(t.File, t.PosOf(i, "id"), "node %q cannot be reached from start %q", n.ID, t.Start)
		}
	}
}

// ---- glossary ----

func (l *linter) glossary() {
	seen := map[string]bool{}
	for i, term := range l.c.Glossary {
		file, _ := l.c.GlossaryPos(i, "")
		at := func(key string) diag.Pos {
			_, p := l.c.GlossaryPos(i, key)
			return p
		}
		switch {
		case term.ID == "":
			l.probs.Add(file, at("id"), "glossary term has no id")
		case !anchorRe.MatchString(term.ID):
			l.probs.Add(file, at("id"), "glossary id %q: use lower-case letters, digits, '.', '_' and '-'", term.ID)
		case seen[term.ID]:
			l.probs.Add(file, at("id"), "duplicate glossary id %q", term.ID)
		}
		seen[term.ID] = true
		if strings.TrimSpace(term.Term) == "" {
			l.probs.Add(file, at("term"), "glossary %q: term is required", term.ID)
		}
		if strings.TrimSpace(term.Definition) == "" {
			l.probs.Add(file, at("definition"), "glossary %q: definition is required", term.ID)
		}
		for _, s := range term.See {
			l.link(file, at("see"), s)
		}
		l.sources(file, at("sources"), term.Sources, true, "glossary term "+strconvQuote(term.ID))
	}
}

func strconvQuote(s string) string { return `"` + s + `"` }

// Checks returns every check id the content names, sorted, so the engine
// can be tested against it.
func (c *Content) Checks() []string {
	seen := map[string]bool{}
	for _, p := range c.Pages {
		for _, id := range p.Meta.Checks {
			seen[id] = true
		}
	}
	for _, t := range c.Trees {
		for _, n := range t.Nodes {
			if n.Check != "" {
				seen[n.Check] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for id := range seen {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}
