package modules

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func FuzzParse(f *testing.F) {
	for _, tool := range []string{"lsmod", "modinfo"} {
		files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "captures", tool, "*.txt"))
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		mods, err := ParseLsmod(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mods {
			if m.Size < 0 {
				t.Fatalf("negative size %+v", m)
			}
		}
		infos, err := ParseModinfo(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range infos {
			OutOfTree(i.Filename)
		}
	})
}
