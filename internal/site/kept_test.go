package site

import (
	"reflect"
	"testing"
	"unsafe"
)

// TestKeptOutOfRecords: what a host page leaves for the fleet pages (its
// summary, slim report, finding rows and readiness) shares no bytes with
// its record. A string decoded from a record file shares the file's bytes,
// so one kept string keeps the whole file alive to the end of the build:
// at 100,000 records, readiness alone kept about 950 MB.
func TestKeptOutOfRecords(t *testing.T) {
	t.Parallel()
	_, hosts, s, _ := fixtureFleet(t)
	kept := 0
	for i, h := range hosts {
		rec := strs(reflect.ValueOf(h), nil)
		for _, v := range []any{s.hosts.sums[i], s.hosts.fleet[i], s.hosts.findings[i], s.hosts.ready[i]} {
			for _, k := range strs(reflect.ValueOf(v), nil) {
				kept++
				for _, r := range rec {
					if overlap(k, r) {
						t.Errorf("host %s: kept %T holds %q, which shares the record's bytes", h.Host.ID, v, k)
						break
					}
				}
			}
		}
	}
	if kept == 0 {
		t.Fatal("no kept strings looked at")
	}
}

// strs appends every non-empty string v reaches.
func strs(v reflect.Value, out []string) []string {
	seen := map[uintptr]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			if v.Len() > 0 {
				out = append(out, v.String())
			}
		case reflect.Pointer, reflect.Interface:
			if v.IsNil() {
				return
			}
			if v.Kind() == reflect.Pointer {
				if seen[v.Pointer()] {
					return
				}
				seen[v.Pointer()] = true
			}
			walk(v.Elem())
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Map:
			for it := v.MapRange(); it.Next(); {
				walk(it.Key())
				walk(it.Value())
			}
		}
	}
	walk(v)
	return out
}

// overlap says whether a and b share bytes in memory.
func overlap(a, b string) bool {
	pa, pb := uintptr(unsafe.Pointer(unsafe.StringData(a))), uintptr(unsafe.Pointer(unsafe.StringData(b)))
	return pa < pb+uintptr(len(b)) && pb < pa+uintptr(len(a))
}
