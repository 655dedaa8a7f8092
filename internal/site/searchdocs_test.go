package site

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/markup"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/record"
)

// TestSearchDocs holds every page of the bundled site with the fixture
// hosts to its kind's Search flag: a page of a kind marked Search yields
// at least one document, each on the page itself (its path, an anchor
// allowed) with its kind, a title and text or identifiers; a page of any other kind
// yields none and has no SearchDocs to yield them with.
func TestSearchDocs(t *testing.T) {
	t.Parallel()
	s, hosts := bundled(t)
	// The adapter pages are Late's; Late itself is not called here, as
	// other tests of the shared site call it.
	pages := append([]Page(nil), s.Pages...)
	for _, p := range s.adapterPages {
		pages = append(pages, p)
	}
	pages = append(pages, s.Summaries()...)
	for _, h := range hosts {
		pages = append(pages, h)
	}
	yielded := map[page.Kind]int{}
	for _, p := range pages {
		m := p.PageMeta()
		k := m.Ref.Kind
		_, searchable := p.(Searchable)
		docs := DocsOf(p)
		if !page.SpecOf(k).Search {
			if searchable || len(docs) > 0 {
				t.Errorf("%s: a %q page yields search documents, but its kind is not marked Search", m.Path(), k)
			}
			continue
		}
		if !searchable || len(docs) == 0 {
			t.Errorf("%s: a %q page, a kind marked Search, yields no search document", m.Path(), k)
			continue
		}
		yielded[k]++
		for _, d := range docs {
			if path, _, _ := strings.Cut(d.URL, "#"); path != m.Path() {
				t.Errorf("%s yields a document of another page, %s", m.Path(), d.URL)
			}
			// A host record may hold nothing to say but its name.
			if d.Kind != string(k) || d.Title == "" || d.Lang == "" || d.Body == "" && len(d.IDs) == 0 && k != page.Host {
				t.Errorf("%s: document %s has kind %q (want %q), title %q, lang %q, %d bytes of text and %d ids", m.Path(), d.URL, d.Kind, k, d.Title, d.Lang, len(d.Body), len(d.IDs))
			}
			// A result is titled as its page is; a driver's leads with
			// its module's name ("bnxt_re: …"), which is what people type.
			if want := m.Title; d.URL == m.Path() && d.Title != want && (k != page.Driver || !strings.HasSuffix(d.Title, ": "+want)) {
				t.Errorf("%s: its search result is titled %q, the page %q", m.Path(), d.Title, want)
			}
			// An FAQ page's text is led by its summary, shown above it.
			if f, ok := p.(*FAQ); ok && !strings.HasPrefix(d.Body, f.Page.Meta.Summary+"\n") {
				t.Errorf("%s: its document's text is not led by its summary: %.80q", m.Path(), d.Body)
			}
		}
	}
	for _, sp := range page.Table {
		if sp.Search && yielded[sp.Kind] == 0 {
			t.Errorf("%q is marked Search, but no page of the bundled site yields a document", sp.Kind)
		}
	}
}

// TestSearchOnlyDocs: the site kbgen search makes (Input.SearchOnly)
// yields the documents a full site's pages do, in the same order, and
// its host pages the documents a full site's host pages do (the search
// package's tests take the fixture hosts' documents from such a site).
func TestSearchOnlyDocs(t *testing.T) {
	t.Parallel()
	full, _ := bundledSite(t)
	m, err := bundledMatrix()
	if err != nil {
		t.Fatal(err)
	}
	c, probs := content.Load(os.DirFS("../../content"), "content")
	if probs.Errors() > 0 {
		t.Fatal(probs)
	}
	s, err := Build(Input{Config: config.Default(), Matrix: m, Content: c, SearchOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	want, got := full.Docs(), s.Docs()
	if len(want) < 100 {
		t.Fatalf("the bundled site yields only %d documents", len(want))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("a SearchOnly site yields %d documents, a full site %d, and they differ", len(got), len(want))
	}
	hosts, probs := record.LoadDir(os.DirFS("../../testdata/hosts"), "testdata/hosts")
	if probs.Errors() > 0 {
		t.Fatal(probs)
	}
	_, pages := bundled(t)
	if len(hosts) != len(pages) || len(hosts) == 0 {
		t.Fatalf("%d fixture hosts, %d host pages", len(hosts), len(pages))
	}
	for i, h := range hosts {
		want, got := pages[i].SearchDocs(), s.Host(h).Page().SearchDocs()
		if len(want) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: a SearchOnly site's host page yields %d documents, a full site's %d, and they differ (or none)", pages[i].Path(), len(got), len(want))
		}
	}
}

// A matrix text yields the words its page shows: inline markdown read
// through goldmark, a text Inline shows as it is kept as it is.
func TestInlineText(t *testing.T) {
	for in, want := range map[string]string{
		"Check `devlink dev param show pci/0000:3b:00.0` on **new** kernels.": "Check devlink dev param show pci/0000:3b:00.0 on new kernels.",
		"the 1dd8:1002 [[pci_kernel]] row":                                    "the 1dd8:1002 [[pci_kernel]] row",
		"- a list, shown as written":                                          "- a list, shown as written",
		"":                                                                    "",
	} {
		if got := inlineText(in); got != want {
			t.Errorf("inlineText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFAQTextCodeSpans: a FAQ page's code spans, kept as one string, are
// given back as the page shows them: each whole, in order, none for none
// (a span of one byte or of more than one line is no identifier).
func TestFAQTextCodeSpans(t *testing.T) {
	for src, want := range map[string][]string{
		"no code":              nil,
		"load `mlx5_core` now": {"mlx5_core"},
		"run `ibv_devinfo -v`, read `fw_ver`, `x`, `two\nlines`, again `ibv_devinfo -v` and `роce — v2`": {"ibv_devinfo -v", "fw_ver", "ibv_devinfo -v", "роce — v2"},
	} {
		if got := newFAQText(markup.TextOf(src)).codeSpans(); !reflect.DeepEqual(got, want) {
			t.Errorf("code spans of %q: given back as %q, want %q", src, got, want)
		}
	}
}
