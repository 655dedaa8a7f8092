package record

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzDecode: the strict decoder never panics, and whatever it accepts
// round-trips: decode → encode → decode gives the same record.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "hosts", "*.golden.toml"))
	if len(files) == 0 {
		f.Fatal("no golden records to seed from")
	}
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
		var buf bytes.Buffer
		if err := Encode(&buf, h, "toml"); err != nil {
			t.Fatalf("accepted record does not encode: %v", err)
		}
		again, probs := Decode("again.toml", buf.Bytes())
		if again == nil {
			t.Fatalf("encoded record does not decode: %s\n%s", probs, buf.Bytes())
		}
		if d := cmp.Diff(h, again); d != "" {
			t.Errorf("decode → encode → decode changed the record (-first +second):\n%s", d)
		}
	})
}
