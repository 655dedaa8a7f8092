package page

import (
	"slices"
	"testing"
)

// TestDeps: a page's record holds each input once, fixed and named, and
// lists them in increasing order however they were read.
func TestDeps(t *testing.T) {
	t.Parallel()
	var in Inputs
	a, b := in.ID(InFile, "faq/a.md"), in.ID(InFile, "faq/b.md")
	if again := in.ID(InFile, "faq/a.md"); again != a {
		t.Errorf("the same file numbered %d and %d", a, again)
	}
	if front := in.ID(InFront, "faq/a.md"); front == a {
		t.Errorf("a file and its front matter share the number %d", a)
	}
	var d Deps
	if !d.Empty() {
		t.Error("the zero Deps is not empty")
	}
	for _, id := range []Input{b, InMatrix, a, InConfig, b, InMatrix, InRecords} {
		d.Read(id)
	}
	var got []Input
	d.Each(func(id Input) { got = append(got, id) })
	if want := []Input{InConfig, InMatrix, InRecords, a, b}; !slices.Equal(got, want) {
		t.Errorf("Each gave %v, want %v", got, want)
	}
	for _, id := range got {
		if !d.Has(id) {
			t.Errorf("Has(%d) = false after Read", id)
		}
	}
	if d.Has(InTemplates) || d.Has(a+10) {
		t.Error("Has reports an input never read")
	}
	if n, ok := in.Name(b); !ok || n != (InputName{InFile, "faq/b.md"}) {
		t.Errorf("Name(%d) = %v, %t", b, n, ok)
	}
	if _, ok := in.Name(InMatrix); ok {
		t.Error("a fixed input has a name")
	}
}

// TestInputsGroup: a group's members are decided by the first page that
// makes it; Add numbers every record apart, even of the same name.
func TestInputsGroup(t *testing.T) {
	t.Parallel()
	var in Inputs
	a, b := in.ID(InFront, "a.md"), in.ID(InFront, "b.md")
	members := []Input{a, b}
	g := in.Group("tag/x", members)
	members[0] = b // the group keeps its own copy
	if again := in.Group("tag/x", []Input{b}); again != g {
		t.Errorf("the same group numbered %d and %d", g, again)
	}
	if got := in.Members(g); !slices.Equal(got, []Input{a, b}) {
		t.Errorf("members %v, want %v", got, []Input{a, b})
	}
	r1, r2 := in.Add(InRecord, "h.toml"), in.Add(InRecord, "h.toml")
	if r1 == r2 {
		t.Error("two records share a number")
	}
	if _, ok := in.Lookup(InRecord, "h.toml"); ok {
		t.Error("a record added is looked up by name")
	}
	if in.Len() != int(r2)+1 {
		t.Errorf("Len %d, the last number %d", in.Len(), r2)
	}
}
