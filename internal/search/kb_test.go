package search

import (
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
		b.docs = s.Docs()
		start := time.Now()
		b.ix, b.err = Build(b.docs, b.al)
		buildTime = time.Since(start)
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.ix, b.al, b.docs
}
