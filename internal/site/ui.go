package site

import (
	"html/template"
	"strings"

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
