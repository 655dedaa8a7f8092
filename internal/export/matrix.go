package export

import (
	"io"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/render"
	"github.com/rocekb/rocekb/internal/verdict"
)

// Matrix emits matrix.json (the whole matrix), matrix.csv (one verdict per
// adapter × stack × distro) and adapter/<id>.json (one adapter, its rows,
// its verdicts and its sources). The verdicts are verdict.Judge's: read
// from vs (the site's verdict table) when it holds them, else judged here,
// once, and shared by the CSV and the adapter files. vs may be nil.
func Matrix(m *matrix.Matrix, vs Verdicts) render.Producer {
	return (&grid{m: m, vs: vs}).producer()
}

// producer emits g's exports.
func (g *grid) producer() render.Producer {
	m := g.m
	return func(emit func(render.Output) error) error {
		if err := emit(render.Func("matrix.json", func(w io.Writer) error { return writeJSON(w, matrixJSON(m)) })); err != nil {
			return err
		}
		if err := emit(render.Func("matrix.csv", g.writeCSV)); err != nil {
			return err
		}
		for _, a := range sortedAdapters(m) {
			a := a
			name := strings.TrimSuffix(page.Path(page.Adapter, a.ID), ".html") + ".json"
			if err := emit(render.Func(name, func(w io.Writer) error { return writeJSON(w, g.adapterJSON(a)) })); err != nil {
				return err
			}
		}
		return nil
	}
}

// AdapterJSON is the path of an adapter's JSON export, for links.
func AdapterJSON(id string) string {
	return strings.TrimSuffix(page.Path(page.Adapter, id), ".html") + ".json"
}

// matrixJSON is the whole matrix under the TOML table names of its files
// ("adapter", "distro", "stack", "firmware_min", …; see docs/reference.md).
func matrixJSON(m *matrix.Matrix) map[string]any {
	out := plain(m).(map[string]any)
	delete(out, "stack_release") // Load moved each into its stack's releases
	out["schema"] = matrix.Schema
	return out
}

func sortedAdapters(m *matrix.Matrix) []*matrix.Adapter {
	out := make([]*matrix.Adapter, 0, len(m.Adapters))
	for i := range m.Adapters {
		out = append(out, &m.Adapters[i])
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Verdicts holds verdicts already judged (site.Site's DistroVerdicts):
// the engine's verdict of an adapter on each distro's GA kernel with each
// stack and no firmware given, stack-major; ok is false for one it does
// not hold.
type Verdicts interface {
	DistroVerdicts(adapter string, stacks, distros []string, yield func(stack, distro string, v verdict.Verdict, ok bool))
}

// Cell is one verdict of the grid.
type Cell struct {
	Adapter, Stack, Distro string
	Verdict                verdict.Verdict
}

// grid is every adapter × stack × distro verdict. An adapter's stacks are
// inbox and the vendor stacks its entry lists.
type grid struct {
	m        *matrix.Matrix
	vs       Verdicts
	once     sync.Once
	distros  []string                // ids, sorted
	rows     map[string]*adapterRows // adapter id → its matrix rows
	judged   map[string][]Cell       // adapter id → cells, when vs is nil
	judgedMu sync.Mutex
	// The plain values of the distro_support rows (by index in
	// m.DistroRows) and of the sources (by id), made once for every
	// adapter file that lists them.
	distroRows []any
	sources    map[string]any
}

func (g *grid) init() {
	g.once.Do(func() {
		for _, d := range g.m.Distros {
			g.distros = append(g.distros, d.ID)
		}
		sort.Strings(g.distros)
		g.rows = indexRows(g.m)
		g.judged = map[string][]Cell{}
		g.distroRows = make([]any, len(g.m.DistroRows))
		for i := range g.m.DistroRows {
			g.distroRows[i] = plain(g.m.DistroRows[i])
		}
		g.sources = make(map[string]any, len(g.m.Sources))
		for i := range g.m.Sources {
			if _, dup := g.sources[g.m.Sources[i].ID]; !dup {
				g.sources[g.m.Sources[i].ID] = plain(g.m.Source(g.m.Sources[i].ID))
			}
		}
	})
}

// cells are an adapter's verdicts, stack-major then distro.
func (g *grid) cells(a *matrix.Adapter) []Cell {
	g.init()
	if g.vs == nil {
		g.judgedMu.Lock()
		defer g.judgedMu.Unlock()
		if cs, ok := g.judged[a.ID]; ok {
			return cs
		}
	}
	stacks := g.stacksOf(a)
	out := make([]Cell, 0, len(stacks)*len(g.distros))
	cell := func(st, d string, v verdict.Verdict, ok bool) {
		if !ok {
			v = verdict.Judge(g.m, verdict.Plan{Adapter: a.ID, Distro: d, Stack: st})
		}
		out = append(out, Cell{Adapter: a.ID, Stack: st, Distro: d, Verdict: v})
	}
	if g.vs != nil {
		g.vs.DistroVerdicts(a.ID, stacks, g.distros, cell)
	} else {
		for _, st := range stacks {
			for _, d := range g.distros {
				cell(st, d, verdict.Verdict{}, false)
			}
		}
	}
	if g.vs == nil {
		g.judged[a.ID] = out
	}
	return out
}

// eachCell yields an adapter's verdicts as cells does. With the site's
// table it yields each as it is read, holding none: the CSV and the
// adapter files each read every cell once, and a slice of them per
// adapter and file was 254 MB of garbage in a 10k build.
func (g *grid) eachCell(a *matrix.Adapter, yield func(c *Cell)) {
	if g.vs == nil {
		cs := g.cells(a)
		for i := range cs {
			yield(&cs[i])
		}
		return
	}
	g.init()
	var c Cell
	g.vs.DistroVerdicts(a.ID, g.stacksOf(a), g.distros, func(st, d string, v verdict.Verdict, ok bool) {
		if !ok {
			v = verdict.Judge(g.m, verdict.Plan{Adapter: a.ID, Distro: d, Stack: st})
		}
		c = Cell{Adapter: a.ID, Stack: st, Distro: d, Verdict: v}
		yield(&c)
	})
}

// stacksOf are the grid's stacks for an adapter: those the engine relates
// to it, as the adapter page's grid.
func (g *grid) stacksOf(a *matrix.Adapter) []string { return verdict.AdapterStacks(g.m, a) }

// conditions are the reasons that keep a verdict from plain "supported"
// (never a note, which decides nothing).
func conditions(v verdict.Verdict) []string {
	var out []string
	for _, r := range v.Reasons {
		if r.Verdict != verdict.Supported && !r.Informs {
			out = append(out, r.Text)
		}
	}
	return out
}

var csvHeader = []string{"adapter", "adapter_name", "vendor", "stack", "distro", "distro_name", "kernel", "verdict", "likely", "conditions", "nearest", "sources"}

func (g *grid) writeCSV(w io.Writer) error {
	names := map[string]string{}
	for _, d := range g.m.Distros {
		names[d.ID] = strings.TrimSpace(d.Name) // the name holds the version ("Red Hat Enterprise Linux 9.4")
	}
	var row, joined []byte
	for i, h := range csvHeader {
		if i > 0 {
			row = append(row, ',')
		}
		row = appendCell(row, h, false)
	}
	row = append(row, '\n')
	var srcs []string
	// The rows go out a run of them at a time: a file of a million rows
	// is never held whole (a one-off build streams it into its file).
	const run = 256 << 10
	for _, a := range sortedAdapters(g.m) {
		var err error
		g.eachCell(a, func(c *Cell) {
			v := &c.Verdict
			for _, f := range [...]string{a.ID, a.Name, a.Vendor, c.Stack, c.Distro, names[c.Distro], v.Kernel, string(v.Verdict), string(v.Likely)} {
				row = appendCell(row, f, true)
				row = append(row, ',')
			}
			joined = joined[:0]
			k := 0
			for _, r := range v.Reasons {
				if r.Verdict != verdict.Supported && !r.Informs { // its conditions
					if k++; k > 1 {
						joined = append(joined, " | "...)
					}
					joined = append(joined, r.Text...)
				}
			}
			row = append(appendCell(row, joined, true), ',')
			joined = joined[:0]
			for i, n := range v.Nearest {
				if i > 0 {
					joined = append(joined, " | "...)
				}
				joined = append(joined, n...)
			}
			row = append(appendCell(row, joined, true), ',')
			joined, srcs = joined[:0], srcs[:0]
			for _, r := range v.Reasons { // each source of its entries, once, first seen first
				for _, ref := range r.Matrix {
					for _, s := range ref.Sources {
						if !slices.Contains(srcs, s.ID) {
							srcs = append(srcs, s.ID)
							if len(srcs) > 1 {
								joined = append(joined, ' ')
							}
							joined = append(joined, s.ID...)
						}
					}
				}
			}
			row = append(appendCell(row, joined, true), '\n')
			if len(row) >= run && err == nil {
				_, err = w.Write(row)
				row = row[:0]
			}
		})
		if err != nil {
			return err
		}
	}
	_, err := w.Write(row)
	return err
}

func (g *grid) adapterJSON(a *matrix.Adapter) map[string]any {
	m := g.m
	out := map[string]any{"adapter": plain(a)}
	if v := m.Vendor(a.Vendor); v != nil {
		out["vendor"] = plain(v)
	}
	if d := m.Driver(a.RDMADriver); d != nil {
		out["driver"] = plain(d)
	}
	g.init()
	rs := g.rows[a.ID]
	if rs == nil {
		rs = &adapterRows{}
	}
	fw, parts, kernels, stack := rs.firmware, rs.parts, rs.kernels, rs.stack
	var distro []any
	for i, r := range m.DistroRows {
		if contains(r.Adapters, a.ID) || (a.RDMADriver != "" && contains(r.Drivers, a.RDMADriver)) {
			distro = append(distro, g.distroRows[i])
		}
	}
	set := func(k string, v []any) {
		if v == nil {
			v = []any{}
		}
		out[k] = v
	}
	set("firmware_min", fw)
	set("part_number", parts)
	set("pci_kernel", kernels)
	set("distro_support", distro)
	set("stack_support", stack)
	verdicts := []any{}
	g.eachCell(a, func(c *Cell) {
		// likely is a hint, never the verdict
		verdicts = append(verdicts, verdictRow{Stack: c.Stack, Distro: c.Distro, Verdict: string(c.Verdict.Verdict),
			Likely: string(c.Verdict.Likely), Kernel: c.Verdict.Kernel, Conditions: nonNil(conditions(c.Verdict))})
	})
	out["verdicts"] = verdicts
	ids := sourcesOf(map[string]any{"a": out["adapter"], "b": out["vendor"], "c": out["driver"], "d": fw, "e": parts, "f": kernels, "g": distro, "h": stack}, map[string]bool{}, nil)
	srcs := []any{}
	for _, id := range ids {
		if s, ok := g.sources[id]; ok {
			srcs = append(srcs, s)
		}
	}
	out["sources"] = srcs
	out["page"] = page.Path(page.Adapter, a.ID)
	return out
}

// adapterRows are the matrix rows of one adapter, as plain values.
type adapterRows struct {
	firmware, parts, kernels, stack []any
}

// indexRows sorts the firmware_min, part_number, pci_kernel and
// stack_support rows by adapter in one pass each, keeping file order, so
// an adapter's file does not scan every row.
func indexRows(m *matrix.Matrix) map[string]*adapterRows {
	out := map[string]*adapterRows{}
	of := func(id string) *adapterRows {
		r := out[id]
		if r == nil {
			r = &adapterRows{}
			out[id] = r
		}
		return r
	}
	for _, f := range m.Firmware {
		of(f.Adapter).firmware = append(of(f.Adapter).firmware, plain(f))
	}
	for _, p := range m.Parts {
		of(p.Adapter).parts = append(of(p.Adapter).parts, plain(p))
	}
	byPCI := map[string][]string{} // PCI id → adapters listing it
	for i := range m.Adapters {
		a := &m.Adapters[i]
		seen := map[string]bool{}
		for _, p := range a.PCI {
			if !seen[p.ID] {
				seen[p.ID] = true
				byPCI[p.ID] = append(byPCI[p.ID], a.ID)
			}
		}
	}
	for _, k := range m.PCIKernels {
		for _, id := range byPCI[k.PCI] {
			of(id).kernels = append(of(id).kernels, plain(k))
		}
	}
	for _, r := range m.StackRows {
		seen := map[string]bool{}
		for _, id := range r.Adapters {
			if !seen[id] {
				seen[id] = true
				of(id).stack = append(of(id).stack, plain(r))
			}
		}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sortStrings(s []string) { sort.Strings(s) }
