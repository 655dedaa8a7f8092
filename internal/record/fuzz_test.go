package record

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// smallGoldens seeds the fuzzers with the few smallest golden records:
// seeding all fifty (7 KB each) spent a short run gathering their
// coverage and minimising them, 51 inputs in 8 s.
func smallGoldens(f *testing.F, n int) [][]byte {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "hosts", "*.golden.toml"))
	if len(files) == 0 {
		f.Fatal("no golden records to seed from")
	}
	var srcs [][]byte
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		srcs = append(srcs, b)
	}
	sort.Slice(srcs, func(i, j int) bool { return len(srcs[i]) < len(srcs[j]) })
	return srcs[:min(n, len(srcs))]
}

// FuzzDecode: the strict decoder never panics, and whatever it accepts
// round-trips: decode → encode → decode gives the same record; checking
// its fields (and positioning the problems) never panics either.
func FuzzDecode(f *testing.F) {
	for _, b := range smallGoldens(f, 3) {
		f.Add(b, false)
	}
	f.Add([]byte("schema = 1\n[host]\nid = \"x\"\n"), false)
	f.Add([]byte("schema = 2\n[host]\nid = \"a\\u202eb\"\nsource_kind = \"root\"\n[[source]]\nid = \"\\u001b[2J\"\nstatus = \"ok\"\n"), false)
	f.Add([]byte(`{"schema": 2, "host": {"id": "x", "source_kind": "root"}, "adapters": [{"pci_address": "0000:3b:00.0", "vendor": "15b3", "device": "1017"}]}`), true)
	f.Add([]byte("{\n  \"schema\": 2,\n  \"host\": {\"id\": \"x\",}\n}\n"), true)
	f.Fuzz(func(t *testing.T, b []byte, isJSON bool) {
		name := "h.toml"
		if isJSON {
			name = "h.json"
		}
		h, _ := Decode(name, b)
		if h == nil {
			return
		}
		if got, want := Check(name, b, h), checkEvery(name, b, h); !cmp.Equal(got, want) {
			t.Fatalf("Check and a walk of every string differ: %s", cmp.Diff(want, got))
		}
		var buf bytes.Buffer
		if err := Encode(&buf, h, "toml"); err != nil {
			t.Fatalf("accepted record does not encode: %v", err)
		}
		again, probs := Decode("again.toml", buf.Bytes())
		if again == nil {
			t.Fatalf("encoded record does not decode: %s\n%s", probs, buf.Bytes())
		}
		if len(h.Absent) > 0 {
			t.Errorf("decoded record keeps %d [[absent]] lists out of Sources", len(h.Absent))
		}
		// A record re-encoded with [[absent]] lists says schema 3.
		if again.Schema > h.Schema && again.Schema == absentSchema {
			again.Schema = h.Schema
		}
		// An empty table ([rdma_device.from] with no keys) is not written.
		if d := cmp.Diff(h, again, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("decode → encode → decode changed the record (-first +second):\n%s", d)
		}
	})
}
