package supportconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/captures/supportconfig/*.txt")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, s string) {
		secs, err := Parse(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, sec := range secs {
			if p := sec.FilePath(); strings.HasPrefix(p, "/") || strings.HasPrefix(p, "..") || strings.Contains(p, "/../") {
				t.Fatalf("%+v: path %q", sec, p)
			}
			if sec.Line < 1 {
				t.Fatalf("%+v", sec)
			}
		}
	})
}
