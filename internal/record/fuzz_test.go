package record

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecode: the strict decoder never panics, and whatever it accepts
// encodes again.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "hosts", "*.golden.toml"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("schema = 1\n[host]\nid = \"x\"\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, _ := Decode("h.toml", b)
		if h == nil {
			return
		}
		if err := Encode(io.Discard, h, "toml"); err != nil {
			t.Fatalf("accepted record does not encode: %v", err)
		}
	})
}
