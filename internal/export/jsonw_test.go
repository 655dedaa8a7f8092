package export

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// encodingJSON is how the exports were written before writeJSON: the
// standard encoder, indented, HTML escaping off. A verdictRow is the map
// it stands for, and a sheet the list of the verdictRow of each cell.
func encodingJSON(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(asMaps(v)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func asMaps(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return x
		}
		out := map[string]any{}
		for k, e := range x {
			out[k] = asMaps(e)
		}
		return out
	case []any:
		if x == nil {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = asMaps(e)
		}
		return out
	case encoded:
		return asMaps(x.v)
	case *sheet:
		out := []any{}
		for i := range x.cells {
			out = append(out, asMaps(x.row(i)))
		}
		return out
	case verdictRow:
		row := map[string]any{"stack": x.Stack, "distro": x.Distro, "verdict": x.Verdict, "conditions": x.Conditions}
		if x.Likely != "" {
			row["likely"] = x.Likely
		}
		if x.Kernel != "" {
			row["kernel"] = x.Kernel
		}
		return row
	}
	return v
}

func writeJSONBytes(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := writeJSON(&buf, v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestWriteJSONIsEncodingJSON: writeJSON gives encoding/json's bytes for
// the bundled matrix's exports and for strings and values at the edges
// of its escaping and indentation.
func TestWriteJSONIsEncodingJSON(t *testing.T) {
	t.Parallel()
	g := judgedGrid(t)
	m := g.m
	values := map[string]any{"matrix.json": matrixJSON(m)}
	for i, a := range g.adapters {
		values[AdapterJSON(a.ID)] = g.adapterJSON(i)
	}
	type named string
	values["edges"] = map[string]any{
		"strings": []any{"", `"quoted" \back\slash`, "tab\tnl\ncr\rbs\bff\f", "\x00\x01\x1f\x7f", "<a href=\"x\">&amp;</a>",
			"bad utf-8 \xff\xfe end", "sep\u2028par\u2029", "héllo 世界 ✓", "\xe2\x80", "trunc \xf0\x9f"},
		"empty":  map[string]any{},
		"list":   []any{},
		"nil":    nil,
		"nilmap": map[string]any(nil),
		"nils":   []any(nil),
		"strs":   []string{"a", "b"},
		"nostrs": []string{},
		"ints":   []any{0, -1, int64(1) << 40, int32(-7), uint(3), uint64(1) << 63},
		"bools":  []any{true, false},
		"floats": []any{0.5, 1e21, 1e-7, float32(0.1), 3.0},
		"named":  named("x<y"),
		"date":   time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC),
		"struct": struct {
			A int      `json:"a"`
			B []string `json:"b"`
			C struct{ D map[string]int }
		}{1, []string{"x"}, struct{ D map[string]int }{map[string]int{"z": 1, "y": 2}}},
		"nested":  []any{map[string]any{"k": []any{map[string]any{}}}, []any{[]any{}}},
		"encoded": []any{encode(map[string]any{"a": []any{"x"}, "b": 1.5}, 2), []any{encode(map[string]any{"at": "another depth"}, 2)}},
		"rows": []any{verdictRow{Stack: "inbox", Distro: "d", Verdict: "unknown", Conditions: []string{}},
			verdictRow{Stack: "s", Distro: "d", Verdict: "supported-with-conditions", Likely: "supported", Kernel: "5.14", Conditions: []string{"a", "b\"c"}}},
	}
	for name, v := range values {
		if got, want := writeJSONBytes(t, v), encodingJSON(t, v); !bytes.Equal(got, want) {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			t.Errorf("%s: writeJSON differs from encoding/json at byte %d:\n got …%s\nwant …%s", name, i, got[max(0, i-80):min(len(got), i+80)], want[max(0, i-80):min(len(want), i+80)])
		}
	}
}

func BenchmarkAdapterJSON(b *testing.B) {
	m := bundledMatrix(b)
	g := &grid{m: m}
	g.init()
	for _, a := range g.adapters {
		g.cells(a)
	}
	var buf bytes.Buffer
	b.ResetTimer()
	for i := range b.N {
		buf.Reset()
		if err := writeJSON(&buf, g.adapterJSON(i%len(g.adapters))); err != nil {
			b.Fatal(err)
		}
	}
}
