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

// section is the index page a page kind sits under, for breadcrumbs and
// for marking the current navigation entry.
var section = map[page.Kind]page.Kind{
	page.Adapter: page.Adapters, page.Vendor: page.Vendors, page.Driver: page.Drivers,
	page.Distro: page.Distros, page.Stack: page.Stacks, page.FAQ: page.FAQIndex,
	page.Tag: page.Tags, page.Tree: page.Trees, page.Host: page.Fleet,
}

// navKinds are the header navigation entries, with their label keys.
var navKinds = []struct {
	kind page.Kind
	key  string
}{
	{page.Adapters, "nav_adapters"}, {page.Vendors, "nav_vendors"}, {page.Drivers, "nav_drivers"}, {page.Distros, "nav_distros"},
	{page.Stacks, "nav_stacks"}, {page.FAQIndex, "nav_faq"}, {page.Trees, "nav_trees"}, {page.Glossary, "nav_glossary"},
	{page.Sources, "nav_sources"}, {page.Fleet, "nav_fleet"},
}

func (m *Meta) rel(k page.Kind) string { return page.RelRef(m.Path(), page.Ref{Kind: k}) }

// Nav is the header navigation of the page. Glossary and Fleet appear
// only when the site has them, so no entry leads to a missing page.
func (m *Meta) Nav() []Link {
	cur := m.Ref.Kind
	if s, ok := section[cur]; ok {
		cur = s
	}
	if cur == page.Hosts {
		cur = page.Fleet
	}
	var out []Link
	for _, n := range navKinds {
		if (n.kind == page.Glossary && (m.Site == nil || !m.Site.Glossary)) || (n.kind == page.Fleet && (m.Site == nil || !m.Site.Fleet)) {
			continue
		}
		out = append(out, Link{Label: m.T(n.key), Href: m.rel(n.kind), Current: n.kind == cur})
	}
	return out
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
	if s, ok := section[m.Ref.Kind]; ok {
		key := string(s)
		for _, n := range navKinds {
			if n.kind == s {
				key = n.key
			}
		}
		if s == page.Tags {
			key = "nav_tags"
		}
		out = append(out, Link{Label: m.T(key), Href: m.rel(s)})
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
	esc := strings.NewReplacer(`[`, `\[`, `]`, `\]`).Replace(s)
	html, _ := markup.Render(esc, markup.Doc{File: "matrix"})
	out := string(html)
	if body, ok := strings.CutPrefix(out, "<p>"); ok {
		if body, ok = strings.CutSuffix(body, "</p>\n"); ok && !strings.Contains(body, "<p>") {
			return template.HTML(body)
		}
	}
	return template.HTML(template.HTMLEscapeString(s))
}
