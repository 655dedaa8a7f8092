package diag

import (
	"slices"
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

// The locator reads a table's keys only when a path in it is asked, so a
// key written before a header of the same path, a table re-opened by a
// later element of its array, and a key asked in either must each still
// give the line written first.
func TestLocatorFirstWritten(t *testing.T) {
	t.Parallel()
	src := `"a.b" = 1
[a.b]
c = 2
[a]
"b.c" = 3
[[q]]
[[q.r]]
[[q.r]]
[q.r.s]
t = 1
[[q]]
[q.r]
  z = """
[q.r.y]
y = 1
"""
["k]l"]
"m\"=n" = 1
"o\\".'p"' = 2
`
	loc := LazyLocator([]byte(src))
	for path, want := range map[string]Pos{
		"a.b":            {1, 1},
		"a.b.c":          {3, 1},
		"a":              {4, 2},
		"q.0.r.1":        {8, 3},
		"q.0.r.1.s.t":    {10, 1},
		"q.0.r.1.s.nope": {9, 2},
		"q.1":            {11, 3},
		"q.1.r.z":        {13, 3},
		"q.1.r.y":        {12, 2}, // [q.r.y] is inside a string: its table
		"nope":           {},
		"k]l":            {17, 2},
		`k]l.m"=n`:       {18, 1},
		`k]l.o\.p"`:      {19, 1},
	} {
		if got := loc.Pos(path); got != want {
			t.Errorf("Pos(%q) = %v, want %v", path, got, want)
		}
	}
	for plain, want := range map[string][]Pos{
		"a.b":   {{1, 1}, {2, 2}},
		"a.b.c": {{3, 1}, {5, 1}},
		"q.r":   {{7, 3}, {8, 3}, {12, 2}},
		"q.r.y": nil,
	} {
		if got := loc.Find(plain); !slices.Equal(got, want) {
			t.Errorf("Find(%q) = %v, want %v", plain, got, want)
		}
	}
}

// FuzzLocator checks the two ways the locator reads a document against
// each other: Pos (headers first, a table's keys when asked) and Find (the
// whole document at once). Without arrays of tables or digits every path
// is its own plain path, so Pos must give Find's first position.
func FuzzLocator(f *testing.F) {
	f.Add("[a]\nb = 1\n[[c.d]]\ne.f = 'x'\n")
	f.Add("\"a.b\" = 1\n[a.b]\nc = 2\n[a]\n\"b.c\" = 3\n")
	f.Add("a = \"\"\"\n[x]\n\"\"\"\n[y\nc = [\n [1],\n]\n[ \"\" . x ]\n y = 2\n")
	f.Fuzz(func(t *testing.T, s string) {
		loc := LazyLocator([]byte(s))
		loc.Find("")
		lines := strings.Count(s, "\n") + 1
		comparable := !strings.Contains(s, "[[") && !strings.ContainsAny(s, "0123456789")
		for k, ps := range loc.plain {
			for i, p := range ps {
				if p.Line < 1 || p.Line > lines || p.Col < 1 || i > 0 && p.Line <= ps[i-1].Line {
					t.Fatalf("Find(%q) = %v: out of the document or out of order", k, ps)
				}
			}
			if comparable && k != "" {
				if p := loc.Pos(k); p != ps[0] {
					t.Fatalf("Pos(%q) = %v, Find gives %v", k, p, ps)
				}
			}
		}
	})
}
