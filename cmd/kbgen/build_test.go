package main

import (
	"bytes"
	"io/fs"
	"testing"

	"github.com/rocekb/rocekb"
	"github.com/rocekb/rocekb/internal/page"
)

// TestSearchPageLinks: without JavaScript, search.html sends readers to the
// adapters index and the FAQ list, at the paths the page model gives them.
func TestSearchPageLinks(t *testing.T) {
	b, err := fs.ReadFile(rocekb.Assets, "static/"+page.Path(page.Search, ""))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []page.Kind{page.Adapters, page.FAQIndex} {
		if href := `href="` + page.Path(k, "") + `"`; !bytes.Contains(b, []byte(href)) {
			t.Errorf("search.html lacks %s", href)
		}
	}
}
