package search

import (
	"fmt"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"
)

// bleve indexes the documents: the mapping names the domain analyzer for
// the four text fields (with the alias table in its config) and keeps
// kind, vendor and lang as keyword facets. The term index that answers
// queries (score.go) is read from this index's postings.

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
				a.addMulti(k, phrase{Canon: l[0], Rest: l[1:]})
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

func docID(i int) string { return fmt.Sprintf("%06d", i) }

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
			bi.Close()
			return nil, err
		}
	}
	if err := bi.Batch(b); err != nil {
		bi.Close()
		return nil, err
	}
	return bi, nil
}

// readBleve reads the term index out of bi.
func readBleve(bi bleve.Index) (*termIndex, error) {
	adv, err := bi.Advanced()
	if err != nil {
		return nil, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return readTermIndex(r)
}
