package site

import (
	"testing"
	"testing/fstest"

	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/page"
)

const testMatrix = `
[[source]]
id = "s1"
title = "Doc"
url = "owner/repo:path/file@abcdef1"
retrieved = 2026-11-30

[[vendor]]
id = "v"
name = "Vendor"
kind = "hardware"
sources = ["s1"]
confidence = "vendor-documented"

[[adapter]]
id = "a1"
name = "Adapter One"
vendor = "v"
pci = [{ id = "1234:5678" }]
roce = ["v2"]
sources = ["s1"]
confidence = "vendor-documented"
`

const testPage = `+++
title = "Q"
summary = "S"
adapters = ["a1"]
sources = ["s1", "s1"]
lang = "en"
translation_key = "q"
+++
Body **bold**.
`

const testPageZh = `+++
title = "问"
summary = "答"
sources = ["s1"]
lang = "zh"
translation_key = "q"
+++
正文
`

func TestBuild(t *testing.T) {
	t.Parallel()
	m, probs := matrix.Load(fstest.MapFS{"m.toml": {Data: []byte(testMatrix)}}, "matrix")
	if probs.Errors() > 0 {
		t.Fatal(probs)
	}
	c, probs := content.Load(fstest.MapFS{
		"faq/q.md":    {Data: []byte(testPage)},
		"faq/q.zh.md": {Data: []byte(testPageZh)},
	}, "content")
	if probs.Errors() > 0 {
		t.Fatal(probs)
	}
	s, err := Build(Input{Config: config.Default(), Matrix: m, Content: c})
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]Page{}
	var paths []string
	for _, p := range append(append(s.Pages, s.Summaries()...), s.Late()...) {
		byPath[p.PageMeta().Path()] = p
		paths = append(paths, p.PageMeta().Path())
	}
	for i := 1; i < len(s.Pages); i++ {
		if s.Pages[i-1].PageMeta().Path() >= s.Pages[i].PageMeta().Path() {
			t.Errorf("pages not sorted: %v", paths)
		}
	}
	ap, ok := byPath["adapter/a1.html"].(*AdapterPage)
	if !ok {
		t.Fatalf("no adapter page in %v", paths)
	}
	if len(ap.FAQ) != 1 || ap.FAQ[0].Page.Slug != "q" {
		t.Errorf("adapter page should list the FAQ that names it, got %+v", ap.FAQ)
	}
	if ap.Vendor == nil || ap.Vendor.Name != "Vendor" {
		t.Errorf("vendor not resolved: %+v", ap.Vendor)
	}
	f := byPath["faq/q.html"].(*FAQ)
	if len(f.Sources) != 1 || f.Sources[0].Href != "https://github.com/owner/repo/blob/abcdef1/path/file" {
		t.Errorf("sources should be deduplicated and linked: %+v", f.Sources)
	}
	if len(f.Translations) != 1 || f.Translations[0].Slug != "q.zh" {
		t.Errorf("translations: %+v", f.Translations)
	}
	home := byPath["index.html"].(*Home)
	if len(home.Vendors) != 1 || len(home.Vendors[0].Adapters) != 1 {
		t.Errorf("home groups: %+v", home.Vendors)
	}
}

// TestPagesResolve holds the resolver, which answers "is there such a
// page" for every kb: link, to the pages the site makes: each page of the
// bundled site that is not a fleet page (which content cannot see)
// resolves, and so does every kind page.Table says every site has.
func TestPagesResolve(t *testing.T) {
	t.Parallel()
	s, m := bundledSite(t)
	r := resolver{m: m, c: s.c}
	for _, p := range s.Pages {
		ref := p.PageMeta().Ref
		switch {
		case page.SpecOf(ref.Kind).Needs == page.NeedRecords:
		case !r.Has(ref):
			t.Errorf("%s: the site makes this page, but a link to it is broken", ref)
		}
	}
	for _, spec := range page.Table {
		if ref := (page.Ref{Kind: spec.Kind}); spec.Always() && !r.Has(ref) {
			t.Errorf("%s: every site has this page, but a link to it is broken", ref)
		}
	}
}

// TestOptionalKindsHaveInputs: a site without a glossary or host records
// has none of the Optional pages, and one with both has them all, so an
// Optional kind added to page.Table without its case in Info.has fails.
func TestOptionalKindsHaveInputs(t *testing.T) {
	t.Parallel()
	for _, spec := range page.Table {
		if !spec.Optional() {
			continue
		}
		if (&Info{}).has(spec.Kind) {
			t.Errorf("%s: a site with no glossary and no records has this Optional page", spec.Kind)
		}
		if !(&Info{Glossary: true, Fleet: true}).has(spec.Kind) {
			t.Errorf("%s: a site with a glossary and records lacks this Optional page", spec.Kind)
		}
	}
}
