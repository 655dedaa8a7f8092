package dmesg

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "captures", "dmesg", "*.txt"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Events) > MaxEvents || len(res.Events) > res.Lines {
			t.Fatalf("%d events from %d lines", len(res.Events), res.Lines)
		}
		for _, e := range res.Events {
			if len(e.Text) > maxText || e.Line < 1 || e.Line > res.Lines {
				t.Fatalf("bad event %+v", e)
			}
		}
	})
}
