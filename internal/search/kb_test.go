package search

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/site"
)

// The bundled knowledge base, loaded once for the tests that search it.
var bundled struct {
	once sync.Once
	m    *matrix.Matrix
	c    *content.Content
	s    *site.Site // SearchOnly, as kbgen search makes it
	al   *Aliases
	docs []Doc
	ix   *Index
	err  error
}

// buildTime is how long Build took for the bundled knowledge base.
var buildTime time.Duration

func TestBuildTime(t *testing.T) {
	_, _, docs := loadBundled(t)
	t.Logf("bleve index of %d docs built in %v", len(docs), buildTime)
}

func loadBundled(t testing.TB) (*Index, *Aliases, []Doc) {
	t.Helper()
	b := &bundled
	b.once.Do(func() {
		root := "../.."
		if dir := os.Getenv("ROCEKB_BENCH_KB"); dir != "" {
			root = dir // a corpus of bench/gencorpus, for the benchmarks at its size
		}
		m, probs := matrix.Load(os.DirFS(root+"/matrix"), "matrix")
		if probs.Errors() > 0 {
			b.err = probs.Err()
			return
		}
		c, probs := content.Load(os.DirFS(root+"/content"), "content")
		if probs.Errors() > 0 {
			b.err = probs.Err()
			return
		}
		b.m, b.c = m, c
		b.al = AliasesFrom(m, c.Glossary)
		// The documents are the pages', as the site yields them.
		s, err := site.Build(site.Input{Config: config.Default(), Matrix: m, Content: c, SearchOnly: true})
		if err != nil {
			b.err = err
			return
		}
		b.s, b.docs = s, s.Docs()
		start := time.Now()
		b.ix, b.err = Build(b.docs, b.al)
		buildTime = time.Since(start)
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.ix, b.al, b.docs
}

// The static index of the bundled documents, built and written once for
// the tests that only read it (a Static that NewStatic made is not
// changed by searching it), into a folder TestMain removes.
var bundledStatic struct {
	once  sync.Once
	st    *Static
	dir   string
	files map[string][]byte
	err   error
}

var staticRoot string // the folder bundledStatic writes into

// staticRanked holds the bundled static index's answer (SearchAll, ten
// results) to each harness query, made once for the tests that score it
// or hold another reading of the index to it.
var staticRanked struct {
	once sync.Once
	all  map[string]StaticResults
}

// rankedStatic returns loadStatic's index's SearchAll of q with a limit of
// ten; a harness query's answer is made once. Callers must not change it.
func rankedStatic(t *testing.T, q string) StaticResults {
	t.Helper()
	st, _, _ := loadStatic(t)
	r := &staticRanked
	r.once.Do(func() {
		qs := harnessQueries(t)
		r.all = make(map[string]StaticResults, len(qs))
		for _, q := range qs {
			r.all[q] = st.SearchAll(Query{Text: q, Limit: 10})
		}
	})
	if all, ok := r.all[q]; ok {
		return all
	}
	return st.SearchAll(Query{Text: q, Limit: 10})
}

// bundledAnswers holds the bundled index's answer (Search) to each query
// of the query set, on the first page unfiltered and on FAQ pages only,
// made once for the tests that score it or hold another reading of the
// index to it.
var bundledAnswers struct {
	once sync.Once
	all  map[Query]*Results
}

// answer returns loadBundled's index's Search of q; the answers
// bundledAnswers holds are made once. Callers must not change it.
func answer(t *testing.T, q Query) *Results {
	t.Helper()
	ix, _, _ := loadBundled(t)
	search := func(q Query) *Results {
		res, err := ix.Search(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a := &bundledAnswers
	a.once.Do(func() {
		qs := loadQueries(t).Query
		a.all = make(map[Query]*Results, 2*len(qs))
		for _, qq := range qs {
			for _, q := range []Query{{Text: qq.Q}, {Text: qq.Q, Kind: "faq"}} {
				a.all[q] = search(q)
			}
		}
	})
	key := q
	if key.Limit == 10 { // Search's page when no limit is given
		key.Limit = 0
	}
	if res, ok := a.all[key]; ok {
		return res
	}
	return search(q)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if staticRoot != "" {
		os.RemoveAll(staticRoot)
	}
	os.Exit(code)
}

// loadStatic returns NewStatic of the bundled documents and aliases, the
// folder its outputs are written to and those outputs by path. Callers
// must not change them.
func loadStatic(t testing.TB) (*Static, string, map[string][]byte) {
	t.Helper()
	_, al, docs := loadBundled(t)
	b := &bundledStatic
	b.once.Do(func() {
		b.st = NewStatic(docs, al)
		if staticRoot, b.err = os.MkdirTemp("", "rocekb-search-test-"); b.err != nil {
			return
		}
		b.dir = staticRoot
		b.files, b.err = writeOutputs(b.st, b.dir)
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.st, b.dir, b.files
}
