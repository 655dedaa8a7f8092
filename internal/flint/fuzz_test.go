package flint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/captures/flint/*.txt")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := Parse(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, q := range out.Queries {
			if q.Line < 1 || q.Running() == "" && q.FWRunning != "" {
				t.Fatalf("query %+v", q)
			}
		}
	})
}
