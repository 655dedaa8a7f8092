package verdict

import (
	"reflect"
	"testing"

	"github.com/rocekb/rocekb/internal/rule"
)

// TestOSListReadsEveryField: two lists of OS steps are one (osListOf,
// which names any's memo) only when every field of every reason, its
// matrix entries and their sources alike, is the same; a field added to
// Reason, rule.Ref or rule.SourceRef that osListOf does not read fails.
func TestOSListReadsEveryField(t *testing.T) {
	t.Parallel()
	base := func() []Reason {
		return []Reason{{Verdict: Conditional, Likely: Supported, Text: "t", Nearest: "n",
			Matrix: []rule.Ref{{Entry: "e", At: "a", Rule: "r", Confidence: "c", Note: "o", Quote: "q",
				Sources: []rule.SourceRef{{ID: "i", Title: "ti", URL: "u"}}}}}}
	}
	want := osListOf(base())
	// Each settable leaf of the list, changed in turn.
	var leaves func(v reflect.Value, path string, visit func(reflect.Value, string))
	leaves = func(v reflect.Value, path string, visit func(reflect.Value, string)) {
		switch v.Kind() {
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				leaves(v.Field(i), path+"."+v.Type().Field(i).Name, visit)
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				leaves(v.Index(i), path, visit)
			}
		default:
			visit(v, path)
		}
	}
	n := 0
	leaves(reflect.ValueOf(base()), "Reason", func(_ reflect.Value, path string) {
		at := n
		n++
		rs := base()
		k := 0
		leaves(reflect.ValueOf(rs), "Reason", func(v reflect.Value, _ string) {
			defer func() { k++ }()
			if k != at {
				return
			}
			switch v.Kind() {
			case reflect.String:
				v.SetString(v.String() + "x")
			case reflect.Bool:
				v.SetBool(!v.Bool())
			default:
				t.Fatalf("%s: a %s field, which the test does not change", path, v.Kind())
			}
		})
		if osListOf(rs) == want {
			t.Errorf("%s changed, and osListOf reads the list as before", path)
		}
	})
	if n < 14 {
		t.Fatalf("only %d fields changed", n)
	}
	// A source more, or a matrix entry more, is another list too.
	rs := base()
	rs[0].Matrix[0].Sources = append(rs[0].Matrix[0].Sources, rule.SourceRef{})
	if osListOf(rs) == want {
		t.Error("a source added, and osListOf reads the list as before")
	}
}
