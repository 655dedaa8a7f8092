package matrix

import (
	"io/fs"
	"path"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/diag"
)

// Load reads every *.toml file in fsys (the matrix folder), strictly, and
// merges them. name prefixes file names in problems (e.g. "matrix").
// Decoding problems come back together; semantic checks are Lint's job.
func Load(fsys fs.FS, name string) (*Matrix, diag.List) {
	var probs diag.List
	files, err := fs.Glob(fsys, "*.toml")
	if err != nil {
		probs.Add(name, diag.Pos{}, "list matrix files: %v", err)
		return nil, probs
	}
	if len(files) == 0 {
		probs.Add(name, diag.Pos{}, "no matrix files (*.toml) found")
		return nil, probs
	}
	sort.Strings(files)
	m := &Matrix{Schema: Schema, locs: map[string]*diag.Locator{}}
	for _, f := range files {
		display := path.Join(name, f)
		src, err := fs.ReadFile(fsys, f)
		if err != nil {
			probs.Add(display, diag.Pos{}, "read: %v", err)
			continue
		}
		var part Matrix
		loc, ps := diag.DecodeTOML(display, src, &part)
		probs = append(probs, ps...)
		if ps.Errors() > 0 {
			continue
		}
		if part.Schema > Schema {
			probs.Add(display, loc.Pos("schema"), "matrix schema %d is newer than this kbgen understands (%d)", part.Schema, Schema)
			continue
		}
		m.locs[display] = loc
		part.place(display, loc)
		m.merge(&part, display, &probs, loc)
	}
	m.attachReleases(&probs)
	m.byID = m.index()
	probs.Sort()
	return m, probs
}

// ids indexes a matrix's entries by id for the lookups (Adapter, Source,
// …) the verdict engine makes millions of times a build; Load builds it.
// A Matrix made by hand, or one whose slices changed length since, is
// searched in order instead.
type ids struct {
	adapters, drivers, vendors, sources map[string]int
	na, nd, nv, ns                      int
}

func (m *Matrix) index() *ids {
	x := &ids{na: len(m.Adapters), nd: len(m.Drivers), nv: len(m.Vendors), ns: len(m.Sources)}
	x.adapters = indexIDs(m.Adapters, func(e *Adapter) string { return e.ID })
	x.drivers = indexIDs(m.Drivers, func(e *Driver) string { return e.ID })
	x.vendors = indexIDs(m.Vendors, func(e *Vendor) string { return e.ID })
	x.sources = indexIDs(m.Sources, func(e *Source) string { return e.ID })
	return x
}

// indexIDs maps each id to its first entry, as a search in order finds it.
func indexIDs[T any](s []T, id func(*T) string) map[string]int {
	idx := make(map[string]int, len(s))
	for i := range s {
		if _, dup := idx[id(&s[i])]; !dup {
			idx[id(&s[i])] = i
		}
	}
	return idx
}

// lookup finds the first entry of s with the id key, through idx when
// there is one and it still names such an entry.
func lookup[T any](s []T, id func(*T) string, idx map[string]int, key string) *T {
	if idx != nil {
		i, ok := idx[key]
		if !ok {
			return nil
		}
		if id(&s[i]) == key {
			return &s[i]
		}
	}
	for i := range s {
		if id(&s[i]) == key {
			return &s[i]
		}
	}
	return nil
}

// attachReleases moves top-level [[stack_release]] rows into their stacks,
// so release data can live in its own file.
func (m *Matrix) attachReleases(probs *diag.List) {
	for _, r := range m.LooseReleases {
		s := m.Stack(r.Stack)
		if s == nil {
			probs.Add(r.At.File, m.PosOf(r.At, "stack"), "stack_release %s: stack %q is not defined", r.Version, r.Stack)
			continue
		}
		s.Releases = append(s.Releases, r)
	}
	m.LooseReleases = nil
}

// place records where each entry was written: every source, and every
// entry of every table (walk).
func (m *Matrix) place(file string, loc *diag.Locator) {
	for i := range m.Sources {
		p := "source." + strconv.Itoa(i)
		pos := loc.Pos(p)
		m.Sources[i].At = Loc{File: file, Line: pos.Line, Col: pos.Col, Path: p}
	}
	m.walk(func(e entry) {
		pos := loc.Pos(e.Path)
		e.Claim.At = Loc{File: file, Line: pos.Line, Col: pos.Col, Path: e.Path}
	})
}

// merge appends every table of p (each slice field of Matrix) to m's; a
// single table ([protocol]) may be defined once.
func (m *Matrix) merge(p *Matrix, file string, probs *diag.List, loc *diag.Locator) {
	mv, pv := reflect.ValueOf(m).Elem(), reflect.ValueOf(p).Elem()
	t := mv.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if tomlKey(f) == "" {
			continue
		}
		switch f.Type.Kind() {
		case reflect.Slice:
			mv.Field(i).Set(reflect.AppendSlice(mv.Field(i), pv.Field(i)))
		case reflect.Pointer:
			if pv.Field(i).IsNil() {
				continue
			}
			if !mv.Field(i).IsNil() {
				prev := mv.Field(i).Elem().FieldByName("Claim").Interface().(Claim)
				probs.Add(file, loc.Pos(tomlKey(f)), "[%s] is already defined in %s", tomlKey(f), prev.At.File)
				continue
			}
			mv.Field(i).Set(pv.Field(i))
		}
	}
}

// PosOf returns the position of key inside the entry written at at, falling
// back to the entry itself when the key was not written.
func (m *Matrix) PosOf(at Loc, key string) diag.Pos {
	if loc := m.locs[at.File]; loc != nil {
		p := at.Path
		if key != "" {
			p += "." + key
		}
		return loc.Pos(p)
	}
	return diag.Pos{Line: at.Line, Col: at.Col}
}

// Adapter returns the adapter with the given id, or nil.
func (m *Matrix) Adapter(id string) *Adapter {
	var idx map[string]int
	if m.byID != nil && m.byID.na == len(m.Adapters) {
		idx = m.byID.adapters
	}
	return lookup(m.Adapters, func(e *Adapter) string { return e.ID }, idx, id)
}

// Driver returns the driver with the given id, or nil.
func (m *Matrix) Driver(id string) *Driver {
	var idx map[string]int
	if m.byID != nil && m.byID.nd == len(m.Drivers) {
		idx = m.byID.drivers
	}
	return lookup(m.Drivers, func(e *Driver) string { return e.ID }, idx, id)
}

// Vendor returns the vendor with the given id, or nil.
func (m *Matrix) Vendor(id string) *Vendor {
	var idx map[string]int
	if m.byID != nil && m.byID.nv == len(m.Vendors) {
		idx = m.byID.vendors
	}
	return lookup(m.Vendors, func(e *Vendor) string { return e.ID }, idx, id)
}

// Source returns the source with the given id, or nil.
func (m *Matrix) Source(id string) *Source {
	var idx map[string]int
	if m.byID != nil && m.byID.ns == len(m.Sources) {
		idx = m.byID.sources
	}
	return lookup(m.Sources, func(e *Source) string { return e.ID }, idx, id)
}

// Match finds the adapter for a PCI function. A subsystem-specific entry
// wins over a plain vendor:device entry. It returns nil when the matrix
// does not know the part.
func (m *Matrix) Match(vendor, device, subVendor, subDevice string) *Adapter {
	id := vendor + ":" + device
	sub := subVendor + ":" + subDevice
	var plain *Adapter
	for i := range m.Adapters {
		for _, p := range m.Adapters[i].PCI {
			if p.ID != id {
				continue
			}
			if p.Subsystem == "" {
				if plain == nil {
					plain = &m.Adapters[i]
				}
			} else if p.Subsystem == sub {
				return &m.Adapters[i]
			}
		}
	}
	return plain
}

// Identify finds the adapter for a recorded PCI function: by its ids when
// the record has them, otherwise by the pci.ids name that lspci printed in
// its description (lspci looks the name up from the ids, so the name stands
// for them). It returns nil when neither identifies a known part.
func (m *Matrix) Identify(vendor, device, subVendor, subDevice, description string) *Adapter {
	if vendor != "" && device != "" {
		return m.Match(vendor, device, subVendor, subDevice)
	}
	return m.MatchName(description)
}

// MatchName finds the adapter whose pci.ids name appears in an lspci
// description such as "Mellanox Technologies MT27800 Family [ConnectX-5]".
// The longest matching name wins, so a Virtual Function or an "Ex" part is
// never taken for its shorter-named sibling.
func (m *Matrix) MatchName(description string) *Adapter {
	var best *Adapter
	n := 0
	for i := range m.Adapters {
		for _, p := range m.Adapters[i].PCI {
			if p.Name != "" && len(p.Name) > n && strings.Contains(description, p.Name) {
				best, n = &m.Adapters[i], len(p.Name)
			}
		}
	}
	return best
}

func (l Loc) String() string {
	return l.File + ":" + strconv.Itoa(l.Line) + ":" + strconv.Itoa(l.Col) // not fmt: the verdict grid cites millions
}

// Reopen readies m, decoded from an encoding of its exported fields (the
// matrix kbgen keeps between runs, kb's cache), as Load leaves a Matrix
// it loaded without an error: indexed by id, and with the key positions
// of each file (named as Load names it) read from srcs when first asked.
func (m *Matrix) Reopen(srcs map[string][]byte) {
	m.locs = make(map[string]*diag.Locator, len(srcs))
	for f, b := range srcs {
		m.locs[f] = diag.LazyLocator(b)
	}
	m.byID = m.index()
}
