package search

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"

	index "github.com/blevesearch/bleve_index_api"
)

// termIndex scores a query as bleve's searchers score the query bleveQuery
// (in bleve_test.go) builds over the Index's bleve index (tf-idf, field
// boosts, coord), without walking bleve's postings for each query: bleve
// merges one term searcher per term and field through a heap for every
// matching document, which on the 10k corpus cost about 5 ms of CPU per
// query. What a query's score needs of a document is known once the index
// is built, so bleve's postings are read once (readTermIndex) into each
// term's documents with the term's score in them, and a query adds up the
// lists of its terms.
//
// bleve's score of a document d for query terms t1…tn (weights w) is
//
//	qn × M/n × Σ_t w_t × Σ_f∈F(t,d) sqrt(tf) × norm_f(d) × idf_tf² × boost_f × |F(t,d)|/4
//
// where F(t,d) are the fields of d that hold t, M how many of the terms d
// holds, norm_f(d) = 1/√(tokens in field f) as a float32, idf_tf =
// 1 + ln(N/(df_tf+1)) over the N documents, and qn = 1/√(Σ_t Σ_f (boost_f ×
// w_t × idf_tf)²), the query norm (a term no document has counts there with
// idf 1 + ln N). The inner sum over fields is a posting's weight.
// TestScoresEqualBleve holds the two to the same scores.
type termIndex struct {
	post map[string]*termPosts
	// absent is Σ_f (boost_f × idf)² of a term no document has.
	absent  float64
	scratch sync.Pool // *accum, sized to the documents
}

// termPosts are the documents holding a term, ascending, each with the
// term's weight in it, and Σ_f (boost_f × idf_tf)² for the query norm.
type termPosts struct {
	docs []int32
	w    []float64
	sq   float64
}

// fieldHit is a term in one field of a document, as bleve's postings
// hold it: how often the field has the term and the field's norm.
type fieldHit struct {
	doc   int32
	field uint8
	tf    int32
	norm  float32 // bleve keeps 1/√(tokens in the field) as a float32
}

// readTermIndex reads the term index out of bleve's index: each field's
// term dictionary, and each term's postings with their frequencies and
// norms. Each document is in r under docID of its number.
func readTermIndex(r index.IndexReader) (*termIndex, error) {
	n, err := r.DocCount()
	if err != nil {
		return nil, err
	}
	num, err := docNumbers(r, int(n))
	if err != nil {
		return nil, err
	}
	hits := map[string][]fieldHit{}
	var tfd index.TermFieldDoc
	for f, name := range Fields {
		dict, err := r.FieldDict(name)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", name, err)
		}
		for {
			e, err := dict.Next()
			if err != nil {
				dict.Close()
				return nil, fmt.Errorf("field %s: %w", name, err)
			}
			if e == nil {
				break
			}
			l, err := readPostings(r, e.Term, f, num, hits[e.Term], &tfd)
			if err != nil {
				dict.Close()
				return nil, err
			}
			hits[e.Term] = l
		}
		if err := dict.Close(); err != nil {
			return nil, err
		}
	}
	return weigh(hits, int(n)), nil
}

// readPostings appends to l the documents whose field f holds term.
func readPostings(r index.IndexReader, term string, f int, num []int32, l []fieldHit, tfd *index.TermFieldDoc) ([]fieldHit, error) {
	tfr, err := r.TermFieldReader(context.Background(), []byte(term), Fields[f], true, true, false)
	if err != nil {
		return nil, fmt.Errorf("field %s, term %q: %w", Fields[f], term, err)
	}
	defer tfr.Close()
	for {
		p, err := tfr.Next(tfd.Reset())
		if err != nil {
			return nil, fmt.Errorf("field %s, term %q: %w", Fields[f], term, err)
		}
		if p == nil {
			return l, nil
		}
		v := p.ID.Value()
		if v >= uint64(len(num)) || num[v] < 0 {
			return nil, fmt.Errorf("field %s, term %q: posting of unknown document %d", Fields[f], term, v)
		}
		l = append(l, fieldHit{doc: num[v], field: uint8(f), tf: int32(p.Freq), norm: float32(p.Norm)})
	}
}

// docNumbers maps bleve's internal document numbers (scorch numbers the
// n documents of an index built in one batch 0…n-1, in its own order) to
// ours, the external ids.
func docNumbers(r index.IndexReader, n int) ([]int32, error) {
	num := make([]int32, n)
	for i := range num {
		num[i] = -1
	}
	ids, err := r.DocIDReaderAll()
	if err != nil {
		return nil, err
	}
	defer ids.Close()
	for {
		id, err := ids.Next()
		if err != nil {
			return nil, err
		}
		if id == nil {
			return num, nil
		}
		ext, err := r.ExternalID(id)
		if err != nil {
			return nil, err
		}
		d, err := strconv.Atoi(ext)
		v := id.Value()
		if err != nil || d < 0 || d >= n || v >= uint64(n) {
			return nil, fmt.Errorf("document %q numbered %d in an index of %d", ext, v, n)
		}
		num[v] = int32(d)
	}
}

// weigh makes the term index of n documents from each term's postings.
func weigh(hits map[string][]fieldHit, n int) *termIndex {
	nf := len(Fields)
	ti := &termIndex{post: make(map[string]*termPosts, len(hits))}
	for _, name := range Fields {
		bi := FieldBoost[name] * (1 + math.Log(float64(n)))
		ti.absent += bi * bi
	}
	df, idf := make([]int, nf), make([]float64, nf)
	for term, l := range hits {
		// bleve's postings come field by field, each in bleve's order; a
		// document's fields are added up in field order.
		slices.SortFunc(l, func(a, b fieldHit) int { return cmp.Or(cmp.Compare(a.doc, b.doc), cmp.Compare(a.field, b.field)) })
		clear(df)
		for _, h := range l {
			df[h.field]++
		}
		p := &termPosts{}
		for f, name := range Fields {
			idf[f] = 1 + math.Log(float64(n)/float64(df[f]+1))
			bi := FieldBoost[name] * idf[f]
			p.sq += bi * bi
		}
		for k := 0; k < len(l); {
			d := l[k].doc
			var sum float64
			matched := 0
			for ; k < len(l) && l[k].doc == d; k++ {
				h := l[k]
				f := h.field
				sum += math.Sqrt(float64(h.tf)) * float64(h.norm) * idf[f] * (FieldBoost[Fields[f]] * idf[f])
				matched++
			}
			p.docs = append(p.docs, d)
			p.w = append(p.w, sum*float64(matched)/float64(nf))
		}
		ti.post[term] = p
	}
	ti.sizeScratch(n)
	return ti
}

// sizeScratch sizes the scratch accumulators to n documents.
func (ti *termIndex) sizeScratch(n int) {
	ti.scratch.New = func() any { return &accum{sum: make([]float64, n), terms: make([]int32, n)} }
}

// has reports whether a document holds term.
func (ti *termIndex) has(term string) bool { return ti.post[term] != nil }

// accum adds up one query's scores: each matched document's sum of term
// weights and how many of the terms it holds, and the documents matched,
// in the order first matched.
type accum struct {
	sum     []float64
	terms   []int32
	matched []int32
}

// match adds up the scores of qts in a from the pool; give it back with
// done. a.score(d) is then bleve's text score of document d.
func (ti *termIndex) match(qts []QueryTerm) (*accum, float64) {
	a := ti.scratch.Get().(*accum)
	if len(qts) == 0 {
		return a, 0
	}
	var sq float64
	for _, t := range qts {
		p := ti.post[t.Term]
		if p == nil {
			sq += t.Weight * t.Weight * ti.absent
			continue
		}
		sq += t.Weight * t.Weight * p.sq
		for k, d := range p.docs {
			if a.terms[d] == 0 {
				a.matched = append(a.matched, d)
			}
			a.sum[d] += t.Weight * p.w[k]
			a.terms[d]++
		}
	}
	// The query norm and the coord over the terms.
	return a, 1 / math.Sqrt(sq) / float64(len(qts))
}

// score is document d's text score, with scale from match.
func (a *accum) score(d int32, scale float64) float64 {
	return a.sum[d] * float64(a.terms[d]) * scale
}

// done clears a and puts it back in the pool.
func (ti *termIndex) done(a *accum) {
	for _, d := range a.matched {
		a.sum[d], a.terms[d] = 0, 0
	}
	a.matched = a.matched[:0]
	ti.scratch.Put(a)
}
