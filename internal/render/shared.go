package render

import (
	"bytes"
	"encoding/binary"
	"html/template"
	"math"
	"reflect"
	"slices"
	"sync"
)

// sharedLimit bounds what a build's shared fragments hold (their keys and
// HTML): past it, a fragment not yet held is rendered every time.
const sharedLimit = 64 << 20

// fragments holds the HTML of the templates a page renders through
// "shared", by template name and the value of their data: every page of
// a kind, folder and language repeats the same head and header, and each
// distinct one is rendered once.
type fragments struct {
	mu    sync.RWMutex
	html  map[string]template.HTML
	bytes int
}

// shared renders the named template with data, or returns the HTML it
// rendered before for a value equal to data. A shared template must be a
// function of its data alone (templates reach nothing else but the
// functions of funcs, which are). Data the key cannot hold (a func, a
// channel, a cycle) is rendered every time.
func (t *Templates) shared(name string, data any) (template.HTML, error) {
	// The key is built in a reused buffer: a host page's lists make keys
	// of kilobytes, looked up and dropped, on every page of a fleet.
	buf := keyBuffers.Get().(*[]byte)
	key, ok := appendKey((*buf)[:0], name, data)
	ok = ok && !t.Fresh
	defer func() {
		if cap(key) <= 1<<20 {
			*buf = key[:0]
			keyBuffers.Put(buf)
		}
	}()
	if ok {
		t.frags.mu.RLock()
		h, hit := t.frags.html[string(key)]
		t.frags.mu.RUnlock()
		if hit {
			return h, nil
		}
	}
	var b bytes.Buffer
	if err := t.run(&b, name, data); err != nil {
		return "", err
	}
	h := template.HTML(b.String())
	if ok {
		f := &t.frags
		f.mu.Lock()
		if f.html == nil {
			f.html = map[string]template.HTML{}
		}
		if _, dup := f.html[string(key)]; !dup && f.bytes+len(key)+len(h) <= sharedLimit {
			f.html[string(key)] = h
			f.bytes += len(key) + len(h)
		}
		f.mu.Unlock()
	}
	return h, nil
}

// fragmentKey encodes a template name and the whole value of its data
// (what pointers, slices, maps and interfaces hold, not their addresses),
// so that two keys are equal exactly when the template renders the same
// data.
func fragmentKey(name string, data any) ([]byte, bool) { return appendKey(nil, name, data) }

// keyBuffers hold the buffers shared builds its keys in.
var keyBuffers = sync.Pool{New: func() any { return new([]byte) }}

// appendKey appends fragmentKey's key to b.
func appendKey(b []byte, name string, data any) ([]byte, bool) {
	b = appendString(b, name)
	v := reflect.ValueOf(data)
	if v.IsValid() {
		b = appendString(b, v.Type().String())
	}
	return appendValue(b, v, 0)
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// appendValue appends v's encoding; false when v holds what it cannot
// encode, or nests deeper than a record does (a cycle).
func appendValue(b []byte, v reflect.Value, depth int) ([]byte, bool) {
	if depth > 24 {
		return b, false
	}
	ok := true
	switch v.Kind() {
	case reflect.Invalid:
		return append(b, 0), true
	case reflect.String:
		return appendString(b, v.String()), true
	case reflect.Bool:
		if v.Bool() {
			return append(b, 1), true
		}
		return append(b, 0), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return binary.AppendVarint(b, v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return binary.AppendUvarint(b, v.Uint()), true
	case reflect.Float32, reflect.Float64:
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Float())), true
	case reflect.Slice:
		if v.IsNil() {
			return append(b, 0), true
		}
		b = append(b, 1)
		fallthrough
	case reflect.Array:
		b = binary.AppendUvarint(b, uint64(v.Len()))
		for i := 0; i < v.Len() && ok; i++ {
			b, ok = appendValue(b, v.Index(i), depth+1)
		}
		return b, ok
	case reflect.Struct:
		for i := 0; i < v.NumField() && ok; i++ {
			b, ok = appendValue(b, v.Field(i), depth+1)
		}
		return b, ok
	case reflect.Pointer:
		if v.IsNil() {
			return append(b, 0), true
		}
		return appendValue(append(b, 1), v.Elem(), depth+1)
	case reflect.Interface:
		if v.IsNil() {
			return append(b, 0), true
		}
		e := v.Elem()
		return appendValue(appendString(append(b, 1), e.Type().String()), e, depth+1)
	case reflect.Map:
		if v.IsNil() {
			return append(b, 0), true
		}
		// Entries in the order of their encoded keys, whatever order
		// the map gives them in.
		type entry struct{ k, v []byte }
		var es []entry
		for it := v.MapRange(); it.Next() && ok; {
			var e entry
			if e.k, ok = appendValue(nil, it.Key(), depth+1); ok {
				e.v, ok = appendValue(nil, it.Value(), depth+1)
			}
			es = append(es, e)
		}
		slices.SortFunc(es, func(x, y entry) int { return bytes.Compare(x.k, y.k) })
		b = binary.AppendUvarint(append(b, 1), uint64(len(es)))
		for _, e := range es {
			b = append(appendString(b, string(e.k)), e.v...)
		}
		return b, ok
	}
	return b, false // func, chan, unsafe pointer, complex
}
