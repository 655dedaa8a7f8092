package search

// facetIndex counts the facets of a query's matches without bleve's doc
// values: a document matches when any field has any query term (the
// disjunction bleveQuery builds), so the matches are the documents the
// term index matched, and each document's facet values are known.
type facetIndex struct {
	attrs  [][3]int32  // by doc number: kind, vendor, lang as numbers of values
	values [3][]string // each facet's values by number
}

// facetLimit is how many values of each facet are reported.
const facetLimit = 50

func newFacetIndex(docs []Doc) *facetIndex {
	fx := &facetIndex{attrs: make([][3]int32, len(docs))}
	num := [3]map[string]int32{{}, {}, {}}
	for i := range docs {
		d := &docs[i]
		for f, v := range [3]string{d.Kind, d.Vendor, d.Lang} {
			n, ok := num[f][v]
			if !ok {
				n = int32(len(fx.values[f]))
				num[f][v] = n
				fx.values[f] = append(fx.values[f], v)
			}
			fx.attrs[i][f] = n
		}
	}
	return fx
}

// count returns the facet counts over the matched documents that pass q's
// filters, most frequent first, values with no name left out.
func (fx *facetIndex) count(matched []int32, q Query) Facets {
	var counts [3][]int
	filter := [3]int32{-1, -1, -1}
	for f, v := range [3]string{q.Kind, q.Vendor, q.Lang} {
		counts[f] = make([]int, len(fx.values[f]))
		if v != "" {
			filter[f] = -2 // a value no doc has
			for n, w := range fx.values[f] {
				if w == v {
					filter[f] = int32(n)
				}
			}
		}
	}
	for _, d := range matched {
		a := &fx.attrs[d]
		if (filter[0] != -1 && a[0] != filter[0]) || (filter[1] != -1 && a[1] != filter[1]) || (filter[2] != -1 && a[2] != filter[2]) {
			continue
		}
		for f, n := range a {
			counts[f][n]++
		}
	}
	list := func(f int) []FacetCount {
		out := make([]FacetCount, 0, len(counts[f]))
		for n, c := range counts[f] {
			if c > 0 && fx.values[f][n] != "" {
				out = append(out, FacetCount{Value: fx.values[f][n], Count: c})
			}
		}
		sortFacets(out)
		if len(out) > facetLimit {
			out = out[:facetLimit]
		}
		return out
	}
	return Facets{Kind: list(0), Vendor: list(1), Lang: list(2)}
}
