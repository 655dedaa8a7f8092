package search

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/google/go-cmp/cmp"
)

// TestScoresEqualBleve holds the term index to bleve's scoring: for each
// query of the query set and each template's example, with and without
// facet filters, the documents it matches and their text scores are those
// bleve's searchers give the bleve query the same terms make, over the
// bleve index the term index was read from, and the facet counts Search
// reports are bleve's facets of that query.
func TestScoresEqualBleve(t *testing.T) {
	t.Parallel()
	ix, _, _ := loadBundled(t)
	ctx := context.Background()
	// Each text once: 94 template examples are also queries of the set.
	var texts []string
	seen := map[string]bool{}
	add := func(text string) {
		if !seen[text] {
			seen[text] = true
			texts = append(texts, text)
		}
	}
	for _, q := range loadQueries(t).Query {
		add(q.Q)
	}
	for _, tp := range Templates() {
		add(tp.Example)
	}
	compared, faceted := 0, 0
	for _, text := range texts {
		for _, q := range []Query{{Text: text}, {Text: text, Kind: "faq"}, {Text: text, Lang: "zh"}} {
			res := answer(t, q)
			qts := res.Terms // of the query as searched: normalized, corrected
			if len(qts) == 0 {
				continue
			}
			req := bleve.NewSearchRequestOptions(bleveQuery(qts, q), ix.DocCount, 0, false)
			for _, f := range []string{"kind", "vendor", "lang"} {
				req.AddFacet(f, bleve.NewFacetRequest(f, facetLimit))
			}
			sr, err := ix.bi.SearchInContext(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			want := map[int32]float64{}
			for _, h := range sr.Hits {
				d, err := strconv.Atoi(h.ID)
				if err != nil {
					t.Fatal(err)
				}
				want[int32(d)] = h.Score
			}
			a, scale := ix.terms.match(qts)
			got := map[int32]float64{}
			for _, d := range a.matched {
				if ix.passes(int(d), q) {
					got[d] = a.score(d, scale)
				}
			}
			ix.terms.done(a)
			facets := map[string][]FacetCount{}
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
				facets[name] = list
			}
			if diff := cmp.Diff(facets, map[string][]FacetCount{"kind": res.Facets.Kind, "vendor": res.Facets.Vendor, "lang": res.Facets.Lang}); diff != "" {
				t.Errorf("%+v: facets differ from bleve's (-bleve +ours):\n%s", q, diff)
			}
			if len(res.Facets.Kind) > 0 {
				faceted++
			}
			if len(got) != len(want) {
				t.Errorf("%+v: %d documents match, bleve matches %d", q, len(got), len(want))
				continue
			}
			for d, w := range want {
				g, ok := got[d]
				if !ok || math.Abs(g-w) > 1e-9*w {
					t.Errorf("%+v: %s scores %v, bleve %v", q, ix.docs[d].URL, g, w)
				}
				compared++
			}
		}
	}
	if compared == 0 || faceted == 0 {
		t.Fatal("no document matched or no query had facets: the test compares nothing")
	}
}

// TestTopKEqualsAll holds the pages Search returns to the order of ranking
// every match: for each query of the query set, with paging and facet
// filters, the answer is the slice of the whole ranking.
func TestTopKEqualsAll(t *testing.T) {
	t.Parallel()
	ix, _, _ := loadBundled(t)
	ctx := context.Background()
	partial := 0
	for _, qq := range loadQueries(t).Query {
		// The whole ranking of each text and filter, which the pages
		// without filters share.
		ranked := map[Query]*Results{}
		for _, q := range []Query{
			{Text: qq.Q},
			{Text: qq.Q, Limit: 3, Offset: 5},
			{Text: qq.Q, Limit: 100},
			{Text: qq.Q, Offset: 60},
			{Text: qq.Q, Kind: "faq"},
			{Text: qq.Q, Lang: "zh", Limit: 20},
		} {
			got := answer(t, q)
			every := q
			every.Limit, every.Offset = ix.DocCount, 0
			all, ok := ranked[every]
			if !ok {
				var err error
				if all, err = ix.Search(ctx, every); err != nil {
					t.Fatal(err)
				}
				ranked[every] = all
			}
			w := *all // a copy, cut to the page below
			want := &w
			limit := q.Limit
			if limit == 0 {
				limit = 10
			}
			want.Offset = q.Offset
			want.Results = want.Results[min(q.Offset, len(want.Results)):min(q.Offset+limit, len(want.Results))]
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%+v: top-k answer differs from ranking every match:\n got %+v\nwant %+v", q, got.Results, want.Results)
			}
			if want.Total > q.Offset+limit {
				partial++
			}
		}
	}
	if partial == 0 {
		t.Fatal("no query matched more pages than it returned: the test compares nothing")
	}
	t.Logf("%d searches matched more pages than they returned", partial)
}

// TestTopRanked checks the heap selection against sorting everything, on
// rankings with ties in tier and score.
func TestTopRanked(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 40 {
		rs := make([]ranked, n)
		for i := range rs {
			rs[i] = ranked{doc: r.IntN(8), tier: r.IntN(3), score: float64(r.IntN(4))}
		}
		all := slices.Clone(rs)
		sortRanked(all)
		for k := 0; k <= n+1; k++ {
			top := topRanked{k: k}
			for _, r := range rs {
				top.add(r)
			}
			if got, want := top.sorted(), all[:min(k, n)]; !slices.Equal(got, want) {
				t.Fatalf("n=%d k=%d: got %v, want %v", n, k, got, want)
			}
		}
	}
}

func TestBuildRejectsDuplicateURL(t *testing.T) {
	if _, err := Build([]Doc{{URL: "faq/a.html", Kind: "faq"}, {URL: "faq/a.html", Kind: "faq"}}, nil); err == nil {
		t.Fatal("two documents with one URL built an index")
	}
}
