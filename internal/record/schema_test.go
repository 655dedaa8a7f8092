package record

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A schema-1 record, as kbcollect wrote it before schema 2, decodes
// unchanged: schema 2 only added fields.
func TestDecodeSchema1(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("testdata/schema1-mlx5-cx7-devlink.toml")
	if err != nil {
		t.Fatal(err)
	}
	h, probs := Decode("schema1.toml", src)
	if len(probs) > 0 || h == nil {
		t.Fatalf("schema-1 record refused: %s", probs)
	}
	if h.Schema != 1 || len(h.Adapters) != 2 || h.Adapters[0].Firmware.Running != "28.41.1000" || h.Netdevs != nil {
		t.Errorf("schema-1 record misread: schema %d, %d adapters, %+v", h.Schema, len(h.Adapters), h.Adapters)
	}
	// Re-encoding gives the same document: no field changed meaning.
	var buf bytes.Buffer
	if err := Encode(&buf, h, "toml"); err != nil {
		t.Fatal(err)
	}
	want := string(src[bytes.IndexByte(src, '\n')+1:])
	if d := cmp.Diff(want, buf.String()); d != "" {
		t.Errorf("schema-1 re-encode differs (-file +got):\n%s", d)
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
	future := strings.Replace(string(src), "schema = 2\n", "schema = 3\n[host3]\n  new_key = true\n", 1)
	future = strings.Replace(future, "[host]\n", "[host]\n  uptime_s = 12\n", 1)
	for _, tc := range []struct{ name, src string }{
		{"h.toml", future},
		{"h.json", `{"schema": 3, "host": {"id": "x", "uptime_s": 12}}`},
	} {
		h, probs := Decode(tc.name, []byte(tc.src))
		want := tc.name + ":1:1: record schema 3 is newer than this kbgen understands (2); upgrade kbgen"
		if h != nil || strings.TrimSpace(probs.String()) != want {
			t.Errorf("%s: got %q, want only %q", tc.name, probs.String(), want)
		}
	}
}
