package lspci

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "captures", "lspci", "*.txt"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		devs, err := Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if len(devs) > len(b) {
			t.Fatalf("%d devices from %d bytes", len(devs), len(b))
		}
		for _, d := range devs {
			d.IsNetwork()
		}
	})
}
