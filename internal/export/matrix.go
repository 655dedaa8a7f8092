package export

import (
	"hash/maphash"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

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
		g.init()
		for i, a := range g.adapters {
			if err := emit(render.Func(AdapterJSON(a.ID), func(w io.Writer) error { return writeJSON(w, g.adapterJSON(i)) })); err != nil {
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
// stack and no firmware given, stack-major; v is nil for one it does not
// hold, and is the yield's to read only while it runs. n numbers the
// distinct verdicts (alike but for their plan and kernel), -1 for none:
// the cells of one number share its level, likely, nearest and reasons.
type Verdicts interface {
	DistroVerdicts(adapter string, stacks, distros []string, yield func(stack, distro string, n int, v *verdict.Verdict))
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
	adapters []*matrix.Adapter       // by id
	distros  []string                // ids, sorted
	rows     map[string]*adapterRows // adapter id → its matrix rows
	sheets   []sheetSlot             // by adapter, as adapters
	held     atomic.Int64            // sheets held between their two readers
	hold     int64                   // the most sheets held: maxHeld, unless a test sets it
	judged   map[string][]Cell       // adapter id → cells, when vs is nil
	judgedMu sync.Mutex
	// The plain values of the distro_support rows (by index in
	// m.DistroRows) and of the sources (by id), and their JSON, made once
	// for every adapter file that lists them; likewise each row's source
	// ids (sourcesOf the row alone).
	distroRows []any
	distroJSON []any // encoded
	distroSrcs [][]string
	sources    map[string]any // encoded
	// Likewise each vendor and driver (by id), encoded as an adapter's
	// file holds it.
	vendors, drivers map[string]encoded
}

// rowDepth is the depth of a row in an adapter's file: an element of
// the list under one of its keys.
const rowDepth = 2

func (g *grid) init() {
	g.once.Do(func() {
		g.adapters = sortedAdapters(g.m)
		g.sheets = make([]sheetSlot, len(g.adapters))
		if g.hold == 0 {
			g.hold = maxHeld
		}
		for _, d := range g.m.Distros {
			g.distros = append(g.distros, d.ID)
		}
		sort.Strings(g.distros)
		g.rows = indexRows(g.m)
		g.judged = map[string][]Cell{}
		g.distroRows = make([]any, len(g.m.DistroRows))
		g.distroJSON = make([]any, len(g.m.DistroRows))
		g.distroSrcs = make([][]string, len(g.m.DistroRows))
		for i := range g.m.DistroRows {
			g.distroRows[i] = plain(g.m.DistroRows[i])
			g.distroJSON[i] = encode(g.distroRows[i], rowDepth)
			g.distroSrcs[i] = sourcesOf(g.distroRows[i], map[string]bool{}, nil)
		}
		g.vendors = make(map[string]encoded, len(g.m.Vendors))
		for _, v := range g.m.Vendors {
			g.vendors[v.ID] = encode(plain(g.m.Vendor(v.ID)), 1)
		}
		g.drivers = make(map[string]encoded, len(g.m.Drivers))
		for _, d := range g.m.Drivers {
			g.drivers[d.ID] = encode(plain(g.m.Driver(d.ID)), 1)
		}
		g.sources = make(map[string]any, len(g.m.Sources))
		for i := range g.m.Sources {
			if _, dup := g.sources[g.m.Sources[i].ID]; !dup {
				g.sources[g.m.Sources[i].ID] = encode(plain(g.m.Source(g.m.Sources[i].ID)), rowDepth)
			}
		}
	})
}

// cells are an adapter's verdicts, stack-major then distro. Without the
// site's table they are judged here, once, and kept.
func (g *grid) cells(a *matrix.Adapter) []Cell {
	g.init()
	var out []Cell
	if g.vs != nil {
		g.eachCell(a, g.stacksOf(a), func(st, d string, _ int, v *verdict.Verdict) {
			out = append(out, Cell{Adapter: a.ID, Stack: st, Distro: d, Verdict: *v})
		})
		return out
	}
	g.judgedMu.Lock()
	defer g.judgedMu.Unlock()
	if cs, ok := g.judged[a.ID]; ok {
		return cs
	}
	stacks := g.stacksOf(a)
	out = make([]Cell, 0, len(stacks)*len(g.distros))
	for _, st := range stacks {
		for _, d := range g.distros {
			out = append(out, Cell{Adapter: a.ID, Stack: st, Distro: d, Verdict: verdict.Judge(g.m, verdict.Plan{Adapter: a.ID, Distro: d, Stack: st})})
		}
	}
	g.judged[a.ID] = out
	return out
}

// eachCell yields an adapter's verdicts on stacks, stack-major then
// distro, as Verdicts does: from the site's table when the grid has one
// (a cell it does not hold judged here), else as cells judged them, each
// its own (n is -1).
func (g *grid) eachCell(a *matrix.Adapter, stacks []string, yield func(stack, distro string, n int, v *verdict.Verdict)) {
	if g.vs == nil {
		cs := g.cells(a)
		for i := range cs {
			yield(cs[i].Stack, cs[i].Distro, -1, &cs[i].Verdict)
		}
		return
	}
	g.vs.DistroVerdicts(a.ID, stacks, g.distros, func(st, d string, n int, v *verdict.Verdict) {
		if v == nil {
			j := verdict.Judge(g.m, verdict.Plan{Adapter: a.ID, Distro: d, Stack: st})
			n, v = -1, &j
		}
		yield(st, d, n, v)
	})
}

// stacksOf are the grid's stacks for an adapter: those the engine relates
// to it, as the adapter page's grid.
func (g *grid) stacksOf(a *matrix.Adapter) []string { return verdict.AdapterStacks(g.m, a) }

// sheet is an adapter's verdicts as its exports write them: a row of
// matrix.csv and of its JSON file per cell. Both read the one sheet, so
// each cell is read from the site's table (or judged) once, and what the
// cells whose verdicts are alike share is made once, as a kind; the
// kinds' conditions, fewer than the kinds, once each, so each file writes
// them once.
type sheet struct {
	stacks, distros []string
	cells           []sheetCell // stacks × distros, stack-major
	kinds           []rowKind
	conditions      []span   // the kinds' distinct lists of conditions, in lists
	lists           []string // the kinds' conditions and sources, one after another
}

// row is cell i's verdictRow, as the adapter's JSON file lists it.
func (sh *sheet) row(i int) verdictRow {
	c := &sh.cells[i]
	k := &sh.kinds[c.kind]
	return verdictRow{Stack: sh.stacks[i/len(sh.distros)], Distro: sh.distros[i%len(sh.distros)], Verdict: k.verdict,
		Likely: k.likely, Kernel: c.kernel, Conditions: sh.list(sh.conditions[k.conditions])}
}

// list is the list s of sh.lists, never nil.
func (sh *sheet) list(s span) []string {
	if s.start == s.end {
		return []string{}
	}
	return sh.lists[s.start:s.end:s.end]
}

type sheetCell struct {
	kernel string
	kind   int // in sheet.kinds
}

// rowKind is what a verdict's rows say but its plan and kernel.
type rowKind struct {
	verdict, likely string
	nearest         []string
	conditions      int  // in sheet.conditions
	sources         span // in sheet.lists: the source ids of its reasons' entries, each once, first seen first
}

// span is a list of sheet.lists.
type span struct{ start, end int32 }

// sheetScratch is what makeSheet gathers a sheet in, lent from one sheet
// to the next (sheetScratches): the sheet keeps its kinds and lists at
// their size, until both its files are written.
type sheetScratch struct {
	kinds      []rowKind
	lists      []string
	conditions []span
	of         []int // a verdict's number → its kind + 1
	// sums finds a list of conditions among conditions by its hash: the
	// last with that hash, and before each the one before it (-1 for
	// none).
	sums   map[uint64]int
	before []int
	seed   maphash.Seed
}

var sheetScratches = sync.Pool{New: func() any { return &sheetScratch{sums: map[uint64]int{}, seed: maphash.MakeSeed()} }}

// kind appends v's kind to x.
func (x *sheetScratch) kind(v *verdict.Verdict) {
	k := rowKind{verdict: string(v.Verdict), likely: string(v.Likely), nearest: v.Nearest}
	start := len(x.lists)
	x.lists = appendConditions(x.lists, v)
	k.conditions = x.condition(start)
	start = len(x.lists)
	for _, r := range v.Reasons {
		for _, ref := range r.Matrix {
			for _, s := range ref.Sources {
				if !slices.Contains(x.lists[start:], s.ID) {
					x.lists = append(x.lists, s.ID)
				}
			}
		}
	}
	k.sources = span{int32(start), int32(len(x.lists))}
	x.kinds = append(x.kinds, k)
}

// condition is the number in x.conditions of the list of conditions
// x.lists[start:], added if it is new, else taken off x.lists.
func (x *sheetScratch) condition(start int) int {
	list := x.lists[start:]
	if n := len(x.kinds); n > 0 { // the last kind's, asked first: no hash of the texts
		if c := x.kinds[n-1].conditions; slices.Equal(x.lists[x.conditions[c].start:x.conditions[c].end], list) {
			x.lists = x.lists[:start]
			return c
		}
	}
	var sum uint64
	for _, t := range list {
		sum = (sum ^ maphash.String(x.seed, t)) * 0x100000001b3 // as FNV-1a mixes its bytes
	}
	last, ok := x.sums[sum]
	if !ok {
		last = -1
	}
	for c := last; c >= 0; c = x.before[c] {
		if s := x.conditions[c]; slices.Equal(x.lists[s.start:s.end], list) {
			x.lists = x.lists[:start]
			return c
		}
	}
	x.conditions = append(x.conditions, span{int32(start), int32(len(x.lists))})
	x.before = append(x.before, last)
	x.sums[sum] = len(x.conditions) - 1
	return len(x.conditions) - 1
}

// makeSheet reads an adapter's cells into its sheet.
func (g *grid) makeSheet(a *matrix.Adapter) *sheet {
	sh := &sheet{stacks: g.stacksOf(a), distros: g.distros}
	sh.cells = make([]sheetCell, 0, len(sh.stacks)*len(sh.distros))
	x := sheetScratches.Get().(*sheetScratch)
	g.eachCell(a, sh.stacks, func(_, _ string, n int, v *verdict.Verdict) {
		k := len(x.kinds)
		if n >= 0 {
			for n >= len(x.of) {
				x.of = append(x.of, 0)
			}
			if x.of[n] > 0 {
				k = x.of[n] - 1
			} else {
				x.of[n] = k + 1
			}
		}
		if k == len(x.kinds) {
			x.kind(v)
		}
		sh.cells = append(sh.cells, sheetCell{kernel: v.Kernel, kind: k})
	})
	sh.kinds, sh.conditions, sh.lists = slices.Clone(x.kinds), slices.Clone(x.conditions), slices.Clone(x.lists)
	clear(x.kinds)
	clear(x.lists)
	clear(x.of)
	clear(x.sums)
	x.kinds, x.lists, x.conditions, x.of, x.before = x.kinds[:0], x.lists[:0], x.conditions[:0], x.of[:0], x.before[:0]
	sheetScratches.Put(x)
	return sh
}

// sheetSlot holds an adapter's sheet from the first of its two readers,
// matrix.csv and the adapter's JSON file, to the second.
type sheetSlot struct {
	mu    sync.Mutex
	sh    *sheet
	reads int
}

// maxHeld bounds the sheets held between their two readers. matrix.csv
// (one output) and the adapter files (one each, rendered beside the
// pages) go at their own paces: a 10k build held some 100 to 150
// sheets of about 30 KB at most, and once 755.
const maxHeld = 128

// sheet is the sheet of adapter i (in g.adapters): made by its first
// reader (the other one waits for it) and let go of by its second; made
// anew by a second reader when the first held g.hold sheets already, and
// by a third.
func (g *grid) sheet(i int) *sheet {
	g.init()
	s := &g.sheets[i]
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reads++
	if sh := s.sh; sh != nil {
		s.sh = nil
		g.held.Add(-1)
		return sh
	}
	sh := g.makeSheet(g.adapters[i])
	if s.reads == 1 {
		if g.held.Add(1) <= g.hold {
			s.sh = sh
		} else {
			g.held.Add(-1)
		}
	}
	return sh
}

// appendConditions appends the texts of the reasons that keep v from
// plain "supported" (never a note, which decides nothing).
func appendConditions(dst []string, v *verdict.Verdict) []string {
	for _, r := range v.Reasons {
		if r.Verdict != verdict.Supported && !r.Informs {
			dst = append(dst, r.Text)
		}
	}
	return dst
}

var csvHeader = []string{"adapter", "adapter_name", "vendor", "stack", "distro", "distro_name", "kernel", "verdict", "likely", "conditions", "nearest", "sources"}

func (g *grid) writeCSV(w io.Writer) error {
	g.init()
	names := map[string]string{}
	for _, d := range g.m.Distros {
		names[d.ID] = strings.TrimSpace(d.Name) // the name holds the version ("Red Hat Enterprise Linux 9.4")
	}
	var row, joined, pre, tails []byte
	for i, h := range csvHeader {
		if i > 0 {
			row = append(row, ',')
		}
		row = appendCell(row, h, false)
	}
	row = append(row, '\n')
	// The cells every adapter's rows share, made once: a distro's id and
	// name, and for each adapter its id, name and vendor and each stack.
	distroCells := make([][]byte, len(g.distros))
	for i, d := range g.distros {
		distroCells[i] = append(appendCell(append(appendCell(nil, d, true), ','), names[d], true), ',')
	}
	join := func(list []string, sep string) []byte {
		joined = joined[:0]
		for i, s := range list {
			if i > 0 {
				joined = append(joined, sep...)
			}
			joined = append(joined, s...)
		}
		return joined
	}
	var at []int     // kind k's cells after the kernel are tails[at[k]:at[k+1]]
	var conds []byte // an adapter's lists of conditions as cells, each once
	var condAt []int // list c's cell is conds[condAt[c]:condAt[c+1]]
	// The rows go out a run of them at a time: a file of a million rows
	// is never held whole (a one-off build streams it into its file).
	const run = 256 << 10
	for i, a := range g.adapters {
		sh := g.sheet(i)
		pre = pre[:0]
		for _, f := range [...]string{a.ID, a.Name, a.Vendor} {
			pre = append(appendCell(pre, f, true), ',')
		}
		conds, condAt = conds[:0], append(condAt[:0], 0)
		for _, c := range sh.conditions {
			conds = append(appendCell(conds, join(sh.list(c), " | "), true), ',')
			condAt = append(condAt, len(conds))
		}
		tails, at = tails[:0], append(at[:0], 0)
		for k := range sh.kinds {
			kd := &sh.kinds[k]
			tails = append(appendCell(tails, kd.verdict, true), ',')
			tails = append(appendCell(tails, kd.likely, true), ',')
			tails = append(tails, conds[condAt[kd.conditions]:condAt[kd.conditions+1]]...)
			tails = append(appendCell(tails, join(kd.nearest, " | "), true), ',')
			tails = append(appendCell(tails, join(sh.list(kd.sources), " "), true), '\n')
			at = append(at, len(tails))
		}
		for s, st := range sh.stacks {
			stack := len(pre)
			pre = append(appendCell(pre, st, true), ',')
			for d := range sh.distros {
				c := &sh.cells[s*len(sh.distros)+d]
				row = append(append(row, pre...), distroCells[d]...)
				row = append(appendCell(row, c.kernel, true), ',')
				row = append(row, tails[at[c.kind]:at[c.kind+1]]...)
				if len(row) >= run {
					if _, err := w.Write(row); err != nil {
						return err
					}
					row = row[:0]
				}
			}
			pre = pre[:stack]
		}
	}
	_, err := w.Write(row)
	return err
}

func (g *grid) adapterJSON(i int) map[string]any {
	m := g.m
	g.init()
	a := g.adapters[i]
	out := map[string]any{"adapter": plain(a)}
	vendor, hasVendor := g.vendors[a.Vendor]
	if hasVendor {
		out["vendor"] = vendor
	}
	driver, hasDriver := g.drivers[a.RDMADriver]
	if hasDriver {
		out["driver"] = driver
	}
	rs := g.rows[a.ID]
	if rs == nil {
		rs = &adapterRows{}
	}
	fw, parts, kernels, stack := rs.firmware, rs.parts, rs.kernels, rs.stack
	var distroJSON []any
	var distro []int // in m.DistroRows
	for i, r := range m.DistroRows {
		if contains(r.Adapters, a.ID) || (a.RDMADriver != "" && contains(r.Drivers, a.RDMADriver)) {
			distro, distroJSON = append(distro, i), append(distroJSON, g.distroJSON[i])
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
	set("distro_support", distroJSON)
	set("stack_support", stack)
	out["verdicts"] = g.sheet(i) // written as a list of verdictRow
	// The sources in the order the file lists what cites them: the
	// adapter, vendor and driver, then each list of rows, a distro row's
	// ids as made once for every file.
	seen := map[string]bool{}
	ids := sourcesOf([]any{out["adapter"], vendor.v, driver.v, fw, parts, kernels}, seen, nil)
	for _, r := range distro {
		for _, id := range g.distroSrcs[r] {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	ids = sourcesOf(stack, seen, ids)
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

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sortStrings(s []string) { sort.Strings(s) }
