package render

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"
)

// TestFragmentKey: two values get the same key exactly when they hold the
// same data, wherever it lives (pointers, maps in any order).
func TestFragmentKey(t *testing.T) {
	type row struct {
		ID   string
		N    int
		Tags []string
		P    *int
		M    map[string]int
		Any  any
	}
	one, alsoOne, two := 1, 1, 2
	same := [][2]any{
		{row{ID: "a", P: &one}, row{ID: "a", P: &alsoOne}},
		{row{M: map[string]int{"x": 1, "y": 2, "z": 3}}, row{M: map[string]int{"z": 3, "y": 2, "x": 1}}},
		{[]row{{ID: "a"}, {ID: "b"}}, []row{{ID: "a"}, {ID: "b"}}},
	}
	for _, c := range same {
		a, okA := fragmentKey("t", c[0])
		b, okB := fragmentKey("t", c[1])
		if !okA || !okB || !bytes.Equal(a, b) {
			t.Errorf("%+v and %+v: keys differ (%v %v)", c[0], c[1], okA, okB)
		}
	}
	differ := [][2]any{
		{row{ID: "ab"}, row{ID: "a", Tags: []string{"b"}}},
		{row{Tags: nil}, row{Tags: []string{}}},
		{row{Tags: []string{"a", "b"}}, row{Tags: []string{"ab"}}},
		{row{P: &one}, row{P: &two}},
		{row{P: &one}, row{}},
		{row{Any: 1}, row{Any: uint(1)}},
		{row{Any: "1"}, row{Any: 1}},
		{row{N: 1}, row{N: -1}},
		{[]row{{ID: "a"}}, []row{{ID: "a"}, {}}},
		{struct{ A, B string }{"x", ""}, struct{ A, B string }{"", "x"}},
	}
	for _, c := range differ {
		a, _ := fragmentKey("t", c[0])
		b, _ := fragmentKey("t", c[1])
		if bytes.Equal(a, b) {
			t.Errorf("%+v and %+v: same key", c[0], c[1])
		}
	}
	if a, b := mustKey(t, "t", "x"), mustKey(t, "u", "x"); bytes.Equal(a, b) {
		t.Error("two templates' keys of the same data are equal")
	}
	if _, ok := fragmentKey("t", row{Any: func() {}}); ok {
		t.Error("a func was given a key")
	}
	type node struct{ Next *node }
	loop := &node{}
	loop.Next = loop
	if _, ok := fragmentKey("t", loop); ok {
		t.Error("a cycle was given a key")
	}
}

func mustKey(t *testing.T, name string, data any) []byte {
	t.Helper()
	k, ok := fragmentKey(name, data)
	if !ok {
		t.Fatalf("no key for %v", data)
	}
	return k
}

// TestShared: a shared template renders what the template renders, once
// per distinct value, escaped as it would be in place.
func TestShared(t *testing.T) {
	fsys := fstest.MapFS{"templates/x.html": {Data: []byte(`{{define "item"}}<li>{{.}}</li>{{end}}{{range .}}{{shared "item" .}}{{end}}`)}}
	tpl, err := LoadTemplates(Layers{fsys})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := tpl.t.ExecuteTemplate(&out, "x.html", []string{"<a>", "b", "<a>"}); err != nil {
		t.Fatal(err)
	}
	if want := "<li>&lt;a&gt;</li><li>b</li><li>&lt;a&gt;</li>"; out.String() != want {
		t.Errorf("rendered %q, want %q", out.String(), want)
	}
	if n := len(tpl.frags.html); n != 2 {
		t.Errorf("%d fragments held, want 2 (one per distinct value)", n)
	}
}
