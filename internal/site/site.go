package site

import (
	"fmt"
	"html/template"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/markup"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
)

// Page is one output file.
type Page struct {
	Path     string // slash path in the output, e.g. adapter/connectx-5.html
	Template string // template name without .html
	Title    string
	Data     any
}

// Site is the whole page model.
type Site struct {
	Title   string
	BaseURL string
	Pages   []Page
}

// Input is everything a site is built from.
type Input struct {
	Config  config.Config
	Matrix  *matrix.Matrix
	Content *content.Content
	Hosts   []*record.Host
}

// SourceRef is a resolved citation.
type SourceRef struct {
	ID, Title, URL, Publisher, Retrieved string
	Href                                 string // a link for URL, or "" when it is not linkable
}

// Home is the data of index.html.
type Home struct {
	Vendors []VendorGroup
	FAQ     []*FAQ
	Trees   []*content.Tree
	Hosts   []HostSummary
}

// VendorGroup lists a vendor's adapters.
type VendorGroup struct {
	Vendor   *matrix.Vendor
	Adapters []*matrix.Adapter
}

// AdapterPage is the data of adapter/<id>.html.
type AdapterPage struct {
	Adapter  *matrix.Adapter
	Vendor   *matrix.Vendor
	Driver   *matrix.Driver
	Firmware []matrix.FirmwareMin
	FAQ      []*FAQ
	Sources  []SourceRef
}

// FAQ is the data of faq/<slug>.html.
type FAQ struct {
	Page         *content.Page
	HTML         template.HTML
	Translations []*content.Page
	Sources      []SourceRef
}

// TreePage is the data of tree/<id>.html.
type TreePage struct {
	Tree    *content.Tree
	Sources []SourceRef
}

// GlossaryPage is the data of glossary.html.
type GlossaryPage struct {
	Terms   []content.Term // sorted by term, case-insensitively
	Sources []SourceRef
}

// Build makes the page model. It does no I/O.
func Build(in Input) (*Site, error) {
	m, c := in.Matrix, in.Content
	s := &Site{Title: in.Config.Title, BaseURL: in.Config.BaseURL}
	cite := func(ids []string) []SourceRef { return resolve(m, ids) }

	faqs := make([]*FAQ, 0, len(c.Pages))
	for _, p := range c.Pages {
		html, err := markup.Render(content.LinkCitations(p.Body, p.Meta.Sources))
		if err != nil {
			return nil, fmt.Errorf("%s: render markdown: %w", p.File, err)
		}
		f := &FAQ{Page: p, HTML: html, Sources: cite(p.Meta.Sources)}
		if key := p.Meta.TranslationKey; key != "" {
			for _, o := range c.Pages {
				if o != p && o.Meta.TranslationKey == key {
					f.Translations = append(f.Translations, o)
				}
			}
		}
		faqs = append(faqs, f)
	}
	sort.SliceStable(faqs, func(i, j int) bool {
		a, b := faqs[i].Page.Meta, faqs[j].Page.Meta
		if a.Weight != b.Weight {
			return a.Weight < b.Weight
		}
		return faqs[i].Page.Slug < faqs[j].Page.Slug
	})

	hpages, hsums := hostPages(m, c, in.Hosts)
	s.Pages = append(s.Pages, hpages...)
	home := &Home{FAQ: faqs, Trees: c.Trees, Hosts: hsums}
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
		home.Vendors = append(home.Vendors, g)
	}
	s.Pages = append(s.Pages, Page{Path: "index.html", Template: "home", Title: s.Title, Data: home})

	for i := range m.Adapters {
		a := &m.Adapters[i]
		ap := &AdapterPage{Adapter: a, Vendor: m.Vendor(a.Vendor), Driver: m.Driver(a.RDMADriver)}
		ids := append([]string(nil), a.Sources...)
		for _, f := range m.Firmware {
			if f.Adapter == a.ID {
				ap.Firmware = append(ap.Firmware, f)
				ids = append(ids, f.Sources...)
			}
		}
		for _, n := range append(append([]matrix.Note(nil), a.Constraints...), a.KnownIssues...) {
			ids = append(ids, n.Sources...)
		}
		for _, f := range faqs {
			for _, id := range f.Page.Meta.Adapters {
				if id == a.ID {
					ap.FAQ = append(ap.FAQ, f)
				}
			}
		}
		ap.Sources = cite(ids)
		s.Pages = append(s.Pages, Page{Path: "adapter/" + a.ID + ".html", Template: "adapter", Title: a.Name, Data: ap})
	}
	for _, f := range faqs {
		s.Pages = append(s.Pages, Page{Path: "faq/" + f.Page.Slug + ".html", Template: "faq", Title: f.Page.Meta.Title, Data: f})
	}
	for _, t := range c.Trees {
		s.Pages = append(s.Pages, Page{Path: "tree/" + t.ID + ".html", Template: "tree", Title: t.Title, Data: &TreePage{Tree: t, Sources: cite(t.Sources)}})
	}
	if len(c.Glossary) > 0 {
		s.Pages = append(s.Pages, glossaryPage(c.Glossary, cite))
	}
	sort.Slice(s.Pages, func(i, j int) bool { return s.Pages[i].Path < s.Pages[j].Path })
	return s, nil
}

// glossaryPage lists the terms alphabetically with every source they cite.
func glossaryPage(terms []content.Term, cite func([]string) []SourceRef) Page {
	g := &GlossaryPage{Terms: append([]content.Term(nil), terms...)}
	sort.SliceStable(g.Terms, func(i, j int) bool {
		return strings.ToLower(g.Terms[i].Term) < strings.ToLower(g.Terms[j].Term)
	})
	var ids []string
	for _, t := range g.Terms {
		ids = append(ids, t.Sources...)
	}
	g.Sources = cite(ids)
	return Page{Path: "glossary.html", Template: "glossary", Title: "Glossary", Data: g}
}

// resolve turns source ids into citations, deduplicated, in first-seen order.
func resolve(m *matrix.Matrix, ids []string) []SourceRef {
	var out []SourceRef
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		ref := SourceRef{ID: id, Title: id}
		if src := m.Source(id); src != nil {
			ref = SourceRef{ID: id, Title: src.Title, URL: src.URL, Publisher: src.Publisher, Href: src.Href()}
			if src.Retrieved != nil {
				ref.Retrieved = src.Retrieved.Format("2006-01-02")
			}
		}
		out = append(out, ref)
	}
	return out
}

// Link turns a content link (faq/<slug>, tree/<id>, adapter/<id>,
// glossary/<term>, or a URL) into a site path relative to the site root.
func Link(target string) string {
	switch {
	case strings.Contains(target, "://"):
		return target
	case strings.HasPrefix(target, "glossary/"):
		return "glossary.html#" + strings.TrimPrefix(target, "glossary/")
	default:
		return target + ".html"
	}
}
