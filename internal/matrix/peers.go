package matrix

import (
	"cmp"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Peers groups the adapters that the matrix states alike but for their
// identity: the id, the name and each PCI id and PCI name. Two adapters
// are peers when their own entries (with everything nested in them) are
// equal once each identity string is replaced by its place (the id, the
// name, the first PCI id, …), and so are the entries of every other table
// that hold one of those strings, entry for entry, at the same key path.
// Every other entry is read alike for both. A reader that finds an
// adapter's facts only through those entries (the verdict engine) then
// answers for one peer what it answers for the other, but for the words
// of their identity, which Rename maps.
//
// Peers maps each adapter id to the first adapter of its group, in file
// order (itself when it has no peer). Entries are compared exactly, so a
// note that differs or an extra row keeps two adapters apart.
func (m *Matrix) Peers() map[string]string {
	type held struct {
		path string
		v    reflect.Value
	}
	// Every string each entry holds (not those of the entries nested in
	// it, which walk visits on their own), to find the entries naming an
	// identity string.
	var all []held
	byString := map[string][]int{}
	m.walk(func(e entry) {
		i := len(all)
		all = append(all, held{e.Path, e.Value})
		seen := map[string]bool{}
		eachString(e.Value, false, func(s string) {
			if !seen[s] {
				seen[s] = true
				byString[s] = append(byString[s], i)
			}
		})
	})
	out := map[string]string{}
	first := map[string]string{} // key → first adapter id
	var b []byte
	for i := range m.Adapters {
		a := &m.Adapters[i]
		if _, ok := out[a.ID]; ok {
			continue
		}
		places := identity(a)
		own := "adapter." + strconv.Itoa(i)
		b = b[:0]
		b = appendValue(b, reflect.ValueOf(*a), places, true)
		var naming []int
		for _, p := range places {
			naming = append(naming, byString[p.old]...)
		}
		slices.Sort(naming)
		naming = slices.Compact(naming)
		for _, n := range naming {
			h := all[n]
			if h.path == own || strings.HasPrefix(h.path, own+".") {
				continue // written above, with the adapter
			}
			b = append(b, 0)
			b = append(b, h.path...)
			b = appendValue(b, h.v, places, false)
		}
		k := string(b)
		if f, ok := first[k]; ok {
			out[a.ID] = f
			continue
		}
		first[k] = a.ID
		out[a.ID] = a.ID
	}
	return out
}

// place is an identity string and the word that stands for it in a key.
type place struct{ old, word string }

// identity is an adapter's identity strings, each once, in a fixed order:
// the id, the name, then each PCI id and its name.
func identity(a *Adapter) []place {
	var ps []place
	add := func(s, word string) {
		if s == "" || slices.ContainsFunc(ps, func(p place) bool { return p.old == s }) {
			return
		}
		ps = append(ps, place{s, "\x00" + word})
	}
	add(a.ID, "id")
	add(a.Name, "name")
	for i, p := range a.PCI {
		add(p.ID, "pci"+strconv.Itoa(i))
		add(p.Name, "pciname"+strconv.Itoa(i))
	}
	return ps
}

// Identity is the words of adapter id's identity (the first entry of
// the id) that Rename maps to a peer's: its id, its name, each PCI id and
// PCI name, each once; nil when the matrix lacks it. A text holding none
// of them is the same in every peer's words.
func (m *Matrix) Identity(id string) []string {
	a := m.Adapter(id)
	if a == nil {
		return nil
	}
	var out []string
	for _, p := range identity(a) {
		out = append(out, p.old)
	}
	return out
}

// A Renamer turns the words of one adapter's identity into a peer's
// (Matrix.Rename).
type Renamer struct {
	olds, news []string // the words it replaces, longest first, and each one's peer word
}

// Replace is s with every word of the identity in the peer's words, as a
// strings.Replacer of the same pairs gives it (left to right, without
// overlaps, at each place the first word in the Renamer's order), or s
// itself, not a copy, when it holds none of them. A site renames each
// reason of a peer group's first adapter for every peer: a Replacer
// looked for its words byte by byte, and was 2-3% of a 10k build's CPU;
// each word is looked for here with strings.Index, its next place kept
// until the text is past it.
func (n *Renamer) Replace(s string) string {
	var places [8]int
	next := places[:0] // each word's next place in s, -1 for none
	first := -1        // the first of them
	for _, o := range n.olds {
		j := strings.Index(s, o)
		next = append(next, j)
		if j >= 0 && (first < 0 || j < first) {
			first = j
		}
	}
	if first < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	i := 0 // s[:i] is done
	for first >= 0 {
		w := slices.Index(next, first) // the first word in order that starts there
		b.WriteString(s[i:first])
		b.WriteString(n.news[w])
		i, first = first+len(n.olds[w]), -1
		for k, o := range n.olds {
			if next[k] >= 0 && next[k] < i {
				if next[k] = strings.Index(s[i:], o); next[k] >= 0 {
					next[k] += i
				}
			}
			if next[k] >= 0 && (first < 0 || next[k] < first) {
				first = next[k]
			}
		}
	}
	b.WriteString(s[i:])
	return b.String()
}

// Rename is the renamer that turns the words of adapter from's identity
// into peer to's: to's id for from's, and so on, longest first. It is nil
// when either is not in the matrix or they are not peers of the same
// shape (Peers groups only those).
func (m *Matrix) Rename(from, to string) *Renamer {
	a, b := m.Adapter(from), m.Adapter(to)
	if a == nil || b == nil {
		return nil
	}
	pa, pb := identity(a), identity(b)
	if len(pa) != len(pb) {
		return nil
	}
	type pair struct{ old, new string }
	var pairs []pair
	for i := range pa {
		if pa[i].word != pb[i].word {
			return nil
		}
		if pa[i].old != pb[i].old {
			pairs = append(pairs, pair{pa[i].old, pb[i].old})
		}
	}
	slices.SortStableFunc(pairs, func(x, y pair) int { return cmp.Compare(len(y.old), len(x.old)) })
	r := &Renamer{}
	for _, p := range pairs {
		r.olds, r.news = append(r.olds, p.old), append(r.news, p.new)
	}
	return r
}

var (
	locType  = reflect.TypeOf(Loc{})
	timeType = reflect.TypeOf(time.Time{})
)

// eachString calls fn with every string v holds: in nested entries too
// when nested, never in a Loc.
func eachString(v reflect.Value, nested bool, fn func(string)) {
	switch v.Kind() {
	case reflect.String:
		fn(v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			eachString(v.Elem(), nested, fn)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			eachString(v.Index(i), nested, fn)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			eachString(k, nested, fn)
			eachString(v.MapIndex(k), nested, fn)
		}
	case reflect.Struct:
		if v.Type() == locType || v.Type() == timeType {
			return
		}
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() || (!nested && !f.Anonymous && entries(f.Type)) {
				continue
			}
			eachString(v.Field(i), nested, fn)
		}
	}
}

// appendValue writes v to b for comparing, each identity string as its
// word, a Loc as nothing: with the entries nested in it when nested.
func appendValue(b []byte, v reflect.Value, places []place, nested bool) []byte {
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		for _, p := range places {
			if p.old == s {
				return append(b, p.word...)
			}
		}
		return strconv.AppendQuote(b, s)
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(b, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.AppendUint(b, v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		return strconv.AppendFloat(b, v.Float(), 'g', -1, 64)
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return append(b, "nil"...)
		}
		return appendValue(append(b, '*'), v.Elem(), places, nested)
	case reflect.Slice, reflect.Array:
		b = append(b, '[')
		for i := 0; i < v.Len(); i++ {
			b = appendValue(b, v.Index(i), places, nested)
			b = append(b, ',')
		}
		return append(b, ']')
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(x, y reflect.Value) int {
			return strings.Compare(string(appendValue(nil, x, places, nested)), string(appendValue(nil, y, places, nested)))
		})
		b = append(b, '{')
		for _, k := range keys {
			b = appendValue(b, k, places, nested)
			b = append(b, ':')
			b = appendValue(b, v.MapIndex(k), places, nested)
			b = append(b, ',')
		}
		return append(b, '}')
	case reflect.Struct:
		switch v.Type() {
		case locType:
			return b
		case timeType:
			return v.Interface().(time.Time).AppendFormat(b, time.RFC3339Nano)
		}
		t := v.Type()
		b = append(b, '{')
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() || (!nested && !f.Anonymous && entries(f.Type)) {
				continue
			}
			b = append(b, f.Name...)
			b = append(b, ':')
			b = appendValue(b, v.Field(i), places, nested)
			b = append(b, ',')
		}
		return append(b, '}')
	}
	return append(b, v.Kind().String()...)
}
