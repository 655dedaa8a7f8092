package build

import (
	"bytes"
	"io"
	"testing"

	"github.com/rocekb/rocekb"
	"github.com/rocekb/rocekb/internal/render"
	"github.com/rocekb/rocekb/internal/site"
)

// TestSharedIsFresh: each page of the bundled site's model renders the
// same through the fragments a build renders once and shares between
// pages (the templates' "shared": a page's head and header, an FAQ page's
// applies-to block, what follows its body, its sources) as with every
// fragment rendered anew for it. The pages are rendered in the build's
// order, so most fragments a page shows were rendered for another.
func TestSharedIsFresh(t *testing.T) {
	t.Parallel()
	b, err := begin(bundled(t.TempDir()), Options{Assets: rocekb.Assets, Stderr: io.Discard}, newTracker(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := render.LoadTemplates(b.layers)
	if err != nil {
		t.Fatal(err)
	}
	fresh.Fresh = true
	faqs := 0
	for _, p := range b.s.Pages {
		if f, ok := p.(*site.FAQ); ok {
			f.Body()
			faqs++
		}
		var shared, anew bytes.Buffer
		if err := b.tpl.Execute(&shared, p); err != nil {
			t.Fatal(err)
		}
		if err := fresh.Execute(&anew, p); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(shared.Bytes(), anew.Bytes()) {
			s, a := shared.Bytes(), anew.Bytes()
			i := 0
			for i < min(len(s), len(a)) && s[i] == a[i] {
				i++
			}
			from := max(0, i-80)
			t.Errorf("%s: with shared fragments, at byte %d:\n%s\nrendered anew:\n%s", p.PageMeta().Path(), i, s[from:min(len(s), i+80)], a[from:min(len(a), i+80)])
		}
	}
	if faqs == 0 {
		t.Fatal("the bundled site has no FAQ page")
	}
}
