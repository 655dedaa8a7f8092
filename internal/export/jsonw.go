package export

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"sync"

	"github.com/rocekb/rocekb/internal/escape"
)

// writeJSON writes v as encoding/json's Encoder does with
// SetIndent("", "  ") and SetEscapeHTML(false), byte for byte, ending in a
// newline. The values plain makes (maps of string keys, []any, strings,
// booleans, integers) and verdict rows (one, or an adapter's sheet of
// them) are appended directly, without reflection; any other value is
// handed to encoding/json and indented in place.
func writeJSON(w io.Writer, v any) error {
	j := jsonWriters.Get().(*jsonWriter)
	defer jsonWriters.Put(j)
	j.b = j.b[:0]
	if err := j.value(v, 0); err != nil {
		return err
	}
	j.b = append(j.b, '\n')
	_, err := w.Write(j.b)
	return err
}

var jsonWriters = sync.Pool{New: func() any { return &jsonWriter{} }}

// jsonWriter appends JSON to b; keys is scratch for sorting map keys.
type jsonWriter struct {
	b    []byte
	keys [][]string // by depth
}

func (j *jsonWriter) newline(depth int) {
	j.b = append(j.b, '\n')
	for range depth {
		j.b = append(j.b, ' ', ' ')
	}
}

func (j *jsonWriter) value(v any, depth int) error {
	switch x := v.(type) {
	case nil:
		j.b = append(j.b, "null"...)
	case string:
		j.b = escape.JSONString(j.b, x)
	case bool:
		j.b = strconv.AppendBool(j.b, x)
	case int:
		j.b = strconv.AppendInt(j.b, int64(x), 10)
	case int64:
		j.b = strconv.AppendInt(j.b, x, 10)
	case int32:
		j.b = strconv.AppendInt(j.b, int64(x), 10)
	case uint:
		j.b = strconv.AppendUint(j.b, uint64(x), 10)
	case uint64:
		j.b = strconv.AppendUint(j.b, x, 10)
	case map[string]any:
		if x == nil {
			j.b = append(j.b, "null"...)
			return nil
		}
		return j.object(x, depth)
	case []any:
		if x == nil {
			j.b = append(j.b, "null"...)
			return nil
		}
		j.b = append(j.b, '[')
		for i, e := range x {
			if i > 0 {
				j.b = append(j.b, ',')
			}
			j.newline(depth + 1)
			if err := j.value(e, depth+1); err != nil {
				return err
			}
		}
		if len(x) > 0 {
			j.newline(depth)
		}
		j.b = append(j.b, ']')
	case []string:
		j.strings(x, depth)
	case verdictRow:
		j.verdictRow(x, depth, nil)
	case *sheet:
		j.sheet(x, depth)
	case encoded:
		if x.depth != depth || x.b == nil {
			return j.value(x.v, depth)
		}
		j.b = append(j.b, x.b...)
	default:
		return j.other(v, depth)
	}
	return nil
}

func (j *jsonWriter) strings(x []string, depth int) {
	if x == nil {
		j.b = append(j.b, "null"...)
		return
	}
	j.b = append(j.b, '[')
	for i, s := range x {
		if i > 0 {
			j.b = append(j.b, ',')
		}
		j.newline(depth + 1)
		j.b = escape.JSONString(j.b, s)
	}
	if len(x) > 0 {
		j.newline(depth)
	}
	j.b = append(j.b, ']')
}

// object writes a map's members by sorted key, as encoding/json does.
func (j *jsonWriter) object(x map[string]any, depth int) error {
	for len(j.keys) <= depth {
		j.keys = append(j.keys, nil)
	}
	keys := j.keys[depth][:0]
	for k := range x {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	j.keys[depth] = keys
	j.b = append(j.b, '{')
	for i, k := range keys {
		if i > 0 {
			j.b = append(j.b, ',')
		}
		j.newline(depth + 1)
		j.b = escape.JSONString(j.b, k)
		j.b = append(j.b, ':', ' ')
		if err := j.value(x[k], depth+1); err != nil {
			return err
		}
	}
	if len(keys) > 0 {
		j.newline(depth)
	}
	j.b = append(j.b, '}')
	return nil
}

// member writes one member of an object written by hand; first is
// whether it is the object's first.
func (j *jsonWriter) member(key string, first bool, depth int) {
	if !first {
		j.b = append(j.b, ',')
	}
	j.newline(depth + 1)
	j.b = escape.JSONString(j.b, key)
	j.b = append(j.b, ':', ' ')
}

// encoded is a value and its JSON as writeJSON writes it at depth (nil
// when it could not): a row many files list is written once.
type encoded struct {
	v     any
	depth int
	b     []byte
}

func encode(v any, depth int) encoded {
	j := &jsonWriter{}
	if err := j.value(v, depth); err != nil {
		return encoded{v: v}
	}
	return encoded{v: v, depth: depth, b: slices.Clip(j.b)}
}

// verdictRow is one verdict of an adapter's JSON export. It is written as
// the map {"conditions", "distro", "kernel" (when set), "likely" (when
// set), "stack", "verdict"} would be.
type verdictRow struct {
	Stack, Distro, Verdict, Likely, Kernel string
	Conditions                             []string // never nil
}

// verdictRow writes r; with at, the conditions are copied from where
// at says this writer wrote the same ones before, or at is set to where
// they are written now.
func (j *jsonWriter) verdictRow(r verdictRow, depth int, at *[2]int) {
	j.b = append(j.b, '{')
	j.member("conditions", true, depth)
	if at != nil && at[1] > 0 {
		j.b = append(j.b, j.b[at[0]:at[1]]...)
	} else {
		start := len(j.b)
		j.strings(r.Conditions, depth+1)
		if at != nil {
			*at = [2]int{start, len(j.b)}
		}
	}
	j.member("distro", false, depth)
	j.b = escape.JSONString(j.b, r.Distro)
	if r.Kernel != "" {
		j.member("kernel", false, depth)
		j.b = escape.JSONString(j.b, r.Kernel)
	}
	if r.Likely != "" {
		j.member("likely", false, depth)
		j.b = escape.JSONString(j.b, r.Likely)
	}
	j.member("stack", false, depth)
	j.b = escape.JSONString(j.b, r.Stack)
	j.member("verdict", false, depth)
	j.b = escape.JSONString(j.b, r.Verdict)
	j.newline(depth)
	j.b = append(j.b, '}')
}

// sheet writes an adapter's verdicts as the list of the verdictRow each
// cell is; each of its lists of conditions is written once and copied.
func (j *jsonWriter) sheet(sh *sheet, depth int) {
	j.b = append(j.b, '[')
	at := make([][2]int, len(sh.conditions))
	for i := range sh.cells {
		if i > 0 {
			j.b = append(j.b, ',')
		}
		j.newline(depth + 1)
		j.verdictRow(sh.row(i), depth+1, &at[sh.kinds[sh.cells[i].kind].conditions])
	}
	if len(sh.cells) > 0 {
		j.newline(depth)
	}
	j.b = append(j.b, ']')
}

// other hands a value of any other type (a float, a named type, a
// struct, one with its own MarshalJSON) to encoding/json and indents
// the result at its depth.
func (j *jsonWriter) other(v any, depth int) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	prefix := make([]byte, 0, 2*depth)
	for range depth {
		prefix = append(prefix, ' ', ' ')
	}
	var out bytes.Buffer
	if err := json.Indent(&out, bytes.TrimSuffix(buf.Bytes(), []byte("\n")), string(prefix), "  "); err != nil {
		return err
	}
	j.b = append(j.b, out.Bytes()...)
	return nil
}
