package diag

import (
	"strings"
	"testing"
)

func TestDecodeTOMLUnknownKeys(t *testing.T) {
	t.Parallel()
	src := `# test
[[adapter]]
id = "a"
pci = ["15b3:1017"]

[[adapter]]
id = "b"
fw_verison = "1"
  [adapter.firmware]
  min = "2"
  mni = "3"
`
	var v struct {
		Adapter []struct {
			ID       string   `toml:"id"`
			PCI      []string `toml:"pci"`
			Firmware struct {
				Min string `toml:"min"`
			} `toml:"firmware"`
		} `toml:"adapter"`
	}
	loc, probs := DecodeTOML("m.toml", []byte(src), &v)
	got := probs.String()
	want := "m.toml:8:1: unknown key \"fw_verison\"\nm.toml:11:3: unknown key \"mni\"\n"
	if got != want {
		t.Errorf("problems:\n%s\nwant:\n%s", got, want)
	}
	if p := loc.Pos("adapter.1.firmware.min"); p != (Pos{10, 3}) {
		t.Errorf("Pos(adapter.1.firmware.min) = %v", p)
	}
	if p := loc.Pos("adapter.0.pci"); p != (Pos{4, 1}) {
		t.Errorf("Pos(adapter.0.pci) = %v", p)
	}
	if p := loc.Pos("adapter.0.missing"); p != (Pos{2, 3}) {
		t.Errorf("missing key should fall back to its table, got %v", p)
	}
}

func TestDecodeTOMLSyntaxError(t *testing.T) {
	t.Parallel()
	var v map[string]any
	_, probs := DecodeTOML("bad.toml", []byte("a = 1\nb = [1,\nc = \n"), &v)
	if len(probs) != 1 || probs[0].Line == 0 || !strings.HasPrefix(probs[0].String(), "bad.toml:") {
		t.Fatalf("want one positioned problem, got %q", probs.String())
	}
}

func TestDecodeTOMLTypeError(t *testing.T) {
	t.Parallel()
	var v struct {
		N int `toml:"n"`
	}
	_, probs := DecodeTOML("t.toml", []byte("\n\nn = \"x\"\n"), &v)
	if len(probs) != 1 || probs[0].Line != 3 {
		t.Fatalf("want a problem on line 3, got %q", probs.String())
	}
}

func TestListSortAndErr(t *testing.T) {
	t.Parallel()
	var l List
	l.Warn("b.toml", Pos{1, 1}, "old")
	if l.Err() != nil {
		t.Fatal("warnings alone must not be an error")
	}
	l.Add("a.toml", Pos{3, 2}, "bad %s", "x")
	l.Add("a.toml", Pos{1, 5}, "worse")
	err := l.Err()
	if err == nil {
		t.Fatal("want error")
	}
	want := "a.toml:1:5: worse\na.toml:3:2: bad x\nb.toml:1:1: warning: old"
	if err.Error() != want {
		t.Errorf("got\n%s\nwant\n%s", err, want)
	}
}
