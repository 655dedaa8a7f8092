package search

import (
	"math"
	"sync"
)

// termIndex scores a query as bleve scores the query bleveQuery (in
// bleve_test.go) builds over a bleve index of the same documents
// (tf-idf, field boosts, coord), without walking bleve's postings for each
// query: bleve merges one term searcher per term and field through a heap
// for every matching document, which on the 10k corpus cost about 5 ms of
// CPU per query. What a query's score needs of a document is known when
// the index is built, so each term keeps its documents with the term's
// score in them, and a query adds up the lists of its terms.
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

// fieldHit is a term in one field of a document, while building.
type fieldHit struct {
	doc   int32
	field uint8
	tf    int32
}

// termBuilder collects the terms of n documents' fields (add), then
// weighs them (index).
type termBuilder struct {
	n     int
	hits  map[string][]fieldHit
	norms []float64 // by doc, then field
	tf    map[string]int32
}

func newTermBuilder(n int) *termBuilder {
	return &termBuilder{n: n, hits: map[string][]fieldHit{}, norms: make([]float64, n*len(Fields)), tf: map[string]int32{}}
}

// add counts the terms of field f (an index of Fields) of document i,
// which analyzes to toks. A document's fields are added in order.
func (b *termBuilder) add(i, f int, toks []Token) {
	if len(toks) == 0 {
		return
	}
	// bleve keeps a field's length as a float32 norm.
	b.norms[i*len(Fields)+f] = float64(float32(1 / math.Sqrt(float64(len(toks)))))
	clear(b.tf)
	for _, t := range toks {
		if b.tf[t.Term] == 0 {
			b.hits[t.Term] = append(b.hits[t.Term], fieldHit{doc: int32(i), field: uint8(f)})
		}
		b.tf[t.Term]++
	}
	for term, n := range b.tf {
		l := b.hits[term]
		l[len(l)-1].tf = n
	}
}

// index weighs the terms counted.
func (b *termBuilder) index() *termIndex {
	nf := len(Fields)
	n := float64(b.n)
	ti := &termIndex{post: make(map[string]*termPosts, len(b.hits))}
	for _, name := range Fields {
		bi := FieldBoost[name] * (1 + math.Log(n))
		ti.absent += bi * bi
	}
	df, idf := make([]int, nf), make([]float64, nf)
	for term, l := range b.hits {
		clear(df)
		for _, h := range l {
			df[h.field]++
		}
		p := &termPosts{}
		for f, name := range Fields {
			idf[f] = 1 + math.Log(n/float64(df[f]+1))
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
				sum += math.Sqrt(float64(h.tf)) * b.norms[int(d)*nf+int(f)] * idf[f] * (FieldBoost[Fields[f]] * idf[f])
				matched++
			}
			p.docs = append(p.docs, d)
			p.w = append(p.w, sum*float64(matched)/float64(nf))
		}
		ti.post[term] = p
	}
	size := b.n
	ti.scratch.New = func() any { return &accum{sum: make([]float64, size), terms: make([]int32, size)} }
	return ti
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
