package search

// facetIndex counts the facets of a query's matches without bleve's doc
// values: a document matches when any field has any query term (the
// disjunction bleveQuery builds), so the matches are the union of the
// terms' document lists, and each document's facet values are known.
type facetIndex struct {
	docs  map[string][]int32 // term → docs with it in any field, ascending
	attrs [][3]string        // by doc number: kind, vendor, lang
}

// facetLimit is how many values of each facet are reported.
const facetLimit = 50

func newFacetIndex(an *Analyzer, docs []Doc) *facetIndex {
	fx := &facetIndex{docs: map[string][]int32{}, attrs: make([][3]string, len(docs))}
	for i := range docs {
		d := &docs[i]
		fx.attrs[i] = [3]string{d.Kind, d.Vendor, d.Lang}
		for _, f := range Fields {
			for _, t := range an.Analyze(fieldText(d, f)) {
				l := fx.docs[t.Term]
				if n := len(l); n == 0 || l[n-1] != int32(i) {
					fx.docs[t.Term] = append(l, int32(i))
				}
			}
		}
	}
	return fx
}

// count returns the facet counts over every document that matches qts
// and q's filters, most frequent first, values with no name left out.
func (fx *facetIndex) count(qts []QueryTerm, q Query) Facets {
	seen := make([]bool, len(fx.attrs))
	var counts [3]map[string]int
	for i := range counts {
		counts[i] = map[string]int{}
	}
	filter := [3]string{q.Kind, q.Vendor, q.Lang}
	for _, t := range qts {
		for _, d := range fx.docs[t.Term] {
			if seen[d] {
				continue
			}
			seen[d] = true
			a := &fx.attrs[d]
			if (filter[0] != "" && a[0] != filter[0]) || (filter[1] != "" && a[1] != filter[1]) || (filter[2] != "" && a[2] != filter[2]) {
				continue
			}
			for i, v := range a {
				if v != "" {
					counts[i][v]++
				}
			}
		}
	}
	list := func(m map[string]int) []FacetCount {
		out := make([]FacetCount, 0, len(m))
		for v, n := range m {
			out = append(out, FacetCount{Value: v, Count: n})
		}
		sortFacets(out)
		if len(out) > facetLimit {
			out = out[:facetLimit]
		}
		return out
	}
	return Facets{Kind: list(counts[0]), Vendor: list(counts[1]), Lang: list(counts[2])}
}
