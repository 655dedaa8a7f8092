package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSmoke runs the harness on the smallest corpus so it cannot rot. It
// asserts that every measure ran (none "not measured"), never how long it
// took. The corpus grows from testdata's matrix (the vendors and drivers
// the synthetic adapters name) and empty content instead of the bundled
// ones, whose every build costs seconds the measures do not need; kbgen is
// linked without its symbol table and DWARF, which nothing here reads.
// Chromium is not started (queries -1): its start and one query cost 3
// CPU-seconds, about half the test's, and a query it could not time was
// only noted, which this test, matching "query" in static-first-query's
// lines, never saw; cmd/kbgen's TestBrowser runs the search page in
// Chromium.
func TestSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("builds kbgen")
	}
	bin := filepath.Join(t.TempDir(), "kbgen")
	if out, err := exec.Command("go", "build", "-ldflags=-s -w", "-o", bin, "../../cmd/kbgen").CombinedOutput(); err != nil {
		t.Fatalf("build kbgen: %v\n%s", err, out)
	}
	t.Chdir("../..") // back after the test, so that -count=2 finds ../../cmd/kbgen again
	var out bytes.Buffer
	results := t.TempDir()
	if err := run(options{sizes: []string{"smoke"}, runs: 1, kbgen: bin, results: results, clients: 10, requests: 5, queries: -1,
		matrix: "bench/harness/testdata/matrix", content: "bench/harness/testdata/content", hosts: "testdata/hosts"}, &out); err != nil {
		t.Fatalf("harness: %v\n%s", err, out.String())
	}
	for _, want := range []string{"work folder ", "build        smoke  kbgen", "rebuild", "incremental", "api-search", "static-first-query", "serve-reload", "output", "adapter-page"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "not measured") || strings.Contains(out.String(), "headless Chromium") {
		t.Errorf("a measure was not taken, or Chromium ran:\n%s", out.String())
	}
	if files, _ := filepath.Glob(filepath.Join(results, "harness-*.json")); len(files) != 1 {
		t.Errorf("want one results file, got %v", files)
	}
}

// A -build-only run times no rebuild, so it prints no rebuild ratio, where
// it printed "0.00×"; a run that times rebuilds prints it.
func TestRatiosBuildOnly(t *testing.T) {
	r := &Report{Measures: []Measure{
		{Name: "build", Size: "10k", Tool: "kbgen", WallS: 10},
		{Name: "build", Size: "10k", Tool: "hugo", WallS: 5},
	}}
	var b strings.Builder
	r.ratios(&b)
	if !strings.Contains(b.String(), "kbgen/hugo 2.00×") || strings.Contains(b.String(), "after one FAQ change") {
		t.Fatalf("build-only ratios:\n%s", b.String())
	}
	r.Measures = append(r.Measures, Measure{Name: "incremental", Size: "10k", Tool: "kbgen", WallS: 5})
	b.Reset()
	r.ratios(&b)
	if !strings.Contains(b.String(), "after one FAQ change/full 0.50×") {
		t.Fatalf("ratios with a rebuild:\n%s", b.String())
	}
}
