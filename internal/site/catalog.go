package site

import (
	"html/template"
	"io"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/parallel"
	"github.com/rocekb/rocekb/internal/rule"
	"github.com/rocekb/rocekb/internal/verdict"
)

// Device is one PCI function of an adapter and the first upstream kernel
// whose driver lists it.
type Device struct {
	PCI    matrix.PCIID
	Kernel *matrix.PCIKernel // nil when the matrix does not know
}

// FleetUse is one recorded function of an adapter in the host records.
type FleetUse struct {
	Host, HostID, Firmware, Driver string
	Functions                      int // PCI functions of the host with these values
}

// Grid is an adapter's distro × stack verdict grid, laid out so a page
// writes each distinct reason once: cells name an explanation (Why), an
// explanation names its reasons by number, a reason its matrix entries by
// number. Every string a cell shows is set here, so the template's grid
// loops only print fields.
type Grid struct {
	Stacks []Target
	Rows   []GridRow
	// Common are the reasons every cell of a column shares (the adapter's
	// own conditions), numbered first; the rest follow in Reasons.
	Common  []GridReason
	Whys    []GridWhy    // the distinct explanations, numbered from 1
	Reasons []GridReason // numbered after Common
	Refs    []GridRef    // the matrix entries the reasons rest on, numbered from 1
	// RowDistro is whether a reason stands for its row's distro with
	// rowDistroHTML (see grid).
	RowDistro bool
	HTML      GridHTML // set by writeHTML for the page showing the grid
}

// GridRow is one distro.
type GridRow struct {
	Distro Target
	Family string
	// Name is how many bytes of Distro.Label name the distro before its
	// version ("Red Hat Enterprise Linux " of "Red Hat Enterprise Linux
	// 8.9"), 0 when the label does not hold the version after a space: a
	// row drawn after one of its family with the same name is written
	// without it ("8.8").
	Name    int
	Kernel  *GridKernel // the engine's note of the kernel the distro ships, shown beside it; nil when a numbered reason gives it
	Reasons []int       // reasons every cell of the row shares (the distro's own), by number
	Cells   []GridCell
	// Span is how many distros the row's cells are drawn for: a row whose
	// cells name the same explanations as the row above is drawn in that
	// row (Span 0), so a run of such distros shares one drawn row, which
	// prints whole. Group is the run, the row first; nil when Span is 0.
	Span  int
	Group []GridRow
}

// GridKernel is the engine's "ships kernel" note of a row, written in the
// row's heading instead of the reason list: the kernel ("" when the matrix
// names only its base), its upstream base when the kernel's name does not
// begin with it, and the distro entry's confidence (its sources are on the
// distro's page, which the row links).
type GridKernel struct {
	Kernel, Base string
	Confidence   string
	text         string // the engine's words, for tests
}

// GridCell is one verdict of the grid.
type GridCell struct {
	Stack  string
	Level  verdict.Level
	Likely verdict.Level // an unknown verdict's likely answer: a hint, never drawn as the verdict
	Why    int           // its explanation's number
	Class  string
	Mark   string
}

// GridWhy is a verdict with the reasons its cells do not share with their
// row or column: every cell showing it has this level, hint, nearest
// changes and these reasons besides its row's (the kernel and numbers
// beside the distro) and its column's conditions. A row's reasons are
// every cell's of the row, a column's every cell's of the column, so the
// page says once that a cell adds them.
type GridWhy struct {
	N                 int
	Class, Mark, Word string
	Likely            string // the likely hint's words, "" when none
	Nearest           []string
	Reasons           []int        // by number: reasons a row or another explanation gives too
	Own               []GridReason // reasons only this explanation gives, written in it
}

// GridReason is a reason of the grid, written once.
type GridReason struct {
	N                 int
	Class, Mark, Word string
	Likely            string // an unknown step's likely answer, in words
	HTML              template.HTML
	Refs              []int     // GridRef numbers: entries several reasons rest on
	Own               []GridRef // entries only this reason rests on, shown with it
	text              string    // the engine's words, for tests
	cols              []int     // for a Common reason: the columns, by index in Stacks
	Stacks            string    // for a Common reason: the columns every cell of which shows it
	Bare              bool      // written in an explanation that shows its level and hint
	src               int       // the table's reason it was made from (the first of those it stands for)
}

// GridRef is a matrix entry a reason rests on.
type GridRef struct {
	N          int
	Entry      string
	Confidence string
	Sources    []string
	Cites      template.HTML // Sources as the page cites them
	src        int           // its place in verdicts.refs
}

// cite sets the citations of the grid's entries.
func (g *Grid) cite(cites func([]string) template.HTML) {
	for i := range g.Refs {
		g.Refs[i].Cites = cites(g.Refs[i].Sources)
	}
	for _, rs := range g.reasonLists() {
		for i := range rs {
			for k := range rs[i].Own {
				rs[i].Own[k].Cites = cites(rs[i].Own[k].Sources)
			}
		}
	}
}

// reasonLists are the grid's reasons in the order the page shows them:
// the conditions, those written in an explanation, the numbered others.
func (g *Grid) reasonLists() [][]GridReason {
	out := [][]GridReason{g.Common}
	for _, w := range g.Whys {
		out = append(out, w.Own)
	}
	return append(out, g.Reasons)
}

// sources lists the sources the grid cites, in the order the page shows
// them: the conditions, the explanations' and the other reasons, then
// the shared entries. A row's kernel cites none: its sources are on the
// distro's page.
func (g *Grid) sources() []string {
	var ids []string
	add := func(src []string) {
		for _, id := range src {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	for _, rs := range g.reasonLists() {
		for _, r := range rs {
			for _, o := range r.Own {
				add(o.Sources)
			}
		}
	}
	for _, r := range g.Refs {
		add(r.Sources)
	}
	return ids
}

// AdapterRow is one row of the adapters index.
type AdapterRow struct {
	Adapter       *matrix.Adapter
	Vendor        *matrix.Vendor
	FirstKernel   string // the engine's first kernel for its RoCE inbox (verdict.FirstKernel), "" when none
	KernelSourced bool   // every row FirstKernel rests on is sourced; else the inbox verdict there is unknown
	RoCE          string // the RoCE filter's words: "v1 v2", "none" (not RoCE) or "unconfirmed"
	SupportEnd    string // short summary: "mlnx-ofed: last 4.9-…"
	EOSDate       string
	Stacks        []string // vendor stacks whose engine verdict, no release or OS given, is a yes
	Parts         []string
}

// AdaptersPage is adapter/index.html.
type AdaptersPage struct {
	Meta
	Rows    []AdapterRow
	Vendors []*matrix.Vendor
	Stacks  []Target
}

// VendorsPage is vendor/index.html.
type VendorsPage struct {
	Meta
	Vendors []VendorGroup
}

// VendorPage is vendor/<id>.html.
type VendorPage struct {
	Meta
	Vendor   *matrix.Vendor
	Adapters []*matrix.Adapter
	Drivers  []*matrix.Driver
	Stacks   []*matrix.Stack
	Sources  []SourceRef
}

// DriversPage is driver/index.html.
type DriversPage struct {
	Meta
	Drivers []*matrix.Driver
}

// DriverPage is driver/<id>.html.
type DriverPage struct {
	Meta
	Driver   *matrix.Driver
	Adapters []*matrix.Adapter
	Kernels  []AdapterKernel // per adapter, the engine's first kernel for its RoCE inbox
	Devices  []*matrix.PCIKernel
	Rows     []*matrix.DistroRow
	Sources  []SourceRef
}

// KernelsHTML is the items of the page's list of its adapters, each
// linking its page with the first kernel its RoCE works in inbox, escaped
// as html/template escapes the template loop it replaces
// (TestDriverKernelsHTMLIsTemplate holds it to it): the 10k corpus's
// driver pages list 2,057 adapters, and the loop spent a reflective call
// per value.
func (p *DriverPage) KernelsHTML() template.HTML {
	from := p.Path()
	b := make([]byte, 0, 160*len(p.Kernels))
	for _, k := range p.Kernels {
		b = append(b, `<li><a href="`...)
		b = appendURL(b, page.RelRef(from, page.Ref{Kind: page.Adapter, ID: k.Adapter.ID}))
		b = append(b, `">`...)
		b = append(appendEscaped(b, k.Adapter.Name), `</a>: `...)
		switch {
		case k.Sourced:
			b = appendEscaped(append(b, `Linux `...), k.Kernel)
		case k.Kernel != "":
			b = append(appendEscaped(append(b, `<span class="meta">Linux `...), k.Kernel), ` or later, unconfirmed</span>`...)
		default:
			b = append(b, `<span class="meta">unknown</span>`...)
		}
		b = append(b, `</li>`...)
	}
	return ownedHTML(b)
}

// DistrosPage is distro/index.html.
type DistrosPage struct {
	Meta
	Distros []*matrix.Distro
}

// DistroVerdict is an adapter's inbox verdict on a distro.
type DistroVerdict struct {
	Adapter *matrix.Adapter
	Shown
}

// DistroPage is distro/<id>.html.
type DistroPage struct {
	Meta
	Distro   *matrix.Distro
	Rows     []*matrix.DistroRow
	Releases []StackReleaseRef
	Sources  []SourceRef

	site *Site
}

// StackReleaseRef is a stack release that lists a distro.
type StackReleaseRef struct {
	Stack   *matrix.Stack
	Release *matrix.StackRelease
}

// StacksPage is stack/index.html.
type StacksPage struct {
	Meta
	Stacks []*matrix.Stack
}

// StackPage is stack/<id>.html.
type StackPage struct {
	Meta
	Stack      *matrix.Stack
	Releases   []ReleaseRow // newest first
	Rows       []*matrix.StackRow
	Ends       []StackEnd
	Adapters   []*matrix.Adapter
	Distros    map[string]string // distro id → name, for the OS column
	VendorName string
	Sources    []SourceRef
}

// ReleaseRow is a stack release and the adapters the matrix says it supports.
type ReleaseRow struct {
	matrix.StackRelease
	Adapters []*matrix.Adapter
}

// StackEnd is an adapter's end of support on the stack.
type StackEnd struct {
	Adapter *matrix.Adapter
	End     matrix.SupportEnd
}

// SourcesPage is sources.html.
type SourcesPage struct {
	Meta
	Sources []SourceEntry
}

// SourceEntry is a source and the claims that cite it.
type SourceEntry struct {
	SourceRef
	Cited []Citation
}

// Citation is a claim citing a source, and where the site shows it.
type Citation struct {
	What  string
	Ref   *page.Ref // nil when no page shows the claim
	Quote string
}

// URL links to the citing page from sources.html.
func (c Citation) URL() string {
	if c.Ref == nil {
		return ""
	}
	return page.RelRef(page.Path(page.Sources, ""), *c.Ref)
}

// CitedHTML is the items of a source's list of the claims citing it,
// each linking the page that shows it, escaped as html/template escapes
// the template loop it replaces (TestCitedHTMLIsTemplate holds it to
// it): the 10k corpus's sources page lists 13,555 claims, and the
// template's escapers and field lookups cost a reflective call per
// value, its URL method two.
func (p *SourcesPage) CitedHTML(cs []Citation) template.HTML {
	b := make([]byte, 0, 160*len(cs))
	for _, c := range cs {
		b = append(b, `<li>`...)
		if u := c.URL(); u != "" {
			b = append(b, `<a href="`...)
			b = append(appendURL(b, u), `">`...)
			b = append(appendEscaped(b, c.What), `</a>`...)
		} else {
			b = appendEscaped(b, c.What)
		}
		if c.Quote != "" {
			b = append(b, `<blockquote class="quote">“`...)
			b = append(appendEscaped(b, c.Quote), `”</blockquote>`...)
		}
		b = append(b, `</li>`...)
	}
	return ownedHTML(b)
}

// NotFoundPage is 404.html.
type NotFoundPage struct{ Meta }

// SearchPage is search.html: the static search (static/search.js) over
// the index the build writes into search/.
type SearchPage struct{ Meta }

// FolderPage is the index.html of a folder whose kind has no page of its
// own yet (faq/, tree/, tag/, host/): a list of the folder's pages.
type FolderPage struct {
	Meta
	Items []FolderItem
}

// FolderItem is one entry of a folder index.
type FolderItem struct {
	Title, Summary, Lang string
	Ref                  page.Ref
	Translations         []FolderItem
}

// Href links from the folder page to the item.
func (f *FolderPage) Item(it FolderItem) string { return page.RelRef(f.Path(), it.Ref) }

// ItemsHTML is the items of the folder's list, each with its summary and
// its translations' links, escaped as html/template escapes the template
// loop it replaces (TestFolderItemsHTMLIsTemplate holds it to it): the
// FAQ folder lists every FAQ page in English (8,058 on the 10k corpus) and the hosts
// folder every host, and the template's escapers and field lookups cost
// a reflective call per value.
func (f *FolderPage) ItemsHTML() template.HTML {
	from := f.Path()
	var translations string
	b := make([]byte, 0, 128*len(f.Items))
	for _, it := range f.Items {
		b = append(b, `<li><a href="`...)
		b = appendURL(b, page.RelRef(from, it.Ref))
		b = append(b, '"')
		if it.Lang != "" {
			b = append(b, ` lang="`...)
			b = append(appendEscaped(b, it.Lang), '"')
		}
		b = append(b, '>')
		b = appendEscaped(b, it.Title)
		b = append(b, `</a>`...)
		if it.Summary != "" {
			b = append(b, ` <span class="meta">`...)
			b = append(appendEscaped(b, it.Summary), `</span>`...)
		}
		if len(it.Translations) > 0 {
			if translations == "" {
				translations = f.T("translations")
			}
			b = append(b, ` <span class="meta">`...)
			b = append(appendEscaped(b, translations), `: `...)
			for _, t := range it.Translations {
				b = append(b, `<a href="`...)
				b = appendURL(b, page.RelRef(from, t.Ref))
				b = append(b, `" lang="`...)
				b = appendEscaped(b, t.Lang)
				b = append(b, `" hreflang="`...)
				b = appendEscaped(b, t.Lang)
				b = append(b, `">`...)
				b = append(appendEscaped(b, t.Lang), `</a> `...)
			}
			b = append(b, `</span>`...)
		}
		b = append(b, "</li>\n"...)
	}
	return ownedHTML(b)
}

// claims resolves the sources of claims, keeping each claim's quote
// with the sources it cites, so a printed page can be checked offline.
func (r sourceRefs) claims(claims ...matrix.Claim) []SourceRef {
	var ids []string
	quotes := map[string][]string{}
	for _, c := range claims {
		ids = append(ids, c.Sources...)
		if c.Quote == "" {
			continue
		}
		for _, id := range c.Sources {
			if !contains(quotes[id], c.Quote) {
				quotes[id] = append(quotes[id], c.Quote)
			}
		}
	}
	out := r.resolve(ids)
	for i := range out {
		out[i].Quotes = quotes[out[i].ID]
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// adapterClaims are the claims an adapter page shows.
func adapterClaims(m *matrix.Matrix, a *matrix.Adapter) []matrix.Claim {
	cs := []matrix.Claim{a.Claim}
	for _, f := range m.Firmware {
		if f.Adapter == a.ID {
			cs = append(cs, f.Claim)
		}
	}
	for _, n := range append(append([]matrix.Note(nil), a.Constraints...), a.KnownIssues...) {
		cs = append(cs, n.Claim)
	}
	for _, e := range a.SupportEnd {
		cs = append(cs, e.Claim)
	}
	if a.Interrupts != nil {
		cs = append(cs, a.Interrupts.Claim)
	}
	for _, p := range m.PartsOf(a.ID) {
		cs = append(cs, p.Claim)
	}
	for _, d := range devices(m, a) {
		if d.Kernel != nil {
			cs = append(cs, d.Kernel.Claim)
		}
	}
	for _, r := range m.StackRows {
		if contains(r.Adapters, a.ID) {
			cs = append(cs, r.Claim)
		}
	}
	return cs
}

func devices(m *matrix.Matrix, a *matrix.Adapter) []Device {
	out := make([]Device, 0, len(a.PCI))
	for _, p := range a.PCI {
		out = append(out, Device{PCI: p, Kernel: m.DeviceKernel(p.ID, p.Subsystem)})
	}
	return out
}

// adapterStacks are the stacks an adapter page's grid shows: those the
// engine relates to the adapter (verdict.AdapterStacks), as the exports.
func adapterStacks(m *matrix.Matrix, all []Target, a *matrix.Adapter) []Target {
	rel := map[string]bool{}
	for _, s := range verdict.AdapterStacks(m, a) {
		rel[s] = true
	}
	var out []Target
	for _, t := range all {
		if rel[t.Key] {
			out = append(out, t)
		}
	}
	return out
}

// grid builds the adapter's distro × stack grid from its verdict table:
// a peer group's member's from its first's (peerGrid) when the check
// there holds.
func (v *verdicts) grid(m *matrix.Matrix, a *matrix.Adapter) *Grid {
	stacks := adapterStacks(m, v.stacks, a)
	if g := v.peerGrid(m, a.ID, stacks); g != nil {
		return g
	}
	return v.gridOf(v.table(a.ID), stacks)
}

// gridCols is each of stacks' place in a row of a table (-1: none),
// looked up once, not per cell (2,058 pages of 153 × 8 cells on the 10k
// corpus).
func (v *verdicts) gridCols(stacks []Target) []int {
	cols := make([]int, len(stacks))
	for si, st := range stacks {
		if k, ok := v.stackN[st.Key]; ok {
			cols[si] = k
		} else {
			cols[si] = -1
		}
	}
	return cols
}

// gridOf is the grid of table t with the columns stacks.
func (v *verdicts) gridOf(t *AdapterVerdicts, stacks []Target) *Grid {
	g := &Grid{Stacks: stacks}
	distros := v.distros
	n := len(g.Stacks)
	cells := make([][]XCell, len(distros))
	flat := make([]XCell, len(distros)*n) // every row's cells in one allocation
	cols := v.gridCols(stacks)
	for i, d := range distros {
		cells[i] = flat[i*n : (i+1)*n : (i+1)*n]
		row := v.row(t, d.Key)
		for si, k := range cols {
			if row != nil && k >= 0 {
				cells[i][si] = row[k]
			}
		}
	}
	// shared is the reasons every cell of a list has, in the first's order.
	shared := func(cs []XCell, skip func(k, r int) bool) []int {
		var out []int
		if len(cs) == 0 {
			return nil
		}
	next:
		for _, r := range cs[0].Reasons {
			if skip(0, r) || slices.Contains(out, r) {
				continue
			}
			for k, c := range cs[1:] {
				if skip(k+1, r) || !slices.Contains(c.Reasons, r) {
					continue next
				}
			}
			out = append(out, r)
		}
		return out
	}
	never := func(int, int) bool { return false }

	refN := map[int]int{} // v.refs index → GridRef number
	refOf := func(x int) int {
		if n, ok := refN[x]; ok {
			return n
		}
		r := v.refs[x]
		n := len(g.Refs) + 1
		refN[x] = n
		g.Refs = append(g.Refs, GridRef{N: n, Entry: r.Entry, Confidence: r.Confidence, Sources: r.Sources, src: x})
		return n
	}
	reasonN := map[int]int{} // table reason number → GridReason number
	shownReason := func(r int) GridReason {
		x := v.raw(t, r)
		sh := Shown{Levels[x.Level]}
		gr := GridReason{Class: sh.Class(), Mark: sh.Mark(), Word: sh.Word(), text: x.Text, src: r}
		if x.Likely > 0 {
			gr.Likely = string(Levels[x.Likely-1])
		}
		gr.HTML = v.reasonHTML(r, x.Text)
		for _, ref := range x.Refs {
			// An entry cited twice (for two of its rules) shows once.
			if n := refOf(ref); !slices.Contains(gr.Refs, n) {
				gr.Refs = append(gr.Refs, n)
			}
		}
		return gr
	}

	// The columns' common reasons, numbered first.
	colCommon := make([]map[int]bool, len(g.Stacks))
	commonAt := map[int]int{} // table reason → index in g.Common
	col := make([]XCell, len(distros))
	for si, st := range g.Stacks {
		for i := range distros {
			col[i] = cells[i][si]
		}
		colCommon[si] = map[int]bool{}
		for _, r := range shared(col, never) {
			colCommon[si][r] = true
			if at, ok := commonAt[r]; ok {
				g.Common[at].Stacks += ", " + st.Label
				g.Common[at].cols = append(g.Common[at].cols, si)
				continue
			}
			gr := shownReason(r)
			gr.N = len(g.Common) + 1
			gr.Stacks = st.Label
			gr.cols = []int{si}
			commonAt[r] = len(g.Common)
			reasonN[r] = gr.N
			g.Common = append(g.Common, gr)
		}
	}
	// A reason that names its row's distro ("… lists rhel-8, rhel-9, not
	// Debian 12 (bookworm), which it likely predates") is written once for
	// the rows whose reasons differ from it only by that name, with
	// rowDistro for the name; such rows then share their explanations. A
	// reason no other row's matches keeps the name.
	// A shared reason's is the same on every grid (v.sharedTmpl).
	tmpl := func(r, i int) (text, key string) {
		if r < len(v.shared) {
			return v.sharedTmpl(r, i)
		}
		return rowTemplate(v.raw(t, r), distros[i].Label)
	}
	// tmplAt holds tmpl's answer for each reason of each row, asked once
	// (a row has a few reasons: a list, not a map).
	type tmplOut struct {
		r         int
		text, key string
	}
	// The rows' lists are cut from one slice, row after row, not each
	// grown on its own.
	tmplAt := make([][]tmplOut, len(distros))
	find := func(outs []tmplOut, r int) (tmplOut, bool) {
		for _, o := range outs {
			if o.r == r {
				return o, true
			}
		}
		return tmplOut{}, false
	}
	tmplOf := func(i, r int) (tmplOut, bool) { return find(tmplAt[i], r) }
	tmplRows := map[string]int{}
	listed := 0 // outs holds at most each cell's reasons: it is never grown
	for _, c := range flat {
		listed += len(c.Reasons)
	}
	outs := make([]tmplOut, 0, listed)
	for i := range distros {
		seen := map[string]bool{}
		start := len(outs)
		for _, c := range cells[i] {
			for _, r := range c.Reasons {
				o, ok := find(outs[start:], r)
				if !ok {
					o.r = r
					o.text, o.key = tmpl(r, i)
					outs = append(outs, o)
				}
				if o.key != "" && !seen[o.key] {
					seen[o.key] = true
					tmplRows[o.key]++
				}
			}
		}
		tmplAt[i] = outs[start:len(outs):len(outs)]
	}
	byTmpl := map[string]int{}
	// number is reason r's number as row i shows it.
	byShown := map[string]int{} // tmplKey without the nearest change → GridReason number
	number := func(r int, i int) int {
		if o, _ := tmplOf(i, r); tmplRows[o.key] > 1 {
			text, key := o.text, o.key
			if n, ok := byTmpl[key]; ok {
				return n
			}
			gr := shownReason(r)
			gr.N = len(g.Common) + len(g.Reasons) + 1
			gr.text = text
			html := v.inline // a shared reason's text is the same on every page that shows it
			if r >= len(v.shared) {
				html = Inline
			}
			gr.HTML = template.HTML(strings.ReplaceAll(string(html(text)), rowDistro, rowDistroHTML))
			g.RowDistro = true
			byTmpl[key] = gr.N
			g.Reasons = append(g.Reasons, gr)
			return gr.N
		}
		if n, ok := reasonN[r]; ok {
			return n
		}
		// Reasons that differ only in their nearest change, which a cell's
		// explanation shows, not the reason, are one reason on the page
		// (a family row's hint for two rebuilds of one release).
		x := v.raw(t, r)
		var key string
		if r < len(v.shared) {
			key = v.sharedTmpls().shown[r]
		} else {
			key = tmplKey(x, x.Text, "")
		}
		if n, ok := byShown[key]; ok {
			reasonN[r] = n
			return n
		}
		gr := shownReason(r)
		gr.N = len(g.Common) + len(g.Reasons) + 1
		reasonN[r], byShown[key] = gr.N, gr.N
		g.Reasons = append(g.Reasons, gr)
		return gr.N
	}
	whyN := map[string]int{}
	var all []verdict.Reason // a cell's reasons, for its likely answer
	g.Rows = make([]GridRow, 0, len(distros))
	for i, d := range distros {
		row := GridRow{Distro: d, Cells: make([]GridCell, 0, len(g.Stacks))}
		md := v.entries[i]
		if md != nil {
			row.Family = md.Family
			if i := strings.Index(d.Label, md.Version); md.Version != "" && i > 0 && d.Label[i-1] == ' ' {
				row.Name = i
			}
		}
		// The row's own reasons (with one column, all its cell's own).
		rowCommon := shared(cells[i], func(k, r int) bool { return colCommon[k][r] })
		for _, r := range rowCommon {
			if row.Kernel == nil {
				if row.Kernel = v.kernelNote(t, r, md); row.Kernel != nil {
					continue
				}
			}
			row.Reasons = append(row.Reasons, number(r, i))
		}
		for si, st := range g.Stacks {
			c := cells[i][si]
			level, near := v.level(t, c)
			sh := Shown{level}
			w := GridWhy{Class: sh.Class(), Mark: sh.Mark(), Word: sh.Word(), Nearest: near}
			all = all[:0]
			for _, r := range c.Reasons {
				x := v.raw(t, r)
				rv := verdict.Reason{Verdict: Levels[x.Level], Informs: x.Informs}
				if x.Likely > 0 {
					rv.Likely = Levels[x.Likely-1]
				}
				all = append(all, rv)
				switch {
				case colCommon[si][r], slices.Contains(rowCommon, r):
				default:
					w.Reasons = append(w.Reasons, number(r, i))
				}
			}
			likely := verdict.LikelyOf(level, all)
			w.Likely = string(likely)
			key := whyKey(w)
			n, ok := whyN[key]
			if !ok {
				n = len(g.Whys) + 1
				w.N = n
				whyN[key] = n
				g.Whys = append(g.Whys, w)
			}
			row.Cells = append(row.Cells, GridCell{Stack: st.Key, Level: level, Likely: likely, Why: n, Class: w.Class, Mark: w.Mark})
		}
		row.Span = 1
		if head := len(g.Rows) - 1; head >= 0 {
			for g.Rows[head].Span == 0 {
				head--
			}
			if slices.EqualFunc(g.Rows[head].Cells, row.Cells, func(a, b GridCell) bool { return a.Why == b.Why }) {
				g.Rows[head].Span++
				row.Span = 0
			}
		}
		g.Rows = append(g.Rows, row)
	}
	for i := range g.Rows {
		if n := g.Rows[i].Span; n > 0 {
			g.Rows[i].Group = g.Rows[i : i+n]
		}
	}
	g.ownRefs()
	g.ownReasons()
	return g
}

// ownReasons writes each reason only one explanation gives (and no row) in
// that explanation, and numbers the other reasons again in order.
func (g *Grid) ownReasons() {
	// The reasons are numbered 1 to len(Common)+len(Reasons): what is
	// kept per number is a slice by it, not a map.
	n := len(g.Common) + len(g.Reasons) + 1
	uses := make([]int, n)
	for _, w := range g.Whys {
		for _, n := range w.Reasons {
			uses[n]++
		}
	}
	for _, r := range g.Rows {
		for _, n := range r.Reasons {
			uses[n] += 2
		}
	}
	all := g.Reasons
	byN := make([]*GridReason, n) // an explanation's own reason, in all
	renum := make([]int, n)
	for _, r := range g.Common {
		renum[r.N] = r.N
	}
	var kept []GridReason
	for i, r := range all {
		if uses[r.N] == 1 {
			byN[r.N] = &all[i]
			continue
		}
		renum[r.N] = len(g.Common) + len(kept) + 1
		r.N = renum[r.N]
		kept = append(kept, r)
	}
	g.Reasons = kept
	for i := range g.Whys {
		w := &g.Whys[i]
		var shared []int
		for _, n := range w.Reasons {
			if p := byN[n]; p != nil {
				r := *p
				r.N = 0
				w.Own = append(w.Own, r)
			} else {
				shared = append(shared, renum[n])
			}
		}
		w.Reasons = shared
		// An explanation says its level and hint once: a reason of its
		// own with the same ones is written without them.
		for k := range w.Own {
			if o := &w.Own[k]; o.Class == w.Class && o.Likely == w.Likely {
				o.Bare = true
			}
		}
	}
	for i := range g.Rows {
		for k, n := range g.Rows[i].Reasons {
			g.Rows[i].Reasons[k] = renum[n]
		}
	}
}

// rowDistro stands for a row's distro in a reason written once for several
// rows (a private-use character, which matrix text never holds);
// rowDistroHTML is how the page writes it.
const (
	rowDistro     = "\uE000"
	rowDistroHTML = "<i>the row's distro</i>"
)

// rowTemplate is reason x as a grid writes it for a row whose distro is
// labelled label, with rowDistro for the distro's name, and its tmplKey;
// "" when x does not name the distro.
func rowTemplate(x *XReason, label string) (text, key string) {
	if label == "" || !strings.Contains(x.Text, label) {
		return "", ""
	}
	text = strings.ReplaceAll(x.Text, label, rowDistro)
	return text, tmplKey(x, text, strings.ReplaceAll(x.Nearest, label, rowDistro))
}

// sharedTmpls are the shared reasons as every grid writes them: each one's
// tmplKey without its nearest change, and its rowTemplate for each distro
// row that names it. A grid asked them of each of its 153 rows' reasons,
// building the same keys on every adapter page.
type sharedTmpls struct {
	shown []string    // by shared reason
	at    []int32     // by distro row × shared reason: the place in rows, or -1
	rows  [][2]string // rowTemplate's text and key
}

func (v *verdicts) sharedTmpls() *sharedTmpls {
	v.tmplOnce.Do(func() {
		st := &sharedTmpls{shown: make([]string, len(v.shared)), at: make([]int32, len(v.distros)*len(v.shared))}
		for r := range v.shared {
			x := &v.shared[r]
			st.shown[r] = tmplKey(x, x.Text, "")
			for i, d := range v.distros {
				at := &st.at[i*len(v.shared)+r]
				*at = -1
				if text, key := rowTemplate(x, d.Label); key != "" {
					*at = int32(len(st.rows))
					st.rows = append(st.rows, [2]string{text, key})
				}
			}
		}
		v.tmpls = st
	})
	return v.tmpls
}

// sharedTmpl is rowTemplate of shared reason r for distro row i.
func (v *verdicts) sharedTmpl(r, i int) (text, key string) {
	st := v.sharedTmpls()
	if at := st.at[i*len(v.shared)+r]; at >= 0 {
		return st.rows[at][0], st.rows[at][1]
	}
	return "", ""
}

// tmplKey tells apart reasons written with rowDistro: text and nearest are
// theirs with the distro's name replaced.
// It is written without fmt, which was a fifth of a grid's time.
func tmplKey(x *XReason, text, nearest string) string {
	var b strings.Builder
	b.Grow(16 + len(text) + len(nearest) + 5*len(x.Refs))
	b.WriteString(strconv.Itoa(x.Level))
	b.WriteByte(0)
	b.WriteString(strconv.Itoa(x.Likely))
	b.WriteByte(0)
	b.WriteString(strconv.FormatBool(x.Informs))
	b.WriteByte(0)
	b.WriteString(strconv.FormatBool(x.Firmware))
	b.WriteByte(0)
	b.WriteString(text)
	b.WriteByte(0)
	b.WriteString(nearest)
	for _, r := range x.Refs {
		b.WriteByte(0)
		b.WriteString(strconv.Itoa(r))
	}
	return b.String()
}

// kernelNote is reason r as a row's kernel when it is the engine's note of
// the kernel distro d ships: a note resting on d's entry alone.
func (v *verdicts) kernelNote(t *AdapterVerdicts, r int, d *matrix.Distro) *GridKernel {
	x := v.raw(t, r)
	if d == nil || !x.Informs || len(x.Refs) != 1 {
		return nil
	}
	ref := v.refs[x.Refs[0]]
	if id, ok := strings.CutPrefix(ref.Entry, "distro "); !ok || id != d.ID {
		return nil
	}
	k := &GridKernel{Kernel: d.Kernel, Base: d.KernelBase, Confidence: ref.Confidence, text: x.Text}
	if k.Base == "" {
		k.Base, _, _ = rule.KernelBase(d.Kernel)
	}
	if k.Kernel != "" && strings.HasPrefix(k.Kernel, k.Base) {
		k.Base = ""
	}
	return k
}

// ownRefs moves each matrix entry only one reason rests on into that
// reason, and numbers the others again in order.
func (g *Grid) ownRefs() {
	uses := make([]int, len(g.Refs)+1)
	each := func(f func(gr *GridReason)) {
		for i := range g.Common {
			f(&g.Common[i])
		}
		for i := range g.Reasons {
			f(&g.Reasons[i])
		}
	}
	each(func(gr *GridReason) {
		for _, n := range gr.Refs {
			uses[n]++
		}
	})
	renum := make([]int, len(g.Refs)+1)
	var kept []GridRef
	for _, r := range g.Refs {
		if uses[r.N] > 1 {
			renum[r.N] = len(kept) + 1
			r.N = len(kept) + 1
			kept = append(kept, r)
		}
	}
	all := g.Refs
	g.Refs = kept
	each(func(gr *GridReason) {
		var shared []int
		for _, n := range gr.Refs {
			if renum[n] == 0 {
				gr.Own = append(gr.Own, all[n-1])
			} else {
				shared = append(shared, renum[n])
			}
		}
		gr.Refs = shared
	})
}

// whyKey tells explanations apart; \x00 and \x01 never occur in matrix text.
func whyKey(w GridWhy) string {
	var b strings.Builder
	b.WriteString(w.Word)
	b.WriteByte(0)
	b.WriteString(w.Likely)
	b.WriteByte(0)
	b.WriteString(strings.Join(w.Nearest, "\x01"))
	b.WriteByte(0)
	for _, r := range w.Reasons {
		b.WriteString(strconv.Itoa(r))
		b.WriteByte(1)
	}
	return b.String()
}

// Shown is a verdict level as pages show it: a CSS class, a mark that
// survives black-and-white printing, and words. Grid cells, reasons and
// distro verdicts embed it.
type Shown struct{ Level verdict.Level }

// Class is the level's CSS class.
func (s Shown) Class() string {
	switch s.Level {
	case verdict.Supported:
		return "ok"
	case verdict.Conditional:
		return "cond"
	case verdict.Unsupported:
		return "no"
	}
	return "unk"
}

// Mark is a symbol that survives black-and-white printing.
func (s Shown) Mark() string {
	switch s.Level {
	case verdict.Supported:
		return "✓"
	case verdict.Conditional:
		return "✓*"
	case verdict.Unsupported:
		return "✗"
	}
	return "?"
}

// Word is the verdict in words.
func (s Shown) Word() string {
	switch s.Level {
	case verdict.Supported:
		return "supported"
	case verdict.Conditional:
		return "with conditions"
	case verdict.Unsupported:
		return "unsupported"
	}
	return "unknown"
}

// supportEndSummary is the adapters index's end-of-support column.
func supportEndSummary(a *matrix.Adapter) (text, date string) {
	var parts []string
	for _, e := range a.SupportEnd {
		p := e.Stack
		switch {
		case e.LastRelease != "":
			p += " ≤ " + e.LastRelease
		case e.DroppedIn != "":
			p += " < " + e.DroppedIn
		}
		parts = append(parts, p)
		if e.Date != nil && (date == "" || e.Date.Format("2006-01-02") < date) {
			date = e.Date.Format("2006-01-02")
		}
	}
	return strings.Join(parts, "; "), date
}

// inRelease reports whether version v lies in from..until (either may be empty).

// buildCatalog adds the matrix's index, vendor, driver, distro, stack,
// sources and 404 pages.
func (s *Site) buildCatalog(meta func(page.Kind, string, string) Meta, faqs []*FAQ) {
	m := s.m
	vendors := append([]*matrix.Vendor(nil), vendorsByName(m)...)

	// Adapters index.
	ai := &AdaptersPage{Meta: meta(page.Adapters, "", "Adapters"), Vendors: vendors, Stacks: s.verdicts.stacks}
	as := sortedAdapters(m)
	// The stacks each adapter works with, judged on every CPU.
	yes := make([][]string, len(as))
	if !s.searchOnly {
		parallel.Each(len(as), func(i int) { yes[i] = s.verdicts.yesStacks(as[i]) })
	}
	for i, a := range as {
		row := AdapterRow{Adapter: a, Vendor: m.Vendor(a.Vendor), Stacks: yes[i]}
		row.FirstKernel, row.KernelSourced = verdict.FirstKernel(m, a)
		switch roce, ok := verdict.RoCE(a); {
		case a.NotRoCE != "":
			row.RoCE = "none"
		case ok:
			row.RoCE = strings.Join(roce, " ")
		default:
			row.RoCE = "unconfirmed"
		}
		row.SupportEnd, row.EOSDate = supportEndSummary(a)
		for _, p := range m.PartsOf(a.ID) {
			row.Parts = append(row.Parts, p.Number)
		}
		ai.Rows = append(ai.Rows, row)
	}
	sort.SliceStable(ai.Rows, func(i, j int) bool {
		return strings.ToLower(ai.Rows[i].Adapter.Name) < strings.ToLower(ai.Rows[j].Adapter.Name)
	})
	s.Pages = append(s.Pages, ai)

	// Vendors.
	vi := &VendorsPage{Meta: meta(page.Vendors, "", "Vendors"), Vendors: s.home.Vendors}
	s.Pages = append(s.Pages, vi)
	for _, g := range s.home.Vendors {
		v := g.Vendor
		vp := &VendorPage{Meta: meta(page.Vendor, v.ID, v.Name), Vendor: v, Adapters: g.Adapters}
		claims := []matrix.Claim{v.Claim}
		for i := range m.Drivers {
			if m.Drivers[i].Vendor == v.ID {
				vp.Drivers = append(vp.Drivers, &m.Drivers[i])
				claims = append(claims, m.Drivers[i].Claim)
			}
		}
		for i := range m.Stacks {
			if m.Stacks[i].Vendor == v.ID {
				vp.Stacks = append(vp.Stacks, &m.Stacks[i])
				claims = append(claims, m.Stacks[i].Claim)
			}
		}
		vp.Sources = s.sources.claims(claims...)
		s.Pages = append(s.Pages, vp)
	}

	// Drivers.
	di := &DriversPage{Meta: meta(page.Drivers, "", "Drivers")}
	for i := range m.Drivers {
		d := &m.Drivers[i]
		di.Drivers = append(di.Drivers, d)
		dp := &DriverPage{Meta: meta(page.Driver, d.ID, d.Name), Driver: d}
		claims := []matrix.Claim{d.Claim}
		modules := append([]string{d.ID}, d.EthDrivers...)
		for _, a := range sortedAdapters(m) {
			if a.RDMADriver == d.ID {
				dp.Adapters = append(dp.Adapters, a)
				k, ok := verdict.FirstKernel(m, a)
				dp.Kernels = append(dp.Kernels, AdapterKernel{Adapter: a, Kernel: k, Sourced: ok})
			}
		}
		for j := range m.PCIKernels {
			if contains(modules, m.PCIKernels[j].Driver) {
				dp.Devices = append(dp.Devices, &m.PCIKernels[j])
				claims = append(claims, m.PCIKernels[j].Claim)
			}
		}
		for j := range m.DistroRows {
			if contains(m.DistroRows[j].Drivers, d.ID) {
				dp.Rows = append(dp.Rows, &m.DistroRows[j])
				claims = append(claims, m.DistroRows[j].Claim)
			}
		}
		dp.Sources = s.sources.claims(claims...)
		s.Pages = append(s.Pages, dp)
	}
	sort.Slice(di.Drivers, func(i, j int) bool { return di.Drivers[i].ID < di.Drivers[j].ID })
	s.Pages = append(s.Pages, di)

	// Distros.
	dsi := &DistrosPage{Meta: meta(page.Distros, "", "Distros")}
	for _, t := range distroTargets(m) {
		d := m.Distro(t.Key)
		dsi.Distros = append(dsi.Distros, d)
		dp := &DistroPage{Meta: meta(page.Distro, d.ID, d.Name), Distro: d, site: s}
		claims := []matrix.Claim{d.Claim}
		for _, b := range d.Backports {
			claims = append(claims, b.Claim)
		}
		for j := range m.DistroRows {
			r := &m.DistroRows[j]
			if rule.Covers(r, d) {
				dp.Rows = append(dp.Rows, r)
				claims = append(claims, r.Claim)
			}
		}
		for j := range m.Stacks {
			st := &m.Stacks[j]
			for k := range st.Releases {
				for _, os := range st.Releases[k].ListedOS() {
					if matrix.OSMatches(os, d) {
						dp.Releases = append(dp.Releases, StackReleaseRef{Stack: st, Release: &st.Releases[k]})
						claims = append(claims, st.Releases[k].Claim)
						break
					}
				}
			}
		}
		dp.Sources = s.sources.claims(claims...)
		s.distroPages = append(s.distroPages, dp)
		s.Pages = append(s.Pages, dp)
	}
	s.Pages = append(s.Pages, dsi)

	// Stacks.
	names := map[string]string{}
	for _, d := range m.Distros {
		names[d.ID] = d.Name
	}
	sti := &StacksPage{Meta: meta(page.Stacks, "", "Stacks")}
	for i := range m.Stacks {
		st := &m.Stacks[i]
		sti.Stacks = append(sti.Stacks, st)
		sp := &StackPage{Meta: meta(page.Stack, st.ID, st.Name), Stack: st, Distros: names}
		if v := m.Vendor(st.Vendor); v != nil {
			sp.VendorName = v.Name
		}
		claims := []matrix.Claim{st.Claim}
		for _, r := range st.Releases {
			row := ReleaseRow{StackRelease: r}
			if !s.searchOnly {
				row.Adapters = s.verdicts.releaseAdapters(st.ID, r.Version)
			}
			sp.Releases = append(sp.Releases, row)
		}
		sort.SliceStable(sp.Releases, func(i, j int) bool {
			c, ok := rule.Compare(sp.Releases[i].Version, sp.Releases[j].Version)
			return ok && c > 0
		})
		for _, r := range sp.Releases {
			claims = append(claims, r.Claim)
		}
		for j := range m.StackRows {
			if m.StackRows[j].Stack == st.ID {
				sp.Rows = append(sp.Rows, &m.StackRows[j])
				claims = append(claims, m.StackRows[j].Claim)
			}
		}
		if !s.searchOnly {
			sp.Adapters = s.verdicts.releaseAdapters(st.ID, "")
		}
		for _, a := range sortedAdapters(m) {
			for _, e := range a.SupportEnd {
				if e.Stack == st.ID {
					sp.Ends = append(sp.Ends, StackEnd{Adapter: a, End: e})
					claims = append(claims, e.Claim)
				}
			}
		}
		sp.Sources = s.sources.claims(claims...)
		s.Pages = append(s.Pages, sp)
	}
	sort.Slice(sti.Stacks, func(i, j int) bool { return sti.Stacks[i].Name < sti.Stacks[j].Name })
	s.Pages = append(s.Pages, sti)

	s.Pages = append(s.Pages, s.sourcesPage(meta, faqs), &NotFoundPage{Meta: meta(page.NotFound, "", "Page not found")}, &SearchPage{Meta: meta(page.Search, "", "Search")})
}

func vendorsByName(m *matrix.Matrix) []*matrix.Vendor {
	out := make([]*matrix.Vendor, len(m.Vendors))
	for i := range m.Vendors {
		out[i] = &m.Vendors[i]
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// sourcesPage lists every source and every claim that cites it, linking
// to the page that shows the claim.
func (s *Site) sourcesPage(meta func(page.Kind, string, string) Meta, faqs []*FAQ) *SourcesPage {
	m, c := s.m, s.c
	cited := map[string][]Citation{}
	add := func(what string, ref *page.Ref, cl matrix.Claim) {
		for _, id := range cl.Sources {
			cited[id] = append(cited[id], Citation{What: what, Ref: ref, Quote: cl.Quote})
		}
	}
	ref := func(k page.Kind, id, anchor string) *page.Ref { return &page.Ref{Kind: k, ID: id, Anchor: anchor} }
	for _, v := range m.Vendors {
		add("vendor "+v.Name, ref(page.Vendor, v.ID, ""), v.Claim)
	}
	for _, d := range m.Drivers {
		add("driver "+d.ID, ref(page.Driver, d.ID, ""), d.Claim)
	}
	for _, a := range sortedAdapters(m) {
		r := ref(page.Adapter, a.ID, "")
		add(a.Name, r, a.Claim)
		for _, n := range a.Constraints {
			add(a.Name+" constraint "+n.ID, ref(page.Adapter, a.ID, n.ID), n.Claim)
		}
		for _, n := range a.KnownIssues {
			add(a.Name+" known issue "+n.ID, ref(page.Adapter, a.ID, n.ID), n.Claim)
		}
		for _, e := range a.SupportEnd {
			add(a.Name+" end of support on "+e.Stack, ref(page.Adapter, a.ID, "support-end"), e.Claim)
		}
		if a.Interrupts != nil {
			add(a.Name+" interrupts", r, a.Interrupts.Claim)
		}
	}
	for _, f := range m.Firmware {
		if m.Adapter(f.Adapter) != nil {
			add("firmware minimum "+f.Adapter+" "+f.Feature+" "+f.Min, ref(page.Adapter, f.Adapter, "firmware"), f.Claim)
		}
	}
	for _, p := range m.Parts {
		if m.Adapter(p.Adapter) != nil {
			add("part number "+p.Number, ref(page.Adapter, p.Adapter, "identity"), p.Claim)
		}
	}
	for _, k := range m.PCIKernels {
		var r *page.Ref
		if a := m.Match(strings.Split(k.PCI, ":")[0], strings.Split(k.PCI+":", ":")[1], subPart(k.Subsystem, 0), subPart(k.Subsystem, 1)); a != nil {
			r = ref(page.Adapter, a.ID, "identity")
		} else if m.Driver(k.Driver) != nil {
			r = ref(page.Driver, k.Driver, "")
		}
		add("first kernel of "+k.PCI+" ("+k.Driver+")", r, k.Claim)
	}
	for _, d := range m.Distros {
		add(d.Name, ref(page.Distro, d.ID, ""), d.Claim)
		for _, b := range d.Backports {
			add(d.Name+" backport "+b.Driver, ref(page.Distro, d.ID, ""), b.Claim)
		}
	}
	for _, r := range m.DistroRows {
		var to *page.Ref
		for _, d := range m.Distros {
			if rule.Covers(&r, &d) {
				to = ref(page.Distro, d.ID, "")
				break
			}
		}
		add(r.Family+" "+r.From+"… "+r.Status+": "+r.Text, to, r.Claim)
	}
	for _, st := range m.Stacks {
		add(st.Name, ref(page.Stack, st.ID, ""), st.Claim)
		for _, r := range st.Releases {
			add(st.Name+" "+r.Version, ref(page.Stack, st.ID, ""), r.Claim)
		}
	}
	for _, r := range m.StackRows {
		if m.Stack(r.Stack) != nil {
			add(r.Stack+" support for "+strings.Join(r.Adapters, ", "), ref(page.Stack, r.Stack, ""), r.Claim)
		}
	}
	for _, r := range m.RoCEDefaults {
		add("default RoCE mode on "+r.Family+" "+r.Since, nil, r.Claim)
	}
	if m.Protocol != nil {
		add("RoCE wire protocol", nil, m.Protocol.Claim)
	}
	for _, f := range faqs {
		for _, id := range f.Page.Meta.Sources {
			cited[id] = append(cited[id], Citation{What: "FAQ: " + f.Page.Meta.Title, Ref: ref(page.FAQ, f.Page.Slug, "")})
		}
	}
	for _, t := range c.Trees {
		for _, id := range t.Sources {
			cited[id] = append(cited[id], Citation{What: "Troubleshooting: " + t.Title, Ref: ref(page.Tree, t.ID, "")})
		}
	}
	for _, t := range c.Glossary {
		for _, id := range t.Sources {
			cited[id] = append(cited[id], Citation{What: "Glossary: " + t.Term, Ref: ref(page.Glossary, "", t.ID)})
		}
	}
	sp := &SourcesPage{Meta: meta(page.Sources, "", "Sources")}
	sp.deps.Read(page.InFAQList) // the FAQ pages, trees and terms that cite a source
	sp.deps.Read(page.InTreeList)
	sp.deps.Read(page.InGlossary)
	srcs := append([]matrix.Source(nil), m.Sources...)
	sort.Slice(srcs, func(i, j int) bool { return srcs[i].ID < srcs[j].ID })
	for _, src := range srcs {
		e := SourceEntry{SourceRef: s.sources.resolve([]string{src.ID})[0], Cited: dedupCitations(cited[src.ID])}
		sp.Sources = append(sp.Sources, e)
	}
	return sp
}

func subPart(sub string, i int) string {
	if sub == "" {
		return ""
	}
	p := strings.Split(sub, ":")
	if len(p) != 2 {
		return ""
	}
	return p[i]
}

func dedupCitations(cs []Citation) []Citation {
	var out []Citation
	seen := map[string]bool{}
	for _, c := range cs {
		k := c.What + "\x00" + c.URL() + "\x00" + c.Quote
		if !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	return out
}

// Late returns the pages made once the host pages are written: the adapter
// pages (which show what the fleet runs), the distro pages' verdicts, and
// the index of every folder that has no index page of its own.
func (s *Site) Late() []Page {
	st := &s.hosts
	st.mu.Lock()
	sums := append([]HostSummary(nil), st.sums...)
	reps := st.fleet
	st.mu.Unlock()
	inputs := st.inputs
	uses := map[string][]FleetUse{}
	users := map[string][]page.Input{} // adapter id → the records of the hosts in uses
	for i, r := range reps {
		if r == nil || r.Record == nil {
			continue
		}
		for _, a := range r.Record.Adapters {
			ma := s.m.Identify(a.Vendor, a.Device, a.SubsystemVendor, a.SubsystemDevice, a.Name)
			if ma == nil {
				continue
			}
			u := FleetUse{Host: sums[i].Slug, HostID: sums[i].ID, Firmware: a.Firmware.Running, Driver: a.Driver.Name, Functions: 1}
			if l := users[ma.ID]; len(l) == 0 || l[len(l)-1] != inputs[i] {
				users[ma.ID] = append(users[ma.ID], inputs[i])
			}
			if l := uses[ma.ID]; len(l) > 0 && l[len(l)-1].Host == u.Host && l[len(l)-1].Firmware == u.Firmware && l[len(l)-1].Driver == u.Driver {
				l[len(l)-1].Functions++
				continue
			}
			uses[ma.ID] = append(uses[ma.ID], u)
		}
	}
	var out []Page
	for _, ap := range s.adapterPages {
		ap.Fleet = uses[ap.Adapter.ID]
		// The page shows the hosts that run the adapter, each from its
		// record and the page that record was given.
		ap.deps.Read(s.Inputs.Group("fleet/"+ap.Adapter.ID, users[ap.Adapter.ID]))
		sort.SliceStable(ap.Fleet, func(i, j int) bool { return ap.Fleet[i].Host < ap.Fleet[j].Host })
		a := ap.Adapter
		ap.grid = func() *Grid {
			g := s.verdicts.grid(s.m, a)
			// The grid's reasons cite distro and stack entries too: list
			// their sources after the claims', so every [n] has its entry.
			ap.setSources(s.sources.resolve(g.sources()))
			g.cite(ap.Cites)
			g.writeHTML(ap.Path())
			return g
		}
		out = append(out, ap)
	}
	out = append(out, s.folders(sums)...)
	sortPages(out)
	return out
}

// folders makes the index.html of faq/, tree/, tag/ and host/ unless a page
// of the site already is that index.
func (s *Site) folders(sums []HostSummary) []Page {
	have := map[string]bool{}
	for _, p := range s.Pages {
		have[p.PageMeta().Path()] = true
	}
	meta := func(k page.Kind, title string) Meta { return s.meta(k, "", title) }
	var out []Page
	if !have[page.Path(page.FAQIndex, "")] {
		f := &FolderPage{Meta: meta(page.FAQIndex, "FAQ")}
		f.deps.Read(page.InFAQList)
		byKey := map[string][]*content.Page{}
		for _, p := range s.c.Pages {
			if k := p.Meta.TranslationKey; k != "" {
				byKey[k] = append(byKey[k], p)
			}
		}
		for _, fq := range s.home.FAQ {
			p := fq.Page
			if !isDefaultLang(p.Meta.Lang) {
				continue
			}
			it := FolderItem{Title: p.Meta.Title, Summary: p.Meta.Summary, Lang: p.Meta.Lang, Ref: page.Ref{Kind: page.FAQ, ID: p.Slug}}
			for _, o := range byKey[p.Meta.TranslationKey] {
				if o != p && p.Meta.TranslationKey != "" {
					it.Translations = append(it.Translations, FolderItem{Title: o.Meta.Title, Lang: o.Meta.Lang, Ref: page.Ref{Kind: page.FAQ, ID: o.Slug}})
				}
			}
			f.Items = append(f.Items, it)
		}
		out = append(out, f)
	}
	if !have[page.Path(page.Trees, "")] {
		f := &FolderPage{Meta: meta(page.Trees, "Troubleshooting")}
		f.deps.Read(page.InTreeList)
		for _, t := range s.c.Trees {
			f.Items = append(f.Items, FolderItem{Title: t.Title, Summary: t.Summary, Lang: t.Lang, Ref: page.Ref{Kind: page.Tree, ID: t.ID}})
		}
		out = append(out, f)
	}
	if !have[page.Path(page.Tags, "")] {
		f := &FolderPage{Meta: meta(page.Tags, "Tags")} // the tags of the FAQ pages and trees
		f.deps.Read(page.InFAQList)
		f.deps.Read(page.InTreeList)
		for _, p := range s.Pages {
			if pm := p.PageMeta(); pm.Ref.Kind == page.Tag && isDefaultLang(pm.Lang) {
				f.Items = append(f.Items, FolderItem{Title: pm.Title, Ref: pm.Ref})
			}
		}
		if len(f.Items) > 0 {
			out = append(out, f)
		}
	}
	if len(sums) > 0 && !have[page.Path(page.Hosts, "")] {
		f := &FolderPage{Meta: meta(page.Hosts, "Hosts")}
		f.deps.Read(page.InRecords)
		for _, h := range sums {
			f.Items = append(f.Items, FolderItem{Title: h.ID, Summary: h.OS, Ref: page.Ref{Kind: page.Host, ID: h.Slug}})
		}
		out = append(out, f)
	}
	return out
}

func isDefaultLang(l string) bool { return l == "" || l == content.DefaultLang }

// InboxVerdicts is the engine's verdict for every adapter on the distro
// with its inbox drivers, from the same tables as the grids.
func (s *Site) inboxVerdicts(d *matrix.Distro) []DistroVerdict {
	var out []DistroVerdict
	for _, a := range sortedAdapters(s.m) {
		out = append(out, DistroVerdict{Adapter: a, Shown: Shown{s.inboxLevel(a, d)}})
	}
	return out
}

// inboxLevel is the grid's verdict of adapter a on distro d with its
// inbox drivers.
func (s *Site) inboxLevel(a *matrix.Adapter, d *matrix.Distro) verdict.Level {
	if c, ok := s.verdicts.cell(a.ID, d.ID, "inbox"); ok {
		return Levels[c.Level]
	}
	return verdict.Undecided
}

// Inbox is the distro's inbox verdict per adapter, made when the page is
// written (it reads every adapter's verdict table).
func (d *DistroPage) Inbox() []DistroVerdict { return d.site.inboxVerdicts(d.Distro) }

// InboxList is the items of the Inbox list, appended as writeHTML appends
// a grid's: a distro page lists every adapter (2,057 on the 10k corpus),
// and a template loop spent reflection on each. An item is its verdict's
// mark, one of four, and the adapter's link, the same on every distro
// page, made once per site (Site.inboxLinks). The list is written into
// the page as it is made (the template's held), never held whole.
func (d *DistroPage) InboxList() InboxItems { return InboxItems{d} }

// InboxHTML is InboxList's items whole, for a template (an override made
// before held) that prints them without held.
func (d *DistroPage) InboxHTML() template.HTML { return wholeHTML(d.InboxList()) }

// wholeHTML is what w writes, held in one string.
func wholeHTML(w interface{ WriteHTML(io.Writer) error }) template.HTML {
	var b strings.Builder
	_ = w.WriteHTML(&b) // a strings.Builder takes every write
	return template.HTML(b.String())
}

// InboxItems is a distro page's inbox list, written by WriteHTML.
type InboxItems struct{ d *DistroPage }

// WriteHTML writes the list's items to w.
func (items InboxItems) WriteHTML(w io.Writer) error {
	d := items.d
	links := d.site.inboxLinks(d.Path())
	var marks [4][]byte // by levelNum
	for i, a := range links.adapters {
		l := d.site.inboxLevel(a, d.Distro)
		n := levelNum(l)
		if marks[n] == nil {
			marks[n] = inboxMark(nil, Shown{l})
		}
		if _, err := w.Write(marks[n]); err != nil {
			return err
		}
		if _, err := w.Write(links.html[i]); err != nil {
			return err
		}
	}
	return nil
}

// inboxMark appends an inbox item's start, its verdict's mark.
func inboxMark(b []byte, v Shown) []byte {
	b = append(b, `<li><span class="v `...)
	b = appendEscaped(b, v.Class())
	b = append(b, `" title="`...)
	b = appendEscaped(b, v.Word())
	b = append(b, `">`...)
	b = appendEscaped(b, v.Mark())
	b = append(b, `<span class="vh"> `...)
	b = appendEscaped(b, v.Word())
	return append(b, `</span></span> `...)
}

// inboxLinks is every adapter, sorted, and the end of its inbox item,
// its link to the adapter's grid, as a page of folder dir shows it.
type inboxLinks struct {
	dir      string
	adapters []*matrix.Adapter
	html     [][]byte // by adapter
}

func newInboxLinks(m *matrix.Matrix, from string) *inboxLinks {
	l := &inboxLinks{dir: path.Dir(from), adapters: sortedAdapters(m)}
	l.html = make([][]byte, len(l.adapters))
	for i, a := range l.adapters {
		b := []byte(`<a href="`)
		b = appendEscaped(b, page.RelRef(from, page.Ref{Kind: page.Adapter, ID: a.ID, Anchor: "grid"}))
		b = append(b, `">`...)
		b = appendEscaped(b, a.Name)
		l.html[i] = append(b, `</a>`...) // </li> left out: the next <li> or </ul> closes it
	}
	return l
}

// inboxLinks is the inbox items' links for the page at path from: made
// by the first distro page written for every other one (a relative link
// reads only the page's folder), or for a page of another folder anew.
func (s *Site) inboxLinks(from string) *inboxLinks {
	s.inboxOnce.Do(func() { s.inbox = newInboxLinks(s.m, from) })
	if s.inbox.dir != path.Dir(from) {
		return newInboxLinks(s.m, from)
	}
	return s.inbox
}

// DriverOf is the driver page a kernel module a distro row names belongs
// on: the driver of that id, or the one that lists it among its Ethernet
// drivers (mlx4_core is on mlx4_ib's page); "" when no page has it.
func (d *DistroPage) DriverOf(module string) string {
	m := d.site.m
	if m.Driver(module) != nil {
		return module
	}
	for i := range m.Drivers {
		if contains(m.Drivers[i].EthDrivers, module) {
			return m.Drivers[i].ID
		}
	}
	return ""
}

// releaseAdapters are the adapters whose engine verdict on a stack
// release (any release: version "") with no OS given is a yes: what the
// stack page lists is what kbgen check says.
// The lists are kept with the verdicts, which a rebuild of an unchanged
// matrix reuses, so a rebuild does not judge them again.
func (v *verdicts) releaseAdapters(stack, version string) []*matrix.Adapter {
	v.all()
	return v.release.get([2]string{stack, version}, func() []*matrix.Adapter {
		var out []*matrix.Adapter
		yes := map[string]bool{} // a renamed peer answers as its first
		for _, a := range sortedAdapters(v.m) {
			y, ok := yes[v.renamedFrom[a.ID]]
			if !ok {
				y = v.yesOn(a.ID, stack, version)
				yes[a.ID] = y
			}
			if y {
				out = append(out, a)
			}
		}
		return out
	})
}

// yesStacks are the vendor stacks whose engine verdict for the adapter,
// no release or OS given, is a yes: the adapters index's stack filter.
func (v *verdicts) yesStacks(a *matrix.Adapter) []string {
	v.all()
	var out []string
	for _, st := range v.m.Stacks {
		if st.ID != matrix.Inbox && v.yesOn(a.ID, st.ID, "") {
			out = append(out, st.ID)
		}
	}
	return out
}

// yesOn reports whether the engine's verdict for adapter on stack's
// release version, no OS given, is a yes. With no release it is the
// adapter's table's cell for no target, that very plan judged with the
// grid, not judged again.
func (v *verdicts) yesOn(adapter, stack, version string) bool {
	if c, ok := v.cell(adapter, "", stack); ok && version == "" {
		return verdict.Verdict{Verdict: Levels[c.Level]}.Yes()
	}
	return v.engine.Judge(verdict.Plan{Adapter: adapter, Stack: stack, StackVersion: version}).Yes()
}

// AdapterKernel is an adapter of a driver and the engine's first kernel
// for its RoCE inbox.
type AdapterKernel struct {
	Adapter *matrix.Adapter
	Kernel  string
	Sourced bool
}

// HTML is the reason's text as inline markdown: the engine quotes matrix
// fields, which write commands in backticks.
func (r ReasonView) HTML() template.HTML {
	if r.html != "" || r.Text == "" {
		return r.html
	}
	return Inline(r.Text)
}
