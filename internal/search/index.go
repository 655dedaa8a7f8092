package search

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2"

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

// Index is a built search index. Search is safe for concurrent use.
type Index struct {
	bi       bleve.Index // the index of record; terms is read from it (nil when read from a cache file)
	an       *Analyzer
	docs     []Doc // sorted by kind, vendor, lang, URL: the static doc order
	marks    *marks
	terms    *termIndex
	facets   *facetIndex
	cache    *answerCache
	byURL    map[string]int     // doc number of each URL
	boosts   []docBoost         // by doc number
	hosts    map[string]bool    // terms that name a host (hostTerms)
	entity   map[string][]int32 // id → the docs that are its page (entities)
	nHosts   int                // host reports indexed
	fuzzy    []FuzzyName
	ja       bool // some document is in Japanese (queryCJK)
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

// Build indexes docs in memory: bleve's index of them, and the term index
// read from its postings that answers queries (score.go). Two docs with
// one URL are an error.
func Build(docs []Doc, al *Aliases) (*Index, error) {
	ix, err := newIndex(docs, al)
	if err != nil {
		return nil, err
	}
	if err := ix.index(); err != nil {
		return nil, err
	}
	return ix, nil
}

// newIndex makes what an index derives from docs and al in one pass over
// them, without the tables indexing makes (index) or a cache file holds
// (readTables).
func newIndex(docs []Doc, al *Aliases) (*Index, error) {
	ix := &Index{an: &Analyzer{Aliases: al}, docs: sortDocs(docs)}
	ix.DocCount = len(ix.docs)
	ix.byURL = make(map[string]int, len(ix.docs))
	ix.boosts = make([]docBoost, len(ix.docs))
	bilingual := bilingualKinds(ix.docs)
	ix.ja = hasLang(ix.docs, "ja")
	for i := range ix.docs {
		u := ix.docs[i].URL
		if _, dup := ix.byURL[u]; dup {
			return nil, fmt.Errorf("search: two documents with URL %q", u)
		}
		ix.byURL[u] = i
		ix.boosts[i] = boostOf(&ix.docs[i], bilingual)
		if ix.docs[i].Kind == "host" {
			ix.nHosts++
		}
	}
	ix.hosts = hostTerms(ix.an, ix.docs)
	ix.entity = entities(ix.docs)
	ix.fuzzy = fuzzyNames(ix.docs, al)
	ix.facets = newFacetIndex(ix.docs)
	ix.cache = newAnswerCache(DefaultCacheSize)
	return ix, nil
}

// index makes the tables that answer queries: bleve's index of the
// documents, the term index read from it, and the snippets' marks.
func (ix *Index) index() error {
	bi, err := buildBleve(ix.docs, ix.an.Aliases)
	if err != nil {
		return fmt.Errorf("search: bleve index: %w", err)
	}
	ix.bi = bi
	if ix.terms, err = readBleve(bi); err != nil {
		bi.Close()
		return fmt.Errorf("search: read the bleve index: %w", err)
	}
	ix.marks = newMarks(len(ix.docs))
	for i := range ix.docs {
		ix.marks.add(i, ix.an.Analyze(ix.docs[i].Body))
	}
	ix.marks.done()
	return nil
}

// Analyzer returns the analyzer the index uses.
func (ix *Index) Analyzer() *Analyzer { return ix.an }

// Close releases the index.
func (ix *Index) Close() error {
	if ix.bi == nil { // read from a cache file (Cached): no bleve index
		return nil
	}
	return ix.bi.Close()
}

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

// Search runs q. An empty query has no results. The query is normalized
// (log headers dropped), corrected when a short query has a token no page
// has (DidYouMean), and matched against the message templates, whose pages
// rank first (Explains); then come the knowledge pages by score × kind
// boost (× EntityBoost for the page of a thing the query names), then the
// host reports, unless the query names a host.
func (ix *Index) Search(ctx context.Context, q Query) (*Results, error) {
	res := &Results{Query: q.Text, Offset: q.Offset, Results: []Hit{}, Facets: Facets{Kind: []FacetCount{}, Vendor: []FacetCount{}, Lang: []FacetCount{}}}
	text := Normalize(q.Text)
	if c := correct(text, ix.fuzzy, ix.known); c != "" {
		text, res.DidYouMean = c, c
	}
	qts := ix.an.QueryTerms(text)
	res.Terms = qts
	cjk := queryCJK(text, ix.ja)
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
	named := namedDocs(qts, ix.entity)
	top := topRanked{k: min(offset+limit, len(a.matched)+len(pinned))}
	for _, d := range a.matched {
		if !ix.passes(int(d), q) {
			continue
		}
		tier := tierOf(ix.docs[d].Kind, slices.Contains(pinned, int(d)), !hostsApart)
		score := ix.boosts[d].score(a.score(d, scale), cjk)
		if named[d] {
			score *= entityBoost(ix.docs[d].Kind)
		}
		top.add(ranked{doc: int(d), tier: tier, score: score})
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
