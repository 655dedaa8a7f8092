package search

import (
	"strings"
	"testing"
)

// TestMarksSnippet checks that the snippets the index cuts from its
// precomputed marks are byte for byte those of Snippet, which analyzes
// the text, for every query of the set on every page. Snippet analyzes a
// page the same way for every query, so each page is analyzed once here
// and its tokens go through Snippet's own matching (snippetOf). A page
// holding none of a query's terms has Snippet's snippet without marks,
// the same for every such query: it is cut once.
func TestMarksSnippet(t *testing.T) {
	t.Parallel()
	ix, _, _ := loadBundled(t)
	toks := make([][]Token, len(ix.docs))
	terms := make([]map[string]bool, len(ix.docs))
	plain := make([]string, len(ix.docs))
	for i := range ix.docs {
		toks[i] = ix.an.Analyze(ix.docs[i].Body)
		terms[i] = map[string]bool{}
		for _, tk := range toks[i] {
			terms[i][tk.Term] = true
		}
		plain[i] = snippetOf(toks[i], ix.docs[i].Body, nil)
	}
	checked, marked := 0, 0
	for _, q := range loadQueries(t).Query {
		set := termSet(ix.an.QueryTerms(q.Q))
		want := ix.marks.want(set)
		for i := range ix.docs {
			d := &ix.docs[i]
			old := plain[i]
			for term := range set {
				if terms[i][term] {
					old = snippetOf(toks[i], d.Body, set)
					break
				}
			}
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
