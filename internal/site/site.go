package site

import (
	"crypto/sha256"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/rocekb/rocekb/internal/bufpool"
	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/diagnose"
	"github.com/rocekb/rocekb/internal/markup"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/parallel"
	"github.com/rocekb/rocekb/internal/readiness"
	"github.com/rocekb/rocekb/internal/verdict"
)

// Page is one page of the site: a typed value per kind (*Home,
// *AdapterPage, *FAQ, *TreePage, *GlossaryPage, *HostPage, *FleetPage),
// each embedding its Meta. Templates are chosen by kind: <kind>.html.
type Page interface {
	PageMeta() *Meta
}

// Meta is what every page has.
type Meta struct {
	Ref   page.Ref
	Title string
	Lang  string // the page's language, "en" unless content says otherwise
	Site  *Info

	deps page.Deps // what the page read while it was made
}

// PageMeta implements Page.
func (m *Meta) PageMeta() *Meta { return m }

// Deps is what the page read while it was made (numbered by the site's
// Inputs): kbgen serve's update renders it again when one of them changed.
func (m *Meta) Deps() *page.Deps { return &m.deps }

// Path is the page's output path.
func (m *Meta) Path() string { return m.Ref.Path() }

// Info is what every page knows of the site.
type Info struct {
	Title    string
	BaseURL  string
	Glossary bool // the site has glossary.html
	Fleet    bool // the site has host records, so fleet.html
}

// Site is the page model. Pages holds every page that does not depend on
// the host records; host pages are made one at a time with Host, and the
// pages that list hosts (home, fleet) with Summaries once they are done.
type Site struct {
	Info  *Info
	Pages []Page // sorted by path
	// Inputs numbers the named inputs the pages read (Meta.Deps).
	Inputs *page.Inputs

	m     *matrix.Matrix
	c     *content.Content
	home  *Home
	hosts hostState

	verdicts     *verdicts
	sources      sourceRefs     // every page's citations of the matrix's sources
	searchOnly   bool           // Input.SearchOnly: no verdict lists
	adapterPages []*AdapterPage // made by Late, after the host pages
	distroPages  []*DistroPage
	inboxOnce    sync.Once
	inbox        *inboxLinks // the distro pages' inbox links (Site.inboxLinks)

	targets     []readiness.Target // kb.toml's fleet targets
	readyEngine *verdict.Engine    // judges the hosts against them
	diagnoser   *diagnose.Diagnoser
}

// Input is everything but the host records that a site is built from.
type Input struct {
	Config  config.Config
	Matrix  *matrix.Matrix
	Content *content.Content
	Records int // how many host record files the build will read
	// Reuse, when set with MatrixSum, keeps for the next build (kbgen
	// serve's) the verdicts of the matrix MatrixSum names, and each FAQ
	// page's HTML and text, reused for a file whose bytes are unchanged
	// when the matrix and what links name (content.Structure) are too.
	Reuse page.Reuse
	// MatrixSum identifies Matrix (kb.KB.MatrixSum): the digest of its
	// files. Zero reuses nothing.
	MatrixSum [sha256.Size]byte
	// SearchOnly makes the site for its search documents (Docs), as
	// kbgen search does: the lists of verdicts the adapters index and the
	// stack pages show, which no document reads and which judge the whole
	// grid, are left out, so its pages are not for rendering.
	SearchOnly bool
	// LateBodies renders each FAQ page's body when its page is written
	// (FAQ.Body), not while the site model is made, for a build no update
	// follows: the 8,000 bodies of a 10k build are not all held as HTML
	// and text, and their markdown is not held either: it is read again
	// from each file when its page is written (content.Page.DropBody,
	// Source). Its broken links and citations, and a file changed since
	// it was read, are Body's problems, not Build's error.
	LateBodies bool
}

// SourceRef is a resolved citation.
type SourceRef struct {
	ID, Title, URL, Publisher, Retrieved string
	Href                                 string   // a link for URL, or "" when it is not linkable
	Quotes                               []string // verbatim quotes of the page's claims citing it
}

// Home is the data of index.html.
type Home struct {
	Meta
	Vendors []VendorGroup
	FAQ     []*FAQ // every FAQ page, all languages
	Trees   []*content.Tree
	Hosts   []HostSummary
}

// homeHosts is how many hosts the home page lists at most: a fleet of
// 100,000 hosts listed whole made an 11 MB home page. The hosts index
// lists them all.
const homeHosts = 100

// ListedHosts are the hosts the home page lists: all of them up to
// homeHosts, else the homeHosts with the most errors, then warnings.
func (h *Home) ListedHosts() []HostSummary {
	if len(h.Hosts) <= homeHosts {
		return h.Hosts
	}
	return worstFirst(h.Hosts)[:homeHosts]
}

// Questions lists the FAQ pages in the home page's language; each links
// its translations instead of mixing their titles into the list.
func (h *Home) Questions() []*FAQ {
	var out []*FAQ
	for _, f := range h.FAQ {
		if f.Lang == h.Lang || (h.Lang == content.DefaultLang && isDefaultLang(f.Lang)) {
			out = append(out, f)
		}
	}
	return out
}

// VendorGroup lists a vendor's adapters.
type VendorGroup struct {
	Vendor   *matrix.Vendor
	Adapters []*matrix.Adapter
}

// AdapterPage is the data of adapter/<id>.html.
type AdapterPage struct {
	Meta
	Adapter  *matrix.Adapter
	Vendor   *matrix.Vendor
	Driver   *matrix.Driver
	Firmware []matrix.FirmwareMin
	FAQ      []*FAQ
	Sources  []SourceRef // every source a claim on the page cites, with the claims' quotes
	Parts    []matrix.PartNumber
	Devices  []Device
	Stacks   []*matrix.Stack // the stacks the matrix relates to it, by name
	Tiers    []Tier
	Fleet    []FleetUse // set by Late

	grid    func() *Grid   // set by Late
	claimed []SourceRef    // the sources of the page's own claims, which Sources begins with
	srcN    map[string]int // a source's number in Sources, from 1
}

// adapterFleet is how many rows an adapter page's "In the fleet" table
// has at most: an adapter that 4,129 hosts of a 100,000-host fleet run
// made an 802 KB page that printed as a long list of hosts.
const adapterFleet = 100

// ListedFleet are the rows of the "In the fleet" table: the first
// adapterFleet by host. The fleet view counts every host by model,
// firmware and driver, and hosts.csv lists each host's adapters.
func (p *AdapterPage) ListedFleet() []FleetUse { return p.Fleet[:min(len(p.Fleet), adapterFleet)] }

// FleetHosts is how many hosts run the adapter.
func (p *AdapterPage) FleetHosts() int {
	n := 0
	for i, u := range p.Fleet {
		if i == 0 || u.Host != p.Fleet[i-1].Host {
			n++
		}
	}
	return n
}

// Cites is the page's short citations of sources: [n] links to the nth
// entry of the page's Sources list (id "s<n>"), which gives its title,
// address and quotes once. A source the list lacks is cited by its id.
func (p *AdapterPage) Cites(ids []string) template.HTML {
	var b strings.Builder
	for _, id := range ids {
		if n, ok := p.srcN[id]; ok {
			fmt.Fprintf(&b, ` <a href="#s%d">[%d]</a>`, n, n)
			continue
		}
		fmt.Fprintf(&b, ` <a class="cite" href="#src-%s">[%s]</a>`, template.HTMLEscapeString(id), template.HTMLEscapeString(id))
	}
	return template.HTML(b.String())
}

// setSources lists the sources of the page's claims, then those of more
// that the claims do not cite, and numbers them.
func (p *AdapterPage) setSources(more []SourceRef) {
	p.Sources = append(make([]SourceRef, 0, len(p.claimed)+len(more)), p.claimed...)
	p.srcN = make(map[string]int, len(p.claimed)+len(more))
	for i, r := range p.Sources {
		p.srcN[r.ID] = i + 1
	}
	for _, r := range more {
		if _, ok := p.srcN[r.ID]; !ok {
			p.Sources = append(p.Sources, r)
			p.srcN[r.ID] = len(p.Sources)
		}
	}
}

// Drop lets go of the page's grid, the sources it listed and its fleet
// rows once the page is written, in a build that no update follows: no
// other page shows them (at 10k pages, some 45 MB of the build's heap by
// the last adapter page).
func (p *AdapterPage) Drop() { p.grid, p.Sources, p.srcN, p.Fleet = nil, nil, nil, nil }

// SourceN is a source's number in the page's Sources list.
func (p *AdapterPage) SourceN(id string) int { return p.srcN[id] }

// SourcesList is the items of the page's Sources list, each linking its
// entry on the sources page at all (a path page.Rel made, of characters
// a URL keeps as they are), escaped as html/template escapes the
// template it replaces (sourcesItem, held to it by TestSourcesHTML): a
// page lists some fifty, and the template's escapers cost a reflective
// call per value. The list is written into the page item by item (the
// template's held), never held whole.
func (p *AdapterPage) SourcesList(all string) SourcesItems { return SourcesItems{p, all} }

// SourcesHTML is SourcesList's items whole, for a template (an override
// made before held) that prints them without held.
func (p *AdapterPage) SourcesHTML(all string) template.HTML { return wholeHTML(p.SourcesList(all)) }

// SourcesItems is an adapter page's Sources list, written by WriteHTML.
type SourcesItems struct {
	p   *AdapterPage
	all string
}

// WriteHTML writes the list's items to w.
func (items SourcesItems) WriteHTML(w io.Writer) error {
	p, b := items.p, make([]byte, 0, 1024)
	for _, r := range p.Sources {
		b = append(b[:0], `<li id="s`...)
		b = strconv.AppendInt(b, int64(p.srcN[r.ID]), 10)
		b = append(b, `"><a href="`...)
		b = appendEscaped(b, items.all)
		b = append(b, `#src-`...)
		b = appendURLPart(b, r.ID)
		b = append(b, `">`...)
		b = appendEscaped(b, r.Title)
		b = append(b, `</a>`...)
		for _, q := range r.Quotes {
			b = append(b, `<blockquote class="quote">“`...)
			b = appendEscaped(b, q)
			b = append(b, `”</blockquote>`...)
		}
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return nil
}

// FAQHTML is the items of the page's list of related questions, those in
// English, each linking its FAQ page, escaped as html/template escapes
// the template loop it replaces (TestAdapterFAQHTMLIsTemplate holds it to
// it): the 10k corpus's adapter pages list 10,126 and the loop passed
// over their translations too, each item and translation costing
// reflective calls.
func (p *AdapterPage) FAQHTML() template.HTML {
	from := p.Path()
	var b []byte
	for _, f := range p.FAQ {
		if f.Lang == "en" {
			b = append(appendFAQLink(append(b, `<li>`...), from, f), `</li>`...)
		}
	}
	return ownedHTML(b)
}

// Claim is a claim's confidence and short citations.
func (p *AdapterPage) Claim(c matrix.Claim) template.HTML {
	conf := template.HTMLEscapeString(c.Confidence)
	return template.HTML(`<span class="claim `+conf+`">`+conf+`</span>`) + p.Cites(c.Sources)
}

// Grid is the adapter's verdict grid, made each time it is asked for (a
// template asks once), so a build holds only the grids of the pages
// being written and makes them on the writers.
func (p *AdapterPage) Grid() *Grid {
	if p.grid == nil {
		return nil
	}
	return p.grid()
}

// FAQ is the data of faq/<slug>.html.
type FAQ struct {
	Meta
	Page         *content.Page
	HTML         template.HTML
	Translations []*content.Page
	Sources      []FAQSource
	Applies      *FAQApplies // faq.go; nil: the page names no matrix entry
	Foot         FAQFoot
	Langs        []LangLink // this page and its translations, for the language switch

	text   faqText   // what the body shows, read from the tree HTML was rendered from
	vendor string    // the vendor it is about (docVendor), for its search document
	late   *lateBody // the body still to render (Input.LateBodies); nil: rendered
}

// lateBody is an FAQ body rendered when it is first asked for.
type lateBody struct {
	once   sync.Once
	render func() rendered
	probs  diag.List
}

// rendered is an FAQ body: its HTML, its text and its link problems.
type rendered struct {
	html  template.HTML
	text  faqText
	probs diag.List
}

// Body renders the page's body (HTML and the text its search document
// reads) if the site was made with Input.LateBodies and it is not yet
// rendered, and returns the problems of its links and citations, each
// at its file:line:col; nil for a site whose bodies Build rendered
// (Build fails on their problems). Call it before the page is rendered,
// as the page's writer does; safe from several goroutines.
func (f *FAQ) Body() diag.List {
	l := f.late
	if l == nil {
		return nil
	}
	l.once.Do(func() {
		r := l.render()
		f.HTML, f.text, l.probs = r.html, r.text, r.probs
		l.render = nil
	})
	return l.probs
}

// Drop lets go of the page's rendered body once its page is written, in
// a build that no update follows: no other page shows it, and the search
// document reads the text kept beside it (at 8,000 pages, 40 MB of the
// build's heap).
func (f *FAQ) Drop() { f.HTML = "" }

// TreePage is the data of tree/<id>.html.
type TreePage struct {
	Meta
	Tree    *content.Tree
	Sources []SourceRef

	vendor string // the vendor it is about (docVendor), for its search document
}

// GlossaryPage is the data of glossary.html.
type GlossaryPage struct {
	Meta
	Terms   []content.Term // sorted by term, case-insensitively
	Sources []SourceRef
}

// Build makes the page model of the matrix and content. It does no I/O. A
// broken link or citation in a page body is an error at its file:line:col.
func Build(in Input) (*Site, error) {
	m, c := in.Matrix, in.Content
	s := &Site{Info: &Info{Title: in.Config.Title, BaseURL: in.Config.BaseURL, Glossary: len(c.Glossary) > 0, Fleet: in.Records > 0}, Inputs: &page.Inputs{}, m: m, c: c, searchOnly: in.SearchOnly, sources: newSourceRefs(m)}
	reuse := in.Reuse
	if in.MatrixSum == ([sha256.Size]byte{}) {
		reuse = nil
	}
	vkey := page.Key{Kind: "site: verdicts", Sum: in.MatrixSum}
	if s.verdicts = page.Reused(reuse, vkey, func() *verdicts { return newVerdicts(m) }); s.verdicts.m != m {
		// The same files loaded again (kb loads them anew on a new day,
		// for the lint): the pages and the verdicts name this matrix's.
		s.verdicts = newVerdicts(m)
		reuse.Store(vkey, s.verdicts)
	}
	if !in.SearchOnly {
		// The grid is judged while the FAQ bodies render: its serial
		// steps (numbering the shared reasons) leave a CPU free.
		go s.verdicts.all()
	}
	s.diagnoser = diagnose.New(m, c)
	structure := c.Structure()
	targets := make([]readiness.Target, len(in.Config.Targets))
	for i, t := range in.Config.Targets {
		if err := t.Check(m); err != nil {
			return nil, fmt.Errorf("kb.toml: target %d (%s): %w", i+1, t.Label(), err)
		}
		targets[i] = t.Split(m)
	}
	if len(targets) > 0 {
		s.targets, s.readyEngine = targets, s.verdicts.engine
	}
	meta := s.meta
	inputs := s.Inputs
	cite := s.sources.resolve
	pages := resolver{m: m, c: c}

	var probs diag.List
	faqs := make([]*FAQ, 0, len(c.Pages))
	byKey := map[string][]*content.Page{} // translation key → its pages, in content order
	for _, p := range c.Pages {
		if key := p.Meta.TranslationKey; key != "" {
			byKey[key] = append(byKey[key], p)
		}
	}
	made := make([]*FAQ, len(c.Pages))
	for i, p := range c.Pages {
		f := &FAQ{Meta: meta(page.FAQ, p.Slug, p.Meta.Title), Page: p}
		f.Lang = p.Meta.Lang
		for _, r := range cite(p.Meta.Sources) {
			f.Sources = append(f.Sources, FAQSource{r, InLang{f.Lang}})
		}
		f.deps.Read(inputs.ID(page.InFile, p.File))
		f.deps.Read(page.InLinks) // the body's links resolve against it
		made[i] = f
	}
	// The HTML reads the file, the matrix (citations, links to its
	// pages) and what links may name.
	body := func(p *content.Page, f *FAQ) rendered {
		// The markdown is read into a lent buffer: RenderText keeps
		// nothing of it.
		buf := bufpool.Get()
		defer bufpool.Put(buf)
		src, err := p.Source(buf)
		if err != nil {
			var ps diag.List
			ps.Add(p.File, diag.Pos{}, "%v", err)
			return rendered{probs: ps}
		}
		html, text, ps := markup.RenderText(src, markup.Doc{File: p.File, Line: p.BodyLine, Page: f.Path(), Sources: p.Meta.Sources, Pages: pages, Lead: p.Meta.Summary})
		return rendered{html, newFAQText(text), ps}
	}
	if in.LateBodies {
		for i, p := range c.Pages {
			p.DropBody() // read again when the page is written
			made[i].late = &lateBody{render: func() rendered {
				r := body(p, made[i])
				p.DropSource()
				return r
			}}
		}
	} else {
		// The bodies are rendered on every CPU: 8,000 of them one after
		// the other were the longest serial stretch of a 10k build.
		bodies := make([]rendered, len(c.Pages))
		parallel.Each(len(c.Pages), func(i int) {
			p := c.Pages[i]
			bodies[i] = page.Reused(reuse, page.Key{Kind: "site: faq html", Name: p.File, Sum: page.Sum(string(p.Sum[:]), string(in.MatrixSum[:]), structure)}, func() rendered {
				return body(p, made[i])
			})
		})
		for i, r := range bodies {
			probs = append(probs, r.probs...)
			made[i].HTML, made[i].text = r.html, r.text
		}
	}
	for i, p := range c.Pages {
		f := made[i]
		f.vendor = docVendor(m, p.Meta.Adapters, p.Meta.Tags)
		if key := p.Meta.TranslationKey; key != "" {
			for _, o := range byKey[key] {
				if o != p {
					f.Translations = append(f.Translations, o)
				}
			}
			f.deps.Read(s.frontGroup("translations/"+key, byKey[key]))
		}
		faqExtras(m, f)
		faqs = append(faqs, f)
	}
	if err := probs.Err(); err != nil {
		return nil, err
	}
	sort.SliceStable(faqs, func(i, j int) bool {
		a, b := faqs[i].Page.Meta, faqs[j].Page.Meta
		if a.Weight != b.Weight {
			return a.Weight < b.Weight
		}
		return faqs[i].Page.Slug < faqs[j].Page.Slug
	})

	s.home = &Home{Meta: meta(page.Home, "", s.Info.Title), FAQ: faqs, Trees: c.Trees}
	s.home.deps.Read(page.InFAQList)
	s.home.deps.Read(page.InTreeList)
	vendors := append([]matrix.Vendor(nil), m.Vendors...)
	sort.Slice(vendors, func(i, j int) bool { return vendors[i].Name < vendors[j].Name })
	for i := range vendors {
		g := VendorGroup{Vendor: &vendors[i]}
		for j := range m.Adapters {
			if m.Adapters[j].Vendor == vendors[i].ID {
				g.Adapters = append(g.Adapters, &m.Adapters[j])
			}
		}
		sort.Slice(g.Adapters, func(a, b int) bool { return g.Adapters[a].Name < g.Adapters[b].Name })
		s.home.Vendors = append(s.home.Vendors, g)
	}

	adapterFAQ := map[string][]*FAQ{} // adapter id → the FAQ pages that name it, in FAQ order
	for _, f := range faqs {
		for _, id := range f.Page.Meta.Adapters {
			adapterFAQ[id] = append(adapterFAQ[id], f)
		}
	}
	for i := range m.Adapters {
		a := &m.Adapters[i]
		ap := &AdapterPage{Meta: meta(page.Adapter, a.ID, a.Name), Adapter: a, Vendor: m.Vendor(a.Vendor), Driver: m.Driver(a.RDMADriver)}
		for _, f := range m.Firmware {
			if f.Adapter == a.ID {
				ap.Firmware = append(ap.Firmware, f)
			}
		}
		ap.Parts, ap.Devices, ap.Tiers = m.PartsOf(a.ID), devices(m, a), hostTiers
		for _, t := range adapterStacks(m, s.verdicts.stacks, a) {
			if st := m.Stack(t.Key); st != nil {
				ap.Stacks = append(ap.Stacks, st)
			}
		}
		ap.FAQ = adapterFAQ[a.ID]
		// Which pages name the adapter is in every page's front matter:
		// the group is the pages that do, so one that starts or stops
		// naming it changes the group.
		named := make([]*content.Page, len(ap.FAQ))
		for i, f := range ap.FAQ {
			named[i] = f.Page
		}
		ap.deps.Read(s.frontGroup("adapter-faq/"+a.ID, named))
		// Every claim the page shows cites into its source list; end of
		// support and interrupts were once left out, which left their
		// citations pointing nowhere.
		ap.claimed = s.sources.claims(adapterClaims(m, a)...)
		ap.setSources(nil)
		s.adapterPages = append(s.adapterPages, ap)
	}
	for _, f := range faqs {
		s.Pages = append(s.Pages, f)
	}
	for _, t := range c.Trees {
		// The list holds the tree's sources and every source a question
		// cites, so each citation has its anchor.
		ids := append([]string(nil), t.Sources...)
		for _, n := range t.Nodes {
			ids = append(ids, n.Sources...)
		}
		tp := &TreePage{Meta: meta(page.Tree, t.ID, t.Title), Tree: t, Sources: cite(ids), vendor: docVendor(m, nil, t.Tags)}
		tp.deps.Read(inputs.ID(page.InFile, t.File))
		if t.Lang != "" {
			tp.Lang = t.Lang // a translated tree (<id>.zh.toml) is a page in its language
		}
		s.Pages = append(s.Pages, tp)
	}
	s.Pages = append(s.Pages, s.tagPages(faqs, c.Trees)...)
	if len(c.Glossary) > 0 {
		g := &GlossaryPage{Meta: meta(page.Glossary, "", "Glossary"), Terms: append([]content.Term(nil), c.Glossary...)}
		g.deps.Read(page.InGlossary)
		sort.SliceStable(g.Terms, func(i, j int) bool {
			return strings.ToLower(g.Terms[i].Term) < strings.ToLower(g.Terms[j].Term)
		})
		var ids []string
		for _, t := range g.Terms {
			ids = append(ids, t.Sources...)
		}
		g.Sources = cite(ids)
		s.Pages = append(s.Pages, g)
	}
	s.buildCatalog(meta, faqs)
	sortPages(s.Pages)
	return s, nil
}

// meta is the Meta of a new page of kind k, which has read what every
// page reads: the configuration, the templates and the matrix (the
// verdicts and citations of most pages; pages that do not read it are
// few and cheap, and a page that reads it without saying so would be
// served stale).
func (s *Site) meta(k page.Kind, id, title string) Meta {
	m := Meta{Ref: page.Ref{Kind: k, ID: id}, Title: title, Lang: content.DefaultLang, Site: s.Info}
	m.deps.Read(page.InConfig)
	m.deps.Read(page.InTemplates)
	m.deps.Read(page.InMatrix)
	return m
}

// frontGroup is the input of the FAQ pages ps, read as one: their front
// matter, in this order.
func (s *Site) frontGroup(name string, ps []*content.Page) page.Input {
	ids := make([]page.Input, len(ps))
	for i, p := range ps {
		ids[i] = s.Inputs.ID(page.InFront, p.File)
	}
	return s.Inputs.Group(name, ids)
}

func sortPages(ps []Page) {
	paths := make(map[Page]string, len(ps))
	for _, p := range ps {
		paths[p] = p.PageMeta().Path()
	}
	sort.Slice(ps, func(i, j int) bool { return paths[ps[i]] < paths[ps[j]] })
}

// resolver answers markup's questions about which pages exist.
type resolver struct {
	m *matrix.Matrix
	c *content.Content
}

func (r resolver) Has(ref page.Ref) bool {
	if has, ok := r.c.Has(ref); ok {
		return has
	}
	switch ref.Kind {
	case page.Adapter:
		return r.m.Adapter(ref.ID) != nil
	case page.Vendor:
		return r.m.Vendor(ref.ID) != nil
	case page.Driver:
		return r.m.Driver(ref.ID) != nil
	case page.Distro:
		return r.m.Distro(ref.ID) != nil
	case page.Stack:
		return r.m.Stack(ref.ID) != nil
	}
	return false
}

// sourceRefs is each source of a matrix as a page cites it, made once
// per site: every adapter page lists the sources of its grid's reasons,
// and on the 10k corpus 2,000 pages made each citation anew (its link
// matched against a pattern, its date formatted).
type sourceRefs map[string]SourceRef

func newSourceRefs(m *matrix.Matrix) sourceRefs {
	out := make(sourceRefs, len(m.Sources))
	for i := range m.Sources {
		id := m.Sources[i].ID
		if _, ok := out[id]; ok {
			continue
		}
		src := m.Source(id)
		ref := SourceRef{ID: id, Title: src.Title, URL: src.URL, Publisher: src.Publisher, Href: src.Href()}
		if src.Retrieved != nil {
			ref.Retrieved = src.Retrieved.Format("2006-01-02")
		}
		out[id] = ref
	}
	return out
}

// resolve turns source ids into citations, deduplicated, in first-seen
// order; an id the matrix has no source of is its own title.
func (r sourceRefs) resolve(ids []string) []SourceRef {
	if len(ids) == 0 {
		return nil
	}
	out := make([]SourceRef, 0, len(ids)) // an adapter page's grid cites some fifty: grown from empty, it was copied six times
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		ref, ok := r[id]
		if !ok {
			ref = SourceRef{ID: id, Title: id}
		}
		out = append(out, ref)
	}
	return out
}
