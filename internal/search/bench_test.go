package search

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"testing"
	"time"
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

// BenchmarkQueryCPU is /api/search without its cache, one request after
// another over the query set and the templates' example lines, and
// reports the CPU time a query takes: cpu-µs-p50 and cpu-µs-p99 of the
// thread that answered it (the garbage collector's assists included, its
// background workers not), and proc-cpu-µs/op, the whole process's CPU
// time over the run divided by the queries. On the 10k corpus, three
// passes over the 188 texts a run:
//
//	ROCEKB_BENCH_KB=DIR/kb go test -run '^$' -bench QueryCPU -benchtime 564x -count 5 ./internal/search
func BenchmarkQueryCPU(b *testing.B) {
	ix, _, _ := loadBundled(b)
	var reqs []*http.Request
	for _, q := range benchQueries(b) {
		reqs = append(reqs, httptest.NewRequest("GET", "/api/search?q="+url.QueryEscape(q), nil))
	}
	for _, tp := range Templates() {
		reqs = append(reqs, httptest.NewRequest("GET", "/api/search?q="+url.QueryEscape(tp.Example), nil))
	}
	defer ix.SetCacheSize(DefaultCacheSize)
	ix.SetCacheSize(0)
	h := Handler(ix)
	w := discardWriter{http.Header{}}
	defer lockThread()()
	cpu := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	proc := processCPU()
	for i := 0; i < b.N; i++ {
		t := threadCPU()
		h.ServeHTTP(w, reqs[i%len(reqs)])
		cpu = append(cpu, threadCPU()-t)
	}
	proc = processCPU() - proc
	b.StopTimer()
	slices.Sort(cpu)
	us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
	b.ReportMetric(us(cpu[len(cpu)/2]), "cpu-µs-p50")
	b.ReportMetric(us(cpu[len(cpu)*99/100]), "cpu-µs-p99")
	b.ReportMetric(us(proc)/float64(b.N), "proc-cpu-µs/op")
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

// BenchmarkBuild is Build over the knowledge base's documents (bleve's
// index, the term index read from it, the snippets' marks) and reports
// proc-cpu-ms/op, the whole process's CPU time per build, the analysis
// workers and the garbage collector included. On the 10k corpus:
//
//	ROCEKB_BENCH_KB=DIR/kb go test -run '^$' -bench Build -benchtime 3x -count 2 ./internal/search
func BenchmarkBuild(b *testing.B) {
	_, al, docs := loadBundled(b)
	b.ReportAllocs()
	b.ResetTimer()
	proc := processCPU()
	for i := 0; i < b.N; i++ {
		ix, err := Build(docs, al)
		if err != nil {
			b.Fatal(err)
		}
		ix.Close()
	}
	proc = processCPU() - proc
	b.ReportMetric(float64(proc)/float64(time.Millisecond)/float64(b.N), "proc-cpu-ms/op")
}

// BenchmarkStatic builds and emits the static index of the bundled
// knowledge base.
func BenchmarkStatic(b *testing.B) {
	_, al, docs := loadBundled(b)
	b.ReportAllocs()
	b.ResetTimer()
	proc := processCPU()
	for i := 0; i < b.N; i++ {
		n := 0
		if err := NewStatic(docs, al).Outputs(func(_ string, data []byte) error { n += len(data); return nil }); err != nil {
			b.Fatal(err)
		}
	}
	proc = processCPU() - proc
	b.ReportMetric(float64(proc)/float64(time.Millisecond)/float64(b.N), "proc-cpu-ms/op")
}

func benchQueries(b *testing.B) []string {
	var qs []string
	for _, q := range loadQueries(b).Query {
		qs = append(qs, q.Q)
	}
	return qs
}
