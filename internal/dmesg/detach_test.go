package dmesg

import (
	"bytes"
	"reflect"
	"sync"
	"testing"
	"unsafe"
)

// TestLogKeepsNoChunk: no string of a Log shares bytes with the chunks
// its lines were cut from (chunkLines), so a kept event does not keep 64
// KiB of the log alive, on the 4 MiB log and on every capture and host
// fixture file.
func TestLogKeepsNoChunk(t *testing.T) {
	// Not parallel: it swaps newChunk for the package.
	var mu sync.Mutex
	var chunks []string
	orig := newChunk
	newChunk = func(b []byte) string {
		s := orig(b)
		mu.Lock()
		chunks = append(chunks, s)
		mu.Unlock()
		return s
	}
	defer func() { newChunk = orig }()
	inputs := logInputs(t)
	inputs["BenchmarkParseLog4MiB's log"] = log4MiB(t)
	kept := 0
	for name, b := range inputs {
		mu.Lock()
		chunks = chunks[:0]
		mu.Unlock()
		lg, err := ParseLog(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range logStrings(reflect.ValueOf(lg), nil) {
			kept++
			for _, c := range chunks {
				if overlap(s, c) {
					t.Fatalf("%s: the Log keeps %q in a chunk of the log", name, s)
				}
			}
		}
	}
	if kept < 10000 {
		t.Fatalf("only %d strings looked at", kept)
	}
}

// logStrings appends every non-empty string v reaches.
func logStrings(v reflect.Value, out []string) []string {
	switch v.Kind() {
	case reflect.String:
		if v.Len() > 0 {
			out = append(out, v.String())
		}
	case reflect.Pointer:
		if !v.IsNil() {
			out = logStrings(v.Elem(), out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			out = logStrings(v.Field(i), out)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			out = logStrings(v.Index(i), out)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			out = logStrings(it.Key(), out)
			out = logStrings(it.Value(), out)
		}
	}
	return out
}

// overlap says whether a and b share bytes in memory.
func overlap(a, b string) bool {
	pa, pb := uintptr(unsafe.Pointer(unsafe.StringData(a))), uintptr(unsafe.Pointer(unsafe.StringData(b)))
	return pa < pb+uintptr(len(b)) && pb < pa+uintptr(len(a))
}
