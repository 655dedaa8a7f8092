package build

import (
	"testing"

	"github.com/rocekb/rocekb/internal/kb"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/site"
)

// TestPagesRecordTheirInputs makes every page of the bundled knowledge
// base with the fixture hosts and requires that what each page recorded
// reading (site.Meta.Deps) holds at least what the hand-written key rules
// of page.Table once declared for its kind: what every page reads (the
// site's configuration, the matrix, its template), a FAQ page's and a
// tree's own file, every host for the pages that list or count hosts, a
// host page's record. What a page reads beyond that TestUpdateEqualsBuild
// finds, by editing each kind of input.
func TestPagesRecordTheirInputs(t *testing.T) {
	t.Parallel()
	cfg := bundled(t.TempDir())
	k, probs := kb.Load(cfg, kb.Options{StreamRecords: true, SkipGridLint: true})
	if probs.Errors() > 0 {
		t.Fatal(probs.Err())
	}
	s, err := site.Build(site.Input{Config: cfg, Matrix: k.Matrix, Content: k.Content, Records: k.Records.Len()})
	if err != nil {
		t.Fatal(err)
	}
	pages := append([]site.Page(nil), s.Pages...)
	files := map[string]string{} // host page path → its record file
	if _, err := k.Records.EachLoaded(func(l record.Loaded) error {
		j := s.Host(l.Host)
		j.Source(l.File, l.Src)
		p := j.Page()
		if !j.Deps().Has(page.DepRecord, l.File) {
			t.Errorf("%s: the host job does not record its record %s", j.Path(), l.File)
		}
		files[p.Path()] = l.File
		pages = append(pages, p)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no host pages: the test needs the fixture hosts")
	}
	pages = append(pages, s.Summaries()...)
	pages = append(pages, s.Late()...)
	kinds := map[page.Kind]bool{}
	for _, p := range pages {
		m := p.PageMeta()
		if k, ok := page.KindOf(m.Path()); ok {
			kinds[k] = true // the tag index is a Tag page at the Tags kind's path
		}
		d, spec := m.Deps(), page.SpecOf(m.Ref.Kind)
		want := []page.Dep{{Input: page.DepSite}, {Input: page.DepMatrix}, {Input: page.DepTemplate, Name: spec.Template}}
		switch p := p.(type) {
		case *site.FAQ:
			want = append(want, page.Dep{Input: page.DepFile, Name: p.Page.File})
		case *site.TreePage:
			want = append(want, page.Dep{Input: page.DepFile, Name: p.Tree.File})
		case *site.HostPage:
			want = append(want, page.Dep{Input: page.DepRecord, Name: files[m.Path()]})
		}
		switch m.Ref.Kind {
		case page.Adapter, page.Home, page.Fleet, page.Hosts:
			want = append(want, page.Dep{Input: page.DepList, Name: "records"})
		}
		for _, w := range want {
			if !d.Has(w.Input, w.Name) {
				t.Errorf("%s (%s) did not record %s %q; it recorded %v", m.Path(), m.Ref.Kind, w.Input, w.Name, d.List())
			}
		}
	}
	for _, s := range page.Table {
		if !kinds[s.Kind] {
			t.Errorf("no %q page was made: the test covers every kind", s.Kind)
		}
	}
}
