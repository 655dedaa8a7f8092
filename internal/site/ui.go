package site

import (
	"html/template"
	"path"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rocekb/rocekb/internal/markup"
	"github.com/rocekb/rocekb/internal/page"
)

// T returns the page furniture string key in the page's language, from
// the one table of i18n.go ("zh-CN" reads "zh").
func (m *Meta) T(key string) string {
	lang, _, _ := strings.Cut(m.Lang, "-")
	return ui(lang, key)
}

// Link is a labelled relative link from a page.
type Link struct {
	Label   string
	Href    string
	Current bool
}

func (m *Meta) rel(k page.Kind) string { return page.RelRef(m.Path(), page.Ref{Kind: k}) }

// has reports whether the site has the page of kind k, for the
// navigation entries of page.Table's Optional kinds: each input a kind
// Needs has its case (TestOptionalKindsHaveInputs).
func (i *Info) has(k page.Kind) bool {
	if i == nil {
		return false
	}
	switch page.SpecOf(k).Needs {
	case page.NeedGlossary:
		return i.Glossary
	case page.NeedRecords:
		return i.Fleet
	}
	return true
}

// Nav is the header navigation of the page: the kinds page.Table puts in
// it, in its order, each only when the site has its page if so marked,
// so no entry leads to a missing page.
func (m *Meta) Nav() []Link {
	spec := page.SpecOf(m.Ref.Kind)
	cur := m.Ref.Kind
	switch {
	case spec.Section != "":
		cur = spec.Section
	case spec.NavUnder != "":
		cur = spec.NavUnder
	}
	var out []Link
	for _, n := range page.Table {
		if !n.Nav || n.Optional() && !m.Site.has(n.Kind) {
			continue
		}
		out = append(out, Link{Label: m.T(n.Label), Href: m.rel(n.Kind), Current: n.Kind == cur})
	}
	return out
}

// Header is what the page header shows: the same on every page of one
// kind, folder and language, so base.html renders it once for each.
type Header struct {
	Skip, Brand, Home                             string
	Search, SearchLabel, SearchHint, SearchButton string
	NavLabel                                      string
	Nav                                           []Link
}

// Header returns the page's header.
func (m *Meta) Header() Header {
	var brand string
	if m.Site != nil {
		brand = m.Site.Title
	}
	return Header{Skip: m.T("skip"), Brand: brand, Home: m.rel(page.Home),
		Search: m.Href("search.html"), SearchLabel: m.T("search_label"), SearchHint: m.T("search_hint"), SearchButton: m.T("search"),
		NavLabel: m.T("nav"), Nav: m.Nav()}
}

// HeadStart is what base.html's head shows before the page's title: the
// same on every page of one language (and, on the 404 page, base_url),
// so it is rendered once for each (shared "head-start").
type HeadStart struct {
	Lang string
	Base string // the 404 page's <base>: RootBase, or ""
}

// HeadStart returns the page's HeadStart.
func (m *Meta) HeadStart() HeadStart { return m.head().start }

// HeadEnd is what base.html's head shows after the page's title, up to the
// page's own breadcrumb: its style sheets and feed, the header, and the
// breadcrumbs above the page (Up; none on the home page). It is the same
// on every page of one kind, folder and language, so it is rendered once
// for each (shared "head-end"); only the title differs from page to page.
type HeadEnd struct {
	Script              bool     // the 404 page without base_url finds the site root at run time
	Folders             []string // SiteFolders, for Script
	Style, Report, Feed string   // links to style.css, report.css and feed.xml
	Header              Header
	CrumbsLabel         string
	Up                  []Link // Crumbs but the last, the page itself
}

// HeadEnd returns the page's HeadEnd.
func (m *Meta) HeadEnd() HeadEnd { return m.head().end }

// head is a page's HeadStart and HeadEnd, made once per kind, folder and
// language of a site (heads) and read by every page that shares them:
// 100,000 host pages have one.
type head struct {
	start HeadStart
	end   HeadEnd
}

// headKey is all a head depends on: what the site is (Info, by value), and
// the page's kind, language and folder (the links are relative to it).
type headKey struct {
	site      Info
	kind      page.Kind
	lang, dir string
}

// heads holds the heads made, up to headsMax of them (a site has a few
// dozen; kbgen serve's rebuilds of a changed configuration add more).
var (
	heads  sync.Map // headKey → head
	headsN atomic.Int32
)

const headsMax = 4096

func (m *Meta) head() head {
	from := m.Path()
	k := headKey{kind: m.Ref.Kind, lang: m.Lang, dir: path.Dir(from)}
	if m.Site != nil {
		k.site = *m.Site
	}
	if h, ok := heads.Load(k); ok {
		return h.(head)
	}
	h := head{start: HeadStart{Lang: m.Lang},
		end: HeadEnd{Style: page.Rel(from, "style.css"), Report: page.Rel(from, "report.css"), Feed: page.Rel(from, "feed.xml"),
			Header: m.Header(), CrumbsLabel: m.T("breadcrumbs")}}
	if m.Ref.Kind == page.NotFound {
		h.start.Base = m.RootBase()
		if h.start.Base == "" {
			h.end.Script, h.end.Folders = true, m.SiteFolders()
		}
	}
	if c := m.Crumbs(); len(c) > 0 {
		h.end.Up = c[:len(c)-1]
	}
	if headsN.Load() < headsMax {
		if _, dup := heads.LoadOrStore(k, h); !dup {
			headsN.Add(1)
		}
	}
	return h
}

// Href links from the page to the site path p ("search.html", a static file).
func (m *Meta) Href(p string) string { return page.Rel(m.Path(), p) }

// Crumbs is the breadcrumb trail: home, the section index, then the page
// itself (the last entry, unlinked). The home page has none.
func (m *Meta) Crumbs() []Link {
	if m.Ref.Kind == page.Home {
		return nil
	}
	out := []Link{{Label: m.T("home"), Href: m.rel(page.Home)}}
	if s := page.SpecOf(m.Ref.Kind).Section; s != "" {
		out = append(out, Link{Label: m.T(page.SpecOf(s).Label), Href: m.rel(s)})
	}
	return append(out, Link{Label: m.Title, Current: true})
}

// MD renders a matrix text field as inline markdown through the site's
// one goldmark: `mlx5_core` becomes <code>, everything is escaped, and
// raw HTML is never passed through. Brackets stay text (matrix fields cite
// through their sources key, not [id]), and a text that markdown would
// turn into a block (a list, a heading) is shown as plain escaped text.
func (m *Meta) MD(s string) template.HTML { return Inline(s) }

// Inline is MD without a page.
func Inline(s string) template.HTML {
	if s == "" {
		return ""
	}
	if html, ok := markup.PlainInline(s); ok {
		return template.HTML(html)
	}
	html, _ := markup.Render(markup.EscapeInline(s), markup.Doc{File: "matrix"})
	out := string(html)
	if body, ok := strings.CutPrefix(out, "<p>"); ok {
		if body, ok = strings.CutSuffix(body, "</p>\n"); ok && !strings.Contains(body, "<p>") {
			return template.HTML(body)
		}
	}
	return template.HTML(template.HTMLEscapeString(s))
}
