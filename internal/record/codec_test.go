package record

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func sample() *Host {
	n, on := 8, true
	return &Host{
		Schema: Schema,
		Host:   HostInfo{ID: "host-1", KernelRelease: "5.14.0-427.13.1.el9_4.x86_64", SourceKind: KindRoot, HasRDMA: true},
		Adapters: []Adapter{{
			PCIAddress: "0000:3b:00.0", Vendor: "15b3", Device: "1017",
			Driver:   Driver{Name: "mlx5_core", Origin: OriginInbox},
			Firmware: Firmware{Running: "16.35.2000", Stored: "16.35.2000"},
			MSIX:     &MSIX{Count: &n, Enabled: &on},
			From:     map[string]string{"firmware.running": "sys/class/infiniband"},
		}},
		Devices: []RDMADevice{{Name: "mlx5_0", FwVer: "16.35.2000", Ports: []Port{{
			Number: 1, State: "ACTIVE", LinkLayer: "Ethernet",
			GIDCounts: GIDCounts{RoCEv1: 1, RoCEv2: 1},
		}}}},
		Sources: []Source{{ID: "sys/class/infiniband", Status: StatusOK}},
	}
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"toml", "json"} {
		var buf bytes.Buffer
		if err := Encode(&buf, sample(), format); err != nil {
			t.Fatal(err)
		}
		got, probs := Decode("h."+format, buf.Bytes())
		if len(probs) > 0 {
			t.Fatalf("%s: %s", format, probs)
		}
		if d := cmp.Diff(sample(), got); d != "" {
			t.Errorf("%s round trip (-want +got):\n%s", format, d)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ src, want string }{
		"unknown key": {"schema = 1\n[host]\nid = \"x\"\nkernal = \"5\"\n", `h.toml:4:1: unknown key "kernal"`},
		"newer":       {"schema = 99\n", "h.toml:1:1: record schema 99 is newer"},
		"no schema":   {"[host]\nid = \"x\"\n", "not a host record"},
	} {
		_, probs := Decode("h.toml", []byte(tc.src))
		if !strings.Contains(probs.String(), tc.want) {
			t.Errorf("%s: got %q, want %q", name, probs.String(), tc.want)
		}
	}
}

// TestDecodeJSONPositions: a JSON record's errors carry line:col, as a
// TOML record's do.
func TestDecodeJSONPositions(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ src, want string }{
		"syntax":        {"{\n  \"schema\": 2,\n  \"host\": {\"id\": \"x\",}\n}\n", "h.json:3:22: invalid character '}'"},
		"type":          {"{\n  \"schema\": \"two\"\n}\n", "h.json:2:17: cannot unmarshal string"},
		"unknown field": {"{\n  \"schema\": 2,\n  \"host\": {\"id\": \"x\"},\n  \"kernal\": \"5\"\n}\n", `h.json:4:3: unknown field "kernal"`},
		"truncated":     {"{\n  \"schema\": 2,\n  \"host\": {", "h.json:3:"},
		"after close":   {"{\"schema\": 2, \"host\": {\"id\": \"x\", \"source_kind\": \"root\"}}\n{\"x\": 1}\n", "h.json:2:1: more after the record's closing brace"},
		"unicode col":   {"{\"host\": {\"id\": \"é\"}, \"é\": 1}", `h.json:1:23: unknown field "é"`},
	} {
		_, probs := Decode("h.json", []byte(tc.src))
		if !strings.Contains(probs.String(), tc.want) {
			t.Errorf("%s: got %q, want %q", name, probs.String(), tc.want)
		}
	}
}

// TestDecodeAbsentIDs: an [[absent]] list is read by IDList.UnmarshalTOML,
// not by the decoder's reflection, and a list that is not one of strings
// is refused in the words and at the place the decoder gave before
// (these problems are what BurntSushi/toml's reflection reported).
func TestDecodeAbsentIDs(t *testing.T) {
	t.Parallel()
	const head = "schema = 3\n[host]\n  id = \"h\"\n\n[[absent]]\n  reason = \"not captured\"\n  ids = [\"cmd/lspci\"]\n\n[[absent]]\n  reason = \"x\"\n"
	const line11 = `h.toml:11:1: line 11 (last key "absent.ids"): incompatible types: TOML value has type `
	for name, tc := range map[string]struct{ ids, want string }{
		"an int among strings": {`  ids = ["cmd/lsmod", 3]`, line11 + "int64; destination has type string\n"},
		"a string":             {`  ids = "cmd/lsmod"`, line11 + "string; destination has type slice\n"},
		"an int":               {`  ids = 3`, line11 + "int64; destination has type slice\n"},
		"an array":             {`  ids = [["a"]]`, line11 + "[]any; destination has type string\n"},
		"an inline table":      {`  ids = [{a = 1}]`, line11 + "map[string]any; destination has type string\n"},
		"a bool":               {`  ids = [true]`, line11 + "bool; destination has type string\n"},
		"a date":               {`  ids = [2024-01-01]`, line11 + "time.Time; destination has type string\n"},
		"on lines":             {"  ids = [\n    \"a\",\n    1.5,\n  ]", line11 + "float64; destination has type string\n"},
		"array of tables":      {"  [[absent.ids]]\n    a = 1", `h.toml:11:1: line 11 (last key "absent.ids"): incompatible types: TOML value has type map[string]any; destination has type string` + "\n"},
		"a table":              {"  [absent.ids]\n    a = 1", `h.toml:11:1: line 11 (last key "absent.ids"): incompatible types: TOML value has type map[string]any; destination has type slice` + "\n"},
	} {
		h, probs := Decode("h.toml", []byte(head+tc.ids+"\n"))
		if h != nil || probs.String() != tc.want {
			t.Errorf("%s: got %v, %q; want no host, %q", name, h != nil, probs.String(), tc.want)
		}
	}
	h, probs := Decode("h.toml", []byte(head+"  ids = [\"b\", \"a\"]\n\n[[absent]]\n  reason = \"y\"\n  ids = []\n"))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	want := []Source{
		{ID: "a", Path: "a", Status: StatusAbsent, Reason: "x"},
		{ID: "b", Path: "b", Status: StatusAbsent, Reason: "x"},
		{ID: "cmd/lspci", Path: "sos_commands/pci/lspci", Status: StatusAbsent, Reason: "not captured"},
	}
	if d := cmp.Diff(want, h.Sources); d != "" {
		t.Errorf("sources (-want +got):\n%s", d)
	}
}
