package search

import (
	"context"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/google/go-cmp/cmp"
)

// TestFacetsMatchBleve checks the facet counts Search reports against
// bleve's own facets of the same query, with and without a filter.
func TestFacetsMatchBleve(t *testing.T) {
	ix, _, _ := loadBundled(t)
	ctx := context.Background()
	nonEmpty := 0
	for _, qq := range loadQueries(t).Query {
		for _, q := range []Query{{Text: qq.Q}, {Text: qq.Q, Kind: "faq"}, {Text: qq.Q, Lang: "zh"}} {
			res, err := ix.Search(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			qts := res.Terms // of the query as searched: normalized, corrected
			if len(qts) == 0 {
				continue
			}
			req := bleve.NewSearchRequestOptions(bleveQuery(qts, q, anyDocs), 1, 0, false)
			for _, f := range []string{"kind", "vendor", "lang"} {
				req.AddFacet(f, bleve.NewFacetRequest(f, facetLimit))
			}
			sr, err := ix.bi.SearchInContext(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string][]FacetCount{}
			for name, fr := range sr.Facets {
				list := []FacetCount{}
				if fr.Terms != nil {
					for _, tf := range fr.Terms.Terms() {
						if tf.Term != "" {
							list = append(list, FacetCount{Value: tf.Term, Count: tf.Count})
						}
					}
				}
				sortFacets(list)
				want[name] = list
			}
			got := map[string][]FacetCount{"kind": res.Facets.Kind, "vendor": res.Facets.Vendor, "lang": res.Facets.Lang}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%+v: facets differ from bleve's (-bleve +ours):\n%s", q, diff)
			}
			if len(got["kind"]) > 0 {
				nonEmpty++
			}
		}
	}
	if nonEmpty == 0 {
		t.Fatal("no query had facets")
	}
}
