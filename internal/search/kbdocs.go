package search

import (
	"regexp"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/page"
)

// FromKB builds the documents for the matrix and content directly, with
// the site's URL scheme (adapter/<id>.html, vendor/<id>.html,
// driver/<id>.html, distro/<id>.html, stack/<id>.html, faq/<slug>.html,
// tree/<id>.html, glossary.html#<id>), paths from the page model
// (page.Path); either may be nil. kbgen build keeps the documents of the
// pages it wrote (see Written) and adds the host reports (HostDoc).
func FromKB(m *matrix.Matrix, c *content.Content) []Doc { return (*Cache)(nil).FromKB(m, c) }

// FromKB is the package's FromKB, taking each FAQ body's text from the
// cache when an earlier build read the same body.
func (cache *Cache) FromKB(m *matrix.Matrix, c *content.Content) []Doc {
	var docs []Doc
	adapterVendor := map[string]string{}
	vendorIDs := map[string]bool{}
	if m != nil {
		docs = append(docs, matrixDocs(m)...)
		for _, a := range m.Adapters {
			adapterVendor[a.ID] = a.Vendor
		}
		for _, v := range m.Vendors {
			vendorIDs[v.ID] = true
		}
	}
	if c == nil {
		return docs
	}
	defer cache.endBodies()
	for _, p := range c.Pages {
		bt := cache.body(p)
		headings, body := bt.headings, bt.body
		ids := append([]string{}, p.Meta.Tags...)
		ids = append(ids, p.Meta.Adapters...)
		ids = append(ids, p.Meta.Drivers...)
		ids = append(ids, p.Meta.Checks...)
		ids = append(ids, bt.code...)
		docs = append(docs, Doc{
			URL: page.Path(page.FAQ, p.Slug), Title: p.Meta.Title, Kind: "faq",
			Vendor: pickVendor(p.Meta.Adapters, p.Meta.Tags, adapterVendor, vendorIDs),
			Lang:   langOr(p.Meta.Lang), Headings: headings,
			Body: body, IDs: ids,
		})
	}
	for _, t := range c.Trees {
		var body []string
		ids := append([]string{}, t.Tags...)
		body = append(body, t.Summary)
		for _, n := range t.Nodes {
			for _, s := range []string{n.Question, n.How, n.LookFor, n.Cause, n.Fix} {
				if s != "" {
					body = append(body, s)
				}
			}
			if n.Check != "" {
				ids = append(ids, n.Check)
			}
			ids = append(ids, quoted(n.LookFor)...)
		}
		docs = append(docs, Doc{
			URL: page.Path(page.Tree, t.ID), Title: t.Title, Kind: "tree",
			Vendor: pickVendor(nil, t.Tags, adapterVendor, vendorIDs), Lang: langOr(t.Lang),
			Body: strings.Join(body, "\n"), IDs: ids,
		})
	}
	for _, g := range c.Glossary {
		docs = append(docs, Doc{
			URL: page.Ref{Kind: page.Glossary, Anchor: g.ID}.URL(), Title: g.Term, Kind: "glossary", Lang: "en",
			Body: g.Definition, IDs: append([]string{g.ID}, g.Aliases...),
		})
	}
	return docs
}

func langOr(l string) string {
	if l == "" {
		return "en"
	}
	return l
}

// pickVendor is the one vendor of a page's adapters, else a vendor id
// among its tags, else none.
func pickVendor(adapters, tags []string, adapterVendor map[string]string, vendorIDs map[string]bool) string {
	vs := map[string]bool{}
	for _, a := range adapters {
		if v := adapterVendor[a]; v != "" {
			vs[v] = true
		}
	}
	if len(vs) == 1 {
		for v := range vs {
			return v
		}
	}
	if len(vs) > 1 {
		return ""
	}
	var tv []string
	for _, t := range tags {
		if vendorIDs[t] {
			tv = append(tv, t)
		}
	}
	sort.Strings(tv)
	if len(tv) > 0 {
		return tv[0]
	}
	return ""
}

func matrixDocs(m *matrix.Matrix) []Doc {
	var docs []Doc
	vendorName := map[string]string{}
	byVendor := map[string][]string{}
	for _, v := range m.Vendors {
		vendorName[v.ID] = v.Name
	}
	fw := map[string][]matrix.FirmwareMin{}
	for _, f := range m.Firmware {
		fw[f.Adapter] = append(fw[f.Adapter], f)
	}
	for _, a := range m.Adapters {
		byVendor[a.Vendor] = append(byVendor[a.Vendor], a.Name)
		ids := []string{a.ID, a.Name}
		ids = append(ids, a.Aliases...)
		for _, p := range a.PCI {
			ids = append(ids, p.ID, p.Name)
			if p.Subsystem != "" {
				ids = append(ids, p.Subsystem)
			}
		}
		for _, s := range []string{a.EthDriver, a.RDMADriver, a.RDMACoreProvider} {
			if s != "" {
				ids = append(ids, s)
			}
		}
		ids = append(ids, a.Stacks...)
		body := []string{a.Name + " by " + vendorName[a.Vendor] + "."}
		if len(a.RoCE) > 0 {
			body = append(body, "RoCE "+strings.Join(a.RoCE, ", ")+".")
		}
		if a.NotRoCE != "" {
			body = append(body, a.NotRoCE)
		}
		if a.Note != "" {
			body = append(body, a.Note)
		}
		for _, n := range append(append([]matrix.Note{}, a.Constraints...), a.KnownIssues...) {
			body = append(body, n.Text, n.Fix)
		}
		for _, s := range a.SupportEnd {
			body = append(body, s.Text)
		}
		for _, f := range fw[a.ID] {
			ids = append(ids, f.Min)
			line := "Firmware " + f.Min + " or later for " + f.Feature
			if f.Stack != "" {
				line += " with " + f.Stack + " " + f.StackVersion
			}
			body = append(body, line+".")
		}
		docs = append(docs, Doc{URL: page.Path(page.Adapter, a.ID), Title: a.Name, Kind: "adapter", Vendor: a.Vendor, Lang: "en",
			Body: joinNonEmpty(body), IDs: ids})
	}
	for _, v := range m.Vendors {
		ids := append([]string{v.ID}, v.Aliases...)
		ids = append(ids, v.PCIVendors...)
		body := []string{v.Name + " (" + v.Kind + ")."}
		if len(byVendor[v.ID]) > 0 {
			body = append(body, "Adapters: "+strings.Join(byVendor[v.ID], ", ")+".")
		}
		body = append(body, v.Note)
		docs = append(docs, Doc{URL: page.Path(page.Vendor, v.ID), Title: v.Name, Kind: "vendor", Vendor: v.ID, Lang: "en",
			Body: joinNonEmpty(body), IDs: ids})
	}
	for _, d := range m.Drivers {
		ids := append([]string{d.ID}, d.EthDrivers...)
		for _, s := range []string{d.RDMACoreProvider, d.FirstKernel, d.RemovedKernel, d.ReplacedBy} {
			if s != "" {
				ids = append(ids, s)
			}
		}
		body := []string{d.Name + ".", "Transports: " + strings.Join(d.Transports, ", ") + "."}
		if d.FirstKernel != "" {
			body = append(body, "In the upstream kernel since "+d.FirstKernel+".")
		}
		body = append(body, d.Note)
		docs = append(docs, Doc{URL: page.Path(page.Driver, d.ID), Title: d.ID + ": " + d.Name, Kind: "driver", Vendor: d.Vendor, Lang: "en",
			Body: joinNonEmpty(body), IDs: ids})
	}
	for _, d := range m.Distros {
		ids := []string{d.ID, d.Kernel, d.KernelBase}
		body := []string{d.Name + " " + d.Version + " ships kernel " + d.Kernel + " (based on " + d.KernelBase + ")."}
		for _, b := range d.Backports {
			ids = append(ids, b.Driver)
			body = append(body, b.Text)
		}
		body = append(body, d.Note)
		docs = append(docs, Doc{URL: page.Path(page.Distro, d.ID), Title: d.Name + " " + d.Version, Kind: "distro", Lang: "en",
			Body: joinNonEmpty(body), IDs: ids})
	}
	for _, s := range m.Stacks {
		ids := append([]string{s.ID}, s.Modules...)
		for _, r := range s.Releases {
			ids = append(ids, r.Version)
		}
		body := []string{s.Name + " (" + s.Kind + " stack). Modules: " + strings.Join(s.Modules, ", ") + ".", s.Note}
		docs = append(docs, Doc{URL: page.Path(page.Stack, s.ID), Title: s.Name, Kind: "stack", Vendor: s.Vendor, Lang: "en",
			Body: joinNonEmpty(body), IDs: ids})
	}
	return docs
}

func joinNonEmpty(ss []string) string {
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, "\n")
}

// quotedRe is a 'quoted' log line in a tree's look-for text.
var quotedRe = regexp.MustCompile(`'([^'\n]{4,120})'`)

func quoted(s string) []string {
	var out []string
	for _, m := range quotedRe.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// Written keeps the documents whose page is among the paths a build
// wrote, so the index never sends a reader to a page that does not exist
// (a page kind the templates do not make yet, say).
func Written(docs []Doc, written func(path string) bool) []Doc {
	var out []Doc
	for _, d := range docs {
		p, _, _ := strings.Cut(d.URL, "#")
		if written(p) {
			out = append(out, d)
		}
	}
	return out
}
