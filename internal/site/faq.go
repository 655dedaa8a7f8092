package site

import (
	"html/template"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/page"
)

// AppliesGroup is one line of a FAQ page's "applies to" block: the
// adapters, distros, drivers or stack releases its front matter names.
type AppliesGroup struct {
	Key   string // ui key: adapters, distros, drivers, stacks
	Items []AppliesItem
}

// AppliesItem links one matrix entry by its name.
type AppliesItem struct {
	Kind  page.Kind
	ID    string
	Label string
	Href  string // the link to the entry's page from an FAQ page
}

// InLang is the language of what a fragment shared by several pages
// shows: its UI strings ({{$.UI "tags"}}) are that language's, as the
// page's own (Meta.UI).
type InLang struct{ Lang string }

// UI returns a furniture string in the language.
func (l InLang) UI(key string) string { return ui(l.Lang, key) }

// FAQApplies is an FAQ page's "applies to" block, the same on every page
// of a language naming the same entries: rendered once for each (shared
// "faq-applies").
type FAQApplies struct {
	InLang
	Groups []AppliesGroup
}

// FAQFoot is what an FAQ page shows below its body: when it was last
// checked, its tags and checks, and the links to the glossary and the
// tags. Pages of a language with the same ones share it, rendered once
// (shared "faq-foot"); a page's are a few of a small set.
type FAQFoot struct {
	InLang
	LastVerified      string // 2006-01-02, or ""
	Tags              []Link // each tag (Label) and its page
	Checks            []string
	Glossary, AllTags string // the links to the glossary and to the tags' index
}

// FAQSource is one entry of an FAQ page's sources, in the page's
// language: the same on every page citing the source, rendered once
// (shared "faq-source").
type FAQSource struct {
	SourceRef
	InLang
}

// TagLink is a tag and its page.
type TagLink struct {
	Tag, Slug string
}

// LangLink is one language of a page and its translation.
type LangLink struct {
	Lang, Name, Slug string
	Current          bool
}

// TagPage is the data of tag/<slug>.html and, with Index, tag/index.html.
type TagPage struct {
	Meta
	Tag   string
	Index bool
	// Groups hold the tagged FAQ pages and trees by language, English first.
	Groups []TagGroup
	Tags   []TagCount // on the index: every tag
}

// TagGroup is the pages of one language with a tag.
type TagGroup struct {
	Lang, Name  string
	FAQHeading  string // "FAQ" in the group's language
	TreeHeading string
	FAQ         []*FAQ
	Trees       []*content.Tree
}

// FAQHTML is the items of a group's list of FAQ pages, each linking its
// page with its summary, escaped as html/template escapes the template
// loop it replaces (TestTagFAQHTMLIsTemplate holds it to it): the 10k
// corpus's 638 tag pages list 10,124 FAQ pages, and the template's
// escapers and field chains cost a reflective call per value.
func (p *TagPage) FAQHTML(faqs []*FAQ) template.HTML {
	from := p.Path()
	b := make([]byte, 0, 192*len(faqs))
	for _, f := range faqs {
		b = appendFAQLink(append(b, `<li>`...), from, f)
		if sum := f.Page.Meta.Summary; sum != "" {
			b = append(b, `<br><span class="meta">`...)
			b = append(appendEscaped(b, sum), `</span>`...)
		}
		b = append(b, `</li>`...)
	}
	return ownedHTML(b)
}

// appendFAQLink appends the link to FAQ page f from the page at from.
func appendFAQLink(b []byte, from string, f *FAQ) []byte {
	b = append(b, `<a href="`...)
	b = appendURL(b, page.RelRef(from, page.Ref{Kind: page.FAQ, ID: f.Page.Slug}))
	b = append(b, `">`...)
	return append(appendEscaped(b, f.Page.Meta.Title), `</a>`...)
}

// TagCount is a tag on the index with the number of pages it has.
type TagCount struct {
	TagLink
	N int
}

// appliesTo resolves a page's front matter ids to named links. Ids lint
// did not find are left out rather than linked to nothing.
func appliesTo(m *matrix.Matrix, meta content.Front) []AppliesGroup {
	var out []AppliesGroup
	add := func(key string, items []AppliesItem) {
		if len(items) > 0 {
			out = append(out, AppliesGroup{Key: key, Items: items})
		}
	}
	var items []AppliesItem
	for _, id := range meta.Adapters {
		if a := m.Adapter(id); a != nil {
			items = append(items, AppliesItem{Kind: page.Adapter, ID: id, Label: a.Name})
		}
	}
	add("adapters", items)
	items = nil
	for _, id := range meta.Distros {
		for _, d := range m.Distros {
			if d.ID == id {
				items = append(items, AppliesItem{Kind: page.Distro, ID: id, Label: strings.TrimSpace(d.Name + " " + d.Version)})
			}
		}
	}
	add("distros", items)
	items = nil
	for _, id := range meta.Drivers {
		if d := m.Driver(id); d != nil {
			items = append(items, AppliesItem{Kind: page.Driver, ID: id, Label: d.ID})
		}
	}
	add("drivers", items)
	items = nil
	for _, s := range meta.Stacks {
		id, ver, _ := strings.Cut(s, "@")
		for _, st := range m.Stacks {
			if st.ID == id {
				items = append(items, AppliesItem{Kind: page.Stack, ID: id, Label: strings.TrimSpace(st.Name + " " + ver)})
			}
		}
	}
	add("stacks", items)
	return out
}

// faqExtras fills what the FAQ template shows around the body: the
// "applies to" block, what follows the body and the language switch.
func faqExtras(m *matrix.Matrix, f *FAQ) {
	meta := f.Page.Meta
	from, lang := f.Path(), InLang{f.Lang}
	if groups := appliesTo(m, meta); len(groups) > 0 {
		for _, g := range groups {
			for i := range g.Items {
				it := &g.Items[i]
				it.Href = page.RelRef(from, page.Ref{Kind: it.Kind, ID: it.ID})
			}
		}
		f.Applies = &FAQApplies{lang, groups}
	}
	f.Foot = FAQFoot{InLang: lang, Checks: meta.Checks, Glossary: f.rel(page.Glossary), AllTags: page.RelRef(from, page.Ref{Kind: page.Tag, ID: "index"})}
	if meta.LastVerified != nil {
		f.Foot.LastVerified = meta.LastVerified.Format("2006-01-02")
	}
	for _, t := range meta.Tags {
		f.Foot.Tags = append(f.Foot.Tags, Link{Label: t, Href: page.RelRef(from, page.Ref{Kind: page.Tag, ID: content.TagSlug(t)})})
	}
	if len(f.Translations) > 0 {
		f.Langs = append(f.Langs, LangLink{Lang: f.Lang, Name: LangName(f.Lang), Slug: f.Page.Slug, Current: true})
		for _, t := range f.Translations {
			f.Langs = append(f.Langs, LangLink{Lang: t.Meta.Lang, Name: LangName(t.Meta.Lang), Slug: t.Slug})
		}
		sort.SliceStable(f.Langs, func(i, j int) bool { return langOrder(f.Langs[i].Lang) < langOrder(f.Langs[j].Lang) })
	}
}

// langOrder puts the default language first, then the others by code.
func langOrder(lang string) string {
	if lang == content.DefaultLang || lang == "" {
		return ""
	}
	return lang
}

// tagPages makes a page per tag of the FAQ pages and trees, and the index.
func (s *Site) tagPages(faqs []*FAQ, trees []*content.Tree) []Page {
	type acc struct {
		tag   string
		faq   []*FAQ
		trees []*content.Tree
	}
	bySlug := map[string]*acc{}
	get := func(t string) *acc {
		s := content.TagSlug(t)
		a := bySlug[s]
		if a == nil {
			a = &acc{tag: t}
			bySlug[s] = a
		}
		return a
	}
	for _, f := range faqs {
		seen := map[string]bool{}
		for _, t := range f.Page.Meta.Tags {
			if a := get(t); !seen[content.TagSlug(t)] {
				seen[content.TagSlug(t)] = true
				a.faq = append(a.faq, f)
			}
		}
	}
	for _, tr := range trees {
		seen := map[string]bool{}
		for _, t := range tr.Tags {
			if a := get(t); !seen[content.TagSlug(t)] {
				seen[content.TagSlug(t)] = true
				a.trees = append(a.trees, tr)
			}
		}
	}
	meta := func(id, title string) Meta { return s.meta(page.Tag, id, title) }
	// The index lists every tag: which there are is in every page's
	// front matter and every tree. Every site has it (page.Spec.Always),
	// so a link to it holds on content without tags.
	index := &TagPage{Meta: meta("index", "Tags"), Index: true}
	index.deps.Read(page.InFAQList)
	index.deps.Read(page.InTreeList)
	var out []Page
	for _, slug := range sortedTagSlugs(bySlug) {
		a := bySlug[slug]
		tp := &TagPage{Meta: meta(slug, "Tag: "+a.tag), Tag: a.tag}
		// A tag's page reads the pages and trees that have the tag: the
		// group changes when one gains or loses it.
		ids := make([]page.Input, 0, len(a.faq)+len(a.trees))
		for _, f := range a.faq {
			ids = append(ids, s.Inputs.ID(page.InFront, f.Page.File))
		}
		for _, t := range a.trees {
			ids = append(ids, s.Inputs.ID(page.InFile, t.File))
		}
		tp.deps.Read(s.Inputs.Group("tag/"+slug, ids))
		langs := map[string]*TagGroup{}
		group := func(lang string) *TagGroup {
			if lang == "" {
				lang = content.DefaultLang
			}
			g := langs[lang]
			if g == nil {
				g = &TagGroup{Lang: lang, Name: LangName(lang), FAQHeading: ui(lang, "faq"), TreeHeading: ui(lang, "trees")}
				langs[lang] = g
			}
			return g
		}
		for _, f := range a.faq {
			g := group(f.Lang)
			g.FAQ = append(g.FAQ, f)
		}
		for _, t := range a.trees {
			g := group(t.Lang)
			g.Trees = append(g.Trees, t)
		}
		for _, l := range sortedLangs(langs) {
			tp.Groups = append(tp.Groups, *langs[l])
		}
		index.Tags = append(index.Tags, TagCount{TagLink{a.tag, slug}, len(a.faq) + len(a.trees)})
		out = append(out, tp)
	}
	return append(out, index)
}

func sortedTagSlugs[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sortedLangs(m map[string]*TagGroup) []string {
	out := sortedTagSlugs(m)
	sort.SliceStable(out, func(i, j int) bool { return langOrder(out[i]) < langOrder(out[j]) })
	return out
}
