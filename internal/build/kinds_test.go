package build

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/rocekb/rocekb"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/site"
)

// TestKindParts holds page.Table to the site the bundled knowledge base
// builds: every kind has its template and a translated label where it
// needs one, every page the build wrote is of a kind in the table, the
// search documents are of the kinds marked Search (and each of those
// kinds has some), each on a page the build wrote, every page of those
// kinds has its documents, and only the kinds marked Langs have pages in
// another language.
func TestKindParts(t *testing.T) {
	t.Parallel()
	for _, s := range page.Table {
		if _, err := fs.Stat(rocekb.Assets, "templates/"+s.Template); err != nil {
			t.Errorf("%q: template %s: %v", s.Kind, s.Template, err)
		}
		if s.Label != "" {
			m := site.Meta{Lang: "en"}
			if m.T(s.Label) == s.Label {
				t.Errorf("%q: label key %q has no English string", s.Kind, s.Label)
			}
		}
	}
	res, _ := sharedSite(t)
	files := sharedFiles(t)
	built := map[page.Kind]int{}
	for name := range files {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		if site.IsDataIndex(name) {
			continue // a data folder's index (site.DataIndex), not a page
		}
		k, ok := page.KindOf(name)
		if !ok {
			t.Errorf("%s is of no kind in page.Table", name)
			continue
		}
		built[k]++
		if strings.Contains(name, ".zh.") && !page.SpecOf(k).Langs {
			t.Errorf("%s is a translation, but %q has no language variants", name, k)
		}
	}
	for _, s := range page.Table {
		if built[s.Kind] == 0 {
			t.Errorf("the bundled site has no %q page", s.Kind)
		}
	}
	// Every document is on a page the build wrote (at an element of it,
	// when it names an anchor), and every page written of a kind marked
	// Search has its documents in the index.
	docs := map[page.Kind]int{}
	indexed := map[string]bool{}
	for _, d := range res.Docs {
		k, ok := page.KindOf(d.URL)
		if !ok || !page.SpecOf(k).Search {
			t.Errorf("search document %s is of kind %q, not marked Search", d.URL, k)
		}
		docs[k]++
		path, anchor, _ := strings.Cut(d.URL, "#")
		indexed[path] = true
		html, ok := files[path]
		switch {
		case !ok:
			t.Errorf("search document %s: the build wrote no such page", d.URL)
		case anchor != "" && !strings.Contains(string(html), ` id="`+anchor+`"`):
			t.Errorf("search document %s: %s has no element with that id", d.URL, path)
		}
	}
	for name := range files {
		if k, ok := page.KindOf(name); ok && page.SpecOf(k).Search && !site.IsDataIndex(name) && !indexed[name] {
			t.Errorf("%s is a %q page, a kind marked Search, but the index has no document of it", name, k)
		}
	}
	for _, s := range page.Table {
		if s.Search && docs[s.Kind] == 0 {
			t.Errorf("%q is marked Search but has no search document", s.Kind)
		}
	}
}
