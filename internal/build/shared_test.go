package build

import (
	"bytes"
	"io"
	"testing"

	"github.com/rocekb/rocekb"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/render"
	"github.com/rocekb/rocekb/internal/site"
)

// TestSharedIsFresh: each page of the bundled site's model renders the
// same through the fragments a build renders once and shares between
// pages (the templates' "shared": a page's head and header, an FAQ page's
// applies-to block, what follows its body, its sources) and the values
// the page's writer writes in place of their tokens (the templates'
// "held": a grid, a distro page's inbox list, an FAQ body, a host's
// report) as with every fragment rendered anew for it and every value
// printed by the template itself. The pages are rendered in the build's
// order, then the fixture hosts' pages, so most fragments a page shows
// were rendered for another; once they are written, no value is held.
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
	fresh.Fresh, fresh.Inline = true, true
	same := func(p site.Page) {
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
			t.Errorf("%s: with shared fragments and held values, at byte %d:\n%s\nrendered anew and inline:\n%s", p.PageMeta().Path(), i, s[from:min(len(s), i+80)], a[from:min(len(a), i+80)])
		}
	}
	faqs, hosts := 0, 0
	for _, p := range b.s.Pages {
		if f, ok := p.(*site.FAQ); ok {
			f.Body()
			faqs++
		}
		same(p)
	}
	probs, err := b.k.Records.EachLoaded(func(l record.Loaded) error {
		same(b.s.Host(l.Host).Page())
		hosts++
		return nil
	})
	if err != nil || len(probs) > 0 {
		t.Fatal(err, probs)
	}
	if n := b.tpl.Holding(); n != 0 {
		t.Errorf("%d values held after every page was written", n)
	}
	if faqs == 0 || hosts == 0 {
		t.Fatalf("the bundled site has %d FAQ pages and %d host pages", faqs, hosts)
	}
}
