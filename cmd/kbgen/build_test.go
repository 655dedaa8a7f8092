package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/rocekb/rocekb"
	"github.com/rocekb/rocekb/internal/page"
)

// TestBuildDeterministic builds the shipped knowledge base twice and
// requires byte-identical trees.
func TestBuildDeterministic(t *testing.T) {
	dir := t.TempDir()
	var trees [2]map[string][]byte
	for i := range trees {
		out := filepath.Join(dir, []string{"a", "b"}[i])
		var stderr bytes.Buffer
		code := run([]string{"build", "--matrix", "../../matrix", "--content", "../../content", "--records", "../../testdata/hosts", "--out", out}, nil, &bytes.Buffer{}, &stderr)
		if code != 0 {
			t.Fatalf("build %d: exit %d: %s", i, code, stderr.String())
		}
		trees[i] = readTree(t, out)
	}
	if len(trees[0]) < 3 {
		t.Fatalf("only %d files built", len(trees[0]))
	}
	if len(trees[0]) != len(trees[1]) {
		t.Fatalf("file counts differ: %d vs %d", len(trees[0]), len(trees[1]))
	}
	for name, a := range trees[0] {
		if !bytes.Equal(a, trees[1][name]) {
			t.Errorf("%s differs between builds", name)
		}
	}
}

func readTree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		files[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestBuildHostAndFleetFragments builds the fixture hosts and checks what
// their host and fleet pages say, through the real templates.
func TestBuildHostAndFleetFragments(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	var stderr bytes.Buffer
	if code := run([]string{"build", "--matrix", "../../matrix", "--content", "../../content", "--records", "../../testdata/hosts", "--out", out}, nil, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr.String())
	}
	for file, fragments := range map[string][]string{
		"host/mlx5-cx4-rhel7-rdma-cm-mode.golden.html": {
			`<title>Unnamed host · mlx5-cx4-rhel7-rdma-cm-mode.golden · rocekb: RoCE adapter compatibility</title>`,
			`<link rel="stylesheet" href="../style.css">`,
			`<strong>0 errors, 1 warning, 0 info.</strong>`,
			`<h3><span class="badge sev-warning">warning</span> 1 warning</h3>`,
			`<p class="check-title">Is the RDMA_CM default RoCE mode v2 on v2-capable ports?</p>`,
			`<a href="mlx5-cx4-rhel7-rdma-cm-mode.golden.toml" download>`,
			`<div class="finding warning" id="roce-mode-v1-mlx5_0/1">`,
			`<a href="../tree/rdma-cm-connection-fails.html">`,
		},
		"host/mlx5-cx4lx-hpe-probe-failed.golden.html": {
			`<span class="badge sev-error">error</span>`,
			`<span class="meta">on 0000:0b:00.0</span>`,
		},
		"host/mlx5-cx5-mlnxofed.golden.html": {
			`<dt>Operating system</dt><dd><span class="absent">not recorded</span></dd>`,
			`<td><code>0000:b3:00.0</code></td>
<td><span class="absent">not recorded</span></td>`,
		},
		"fleet.html": {
			`<p class="lede">39 host records, diagnosed against the matrix.</p>`,
			`<td><a href="host/mlx5-cx4-rhel7-rdma-cm-mode.golden.html">Unnamed host · mlx5-cx4-rhel7-rdma-cm-mode.golden</a></td>`,
			`<a href="hosts.csv">hosts.csv</a>`,
			`<svg class="chart" role="img"`,
			`<h2 id="roce-modes">RDMA_CM default RoCE modes</h2>`,
		},
		"index.html": {`<a href="fleet.html">Fleet view</a>: drift and counts across 39 host records.`},
	} {
		b, err := os.ReadFile(filepath.Join(out, file))
		if err != nil {
			t.Error(err)
			continue
		}
		for _, f := range fragments {
			if !bytes.Contains(b, []byte(f)) {
				t.Errorf("%s lacks %s", file, f)
			}
		}
	}
}

// TestSearchPageLinks: without JavaScript, search.html sends readers to the
// adapters index and the FAQ list, at the paths the page model gives them.
func TestSearchPageLinks(t *testing.T) {
	b, err := fs.ReadFile(rocekb.Assets, "static/"+page.Path(page.Search, ""))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []page.Kind{page.Adapters, page.FAQIndex} {
		if href := `href="` + page.Path(k, "") + `"`; !bytes.Contains(b, []byte(href)) {
			t.Errorf("search.html lacks %s", href)
		}
	}
}
