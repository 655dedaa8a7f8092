package render

import (
	"io"
	"testing"
	"time"

	"github.com/rocekb/rocekb"
	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/kb"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/site"
)

// hostBench loads the bundled knowledge base with the fixture hosts.
func hostBench(b *testing.B) (*site.Site, *Templates, []*record.Host) {
	b.Helper()
	cfg := config.Default()
	cfg.Matrix, cfg.Content, cfg.Records = "../../matrix", "../../content", "../../testdata/hosts"
	k, probs := kb.Load(cfg, kb.Options{Now: time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)})
	if k == nil {
		b.Fatal(probs)
	}
	s, err := site.Build(site.Input{Config: cfg, Matrix: k.Matrix, Content: k.Content})
	if err != nil {
		b.Fatal(err)
	}
	tpl, err := LoadTemplates(Layers{rocekb.Assets})
	if err != nil {
		b.Fatal(err)
	}
	return s, tpl, k.Hosts
}

// BenchmarkHostPage makes and renders the page of every fixture host, as a
// fleet build does once per record: diagnosis, tree walks and template.
func BenchmarkHostPage(b *testing.B) {
	s, tpl, hosts := hostBench(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, h := range hosts {
			j := s.Host(h)
			if err := tpl.Execute(io.Discard, j.Page()); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(hosts)), "ns/page")
}

// BenchmarkHostTemplate renders host pages whose data is already made: the
// template alone.
func BenchmarkHostTemplate(b *testing.B) {
	s, tpl, hosts := hostBench(b)
	var pages []site.Page
	for _, h := range hosts {
		pages = append(pages, s.Host(h).Page())
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pages {
			if err := tpl.Execute(io.Discard, p); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(pages)), "ns/page")
}
