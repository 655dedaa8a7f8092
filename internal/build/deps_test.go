package build

import (
	"path/filepath"
	"testing"

	"github.com/rocekb/rocekb/internal/kb"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/site"
)

// TestPagesRecordTheirInputs makes every page of testdata/update's
// knowledge base (every kind) with a few fixture hosts and requires what
// each page recorded reading (site.Meta.Deps) to hold at least what its
// kind shows: what every page reads (the configuration, the templates,
// the matrix), an FAQ page's or tree's own file, an FAQ page's
// translations, the FAQ pages naming an adapter and the hosts running
// it, a tag's pages, a host page's record, every record for the pages
// that list hosts, and each list a page shows whole. What a page reads
// beyond that TestUpdateEqualsBuild finds, by editing each kind of input.
func TestPagesRecordTheirInputs(t *testing.T) {
	t.Parallel()
	cfg := bundled(t.TempDir())
	cfg.Matrix, cfg.Content = "testdata/update/matrix", "testdata/update/content"
	hosts, _ := filepath.Glob("../../testdata/hosts/*.golden.toml")
	k, probs := kb.Load(cfg, kb.Options{StreamRecords: true, SkipGridLint: true})
	if probs.Errors() > 0 {
		t.Fatal(probs.Err())
	}
	s, err := site.Build(site.Input{Config: cfg, Matrix: k.Matrix, Content: k.Content, Records: len(hosts)})
	if err != nil {
		t.Fatal(err)
	}
	in := s.Inputs
	pages := append([]site.Page(nil), s.Pages...)
	records := map[string]page.Input{} // host page path → its record
	if _, err := k.Records.EachLoaded(func(l record.Loaded) error {
		j := s.Host(l.Host)
		j.Source(l.File, l.Src)
		p := j.Page()
		if n, ok := in.Name(j.Input()); !ok || n.Kind != page.InRecord {
			t.Errorf("%s: the job's input %d is not a record (%v)", j.Path(), j.Input(), n)
		}
		records[p.Path()] = j.Input()
		pages = append(pages, p)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(records) == 0 {
		t.Fatal("no host pages: the test needs the fixture hosts")
	}
	pages = append(pages, s.Summaries()...)
	pages = append(pages, s.Late()...)

	// group is the named group a page read, or a failure.
	group := func(d *page.Deps, name string) []page.Input {
		t.Helper()
		id, ok := in.Lookup(page.InGroup, name)
		if !ok || !d.Has(id) {
			t.Errorf("group %q not read", name)
			return nil
		}
		return in.Members(id)
	}
	file := func(kind page.Named, name string) page.Input {
		t.Helper()
		id, ok := in.Lookup(kind, name)
		if !ok {
			t.Errorf("%s has no input of kind %d", name, kind)
		}
		return id
	}
	kinds := map[page.Kind]bool{}
	fleet := 0
	for _, p := range pages {
		m := p.PageMeta()
		if k, ok := page.KindOf(m.Path()); ok {
			kinds[k] = true // the tag index is a Tag page at the Tags kind's path
		}
		d := m.Deps()
		want := []page.Input{page.InConfig, page.InTemplates, page.InMatrix}
		switch p := p.(type) {
		case *site.FAQ:
			want = append(want, file(page.InFile, p.Page.File), page.InLinks)
			if key := p.Page.Meta.TranslationKey; key != "" {
				if got := group(d, "translations/"+key); len(got) != len(p.Translations)+1 {
					t.Errorf("%s: the translations group has %d members for %d translations", m.Path(), len(got), len(p.Translations))
				}
			}
		case *site.TreePage:
			want = append(want, file(page.InFile, p.Tree.File))
		case *site.HostPage:
			want = append(want, records[m.Path()], page.InFAQList, page.InTreeList)
		case *site.AdapterPage:
			if got := group(d, "adapter-faq/"+p.Adapter.ID); len(got) != len(p.FAQ) {
				t.Errorf("%s: %d FAQ pages in its group, %d on the page", m.Path(), len(got), len(p.FAQ))
			}
			hosts := map[string]bool{}
			for _, u := range p.Fleet {
				hosts[u.Host] = true
			}
			if got := group(d, "fleet/"+p.Adapter.ID); len(got) != len(hosts) {
				t.Errorf("%s: %d records in its fleet group, %d hosts on the page", m.Path(), len(got), len(hosts))
			}
			fleet += len(hosts)
		case *site.TagPage:
			if p.Index {
				want = append(want, page.InFAQList, page.InTreeList)
			} else {
				n := 0
				for _, g := range p.Groups {
					n += len(g.FAQ) + len(g.Trees)
				}
				if got := group(d, "tag/"+m.Ref.ID); len(got) != n {
					t.Errorf("%s: %d members in its group, %d pages listed", m.Path(), len(got), n)
				}
			}
		case *site.GlossaryPage:
			want = append(want, page.InGlossary)
		case *site.SourcesPage:
			want = append(want, page.InFAQList, page.InTreeList, page.InGlossary)
		}
		switch m.Ref.Kind {
		case page.Home:
			want = append(want, page.InFAQList, page.InTreeList, page.InRecords)
		case page.Fleet, page.Hosts:
			want = append(want, page.InRecords)
		case page.FAQIndex:
			want = append(want, page.InFAQList)
		case page.Trees:
			want = append(want, page.InTreeList)
		}
		for _, w := range want {
			if !d.Has(w) {
				var got []page.Input
				d.Each(func(id page.Input) { got = append(got, id) })
				t.Errorf("%s (%s) did not record input %d; it recorded %v", m.Path(), m.Ref.Kind, w, got)
			}
		}
	}
	if fleet == 0 {
		t.Error("no adapter page shows a host: the test needs a fixture host the matrix knows")
	}
	for _, s := range page.Table {
		if !kinds[s.Kind] {
			t.Errorf("no %q page was made: the test covers every kind", s.Kind)
		}
	}
}
