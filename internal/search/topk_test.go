package search

import (
	"context"
	"math"
	"reflect"
	"testing"
)

// sameAnswer compares two answers, scores within float rounding: an
// explained page's score may come from a query of another shape, whose
// sums bleve adds in another order.
func sameAnswer(a, b *Results) bool {
	if len(a.Results) != len(b.Results) {
		return false
	}
	x, y := *a, *b
	x.Results, y.Results = nil, nil
	if !reflect.DeepEqual(x, y) {
		return false
	}
	for i := range a.Results {
		h, k := a.Results[i], b.Results[i]
		if math.Abs(h.Score-k.Score) > 1e-9*math.Max(math.Abs(h.Score), math.Abs(k.Score)) {
			return false
		}
		h.Score, k.Score = 0, 0
		if h != k {
			return false
		}
	}
	return true
}

// TestTopKEqualsAll holds the top-k fetch of Search to the order of
// fetching every match: for each query of the query set, with paging and
// facet filters, the answers are identical.
func TestTopKEqualsAll(t *testing.T) {
	bundled, _, _ := loadBundled(t)
	all, ix := *bundled, *bundled
	all.fetchAll = true
	ix.firstFetch = 1 // grow from one hit, so the bound decides every fetch
	ctx := context.Background()
	partial := 0
	for _, qq := range loadQueries(t).Query {
		for _, q := range []Query{
			{Text: qq.Q},
			{Text: qq.Q, Limit: 3, Offset: 5},
			{Text: qq.Q, Limit: 100},
			{Text: qq.Q, Offset: 60},
			{Text: qq.Q, Kind: "faq"},
			{Text: qq.Q, Lang: "zh", Limit: 20},
		} {
			got, err := ix.Search(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			want, err := all.Search(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if !sameAnswer(got, want) {
				t.Errorf("%+v: top-k answer differs from fetching every match:\n got %+v\nwant %+v", q, got.Results, want.Results)
			}
			if want.Total > len(want.Results) {
				partial++
			}
		}
	}
	if partial == 0 {
		t.Fatal("no query matched more pages than it returned: the test compares nothing")
	}
	t.Logf("%d searches matched more pages than they returned", partial)
}
