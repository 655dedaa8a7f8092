package matrix

import (
	"reflect"
	"strconv"
	"strings"
)

// The matrix tables are the fields of Matrix whose entries embed Claim
// (directly, or through a pointer: [protocol]), and, inside an entry, each
// field that holds more such entries (an adapter's constraints, a stack's
// releases, a distro's backports). walk finds them by reflection, so place,
// eachClaim and every other pass over the tables cannot miss one: a new
// table is a field of Matrix and its type, nothing else.

var claimType = reflect.TypeOf(Claim{})

// embedsClaim reports whether t (a struct) embeds Claim.
func embedsClaim(t reflect.Type) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	f, ok := t.FieldByName("Claim")
	return ok && f.Anonymous && f.Type == claimType
}

// entries reports whether a field of type t holds claim entries: a struct,
// a pointer to one, or a slice of them, embedding Claim.
func entries(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice:
		return embedsClaim(t.Elem())
	}
	return embedsClaim(t)
}

// tomlKey is a field's TOML table name.
func tomlKey(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	if name == "" || name == "-" {
		return ""
	}
	return name
}

// entry is one claim-carrying entry of a table.
type entry struct {
	Table string        // TOML table name: adapter, constraint, release …
	Path  string        // TOML key path: adapter.3.constraint.1 (no index for a single table)
	What  string        // how messages name it: "adapter connectx-5 constraint one-stack"
	Value reflect.Value // the entry (addressable)
	Claim *Claim
}

// walk calls fn for every entry of every table, depth first, tables in
// Matrix field order and entries in file order.
func (m *Matrix) walk(fn func(e entry)) {
	walkFields(reflect.ValueOf(m).Elem(), "", "", fn)
}

func walkFields(v reflect.Value, path, what string, fn func(entry)) {
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
			for j := 0; j < fv.Len(); j++ {
				visit(fv.Index(j), key, p+"."+strconv.Itoa(j), what, fn)
			}
		case reflect.Pointer:
			if !fv.IsNil() {
				visit(fv.Elem(), key, p, what, fn)
			}
		default:
			visit(fv, key, p, what, fn)
		}
	}
}

func visit(e reflect.Value, table, path, parent string, fn func(entry)) {
	what := table
	if parent != "" {
		what = parent + " " + table
	}
	if id := name(e); id != "" {
		what += " " + id
	}
	fn(entry{Table: table, Path: path, What: what, Value: e, Claim: e.FieldByName("Claim").Addr().Interface().(*Claim)})
	walkFields(e, path, what, fn)
}

// nameKeys are the keys that name an entry in messages, first present wins.
var nameKeys = []string{"id", "version", "number", "pci", "family", "stack", "adapter", "driver", "client", "module"}

// name is the value that names an entry in messages: its id, version, part
// number, PCI id, … ("" when it has none).
func name(e reflect.Value) string {
	t := e.Type()
	for _, k := range nameKeys {
		for i := 0; i < t.NumField(); i++ {
			if tomlKey(t.Field(i)) == k && t.Field(i).Type.Kind() == reflect.String {
				if s := e.Field(i).String(); s != "" {
					return s
				}
			}
		}
	}
	return ""
}
