package matrix

import (
	"reflect"
	"slices"
	"testing"
)

// TestWalkFindsEveryTable holds walk to the Matrix type: every TOML table
// of Matrix but [[source]] and the schema carries claims, and walk, place,
// merge and eachClaim reach an entry put in each of them, nested tables
// included.
func TestWalkFindsEveryTable(t *testing.T) {
	t.Parallel()
	var m Matrix
	want := fill(reflect.ValueOf(&m).Elem(), "")
	mt := reflect.TypeOf(m)
	for i := 0; i < mt.NumField(); i++ {
		f := mt.Field(i)
		key := tomlKey(f)
		if key == "" || key == "schema" || key == "source" {
			continue
		}
		if !entries(f.Type) {
			t.Errorf("matrix table %q (%s) does not embed Claim: its entries carry no sources, and walk cannot see it", key, f.Type)
		}
	}
	var got []string
	m.walk(func(e entry) { got = append(got, e.Path) })
	for _, p := range want {
		if !slices.Contains(got, p) {
			t.Errorf("walk misses %s", p)
		}
	}
	var claims []string
	m.eachClaim(func(what string, _ Claim) { claims = append(claims, what) })
	if len(claims) != len(want) {
		t.Errorf("eachClaim saw %d claims, want %d", len(claims), len(want))
	}
	// merge appends every table: merging m into an empty matrix twice
	// doubles every slice table and reports the single one defined twice.
	var all Matrix
	all.merge(&m, "a.toml", nil, nil)
	var n int
	all.walk(func(entry) { n++ })
	if n != len(want) {
		t.Errorf("after merge walk sees %d entries, want %d", n, len(want))
	}
}

// fill puts one entry in every claim table under v (recursively) and
// returns the entries' paths.
func fill(v reflect.Value, path string) []string {
	var out []string
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		key := tomlKey(f)
		if key == "" || f.Anonymous || !entries(f.Type) {
			continue
		}
		p := key
		if path != "" {
			p = path + "." + key
		}
		fv := v.Field(i)
		switch f.Type.Kind() {
		case reflect.Slice:
			fv.Set(reflect.Append(fv, reflect.New(f.Type.Elem()).Elem()))
			p += ".0"
			out = append(out, p)
			out = append(out, fill(fv.Index(0), p)...)
		case reflect.Pointer:
			fv.Set(reflect.New(f.Type.Elem()))
			out = append(out, p)
			out = append(out, fill(fv.Elem(), p)...)
		}
	}
	return out
}
