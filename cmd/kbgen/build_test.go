package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
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
