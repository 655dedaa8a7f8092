package search

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
)

// Benchmarks measure; no test asserts a timing. Run, for benchstat:
//
//	go test -run '^$' -bench . -benchtime 2s -count 6 ./internal/search
//
// ROCEKB_BENCH_KB names another knowledge base folder (with matrix/ and
// content/), such as the 10k corpus of `go run ./bench/gencorpus -size 10k
// -out DIR` (DIR/kb), to measure the index at that size.

// BenchmarkSearch is one query of the query set after another, on the
// bleve index of the bundled knowledge base, snippets and facets included.
func BenchmarkSearch(b *testing.B) {
	ix, _, _ := loadBundled(b)
	qs := benchQueries(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ix.Search(ctx, Query{Text: qs[i%len(qs)], Limit: 10}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHandlerParallel is /api/search under concurrent requests
// (GOMAXPROCS × -cpu goroutines), JSON encoding included, without the
// network.
func BenchmarkHandlerParallel(b *testing.B) {
	ix, _, _ := loadBundled(b)
	qs := benchQueries(b)
	reqs := make([]*http.Request, len(qs))
	for i, q := range qs {
		reqs[i] = httptest.NewRequest("GET", "/api/search?q="+url.QueryEscape(q), nil)
	}
	defer ix.SetCacheSize(DefaultCacheSize)
	for _, c := range []struct {
		name string
		size int
	}{{"cache=off", 0}, {"cache=on", DefaultCacheSize}} {
		b.Run(c.name, func(b *testing.B) {
			ix.SetCacheSize(c.size)
			h := Handler(ix)
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				w := discardWriter{http.Header{}}
				i := 0
				for pb.Next() {
					h.ServeHTTP(w, reqs[i%len(reqs)])
					i++
				}
			})
		})
	}
}

type discardWriter struct{ h http.Header }

func (d discardWriter) Header() http.Header         { return d.h }
func (d discardWriter) Write(p []byte) (int, error) { return io.Discard.Write(p) }
func (d discardWriter) WriteHeader(int)             {}

// BenchmarkStatic builds and emits the static index of the bundled
// knowledge base.
func BenchmarkStatic(b *testing.B) {
	_, al, docs := loadBundled(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := 0
		if err := NewStatic(docs, al).Outputs(func(_ string, data []byte) error { n += len(data); return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

func benchQueries(b *testing.B) []string {
	var qs []string
	for _, q := range loadQueries(b).Query {
		qs = append(qs, q.Q)
	}
	return qs
}
