package search

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/rocekb/rocekb/internal/page"
)

// Doc is one page (or a place on one) to index: the document the page
// yields (page.Doc, made by internal/site from the data it renders).
type Doc = page.Doc

// Fields, and how much a match in each counts.
var Fields = []string{"title", "ids", "headings", "body"}

// FieldBoost weighs fields: a page titled with, or about, an identifier
// beats one that mentions it.
var FieldBoost = map[string]float64{"title": 3, "ids": 3, "headings": 2, "body": 1}

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

// NewMapping returns the index mapping: the four text fields analyzed by
// the domain analyzer (with the alias table in its config), and kind,
// vendor and lang as keyword facets.
func NewMapping(al *Aliases) (*mapping.IndexMappingImpl, error) {
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

// Index is a built search index. Search is safe for concurrent use.
type Index struct {
	bi       bleve.Index
	an       *Analyzer
	docs     []Doc // sorted by kind, vendor, lang, URL: the static doc order
	marks    *marks
	terms    *termIndex
	facets   *facetIndex
	cache    *answerCache
	byURL    map[string]int  // doc number of each URL
	boosts   []docBoost      // by doc number
	hosts    map[string]bool // terms that name a host (hostTerms)
	nHosts   int             // host reports indexed
	fuzzy    []FuzzyName
	DocCount int
}

// sortDocs puts docs in the order both engines number them: facet values
// are then contiguous runs, and ties break the same way.
func sortDocs(docs []Doc) []Doc {
	out := append([]Doc(nil), docs...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.Kind != b.Kind:
			return a.Kind < b.Kind
		case a.Vendor != b.Vendor:
			return a.Vendor < b.Vendor
		case a.Lang != b.Lang:
			return a.Lang < b.Lang
		}
		return a.URL < b.URL
	})
	return out
}

func docID(i int) string { return fmt.Sprintf("%06d", i) }

func fieldText(d *Doc, f string) string {
	switch f {
	case "title":
		return d.Title
	case "ids":
		return strings.Join(d.IDs, "\n")
	case "headings":
		return strings.Join(d.Headings, "\n")
	}
	return d.Body
}

// Build indexes docs in memory. Two docs with one URL are an error.
func Build(docs []Doc, al *Aliases) (*Index, error) {
	im, err := NewMapping(al)
	if err != nil {
		return nil, err
	}
	bi, err := bleve.NewUsing("", im, scorch.Name, scorch.Name, nil) // memory-only
	if err != nil {
		return nil, err
	}
	ix := &Index{bi: bi, an: &Analyzer{Aliases: al}, docs: sortDocs(docs)}
	seen := map[string]bool{}
	b := bi.NewBatch()
	for i := range ix.docs {
		d := &ix.docs[i]
		if seen[d.URL] {
			return nil, fmt.Errorf("search: two documents with URL %q", d.URL)
		}
		seen[d.URL] = true
		m := map[string]interface{}{"kind": d.Kind, "vendor": d.Vendor, "lang": d.Lang}
		for _, f := range Fields {
			m[f] = fieldText(d, f)
		}
		if err := b.Index(docID(i), m); err != nil {
			return nil, err
		}
	}
	if err := bi.Batch(b); err != nil {
		return nil, err
	}
	ix.DocCount = len(ix.docs)
	ix.byURL = make(map[string]int, len(ix.docs))
	ix.boosts = make([]docBoost, len(ix.docs))
	for i := range ix.docs {
		ix.byURL[ix.docs[i].URL] = i
		ix.boosts[i] = boostOf(&ix.docs[i])
		if ix.docs[i].Kind == "host" {
			ix.nHosts++
		}
	}
	ix.hosts = hostTerms(ix.an, ix.docs)
	ix.fuzzy = fuzzyNames(ix.docs, al)
	// Each field analyzed once, for the term index and the snippets.
	tb := newTermBuilder(len(ix.docs))
	ix.marks = newMarks(len(ix.docs))
	for i := range ix.docs {
		for f, name := range Fields {
			toks := ix.an.Analyze(fieldText(&ix.docs[i], name))
			tb.add(i, f, toks)
			if name == "body" {
				ix.marks.add(i, toks)
			}
		}
	}
	ix.marks.done()
	ix.terms = tb.index()
	ix.facets = newFacetIndex(ix.docs)
	ix.cache = newAnswerCache(DefaultCacheSize)
	return ix, nil
}

// Analyzer returns the analyzer the index uses.
func (ix *Index) Analyzer() *Analyzer { return ix.an }

// Close releases the index.
func (ix *Index) Close() error { return ix.bi.Close() }

// Query is a search.
type Query struct {
	Text   string
	Kind   string // facet filters; empty means any
	Vendor string
	Lang   string
	Limit  int // results; 0 means 10
	Offset int // results skipped, for the pages after the first
}

// Hit is one result.
type Hit struct {
	URL     string  `json:"url"`
	Title   string  `json:"title"`
	Kind    string  `json:"kind"`
	Vendor  string  `json:"vendor,omitempty"`
	Lang    string  `json:"lang,omitempty"`
	Snippet string  `json:"snippet"` // HTML: escaped text, matches in <mark>
	Score   float64 `json:"score"`
}

// FacetCount is one facet value and how many results have it.
type FacetCount struct {
	Value string `json:"value"`
	Count int    `json:"count"`
}

// Facets are counted over all results, not just the ones returned.
type Facets struct {
	Kind   []FacetCount `json:"kind"`
	Vendor []FacetCount `json:"vendor"`
	Lang   []FacetCount `json:"lang"`
}

// Results answer a Query.
type Results struct {
	Query string `json:"query"`
	// DidYouMean is the query searched instead, when a token of it is
	// no page's and a known name is within a typo of it.
	DidYouMean string `json:"did_you_mean,omitempty"`
	// Explains says what a pasted line means, for each known message
	// template it matches; those pages rank first.
	Explains []Explanation `json:"explains,omitempty"`
	Terms    []QueryTerm   `json:"terms"`
	Total    int           `json:"total"`
	Offset   int           `json:"offset"`
	Results  []Hit         `json:"results"`
	Facets   Facets        `json:"facets"`
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

// Search runs q. An empty query has no results. The query is normalized
// (log headers dropped), corrected when a short query has a token no page
// has (DidYouMean), and matched against the message templates, whose pages
// rank first (Explains); then come the knowledge pages by score × kind
// boost, then the host reports, unless the query names a host.
func (ix *Index) Search(ctx context.Context, q Query) (*Results, error) {
	res := &Results{Query: q.Text, Offset: q.Offset, Results: []Hit{}, Facets: Facets{Kind: []FacetCount{}, Vendor: []FacetCount{}, Lang: []FacetCount{}}}
	text := Normalize(q.Text)
	if c := correct(text, ix.fuzzy, ix.known); c != "" {
		text, res.DidYouMean = c, c
	}
	qts := ix.an.QueryTerms(text)
	res.Terms = qts
	cjk := hasCJK(text)
	var pinned []int
	res.Explains, pinned = explain(text, cjk, func(u string) (int, bool) {
		i, ok := ix.byURL[u]
		return i, ok && ix.passes(i, q)
	})
	if len(qts) == 0 && len(pinned) == 0 {
		return res, nil
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	offset := max(q.Offset, 0)
	hostsApart := ix.nHosts > 0 && !namesHost(qts, ix.hosts)
	a, scale := ix.terms.match(qts)
	defer ix.terms.done(a)
	top := topRanked{k: min(offset+limit, len(a.matched)+len(pinned))}
	for _, d := range a.matched {
		if !ix.passes(int(d), q) {
			continue
		}
		tier := tierOf(ix.docs[d].Kind, slices.Contains(pinned, int(d)), !hostsApart)
		top.add(ranked{doc: int(d), tier: tier, score: ix.boosts[d].score(a.score(d, scale), cjk)})
		res.Total++
	}
	for _, d := range pinned {
		if a.terms[d] == 0 { // explained, but no term of the query matches
			top.add(ranked{doc: d, tier: tierExplained})
			res.Total++
		}
	}
	res.Facets = ix.facets.count(a.matched, q)
	all := top.sorted()
	want := ix.marks.want(termSet(qts))
	for k := offset; k < len(all) && k < offset+limit; k++ {
		i := all[k].doc
		d := &ix.docs[i]
		res.Results = append(res.Results, Hit{URL: d.URL, Title: d.Title, Kind: d.Kind, Vendor: d.Vendor, Lang: d.Lang,
			Snippet: ix.marks.snippet(i, d.Body, want), Score: all[k].score})
	}
	return res, nil
}

// passes reports whether doc i passes q's facet filters.
func (ix *Index) passes(i int, q Query) bool {
	d := &ix.docs[i]
	return (q.Kind == "" || d.Kind == q.Kind) && (q.Vendor == "" || d.Vendor == q.Vendor) && (q.Lang == "" || d.Lang == q.Lang)
}

// known reports whether a raw token has a term some page has.
func (ix *Index) known(raw string) bool {
	for _, t := range queryTerms(ix.an.Analyze(raw)) {
		if mainTerm(t.Kind) && ix.terms.has(t.Term) {
			return true
		}
	}
	return false
}

func sortFacets(l []FacetCount) {
	sort.Slice(l, func(i, j int) bool {
		if l[i].Count != l[j].Count {
			return l[i].Count > l[j].Count
		}
		return l[i].Value < l[j].Value
	})
}

func termSet(qts []QueryTerm) map[string]bool {
	s := make(map[string]bool, len(qts))
	for _, t := range qts {
		s[t.Term] = true
	}
	return s
}
