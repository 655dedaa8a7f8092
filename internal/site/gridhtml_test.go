package site

import (
	"encoding/json"
	"fmt"
	"html/template"
	"slices"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/page"
)

// TestAppendEscapedIsHTMLTemplate: the grid's markup escapes a value as
// html/template does in text and in a quoted attribute.
func TestAppendEscapedIsHTMLTemplate(t *testing.T) {
	t.Parallel()
	tm := template.Must(template.New("").Parse(`<b class="x {{.}}">{{.}}</b>`))
	for _, s := range []string{"", "plain", "a + b", `<"&'>`, "nul\x00byte", "✓* ? ✗", "&#43; already", "Broadcom bnxt_en + bnxt_re"} {
		var want strings.Builder
		if err := tm.Execute(&want, s); err != nil {
			t.Fatal(err)
		}
		esc := string(appendEscaped(nil, s))
		if got := `<b class="x ` + esc + `">` + esc + `</b>`; got != want.String() {
			t.Errorf("appendEscaped(%q) gives %s, html/template %s", s, got, want.String())
		}
	}
}

// TestXCellMarshalJSON: a cell is written as encoding/json writes its
// array form, and read back whole.
func TestXCellMarshalJSON(t *testing.T) {
	t.Parallel()
	for _, c := range []XCell{{}, {Level: 2, Reasons: []int{}}, {Level: 1, Reasons: []int{0, 17, 123456}},
		{Level: 3, Reasons: []int{4}, Nearest: []string{}}, {Level: 0, Reasons: []int{1, 2}, Nearest: []string{"RHEL 9.4 <or> later & \"x\"", "é\u2028"}}} {
		v := []any{c.Level, c.Reasons}
		if c.Nearest != nil {
			v = append(v, c.Nearest)
		}
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%+v: %s, want %s", c, got, want)
		}
		var back XCell
		if err := json.Unmarshal(got, &back); err != nil || back.Level != c.Level || len(back.Reasons) != len(c.Reasons) || len(back.Nearest) != len(c.Nearest) {
			t.Errorf("%s read back as %+v (%v)", got, back, err)
		}
	}
}

// TestVerdictFileCellsOnce: a verdict file lists each distinct cell and
// each distinct row of cells once, and reads back as the table it was
// written from, every target's cells in place.
func TestVerdictFileCellsOnce(t *testing.T) {
	t.Parallel()
	a := XCell{Level: 0, Reasons: []int{1, 2}}
	b := XCell{Level: 2, Reasons: []int{1, 3}, Nearest: []string{"RHEL 9.4 or later"}}
	c := XCell{Level: 3, Reasons: []int{}}
	d := XCell{Level: 2, Reasons: []int{1, 3}} // b without its nearest: another cell
	table := &AdapterVerdicts{
		Reasons:  []XReason{{Level: 0, Text: "own"}},
		Cells:    Cells{a, b, c, a, b, c, c, d, a, a, c, b},
		Firmware: map[string][]XFirmware{},
	}
	f := table.file(3)
	if len(f.Cells) != 4 || len(f.Rows) != 3 || !slices.Equal(f.Targets, []int{0, 0, 1, 2}) {
		t.Errorf("cells %v, rows %v, targets %v: want 4 cells, 3 rows, targets [0 0 1 2]", f.Cells, f.Rows, f.Targets)
	}
	// The first row's cells all have reason 1 and the second's 7: each
	// is its row's shared reason, written -1, so the two rows are one.
	e := XCell{Level: 2, Reasons: []int{4, 1}}
	shared := &AdapterVerdicts{Cells: Cells{{Level: 0, Reasons: []int{1}}, e, {Level: 0, Reasons: []int{1, 1}}, {Level: 0, Reasons: []int{7}}, {Level: 2, Reasons: []int{4, 7}}, {Level: 0, Reasons: []int{7, 7}}}}
	if g := shared.file(3); fmt.Sprint(g.Shared) != "[[1] [7]]" || len(g.Cells) != 3 || len(g.Rows) != 1 {
		t.Errorf("shared %v, cells %v, rows %v: want [[1] [7]], 3 cells, 1 row", g.Shared, g.Cells, g.Rows)
	}
	if g := shared.file(1); fmt.Sprint(g.Shared[1]) != "[4 1]" || fmt.Sprint(g.Cells[1].Reasons) != "[-1 -2]" {
		t.Errorf("one stack: shared %v, cells %v", g.Shared, g.Cells)
	}
	for _, tab := range []*AdapterVerdicts{table, shared} {
		for _, stacks := range []int{1, 3} {
			js, err := json.Marshal(tab.file(stacks))
			if err != nil {
				t.Fatal(err)
			}
			var back AdapterVerdicts
			if err := json.Unmarshal(js, &back); err != nil {
				t.Fatal(err)
			}
			if got, want := fmt.Sprint(back.Cells), fmt.Sprint(tab.Cells); got != want {
				t.Errorf("%d stacks: %s read back as %s, want %s", stacks, js, got, want)
			}
		}
	}
	js, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	var back AdapterVerdicts
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(back.Cells), fmt.Sprint(table.Cells); got != want || len(back.Reasons) != 1 {
		t.Errorf("read back %s, want %s", got, want)
	}
	for _, bad := range []string{`{"p":[[]],"u":[[0,[1]]],"w":[[0,1]],"t":[0]}`, `{"p":[[3]],"u":[[0,[-2]]],"w":[[0]],"t":[0]}`, `{"p":[],"u":[[0,[1]]],"w":[[0]],"t":[0]}`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("%s was read without an error", bad)
		}
	}
}

// TestSourcesHTML: an adapter page's Sources list is the markup of the
// template loop it replaced, escaped as html/template escapes it.
func TestSourcesHTML(t *testing.T) {
	t.Parallel()
	tm := template.Must(template.New("").Parse(`{{range .Sources}}<li id="s{{$.SourceN .ID}}"><a href="{{$.All}}#src-{{.ID}}">{{.Title}}</a>{{range .Quotes}}<blockquote class="quote">“{{.}}”</blockquote>{{end}}
{{end}}`))
	p := &AdapterPage{claimed: []SourceRef{
		{ID: "pciids", Title: "pci.ids (PCI ID repository)", Quotes: []string{"{ PCI_VDEVICE(BROADCOM, 0x1752), .driver_data = BCM57502 },", `a "quoted" <tag> & 'it' + more`}},
		{ID: "linux-5.2.1-tree-bnxt", Title: "Linux 5.2.1's bnxt_en & bnxt_re <tree> \"x\" 'y' + z"},
	}}
	p.setSources([]SourceRef{{ID: "gcc+x_y.z", Title: "é\u2028 nul\x00"}, {ID: "pciids", Title: "a duplicate, listed once"}, {ID: "odd id/é?#&", Title: "t"}})
	for _, all := range []string{"../sources.html", "sources.html", "../../sources.html"} {
		var want strings.Builder
		if err := tm.Execute(&want, struct {
			*AdapterPage
			All string
		}{p, all}); err != nil {
			t.Fatal(err)
		}
		var got strings.Builder
		if err := p.SourcesList(all).WriteHTML(&got); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("SourcesList(%q):\n%s\nhtml/template:\n%s", all, got.String(), want.String())
		}
		if whole := string(p.SourcesHTML(all)); whole != want.String() {
			t.Errorf("SourcesHTML(%q), for a template without held:\n%s\nhtml/template:\n%s", all, whole, want.String())
		}
	}
}

// TestGridHTMLSaysOnce: a drawn row writes a distro's name once for the
// releases after the first of its family with that name, a reason naming
// its entry ("the distro_support row for …") gives the entry's confidence
// alone, and a reason of its explanation's level and hint is written
// without them; anything else is written whole.
func TestGridHTMLSaysOnce(t *testing.T) {
	t.Parallel()
	rhel := func(v string) GridRow {
		return GridRow{Distro: Target{Key: "rhel-" + v, Label: "Red Hat Enterprise Linux " + v}, Family: "rhel", Name: len("Red Hat Enterprise Linux ")}
	}
	group := []GridRow{rhel("8.9"), rhel("8.8"),
		{Distro: Target{Key: "alma-8.7", Label: "AlmaLinux 8.7"}, Family: "almalinux", Name: len("AlmaLinux ")},
		{Distro: Target{Key: "rocky-8.7", Label: "Red Hat Enterprise Linux 8.7"}, Family: "rocky", Name: len("Red Hat Enterprise Linux ")},
		{Distro: Target{Key: "rhel-x", Label: "Red Hat Enterprise Linux X"}, Family: "rocky"}, // Name 0: no version in it
		rhel("8.6")}
	group[0].Span = len(group)
	group[0].Group = group
	ok := GridReason{Class: "ok", Mark: "✓", text: "the distro_support row for rhel 8.0 to 8.9: builds it",
		HTML: "the distro_support row for rhel 8.0 to 8.9: builds it", Own: []GridRef{{Entry: "distro_support rhel 8.0 to 8.9", Confidence: "upstream-source"}}}
	other := GridReason{Class: "unk", Mark: "?", text: "no row", HTML: "no row", Own: []GridRef{{Entry: "distro_support rhel 9", Confidence: "upstream-source"}, {Entry: "adapter x"}}}
	g := &Grid{Rows: group[:1], Whys: []GridWhy{{N: 1, Class: "ok", Mark: "✓", Word: "supported", Own: []GridReason{ok}}, {N: 2, Class: "unk", Mark: "?", Word: "unknown", Own: []GridReason{ok, other}}}}
	for i := range g.Whys {
		for k := range g.Whys[i].Own {
			o := &g.Whys[i].Own[k]
			o.Bare = o.Class == g.Whys[i].Class && o.Likely == g.Whys[i].Likely
		}
	}
	for _, c := range []struct {
		text, entry string
		want        bool
	}{
		{"the distro_support row for centos 9: builds it", "distro_support centos 9", true},
		{"the distro marks it unsupported: the distro_support row for rhel 9.0 to 9.3: no", "distro_support rhel 9.0 to 9.3", true},
		{"the distro_support row for centos 9", "distro_support centos 9", true},
		{"the distro_support row for rhel 8.0 to 8.9: builds it", "distro_support rhel 8", false},
		{"the distro_support row for centos 9: builds it", "distro_support centos", false},
		{"the distro_support row for centos 9: builds it", "distro centos-stream-9", false},
		{"builds it", "adapter", false},
	} {
		if got := namesEntry(c.text, c.entry); got != c.want {
			t.Errorf("namesEntry(%q, %q) = %t, want %t", c.text, c.entry, got, c.want)
		}
	}
	g.writeHTML("adapter/x.html")
	table := string(g.HTML.Table)
	for _, want := range []string{`>Red Hat Enterprise Linux 8.9</a>`, `href="../distro/rhel-8.8.html">8.8</a>`, `>AlmaLinux 8.7</a>`,
		`>Red Hat Enterprise Linux 8.7</a>`, `>Red Hat Enterprise Linux X</a>`, `>Red Hat Enterprise Linux 8.6</a>`} {
		if !strings.Contains(table, want) {
			t.Errorf("the table lacks %s:\n%s", want, table)
		}
	}
	whys := string(g.HTML.Whys)
	for _, want := range []string{
		`supported</span>: the distro_support row for rhel 8.0 to 8.9: builds it <span class="meta">— upstream-source</span>`,
		`unknown</span>: <span class="v ok">✓</span> the distro_support row for rhel 8.0 to 8.9: builds it <span class="meta">— upstream-source</span>; no row <span class="meta">— distro_support rhel 9 · upstream-source</span> <span class="meta">— adapter x</span>`,
	} {
		if !strings.Contains(whys, want) {
			t.Errorf("the explanations lack %s:\n%s", want, whys)
		}
	}
}

// BenchmarkAdapterGrids makes every bundled adapter page's grid and its
// markup, as writing the adapter pages does (the verdict tables judged
// before the timer starts).
func BenchmarkAdapterGrids(b *testing.B) {
	kb := bundledKB()
	if kb.err != nil {
		b.Fatal(kb.err)
	}
	s, m := kb.s, kb.m
	s.verdicts.all()
	b.ReportAllocs()
	for b.Loop() {
		for i := range m.Adapters {
			a := &m.Adapters[i]
			g := s.verdicts.grid(m, a)
			g.writeHTML("adapter/" + a.ID + ".html")
		}
	}
}

// TestInboxHTMLIsTemplate: a distro page's inbox list is what the
// template loop it replaces wrote (less the </li> HTML lets it omit), on
// every distro page of the bundled site, its links made once for them
// all; and a page of another folder gets links from its own.
func TestInboxHTMLIsTemplate(t *testing.T) {
	t.Parallel()
	s, _ := bundledSite(t)
	tm := template.Must(template.New("").Parse(`{{range .}}<li><span class="v {{.Class}}" title="{{.Word}}">{{.Mark}}<span class="vh"> {{.Word}}</span></span> <a href="{{.Href}}">{{.Name}}</a>{{end}}`))
	type item struct {
		Shown
		Href, Name string
	}
	for _, d := range s.distroPages {
		var items []item
		for _, v := range d.Inbox() {
			items = append(items, item{v.Shown, page.RelRef(d.Path(), page.Ref{Kind: page.Adapter, ID: v.Adapter.ID, Anchor: "grid"}), v.Adapter.Name})
		}
		var want strings.Builder
		if err := tm.Execute(&want, items); err != nil {
			t.Fatal(err)
		}
		var got strings.Builder
		if err := d.InboxList().WriteHTML(&got); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("distro page %s: InboxList\n%.300s…\nthe template\n%.300s…", d.Distro.ID, got.String(), want.String())
		}
		if whole := string(d.InboxHTML()); whole != want.String() {
			t.Errorf("distro page %s: InboxHTML, for a template without held\n%.300s…\nthe template\n%.300s…", d.Distro.ID, whole, want.String())
		}
	}
	if len(s.distroPages) == 0 {
		t.Fatal("the bundled site has no distro page")
	}
	from := "a/b/" + s.distroPages[0].Path()
	l := s.inboxLinks(from)
	a := l.adapters[0]
	if want := page.RelRef(from, page.Ref{Kind: page.Adapter, ID: a.ID, Anchor: "grid"}); !strings.Contains(string(l.html[0]), `href="`+want+`"`) {
		t.Errorf("a page at %s links %s as %s, want %s", from, a.ID, l.html[0], want)
	}
}

// file is t's verdicts file with its cells laid out on their own, as
// WriteAdapterVerdicts lays out a table no other shares.
func (t *AdapterVerdicts) file(stacks int) *verdictFile {
	return t.laidOut(layOut(t.Cells, stacks))
}

// pageRel is render's rel for the template loops the tests below hold a
// page's list to: the link from a page to the page of a kind and id.
var pageRel = template.FuncMap{"rel": func(from Page, kind, id string) string {
	return page.RelRef(from.PageMeta().Path(), page.Ref{Kind: page.Kind(kind), ID: id})
}}

// holdsToLoop fails t where frag gives a page other than what the template
// loop tm it replaces writes with the page as dot.
func holdsToLoop[P Page](t *testing.T, tm *template.Template, pages []P, name string, frag func(P) template.HTML) {
	t.Helper()
	for _, p := range pages {
		var want strings.Builder
		if err := tm.Execute(&want, p); err != nil {
			t.Fatal(err)
		}
		if got := string(frag(p)); got != want.String() {
			t.Errorf("%s (%s): %s\n%.600s…\nthe template\n%.600s…", p.PageMeta().Path(), p.PageMeta().Lang, name, got, want.String())
		}
	}
}

// TestFolderItemsHTMLIsTemplate: a folder page's list is what the
// template loop it replaces wrote, on every folder page of the bundled
// site and on one whose items hold what html/template escapes, in two
// languages, with and without summaries and translations.
func TestFolderItemsHTMLIsTemplate(t *testing.T) {
	t.Parallel()
	tm := template.Must(template.New("").Parse(`{{range .Items}}<li><a href="{{$.Item .}}"{{if .Lang}} lang="{{.Lang}}"{{end}}>{{.Title}}</a>{{if .Summary}} <span class="meta">{{.Summary}}</span>{{end}}{{with .Translations}} <span class="meta">{{$.T "translations"}}: {{range .}}<a href="{{$.Item .}}" lang="{{.Lang}}" hreflang="{{.Lang}}">{{.Lang}}</a> {{end}}</span>{{end}}</li>
{{end}}`))
	s, _ := bundledSite(t)
	var folders []*FolderPage
	for _, p := range s.Late() {
		if f, ok := p.(*FolderPage); ok {
			folders = append(folders, f)
		}
	}
	translated := 0
	for _, f := range folders {
		for _, it := range f.Items {
			translated += len(it.Translations)
		}
	}
	if len(folders) == 0 || translated == 0 {
		t.Fatalf("the bundled site has %d folder pages, %d translations listed: the test reads none", len(folders), translated)
	}
	odd := FolderItem{Title: `a <b> & "c" + 'd' nul` + "\x00", Summary: "x > y + z", Lang: "de", Ref: page.Ref{Kind: page.FAQ, ID: "a_b-c.d"}}
	for _, lang := range []string{"en", "zh"} {
		f := &FolderPage{Meta: Meta{Ref: page.Ref{Kind: page.FAQIndex}, Lang: lang}, Items: []FolderItem{
			odd,
			{Title: "plain", Ref: page.Ref{Kind: page.Tree, ID: "t1"}},
			{Title: "translated", Summary: "s", Ref: page.Ref{Kind: page.FAQ, ID: "x"}, Translations: []FolderItem{odd, {Lang: "zh-CN", Ref: page.Ref{Kind: page.FAQ, ID: "y"}}}},
		}}
		folders = append(folders, f)
	}
	holdsToLoop(t, tm, folders, "ItemsHTML", (*FolderPage).ItemsHTML)
}

// TestTagFAQHTMLIsTemplate: a tag page's lists of FAQ pages are what the
// template loop they replace wrote, on every tag page of the bundled
// site and on one whose pages hold what html/template escapes.
func TestTagFAQHTMLIsTemplate(t *testing.T) {
	t.Parallel()
	tm := template.Must(template.New("").Funcs(pageRel).Parse(`{{range .FAQ}}<li><a href="{{rel $.Page "faq" .Page.Slug}}">{{.Page.Meta.Title}}</a>{{with .Page.Meta.Summary}}<br><span class="meta">{{.}}</span>{{end}}</li>{{end}}`))
	s, _ := bundledSite(t)
	var tags []*TagPage
	for _, p := range s.Pages {
		if tp, ok := p.(*TagPage); ok && !tp.Index {
			tags = append(tags, tp)
		}
	}
	if len(tags) == 0 {
		t.Fatal("the bundled site has no tag page")
	}
	odd := &content.Page{Slug: "a_b-c.d"}
	odd.Meta.Title, odd.Meta.Summary = `a <b> & "c" + 'd' nul`+"\x00", "x > y + z"
	plain := &content.Page{Slug: "p"}
	plain.Meta.Title = "no summary"
	tags = append(tags, &TagPage{Meta: Meta{Ref: page.Ref{Kind: page.Tag, ID: "odd"}}, Groups: []TagGroup{{FAQ: []*FAQ{{Page: odd}, {Page: plain}}}}})
	n := 0
	for _, tp := range tags {
		for _, g := range tp.Groups {
			var want strings.Builder
			if err := tm.Execute(&want, struct {
				Page *TagPage
				FAQ  []*FAQ
			}{tp, g.FAQ}); err != nil {
				t.Fatal(err)
			}
			if got := string(tp.FAQHTML(g.FAQ)); got != want.String() {
				t.Errorf("tag page %s, %s: FAQHTML\n%.600s…\nthe template\n%.600s…", tp.Path(), g.Lang, got, want.String())
			}
			n += len(g.FAQ)
		}
	}
	if n < 3 {
		t.Fatalf("%d FAQ pages listed: the test reads too few", n)
	}
}

// TestAppendURLIsHTMLTemplate: a link's address is written as
// html/template writes a value that starts a quoted href.
func TestAppendURLIsHTMLTemplate(t *testing.T) {
	t.Parallel()
	tm := template.Must(template.New("").Parse(`<a href="{{.}}">`))
	for _, s := range []string{"", "../faq/x.html", "../glossary.html#roce-v2", "https://example.org/a?b=c&d=e+f#g", "HTTP://X", "mailto:a@b.c",
		"javascript:alert(1)", "JavaScript:x", "data:text/html,x", ":x", "/a:b", "a/b:c", "a b", "é ✓", `<"'>`, "nul\x00", "100%", "a%20b", "a%2", "a%2g", "%zz%41", "!#$*,;=?@[]~", "a`b{c}|d^e\\f", "\x7f\t\n"} {
		var want strings.Builder
		if err := tm.Execute(&want, s); err != nil {
			t.Fatal(err)
		}
		if got := `<a href="` + string(appendURL(nil, s)) + `">`; got != want.String() {
			t.Errorf("appendURL(%q) gives %s, html/template %s", s, got, want.String())
		}
	}
}

// TestCitedHTMLIsTemplate: the sources page's lists of the claims citing
// each source are what the template loop they replace wrote, on the
// bundled site's page and on claims holding what html/template escapes.
func TestCitedHTMLIsTemplate(t *testing.T) {
	t.Parallel()
	tm := template.Must(template.New("").Parse(`{{range .}}<li>{{if .URL}}<a href="{{.URL}}">{{.What}}</a>{{else}}{{.What}}{{end}}{{if .Quote}}<blockquote class="quote">“{{.Quote}}”</blockquote>{{end}}</li>{{end}}`))
	s, _ := bundledSite(t)
	var sp *SourcesPage
	for _, p := range s.Pages {
		if p, ok := p.(*SourcesPage); ok {
			sp = p
		}
	}
	if sp == nil {
		t.Fatal("the bundled site has no sources page")
	}
	lists := [][]Citation{{
		{What: `a <b> & "c" + 'd' nul` + "\x00", Ref: &page.Ref{Kind: page.Glossary, Anchor: "roce-v2"}, Quote: `“x” > y + 'z'`},
		{What: "no page shows it", Quote: "q"},
		{What: "no quote", Ref: &page.Ref{Kind: page.FAQ, ID: "a_b-c.d"}},
	}}
	n := 0
	for _, e := range sp.Sources {
		lists = append(lists, e.Cited)
		n += len(e.Cited)
	}
	if n == 0 {
		t.Fatal("the bundled sources page lists no claim: the test reads none")
	}
	for _, cs := range lists {
		var want strings.Builder
		if err := tm.Execute(&want, cs); err != nil {
			t.Fatal(err)
		}
		if got := string(sp.CitedHTML(cs)); got != want.String() {
			t.Errorf("CitedHTML\n%.600s…\nthe template\n%.600s…", got, want.String())
		}
	}
}

// TestAdapterFAQHTMLIsTemplate: an adapter page's related questions are
// what the template loop they replace wrote, on every adapter page of the
// bundled site and on one whose questions hold what html/template
// escapes and a translation, which the list leaves out.
func TestAdapterFAQHTMLIsTemplate(t *testing.T) {
	t.Parallel()
	tm := template.Must(template.New("").Funcs(pageRel).Parse(`{{range .FAQ}}{{if eq .Lang "en"}}<li><a href="{{rel $ "faq" .Page.Slug}}">{{.Page.Meta.Title}}</a></li>{{end}}{{end}}`))
	s, _ := bundledSite(t)
	var pages []*AdapterPage
	n := 0
	for _, p := range s.Late() {
		if ap, ok := p.(*AdapterPage); ok {
			pages = append(pages, ap)
			n += len(ap.FAQ)
		}
	}
	if n == 0 {
		t.Fatal("no bundled adapter page lists a question: the test reads none")
	}
	odd := &content.Page{Slug: "a_b-c.d"}
	odd.Meta.Title = `a <b> & "c" + 'd' nul` + "\x00"
	zh := &content.Page{Slug: "zh-x"}
	zh.Meta.Title = "译文"
	pages = append(pages, &AdapterPage{Meta: Meta{Ref: page.Ref{Kind: page.Adapter, ID: "x"}}, FAQ: []*FAQ{
		{Meta: Meta{Lang: "en"}, Page: odd}, {Meta: Meta{Lang: "zh"}, Page: zh}}})
	holdsToLoop(t, tm, pages, "FAQHTML", (*AdapterPage).FAQHTML)
}

// TestDriverKernelsHTMLIsTemplate: a driver page's list of its adapters
// is what the template loop it replaces wrote, on every driver page of
// the bundled site and on one whose adapters hold what html/template
// escapes, a kernel sourced, unconfirmed and unknown.
func TestDriverKernelsHTMLIsTemplate(t *testing.T) {
	t.Parallel()
	tm := template.Must(template.New("").Funcs(pageRel).Parse(`{{range .Kernels}}<li><a href="{{rel $ "adapter" .Adapter.ID}}">{{.Adapter.Name}}</a>: {{if .Sourced}}Linux {{.Kernel}}{{else if .Kernel}}<span class="meta">Linux {{.Kernel}} or later, unconfirmed</span>{{else}}<span class="meta">unknown</span>{{end}}</li>{{end}}`))
	s, _ := bundledSite(t)
	var pages []*DriverPage
	n := 0
	for _, p := range s.Pages {
		if dp, ok := p.(*DriverPage); ok {
			pages = append(pages, dp)
			n += len(dp.Kernels)
		}
	}
	if n == 0 {
		t.Fatal("no bundled driver page lists an adapter: the test reads none")
	}
	odd := &matrix.Adapter{ID: "a_b-c.d", Name: `a <b> & "c" + 'd' nul` + "\x00"}
	pages = append(pages, &DriverPage{Meta: Meta{Ref: page.Ref{Kind: page.Driver, ID: "x"}}, Kernels: []AdapterKernel{
		{Adapter: odd, Kernel: "5.4+<rc>", Sourced: true}, {Adapter: odd, Kernel: "6.1 & later"}, {Adapter: odd}}})
	holdsToLoop(t, tm, pages, "KernelsHTML", (*DriverPage).KernelsHTML)
}
