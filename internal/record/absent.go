package record

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/source"
)

// AbsentTools lists, in source-table order, the tools a distribution
// package provides whose every recorded source is absent: a failed tool is
// installed, and a row with no source recorded was not looked for. The
// kbcollect summary line and the host report both name them.
func (h *Host) AbsentTools() []source.Tool {
	// What is known of each tool, at its place in source.Tools (toolAt):
	// a host report asks this of every record of a fleet.
	const seen, found = 1, 2
	state := make([]uint8, len(source.Tools))
	for _, s := range h.Sources {
		t, ok := source.Of(source.ID(s.ID))
		if !ok {
			continue
		}
		i, ok := toolAt[t.Name]
		if !ok {
			continue
		}
		state[i] |= seen
		if s.Status != StatusAbsent {
			state[i] |= found
		}
	}
	var out []source.Tool
	for _, t := range source.Tools {
		if t.Package != "" && state[toolAt[t.Name]] == seen {
			out = append(out, t)
		}
	}
	return out
}

// toolAt is the first place of each tool's name in source.Tools: rows of
// one name are one tool, as they were when AbsentTools kept them by name.
var toolAt = func() map[string]int {
	m := make(map[string]int, len(source.Tools))
	for i, t := range source.Tools {
		if _, dup := m[t.Name]; !dup {
			m[t.Name] = i
		}
	}
	return m
}()

// expandAbsent moves a record's [[absent]] lists into Sources, each as the
// source it stands for, and sorts Sources as the collector does, so a
// record reads the same whichever of its sources it lists compactly.
func (h *Host) expandAbsent() {
	n := 0
	for _, a := range h.Absent {
		n += len(a.IDs)
	}
	h.Sources = slices.Grow(h.Sources, n)
	for _, a := range h.Absent {
		for _, id := range a.IDs {
			h.Sources = append(h.Sources, Source{ID: id, Path: source.ID(id).Path(), Status: StatusAbsent, Reason: a.Reason})
		}
	}
	h.Absent = nil
	bySource := func(a, b Source) int {
		return cmp.Or(strings.Compare(a.ID, b.ID), strings.Compare(a.Path, b.Path), strings.Compare(a.Status, b.Status), strings.Compare(a.Reason, b.Reason))
	}
	if !slices.IsSortedFunc(h.Sources, bySource) {
		slices.SortStableFunc(h.Sources, bySource)
	}
}

// compactAbsent returns h as a record holds it: every source absent at its
// own path is listed in Absent, grouped by reason in order of first use,
// and Sources keeps the rest. h is not changed.
func (h *Host) compactAbsent() *Host {
	if len(h.Absent) > 0 {
		e := *h
		e.Sources = slices.Clone(h.Sources)
		e.expandAbsent()
		h = &e
	}
	c := *h
	c.Sources, c.Absent = nil, nil
	group := map[string]int{}
	for _, s := range h.Sources {
		if s.Status != StatusAbsent || s.Path != source.ID(s.ID).Path() {
			c.Sources = append(c.Sources, s)
			continue
		}
		i, ok := group[s.Reason]
		if !ok {
			i = len(c.Absent)
			group[s.Reason] = i
			c.Absent = append(c.Absent, Absent{Reason: s.Reason})
		}
		c.Absent[i].IDs = append(c.Absent[i].IDs, s.ID)
	}
	if len(c.Absent) > 0 {
		c.Schema = max(c.Schema, absentSchema) // an older reader would take the lists for unknown keys
	}
	return &c
}

// absentSchema is the schema that added [[absent]].
const absentSchema = 3

// IDList is a list of source ids, written to TOML one to a line: an
// [[absent]] list is some sixty ids long.
type IDList []string

// MarshalTOML writes the list as a TOML array of basic strings, one a line.
func (l IDList) MarshalTOML() ([]byte, error) {
	var b strings.Builder
	b.WriteString("[\n")
	for _, id := range l {
		b.WriteString("    ")
		quote(&b, id)
		b.WriteString(",\n")
	}
	b.WriteString("  ]")
	return []byte(b.String()), nil
}

// UnmarshalTOML reads the array of strings the TOML parser made of an
// [[absent]] list. The decoder's reflection made three allocations and a
// dozen reflect calls of each of the some eighty ids a record lists, the
// most common value of a fleet's records; a value that is not a string is
// refused in the decoder's own words (diag.TOMLTypeError).
func (l *IDList) UnmarshalTOML(data any) error {
	switch vs := data.(type) {
	case []any:
		ids := make(IDList, len(vs))
		for i, v := range vs {
			s, ok := v.(string)
			if !ok {
				return diag.TOMLTypeError(v, "string")
			}
			ids[i] = s
		}
		*l = ids
		return nil
	case []map[string]any: // an array of tables: [[absent.ids]]
		return diag.TOMLTypeError(vs[0], "string")
	case nil:
		return nil
	}
	return diag.TOMLTypeError(data, "slice")
}

// quote writes s as a TOML basic string: a quote, a backslash and a control
// character are escaped, the rest is written as it is.
func quote(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}
