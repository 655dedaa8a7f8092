package search

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestMarksSnippet checks that the snippets the index cuts from its
// precomputed marks are byte for byte those of Snippet, which analyzes
// the text, for every query of the set on every page. Snippet analyzes a
// page the same way for every query, so each page is analyzed once here
// and its tokens go through Snippet's own matching (snippetOf). snippetOf
// reads the query's terms only as terms[t.Term] for the page's own
// tokens, so its snippet depends on the query only through the query's
// terms the page has: it is cut once per page and such set (a page
// holding none of them has the snippet without marks). The terms each
// page has are found from the pages each term is on.
func TestMarksSnippet(t *testing.T) {
	t.Parallel()
	ix, _, _ := loadBundled(t)
	toks := make([][]Token, len(ix.docs))
	pages := map[string][]int{}                    // by term, the pages that have it, ascending
	cut := make([]map[string]string, len(ix.docs)) // by the query's terms the page has
	for i := range ix.docs {
		toks[i] = ix.an.Analyze(ix.docs[i].Body)
		for _, tk := range toks[i] {
			if l := pages[tk.Term]; len(l) == 0 || l[len(l)-1] != i {
				pages[tk.Term] = append(l, i)
			}
		}
		cut[i] = map[string]string{"": snippetOf(toks[i], ix.docs[i].Body, nil)}
	}
	checked, marked := 0, 0
	has := make([][]string, len(ix.docs)) // by page, the query's terms it has
	for _, q := range loadQueries(t).Query {
		set := termSet(ix.an.QueryTerms(q.Q))
		want := ix.marks.want(set)
		for i := range has {
			has[i] = has[i][:0]
		}
		for _, term := range slices.Sorted(maps.Keys(set)) {
			for _, i := range pages[term] {
				has[i] = append(has[i], term)
			}
		}
		for i := range ix.docs {
			d := &ix.docs[i]
			key := strings.Join(has[i], "\x00")
			old, ok := cut[i][key]
			if !ok {
				old = snippetOf(toks[i], d.Body, set)
				cut[i][key] = old
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
