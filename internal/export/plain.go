package export

import (
	"reflect"
	"strings"
	"time"
)

// plain turns a matrix value into maps, slices and scalars named by the
// value's TOML keys, so the JSON export uses the names the matrix files
// use. Embedded structs (the claim) are merged into their parent, fields
// tagged "-" (file positions) are dropped, omitempty fields are left out
// when zero, and dates are written as YYYY-MM-DD.
func plain(v any) any { return plainValue(reflect.ValueOf(v)) }

var timeType = reflect.TypeFor[time.Time]()

func plainValue(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Invalid:
		return nil
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return plainValue(v.Elem())
	case reflect.Struct:
		if v.Type() == timeType {
			return v.Interface().(time.Time).Format("2006-01-02")
		}
		out := map[string]any{}
		plainStruct(v, out)
		return out
	case reflect.Slice, reflect.Array:
		out := make([]any, 0, v.Len())
		for i := range v.Len() {
			out = append(out, plainValue(v.Index(i)))
		}
		return out
	case reflect.Map:
		out := map[string]any{}
		for _, k := range v.MapKeys() {
			out[k.String()] = plainValue(v.MapIndex(k))
		}
		return out
	}
	return v.Interface()
}

func plainStruct(v reflect.Value, out map[string]any) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("toml")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		fv := v.Field(i)
		if f.Anonymous && name == "" && fv.Kind() == reflect.Struct {
			plainStruct(fv, out)
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		if strings.Contains(opts, "omitempty") && fv.IsZero() {
			continue
		}
		if (fv.Kind() == reflect.Slice) && fv.Len() == 0 && strings.Contains(opts, "omitempty") {
			continue
		}
		out[name] = plainValue(fv)
	}
}

// sourcesOf collects every "sources" list in a plain value, in first-seen
// order (maps are visited by sorted key).
func sourcesOf(v any, seen map[string]bool, out []string) []string {
	switch x := v.(type) {
	case map[string]any:
		if ss, ok := x["sources"].([]any); ok {
			for _, s := range ss {
				if id, ok := s.(string); ok && !seen[id] {
					seen[id] = true
					out = append(out, id)
				}
			}
		}
		for _, k := range sortedKeys(x) {
			if k != "sources" {
				out = sourcesOf(x[k], seen, out)
			}
		}
	case []any:
		for _, e := range x {
			out = sourcesOf(e, seen, out)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}
