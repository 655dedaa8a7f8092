package search

import (
	"fmt"
	"sync"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"
	"github.com/blevesearch/bleve/v2/search/query"
)

// The term index (score.go) answers queries with the scores bleve gives
// the query bleveQuery builds over a bleve index of the same documents;
// the tests build that index of the bundled documents and compare
// (TestScoresEqualBleve, TestFacetsMatchBleve).

// AnalyzerName is the bleve analyzer type and instance name.
const AnalyzerName = "rocekb"

func init() {
	if err := registry.RegisterAnalyzer(AnalyzerName, analyzerConstructor); err != nil {
		panic(err)
	}
}

// bleveAnalyzer adapts Analyzer to bleve.
type bleveAnalyzer struct{ a *Analyzer }

func (b bleveAnalyzer) Analyze(text []byte) analysis.TokenStream {
	toks := b.a.Analyze(string(text))
	out := make(analysis.TokenStream, len(toks))
	for i, t := range toks {
		out[i] = &analysis.Token{Term: []byte(t.Term), Start: t.Start, End: t.End, Position: t.Pos, Type: analysis.AlphaNumeric}
	}
	return out
}

// analyzerConstructor builds the analyzer from a mapping's config, which
// carries the alias table (see Aliases.config), so a saved index mapping
// is self-contained.
func analyzerConstructor(cfg map[string]interface{}, _ *registry.Cache) (analysis.Analyzer, error) {
	al, err := aliasesFromConfig(cfg)
	if err != nil {
		return nil, err
	}
	return bleveAnalyzer{&Analyzer{Aliases: al}}, nil
}

func (a *Aliases) config() map[string]interface{} {
	single := map[string]interface{}{}
	for k, v := range a.single {
		single[k] = append([]string(nil), v...)
	}
	multi := map[string]interface{}{}
	for k, ps := range a.multi {
		var list []interface{}
		for _, p := range ps {
			list = append(list, append([]string{p.Canon}, p.Rest...))
		}
		multi[k] = list
	}
	return map[string]interface{}{"type": AnalyzerName, "single": single, "multi": multi}
}

func strs(v interface{}) ([]string, bool) {
	switch x := v.(type) {
	case []string:
		return x, true
	case []interface{}:
		out := make([]string, len(x))
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out[i] = s
		}
		return out, true
	}
	return nil, false
}

func aliasesFromConfig(cfg map[string]interface{}) (*Aliases, error) {
	a := NewAliases()
	if s, ok := cfg["single"].(map[string]interface{}); ok {
		for k, v := range s {
			l, ok := strs(v)
			if !ok {
				return nil, fmt.Errorf("analyzer %s: alias %q: not a list of strings", AnalyzerName, k)
			}
			a.single[k] = l
		}
	}
	if m, ok := cfg["multi"].(map[string]interface{}); ok {
		for k, v := range m {
			list, _ := v.([]interface{})
			for _, e := range list {
				l, ok := strs(e)
				if !ok || len(l) < 2 {
					return nil, fmt.Errorf("analyzer %s: phrase %q: want [canon, rest…]", AnalyzerName, k)
				}
				a.multi[k] = append(a.multi[k], phrase{Canon: l[0], Rest: l[1:]})
			}
		}
	}
	return a, nil
}

// newMapping returns the index mapping: the four text fields analyzed by
// the domain analyzer (with the alias table in its config), and kind,
// vendor and lang as keyword facets.
func newMapping(al *Aliases) (*mapping.IndexMappingImpl, error) {
	if al == nil {
		al = NewAliases()
	}
	im := bleve.NewIndexMapping()
	if err := im.AddCustomAnalyzer(AnalyzerName, al.config()); err != nil {
		return nil, err
	}
	im.DefaultAnalyzer = AnalyzerName
	dm := bleve.NewDocumentStaticMapping()
	for _, f := range Fields {
		fm := bleve.NewTextFieldMapping()
		fm.Analyzer = AnalyzerName
		fm.Store = false
		fm.IncludeInAll = false
		fm.IncludeTermVectors = false
		fm.DocValues = false
		dm.AddFieldMappingsAt(f, fm)
	}
	for _, f := range []string{"kind", "vendor", "lang"} {
		fm := bleve.NewKeywordFieldMapping()
		fm.Store = false
		fm.IncludeInAll = false
		fm.DocValues = true
		dm.AddFieldMappingsAt(f, fm)
	}
	im.DefaultMapping = dm
	im.StoreDynamic = false
	im.IndexDynamic = false
	im.DocValuesDynamic = false
	return im, nil
}

// bleveQuery is a disjunction over the query's terms, each a disjunction
// over the fields with boost = field boost × term weight. bleve scales each
// disjunction by the share of its clauses that match (coord), so a page
// matching more of the query's terms ranks higher; the static index ranks
// the same way (see Static).
func bleveQuery(qts []QueryTerm, q Query, hosts hostFilter) query.Query {
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
	if hosts == onlyHosts {
		tq := bleve.NewTermQuery("host")
		tq.SetField("kind")
		tq.SetBoost(0)
		filters = append(filters, tq)
	}
	if len(filters) > 0 {
		top = bleve.NewConjunctionQuery(append([]query.Query{top}, filters...)...)
	}
	if hosts == noHosts {
		tq := bleve.NewTermQuery("host")
		tq.SetField("kind")
		bq := bleve.NewBooleanQuery()
		bq.AddMust(top)
		bq.AddMustNot(tq)
		top = bq
	}
	return top
}

// hostFilter narrows a bleve query to the knowledge pages or the hosts.
type hostFilter int

const (
	anyDocs hostFilter = iota
	noHosts
	onlyHosts
)

func docID(i int) string { return fmt.Sprintf("%06d", i) }

var bundledBleve struct {
	once sync.Once
	bi   bleve.Index
	err  error
}

// bleveIndex is the bleve index of the bundled documents, in the order
// and numbering of loadBundled's Index, built once.
func bleveIndex(t testing.TB) bleve.Index {
	t.Helper()
	ix, al, _ := loadBundled(t)
	b := &bundledBleve
	b.once.Do(func() { b.bi, b.err = buildBleve(ix.docs, al) })
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.bi
}

// buildBleve indexes docs (sorted as an Index sorts them) in memory, each
// under its doc number.
func buildBleve(docs []Doc, al *Aliases) (bleve.Index, error) {
	im, err := newMapping(al)
	if err != nil {
		return nil, err
	}
	bi, err := bleve.NewUsing("", im, scorch.Name, scorch.Name, nil) // memory-only
	if err != nil {
		return nil, err
	}
	b := bi.NewBatch()
	for i := range docs {
		d := &docs[i]
		m := map[string]interface{}{"kind": d.Kind, "vendor": d.Vendor, "lang": d.Lang}
		for _, f := range Fields {
			m[f] = fieldText(d, f)
		}
		if err := b.Index(docID(i), m); err != nil {
			return nil, err
		}
	}
	return bi, bi.Batch(b)
}
