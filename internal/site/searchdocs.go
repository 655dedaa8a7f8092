package site

import (
	"regexp"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/markup"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/page"
)

// Searchable is a page that yields its search documents, made from the
// data it renders: the text of a FAQ body from the goldmark tree its HTML
// is rendered from, a matrix note as its inline markdown reads. The pages
// of every kind page.Table marks Search are, and only those
// (TestSearchDocs); the build indexes the documents of the pages it
// writes.
type Searchable interface {
	Page
	SearchDocs() []page.Doc
}

// DocsOf returns the search documents of p: none unless its kind is
// marked Search in page.Table.
func DocsOf(p Page) []page.Doc {
	sp, ok := p.(Searchable)
	if !ok || !page.SpecOf(p.PageMeta().Ref.Kind).Search {
		return nil
	}
	return sp.SearchDocs()
}

// Docs returns the search documents of the site's pages that do not
// depend on the host records (Pages and the adapter pages of Late), as
// a build writes them: kbgen search and a served folder search these.
func (s *Site) Docs() []page.Doc {
	var out []page.Doc
	for _, p := range s.Pages {
		out = append(out, DocsOf(p)...)
	}
	for _, p := range s.adapterPages {
		out = append(out, DocsOf(p)...)
	}
	return out
}

// maxHostBody bounds a host document's text: a host with a long kernel
// log must not weigh more in the index than the page explaining its error.
const maxHostBody = 8 << 10

// SearchDocs is the document of a host report. Its identifiers are what
// only this host has: its id, kernel release, PCI addresses, part
// numbers, firmware and stack versions. What it shares with the pages
// that explain it (PCI ids, module names, the adapter's model, the checks
// that found something, the classified kernel log lines and tool errors)
// is body text, so a query for mlx5_core or a pasted error finds the
// driver or FAQ page first and the hosts that show it after.
func (p *HostPage) SearchDocs() []page.Doc {
	h := p.Record
	d := page.Doc{URL: p.Path(), Title: p.Title, Kind: string(page.Host), Lang: langOr(p.Lang)}
	ids := []string{h.Host.ID, h.Host.KernelRelease}
	var body []string
	if os := h.Host.OS.PrettyName; os != "" {
		body = append(body, os+".")
	}
	vendors := map[string]bool{}
	for _, a := range p.Adapters {
		r := a.Record
		ids = append(ids, r.PCIAddress, r.PartNumber, r.Firmware.Running, r.Firmware.PSID)
		line := []string{r.Name, r.Vendor + ":" + r.Device, r.Driver.Name, r.Driver.Version}
		if a.Matrix != nil {
			line = append(line, a.Matrix.Name)
			vendors[a.Matrix.Vendor] = true
		}
		line = append(line, r.ProductName)
		body = append(body, strings.Join(uniqueNonEmpty(line), ", "))
	}
	var devs []string
	for _, dev := range h.Devices {
		devs = append(devs, dev.Name, dev.Provider)
	}
	body = append(body, strings.Join(uniqueNonEmpty(devs), ", "))
	if s := h.Stack; s != nil {
		ids = append(ids, s.Version)
		body = append(body, s.Name)
	}
	if p.Report != nil {
		for _, f := range p.Report.Findings {
			body = append(body, f.Message)
		}
	}
	for _, e := range h.KernelLog {
		body = append(body, e.Text)
	}
	for _, m := range h.ToolMessages {
		body = append(body, m.Text)
	}
	if len(vendors) == 1 {
		for v := range vendors {
			d.Vendor = v
		}
	}
	d.IDs = uniqueNonEmpty(ids)
	d.Body = joinNonEmpty(body)
	if len(d.Body) > maxHostBody {
		d.Body = d.Body[:page.WordEnd(d.Body, maxHostBody)]
	}
	return []page.Doc{d}
}

// faqText is what a FAQ page's document reads of its body (markup.Text),
// kept with the page's HTML: its headings, its code spans, and its text
// led by the page's summary and a line break, the document's text as it is.
// The code spans (none holds a line break) are kept as markup gives them,
// one string, each ended by "\n": 8,000 pages' spans, one string and one
// slice entry each, were 32 MB of a 10k build's heap while the FAQ bodies
// rendered.
type faqText struct {
	headings []string
	code     string
	body     string
}

// newFAQText is the text of a page's body read with its summary as the
// lead (markup.Doc.Lead).
func newFAQText(t markup.Text) faqText {
	return faqText{headings: t.Headings, code: t.Code, body: t.Body}
}

// codeSpans are the page's code spans, in order.
func (t faqText) codeSpans() []string {
	if t.code == "" {
		return nil
	}
	return strings.Split(t.code[:len(t.code)-1], "\n")
}

// SearchDocs is the FAQ page's document: its summary and the text of its
// body, read from the tree its HTML was rendered from, its headings, and
// as identifiers its tags, the adapters, drivers and checks it is about
// and its code spans.
func (f *FAQ) SearchDocs() []page.Doc {
	f.Body() // a late body not yet rendered: its text
	m := f.Page.Meta
	ids := append([]string{}, m.Tags...)
	ids = append(ids, m.Adapters...)
	ids = append(ids, m.Drivers...)
	ids = append(ids, m.Checks...)
	ids = append(ids, f.text.codeSpans()...)
	return []page.Doc{{
		URL: f.Path(), Title: f.Title, Kind: string(page.FAQ), Vendor: f.vendor, Lang: langOr(f.Lang),
		Headings: f.text.headings, Body: f.text.body, IDs: ids,
	}}
}

// SearchDocs is the tree's document: its summary and every question,
// command, what to look for, cause and fix, as the page prints them;
// its identifiers are its tags, its nodes' checks and the log lines its
// look-for texts quote.
func (p *TreePage) SearchDocs() []page.Doc {
	t := p.Tree
	ids := append([]string{}, t.Tags...)
	body := []string{t.Summary}
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
	return []page.Doc{{
		URL: p.Path(), Title: p.Title, Kind: string(page.Tree), Vendor: p.vendor, Lang: langOr(p.Lang),
		Body: strings.Join(body, "\n"), IDs: ids,
	}}
}

// quotedRe is a 'quoted' log line in a tree's look-for text (plain text,
// which the page prints as it is).
var quotedRe = regexp.MustCompile(`'([^'\n]{4,120})'`)

func quoted(s string) []string {
	var out []string
	for _, m := range quotedRe.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// SearchDocs is a document per term, at the term's anchor.
func (p *GlossaryPage) SearchDocs() []page.Doc {
	out := make([]page.Doc, 0, len(p.Terms))
	for _, g := range p.Terms {
		out = append(out, page.Doc{
			URL: page.Ref{Kind: page.Glossary, Anchor: g.ID}.URL(), Title: g.Term, Kind: string(page.Glossary), Lang: content.DefaultLang,
			Body: g.Definition, IDs: append([]string{g.ID}, g.Aliases...),
		})
	}
	return out
}

// SearchDocs is the adapter's document: its vendor, RoCE versions,
// notes, constraints, known issues, end of support and firmware minimums;
// its identifiers are its names, PCI ids, drivers, stacks and firmware
// versions.
func (p *AdapterPage) SearchDocs() []page.Doc {
	a := p.Adapter
	ids := []string{a.ID, a.Name}
	ids = append(ids, a.Aliases...)
	for _, pci := range a.PCI {
		ids = append(ids, pci.ID, pci.Name)
		if pci.Subsystem != "" {
			ids = append(ids, pci.Subsystem)
		}
	}
	for _, s := range []string{a.EthDriver, a.RDMADriver, a.RDMACoreProvider} {
		if s != "" {
			ids = append(ids, s)
		}
	}
	ids = append(ids, a.Stacks...)
	vendor := ""
	if p.Vendor != nil {
		vendor = p.Vendor.Name
	}
	body := []string{a.Name + " by " + vendor + "."}
	if len(a.RoCE) > 0 {
		body = append(body, "RoCE "+strings.Join(a.RoCE, ", ")+".")
	}
	body = append(body, inlineText(a.NotRoCE), inlineText(a.Note))
	for _, n := range append(append([]matrix.Note{}, a.Constraints...), a.KnownIssues...) {
		body = append(body, inlineText(n.Text), inlineText(n.Fix))
	}
	for _, s := range a.SupportEnd {
		body = append(body, inlineText(s.Text))
	}
	for _, f := range p.Firmware {
		ids = append(ids, f.Min)
		line := "Firmware " + f.Min + " or later for " + f.Feature
		if f.Stack != "" {
			line += " with " + f.Stack + " " + f.StackVersion
		}
		body = append(body, line+".")
	}
	return []page.Doc{{URL: p.Path(), Title: a.Name, Kind: string(page.Adapter), Vendor: a.Vendor, Lang: content.DefaultLang,
		Body: joinNonEmpty(body), IDs: ids}}
}

// SearchDocs is the vendor's document: its kind, adapters and note.
func (p *VendorPage) SearchDocs() []page.Doc {
	v := p.Vendor
	ids := append([]string{v.ID}, v.Aliases...)
	ids = append(ids, v.PCIVendors...)
	body := []string{v.Name + " (" + v.Kind + ")."}
	if len(p.Adapters) > 0 {
		names := make([]string, len(p.Adapters))
		for i, a := range p.Adapters {
			names[i] = a.Name
		}
		body = append(body, "Adapters: "+strings.Join(names, ", ")+".")
	}
	body = append(body, inlineText(v.Note))
	return []page.Doc{{URL: p.Path(), Title: v.Name, Kind: string(page.Vendor), Vendor: v.ID, Lang: content.DefaultLang,
		Body: joinNonEmpty(body), IDs: ids}}
}

// SearchDocs is the driver's document: its transports, first upstream
// kernel and note; its identifiers its modules and kernels.
func (p *DriverPage) SearchDocs() []page.Doc {
	d := p.Driver
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
	body = append(body, inlineText(d.Note))
	return []page.Doc{{URL: p.Path(), Title: d.ID + ": " + d.Name, Kind: string(page.Driver), Vendor: d.Vendor, Lang: content.DefaultLang,
		Body: joinNonEmpty(body), IDs: ids}}
}

// SearchDocs is the distro's document: its kernel, backports and note.
func (p *DistroPage) SearchDocs() []page.Doc {
	d := p.Distro
	ids := []string{d.ID, d.Kernel, d.KernelBase}
	ships := " ships kernel " + d.Kernel
	switch {
	case d.Kernel == "":
		ships = " ships a Linux " + d.KernelBase + " kernel"
	case d.KernelBase != "":
		ships += " (based on " + d.KernelBase + ")"
	}
	body := []string{d.Name + ships + "."}
	for _, b := range d.Backports {
		ids = append(ids, b.Driver)
		body = append(body, inlineText(b.Text))
	}
	body = append(body, inlineText(d.Note))
	return []page.Doc{{URL: p.Path(), Title: p.Title, Kind: string(page.Distro), Lang: content.DefaultLang,
		Body: joinNonEmpty(body), IDs: ids}}
}

// SearchDocs is the stack's document: its kind, modules and note; its
// identifiers its modules and release versions.
func (p *StackPage) SearchDocs() []page.Doc {
	s := p.Stack
	ids := append([]string{s.ID}, s.Modules...)
	for _, r := range s.Releases {
		ids = append(ids, r.Version)
	}
	body := []string{s.Name + " (" + s.Kind + " stack). Modules: " + strings.Join(s.Modules, ", ") + ".", inlineText(s.Note)}
	return []page.Doc{{URL: p.Path(), Title: s.Name, Kind: string(page.Stack), Vendor: s.Vendor, Lang: content.DefaultLang,
		Body: joinNonEmpty(body), IDs: ids}}
}

// inlineText is the text a matrix field shows as MD renders it (Inline):
// its inline markdown read through the same goldmark parse, so a
// `module` is the word, not its backticks; a text Inline shows as it is
// (one markdown would make a block) is itself.
func inlineText(s string) string {
	if s == "" {
		return ""
	}
	if t, ok := markup.InlineText(markup.EscapeInline(s)); ok {
		return t
	}
	return s
}

// docVendor is the vendor a content page is about: the one vendor of the
// adapters it names, else the first vendor id among its tags, else none.
func docVendor(m *matrix.Matrix, adapters, tags []string) string {
	vs := map[string]bool{}
	for _, id := range adapters {
		if a := m.Adapter(id); a != nil && a.Vendor != "" {
			vs[a.Vendor] = true
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
		if m.Vendor(t) != nil {
			tv = append(tv, t)
		}
	}
	sort.Strings(tv)
	if len(tv) > 0 {
		return tv[0]
	}
	return ""
}

func langOr(l string) string {
	if l == "" {
		return content.DefaultLang
	}
	return l
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

func uniqueNonEmpty(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" && s != ":" && s != "," && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}
