package record

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Records kbcollect wrote before schema 2 and before schema 3 decode to
// what they said: schema 2 only added fields, and schema 3 only moved the
// sources absent at their own path into [[absent]].
func TestDecodeOlderSchemas(t *testing.T) {
	t.Parallel()
	golden, err := os.ReadFile("../../testdata/hosts/mlx5-cx7-devlink.golden.toml")
	if err != nil {
		t.Fatal(err)
	}
	now, probs := Decode("golden.toml", golden)
	if len(probs) > 0 || now == nil {
		t.Fatalf("golden record refused: %s", probs)
	}
	for _, tc := range []struct {
		file   string
		schema int
	}{{"testdata/schema1-mlx5-cx7-devlink.toml", 1}, {"testdata/schema2-mlx5-cx7-devlink.toml", 2}} {
		src, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		h, probs := Decode(tc.file, src)
		if len(probs) > 0 || h == nil {
			t.Fatalf("%s refused: %s", tc.file, probs)
		}
		if h.Schema != tc.schema || len(h.Adapters) != 2 || h.Adapters[0].Firmware.Running != "28.41.1000" {
			t.Errorf("%s misread: schema %d, %d adapters, %+v", tc.file, h.Schema, len(h.Adapters), h.Adapters)
		}
		if tc.schema == 2 {
			h.Schema = now.Schema
			if d := cmp.Diff(now, h); d != "" {
				t.Errorf("%s decodes to another host than its schema-3 golden (-golden +schema 2):\n%s", tc.file, d)
			}
		}
		// Re-encoded, it says schema 3 (it now holds [[absent]]) and
		// decodes to the same host.
		var buf bytes.Buffer
		if err := Encode(&buf, h, "toml"); err != nil {
			t.Fatal(err)
		}
		again, probs := Decode("again.toml", buf.Bytes())
		if len(probs) > 0 || again == nil {
			t.Fatalf("%s re-encoded is refused: %s\n%s", tc.file, probs, buf.String())
		}
		if again.Schema != Schema {
			t.Errorf("%s re-encoded says schema %d, want %d", tc.file, again.Schema, Schema)
		}
		again.Schema = h.Schema
		if d := cmp.Diff(h, again); d != "" {
			t.Errorf("%s re-encoded decodes to another host (-first +again):\n%s", tc.file, d)
		}
	}
}

// A record from a newer kbcollect is refused with a message that says
// why, even when it holds keys this reader does not know.
func TestDecodeRefusesNewerSchema(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../../testdata/hosts/mlx5-cx7-devlink.golden.toml")
	if err != nil {
		t.Fatal(err)
	}
	next := fmt.Sprint(Schema + 1)
	future := strings.Replace(string(src), fmt.Sprintf("schema = %d\n", Schema), "schema = "+next+"\n[host3]\n  new_key = true\n", 1)
	future = strings.Replace(future, "[host]\n", "[host]\n  uptime_s = 12\n", 1)
	for _, tc := range []struct{ name, src string }{
		{"h.toml", future},
		{"h.json", `{"schema": ` + next + `, "host": {"id": "x", "uptime_s": 12}}`},
	} {
		h, probs := Decode(tc.name, []byte(tc.src))
		want := fmt.Sprintf("%s:1:1: record schema %s is newer than this kbgen understands (%d); upgrade kbgen", tc.name, next, Schema)
		if h != nil || strings.TrimSpace(probs.String()) != want {
			t.Errorf("%s: got %q, want only %q", tc.name, probs.String(), want)
		}
	}
}
