package rdmatool

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "captures", "rdma", "*.txt"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := ParseLink(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
		if _, err := ParseDev(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
	})
}
