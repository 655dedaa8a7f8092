package search

import (
	"strings"
	"testing"
)

// TestMarksSnippet checks that the snippets the index cuts from its
// precomputed marks are byte for byte those of Snippet, which analyzes
// the text, for every query of the set on every page. Snippet analyzes a
// page the same way for every query, so each page is analyzed once here
// and its tokens go through Snippet's own matching (snippetOf).
func TestMarksSnippet(t *testing.T) {
	ix, _, _ := loadBundled(t)
	toks := make([][]Token, len(ix.docs))
	for i := range ix.docs {
		toks[i] = ix.an.Analyze(ix.docs[i].Body)
	}
	checked, marked := 0, 0
	for _, q := range loadQueries(t).Query {
		set := termSet(ix.an.QueryTerms(q.Q))
		want := ix.marks.want(set)
		for i := range ix.docs {
			d := &ix.docs[i]
			old := snippetOf(toks[i], d.Body, set)
			if got := ix.marks.snippet(i, d.Body, want); got != old {
				t.Fatalf("%q on %s:\nmarks   %q\nSnippet %q", q.Q, d.URL, got, old)
			}
			checked++
			if strings.Contains(old, "<mark>") {
				marked++
			}
		}
	}
	if marked == 0 {
		t.Fatal("no snippet marked a match: the comparison proves nothing")
	}
	t.Logf("%d snippets compared, %d with marks", checked, marked)
}
