package search

import (
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
)

// The term index (score.go) answers queries with the scores bleve's own
// searchers give the query bleveQuery builds over the index's bleve index;
// TestScoresEqualBleve compares the two.

// bleveQuery is a disjunction over the query's terms, each a disjunction
// over the fields with boost = field boost × term weight. bleve scales each
// disjunction by the share of its clauses that match (coord), so a page
// matching more of the query's terms ranks higher; the static index ranks
// the same way (see Static).
func bleveQuery(qts []QueryTerm, q Query) query.Query {
	var terms []query.Query
	for _, t := range qts {
		var fs []query.Query
		for _, f := range Fields {
			tq := bleve.NewTermQuery(t.Term)
			tq.SetField(f)
			tq.SetBoost(FieldBoost[f] * t.Weight)
			fs = append(fs, tq)
		}
		terms = append(terms, bleve.NewDisjunctionQuery(fs...))
	}
	var top query.Query = bleve.NewDisjunctionQuery(terms...)
	var filters []query.Query
	for _, f := range [][2]string{{"kind", q.Kind}, {"vendor", q.Vendor}, {"lang", q.Lang}} {
		if f[1] != "" {
			tq := bleve.NewTermQuery(f[1])
			tq.SetField(f[0])
			tq.SetBoost(0)
			filters = append(filters, tq)
		}
	}
	if len(filters) > 0 {
		top = bleve.NewConjunctionQuery(append([]query.Query{top}, filters...)...)
	}
	return top
}
