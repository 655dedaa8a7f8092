package verdict

import (
	"encoding/binary"
	"slices"
	"strings"
	"sync"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/rule"
)

// Engine judges many plans against one matrix, as Judge does, with the
// lookups Judge repeats on every call done once: adapters and distros by
// id, stack names, and for each adapter the matrix cut down to the rows
// that can bear on it. The matrix must not change while the engine is in
// use. An Engine is safe for concurrent use.
type Engine struct {
	m        *matrix.Matrix
	adapters map[string]*matrix.Adapter // by id, the first of an id
	distros  map[string]*matrix.Distro
	views    map[string]*matrix.Matrix // adapter id → its rows (see view)
	stackIDs map[string]resolvedStack  // a stack's id (and inbox) → resolvedStack, resolved by NewEngine
	stacks   sync.Map                  // another stack name → resolvedStack
	named    sync.Map                  // distro name that is no id → matrix.Resolution[matrix.Distro]
	steps    sync.Map                  // stepKey → []Reason: a stack release's steps, judged once
	anys     sync.Map                  // anyKey → Reason: a stack's step for a plan naming no release
	// A verdict's parts memoized on what each depends on, so plans that
	// share those inputs share the work: the kernel a plan runs (a
	// distro's GA kernel, or a kernel named with or without a distro:
	// every adapter and stack on it), an adapter's first kernel from its
	// PCI ids' rows (every kernel and distro it is judged on), and an
	// adapter's firmware rules and conditions on a stack (every distro
	// and kernel).
	kernels   sync.Map // kernelKey → plannedKernel
	devices   sync.Map // deviceKey → deviceKernel
	rowKeys   sync.Map // viewOf → rowsKey
	rows      sync.Map // rowKey → chosenRow
	soft      sync.Map // softKey → *matrix.DistroRow
	tails     sync.Map // tailKey → []Reason
	softTails sync.Map // softTailKey → []Reason: a software stack's steps on a kernel
	heads     sync.Map // headKey → judgedHead
	softs     sync.Map // softHead → judgedHead: a software stack's head
	roce      sync.Map // viewOf → Reason: the adapter's RoCE step
	tagged    sync.Map // kernel release → *matrix.Distro its dist tag names (nil for none)
	uek       sync.Map // kernel release → uekLine

	// An inbox plan's verdict on a rebuild release with distro_support
	// rows of its own (ownRows, by id), which sharedKernel reads again for
	// each kernel its family's tag names: kept as a grid judges it.
	ownRows map[string]bool
	levels  sync.Map // Plan → judgedLevel

	peers func() map[string]string // the matrix's peers (Peers), found once
}

// judgedLevel is what sharedKernel reads of a verdict.
type judgedLevel struct{ verdict, likely Level }

// keepLevel keeps what sharedKernel reads of v, the verdict on plan p,
// when p is an inbox plan on a rebuild release with rows of its own.
func (e *Engine) keepLevel(p Plan, v *Verdict) {
	if e != nil && p.Kernel == "" && v.Stack == matrix.Inbox && e.ownRows[p.Distro] {
		e.levels.Store(p, judgedLevel{v.Verdict, v.Likely})
	}
}

// inboxLevel is the verdict and likely answer on p, an inbox plan on a
// rebuild release with rows of its own: kept when the engine judged it
// (keepLevel, with the plan as judge read it), else judged.
func (e *Engine) inboxLevel(m *matrix.Matrix, p Plan) judgedLevel {
	if e != nil {
		if x, ok := e.levels.Load(p.trimmed()); ok {
			return x.(judgedLevel)
		}
	}
	w := judge(m, e, p, nil)
	return judgedLevel{w.Verdict, w.Likely}
}

// kernelKey is what planKernel reads of a plan: the distro it resolved
// (nil for none), the kernel named ("" for the distro's GA kernel) and,
// for a kernel named, whether a distro was named too (a kernel named
// alone is said to name its release). The matrix it reads is the same in
// every view: its distros and sources.
type kernelKey struct {
	d      *matrix.Distro
	kernel string
	alone  bool
}

// plannedKernel is what planKernel gives: the kernel, what it set on the
// verdict, and the reasons it added.
type plannedKernel struct {
	k                          kernel
	kernel, kernelBase, distro string
	reasons                    []Reason
}

// deviceKey is what deviceKernelOf reads: the view whose pci_kernel rows
// it looks up, the adapter (its PCI ids and inbox kernel), its RDMA
// driver and the name the plan gave the adapter (a PCI id picks its rows).
type deviceKey struct {
	m     *matrix.Matrix
	a     *matrix.Adapter
	drv   *matrix.Driver
	named string
}

// viewOf is an adapter in the view Judge reads it with.
type viewOf struct {
	m *matrix.Matrix
	a *matrix.Adapter
}

// rowsKey is what DistroRow reads of an adapter's view besides the
// distro: the view's distro rows (a copy views holding the same rows
// share, named by its first row and length), the adapter's drivers, and
// its id when a row names it (a row naming adapters is read only by
// those). Adapters of one driver with no row of their own have one
// rowsKey, and share every distro's choice.
type rowsKey struct {
	first   *matrix.DistroRow
	n       int
	drivers string // adapterDrivers, sorted, each once and followed by a NUL
	named   string // the adapter's id when a row names it, else ""
}

// rowKey is what DistroRow reads: an adapter's rowsKey and the distro.
type rowKey struct {
	rowsKey
	d *matrix.Distro
}

// chosenRow is what DistroRow gives.
type chosenRow struct {
	row       *matrix.DistroRow
	byAdapter bool
}

// softKey is what softwareRow reads: the matrix's distro rows, the
// release and the software device's module.
type softKey struct {
	m      *matrix.Matrix
	d      *matrix.Distro
	module string
}

// headKey is what stackHead reads: the view (its stack_support rows),
// the adapter, the stack and the release named.
type headKey struct {
	m   *matrix.Matrix
	a   *matrix.Adapter
	ms  *matrix.Stack
	ver string
}

// softHead is what softwareHead reads: the matrix (its drivers and
// sources), the adapter (nil for none) and the software stack.
type softHead struct {
	m  *matrix.Matrix
	a  *matrix.Adapter
	ms *matrix.Stack
}

// judgedHead is what stackHead or softwareHead gives, and the reasons it
// added.
type judgedHead struct {
	rows    []*matrix.StackRow
	done    bool
	reasons []Reason
}

// softTailKey is what softwareTail reads: the matrix, the software
// stack, the kernel and its release, and of the adapter (none: the plan
// named the software device) what a distro_support row asks of one that
// no row names, its drivers (rowsKey).
type softTailKey struct {
	m       *matrix.Matrix
	ms      *matrix.Stack
	k       kernel
	release string
	adapter bool
	rows    rowsKey
}

// uekLine is what rule.UEKLine gives for a kernel release, and what
// judgeUEK says of the release whatever the adapter and stack (uekOf).
type uekLine struct {
	line  string
	ds    []*matrix.Distro
	names []string   // each release's name
	refs  []rule.Ref // each release's entry, cited
	head  string     // the words that lead the verdict's first reason
}

// tailKey is what judgeFirmware and conditions read: the adapter (its
// firmware_min rows, interrupts, constraints and known issues), the stack
// and release, and the firmware given.
type tailKey struct {
	a                   *matrix.Adapter
	ms                  *matrix.Stack
	stack, stackVer, fw string
}

// planKernel is planKernel, each kernel judged once: a distro's GA
// kernel, or a kernel named, with the distro named or alone.
func (e *Engine) planKernel(m *matrix.Matrix, v *Verdict, p Plan, distro *matrix.Distro) kernel {
	if e == nil || p.Kernel == "" && distro == nil {
		return planKernel(m, e, v, p, distro)
	}
	key := kernelKey{d: distro, kernel: p.Kernel, alone: p.Kernel != "" && p.Distro == ""}
	x, ok := e.kernels.Load(key)
	if !ok {
		// The reasons are recorded on a verdict of their own, to be
		// replayed on each plan (v's reasons so far are not planKernel's).
		w := Verdict{Verdict: Supported}
		k := planKernel(m, e, &w, p, distro)
		x, _ = e.kernels.LoadOrStore(key, plannedKernel{k: k, kernel: w.Kernel, kernelBase: w.KernelBase, distro: w.Distro, reasons: w.Reasons})
	}
	pk := x.(plannedKernel)
	v.Kernel, v.KernelBase = pk.kernel, pk.kernelBase
	if pk.distro != "" {
		v.Distro = pk.distro
	}
	replay(v, pk.reasons)
	return pk.k
}

// perAdapter is e for memoizing the steps of plan p that read its
// adapter and not its OS (its first kernel, its RoCE step, its head on a
// stack), or nil, no memo, when p names no distro and no kernel: the
// site's lists ask each adapter's stacks so, every adapter once, and a
// memo of those answers only held them (60 MB of live heap at 10k
// adapters). The grid's plans name one.
func (e *Engine) perAdapter(p Plan) *Engine {
	if p.Distro == "" && p.Kernel == "" {
		return nil
	}
	return e
}

// deviceKernel is deviceKernelOf, judged once per adapter (and view and
// name the plan gave it): every inbox plan of an adapter reads it.
func (e *Engine) deviceKernel(m *matrix.Matrix, a *matrix.Adapter, drv *matrix.Driver, named string) deviceKernel {
	if e == nil {
		return deviceKernelOf(m, a, drv, named)
	}
	key := deviceKey{m: m, a: a, drv: drv, named: named}
	x, ok := e.devices.Load(key)
	if !ok {
		dk := deviceKernelOf(m, a, drv, named)
		dk.Refs = slices.Clip(dk.Refs) // shared: a caller's append copies it
		x, _ = e.devices.LoadOrStore(key, dk)
	}
	return x.(deviceKernel)
}

// distroRow is DistroRow, chosen once per distro for the adapters whose
// views give it the same inputs (rowsKey).
func (e *Engine) distroRow(m *matrix.Matrix, a *matrix.Adapter, d *matrix.Distro) (*matrix.DistroRow, bool) {
	if e == nil {
		return DistroRow(m, a, d)
	}
	key := rowKey{rowsKey: e.rowsKeyOf(m, a), d: d}
	y, ok := e.rows.Load(key)
	if !ok {
		row, byAdapter := DistroRow(m, a, d)
		y, _ = e.rows.LoadOrStore(key, chosenRow{row: row, byAdapter: byAdapter})
	}
	c := y.(chosenRow)
	return c.row, c.byAdapter
}

// rowsKeyOf is adapter a's rowsKey in its view m, made once per view.
func (e *Engine) rowsKeyOf(m *matrix.Matrix, a *matrix.Adapter) rowsKey {
	vk := viewOf{m: m, a: a}
	x, ok := e.rowKeys.Load(vk)
	if !ok {
		rk := rowsKey{n: len(m.DistroRows)}
		if rk.n > 0 {
			rk.first = &m.DistroRows[0]
		}
		// DistroRow asks only whether a driver is among them.
		drivers := adapterDrivers(m, a)
		slices.Sort(drivers)
		var b strings.Builder
		for _, s := range slices.Compact(drivers) {
			b.WriteString(s)
			b.WriteByte(0)
		}
		rk.drivers = b.String()
		if slices.ContainsFunc(m.DistroRows, func(r matrix.DistroRow) bool { return slices.Contains(r.Adapters, a.ID) }) {
			rk.named = a.ID
		}
		x, _ = e.rowKeys.LoadOrStore(vk, rk)
	}
	return x.(rowsKey)
}

// softwareRow is softwareRow, chosen once per release and module.
func (e *Engine) softwareRow(m *matrix.Matrix, d *matrix.Distro, module string) *matrix.DistroRow {
	if e == nil {
		return softwareRow(m, d, module)
	}
	key := softKey{m: m, d: d, module: module}
	x, ok := e.soft.Load(key)
	if !ok {
		x, _ = e.soft.LoadOrStore(key, softwareRow(m, d, module))
	}
	return x.(*matrix.DistroRow)
}

// stackHead is stackHead, judged once per adapter, stack and release:
// every distro and kernel it is judged on reads it.
func (e *Engine) stackHead(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, ms *matrix.Stack, ver string) ([]*matrix.StackRow, bool) {
	if e == nil {
		return stackHead(m, v, a, ms, ver)
	}
	key := headKey{m: m, a: a, ms: ms, ver: ver}
	x, ok := e.heads.Load(key)
	if !ok {
		w := Verdict{Verdict: Supported}
		rows, done := stackHead(m, &w, a, ms, ver)
		x, _ = e.heads.LoadOrStore(key, judgedHead{rows: rows, done: done, reasons: w.Reasons})
	}
	h := x.(judgedHead)
	replay(v, h.reasons)
	return h.rows, h.done
}

// softwareHead is softwareHead, judged once per adapter and software
// stack: every distro and kernel it is judged on reads it.
func (e *Engine) softwareHead(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, ms *matrix.Stack) bool {
	if e == nil {
		return softwareHead(m, v, a, ms)
	}
	key := softHead{m: m, a: a, ms: ms}
	x, ok := e.softs.Load(key)
	if !ok {
		w := Verdict{Verdict: Supported}
		done := softwareHead(m, &w, a, ms)
		x, _ = e.softs.LoadOrStore(key, judgedHead{done: done, reasons: w.Reasons})
	}
	h := x.(judgedHead)
	replay(v, h.reasons)
	return h.done
}

// softwareTail is softwareTail, judged once per software stack, kernel
// and drivers (softTailKey): every adapter of a driver shares each
// kernel's and distro's. An adapter a row names is judged on its own (a
// row naming it reads its name, its RDMA driver, and the PCI id the plan
// named it by).
func (e *Engine) softwareTail(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, ms *matrix.Stack, k kernel) {
	if e == nil {
		softwareTail(m, e, v, a, ms, k)
		return
	}
	key := softTailKey{m: m, ms: ms, k: k, release: v.Kernel, adapter: a != nil}
	if a != nil {
		if key.rows = e.rowsKeyOf(e.view(m, a), a); key.rows.named != "" {
			softwareTail(m, e, v, a, ms, k)
			return
		}
	}
	x, ok := e.softTails.Load(key)
	if !ok {
		w := Verdict{Verdict: Supported, Kernel: v.Kernel}
		softwareTail(m, e, &w, a, ms, k)
		x, _ = e.softTails.LoadOrStore(key, w.Reasons)
	}
	replay(v, x.([]Reason))
}

// roceStep is the step that the adapter does RoCE (or is not a RoCE
// adapter), cited, made once per adapter (and view).
func (e *Engine) roceStep(m *matrix.Matrix, a *matrix.Adapter) Reason {
	if e == nil {
		return roceStep(m, a)
	}
	key := viewOf{m: m, a: a}
	x, ok := e.roce.Load(key)
	if !ok {
		// Kept as add takes it: an unconfirmed adapter's words are
		// made once, not on each plan.
		x, _ = e.roce.LoadOrStore(key, unconfirmed(roceStep(m, a)))
	}
	return x.(Reason)
}

// uekLine is uekOf, each kernel release read once.
func (e *Engine) uekLine(m *matrix.Matrix, release string) uekLine {
	if e == nil {
		return uekOf(m, release)
	}
	x, ok := e.uek.Load(release)
	if !ok {
		x, _ = e.uek.LoadOrStore(release, uekOf(e.m, release)) // the engine's matrix: its distros are every view's
	}
	return x.(uekLine)
}

// kernelDistro is rule.KernelDistro, each kernel release looked up once.
func (e *Engine) kernelDistro(m *matrix.Matrix, release string) *matrix.Distro {
	if e == nil {
		return rule.KernelDistro(m, release)
	}
	x, ok := e.tagged.Load(release)
	if !ok {
		x, _ = e.tagged.LoadOrStore(release, rule.KernelDistro(e.m, release))
	}
	return x.(*matrix.Distro)
}

// tail is judgeFirmware then conditions, judged once per tailKey.
func (e *Engine) tail(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, ms *matrix.Stack, stack, stackVer, fw string) {
	if e == nil {
		judgeFirmware(m, v, a, ms, stack, stackVer, fw)
		conditions(m, v, a, stack)
		return
	}
	key := tailKey{a: a, ms: ms, stack: stack, stackVer: stackVer, fw: fw}
	if x, ok := e.tails.Load(key); ok {
		replay(v, x.([]Reason))
		return
	}
	w := Verdict{Verdict: Supported}
	judgeFirmware(m, &w, a, ms, stack, stackVer, fw)
	conditions(m, &w, a, stack)
	e.tails.Store(key, w.Reasons)
	replay(v, w.Reasons)
}

// replay adds reasons recorded from add and note to v as they were added
// (add's checks already applied; applying them again changes nothing).
func replay(v *Verdict, rs []Reason) {
	for _, r := range rs {
		r.Matrix = slices.Clip(r.Matrix)
		if r.Informs {
			v.Reasons = append(v.Reasons, r)
			continue
		}
		v.add(r)
	}
}

type resolvedStack struct {
	id  string
	res matrix.Resolution[matrix.Stack]
}

// NewEngine indexes m for judging.
func NewEngine(m *matrix.Matrix) *Engine {
	if m == nil {
		m = &matrix.Matrix{}
	}
	e := &Engine{m: m, adapters: map[string]*matrix.Adapter{}, distros: map[string]*matrix.Distro{}, views: map[string]*matrix.Matrix{}, ownRows: map[string]bool{}, peers: sync.OnceValue(m.Peers)}
	for i := range m.Distros {
		d := &m.Distros[i]
		if _, ok := e.distros[d.ID]; !ok {
			e.distros[d.ID] = d
		}
		if d.Rebuild != "" && hasOwnRows(m, d) {
			e.ownRows[d.ID] = true
		}
	}
	// The names a grid's plans give their stacks, resolved once: every
	// plan resolves its stack twice (softwareStack, judgeSteps).
	e.stackIDs = map[string]resolvedStack{}
	resolve := func(name string) {
		id, res := m.ResolveStack(name)
		e.stackIDs[name] = resolvedStack{id: id, res: res}
	}
	resolve(matrix.Inbox)
	for i := range m.Stacks {
		resolve(m.Stacks[i].ID)
	}
	// A view keeps the whole matrix but for the firmware_min, pci_kernel,
	// distro_support and stack_support rows: only those Judge would not
	// skip for the adapter (rows naming it, its PCI ids or its drivers),
	// in file order, so every scan finds what it found in the whole.
	byPCI := map[string][]*matrix.Matrix{}
	byDriver := map[string][]*matrix.Matrix{}
	for i := range m.Adapters {
		a := &m.Adapters[i]
		if _, ok := e.adapters[a.ID]; ok {
			continue
		}
		e.adapters[a.ID] = a
		v := *m
		v.Firmware, v.PCIKernels, v.DistroRows, v.StackRows = nil, nil, nil, nil
		e.views[a.ID] = &v
		seen := map[string]bool{}
		for _, p := range a.PCI {
			if !seen[p.ID] {
				seen[p.ID] = true
				byPCI[p.ID] = append(byPCI[p.ID], &v)
			}
		}
		seen = map[string]bool{}
		for _, d := range adapterDrivers(m, a) {
			if !seen[d] {
				seen[d] = true
				byDriver[d] = append(byDriver[d], &v)
			}
		}
	}
	for _, f := range m.Firmware {
		if v := e.views[f.Adapter]; v != nil {
			v.Firmware = append(v.Firmware, f)
		}
	}
	for _, k := range m.PCIKernels {
		for _, v := range byPCI[k.PCI] {
			v.PCIKernels = append(v.PCIKernels, k)
		}
	}
	// A driver's distro rows are in the view of every adapter it drives:
	// views whose rows are the same ones share one copy of them (at
	// 2,000 adapters of a few drivers, 36 MB copied each its own).
	rv := &rowViews{views: e.views, byDriver: byDriver, taken: map[*matrix.Matrix]int{}}
	rows := map[*matrix.Matrix][]int32{}
	for i, r := range m.DistroRows {
		for _, v := range rv.of(r.Adapters, r.Drivers) {
			rows[v] = append(rows[v], int32(i))
		}
	}
	shared := map[string][]matrix.DistroRow{}
	for v, is := range rows {
		key := make([]byte, 0, 4*len(is))
		for _, i := range is {
			key = binary.LittleEndian.AppendUint32(key, uint32(i))
		}
		rs, ok := shared[string(key)]
		if !ok {
			rs = make([]matrix.DistroRow, len(is))
			for k, i := range is {
				rs[k] = m.DistroRows[i]
			}
			shared[string(key)] = rs
		}
		v.DistroRows = rs
	}
	for _, r := range m.StackRows {
		for _, v := range rv.of(r.Adapters, nil) {
			v.StackRows = append(v.StackRows, r)
		}
	}
	return e
}

// rowViews finds the views a row naming adapters and drivers belongs in.
type rowViews struct {
	views    map[string]*matrix.Matrix   // by adapter id
	byDriver map[string][]*matrix.Matrix // the views of each driver's adapters
	// taken is the last row (numbered from 1) each view was given to,
	// row this row's number: a driver row's thousands of views are each
	// given once without comparing each with those given before it.
	taken map[*matrix.Matrix]int
	row   int
}

// of is the views a row naming adapters and drivers belongs in, each once.
func (rv *rowViews) of(adapters, drivers []string) []*matrix.Matrix {
	rv.row++
	var out []*matrix.Matrix
	add := func(v *matrix.Matrix) {
		if v != nil && rv.taken[v] != rv.row {
			rv.taken[v] = rv.row
			out = append(out, v)
		}
	}
	for _, id := range adapters {
		add(rv.views[id])
	}
	for _, d := range drivers {
		for _, v := range rv.byDriver[d] {
			add(v)
		}
	}
	return out
}

// Forget lets go of what the engine memoized (each kernel a plan runs,
// each adapter's first kernel, its firmware rules and conditions on a
// stack, each stack release's steps, the kernels' dist tags and UEK
// lines): a build that has judged its grid does not hold them while it
// writes the rest. Safe while Judge runs; a plan judged after it is
// judged anew, to the same verdict.
func (e *Engine) Forget() {
	e.kernels.Clear()
	e.devices.Clear()
	e.rowKeys.Clear()
	e.rows.Clear()
	e.soft.Clear()
	e.tails.Clear()
	e.softTails.Clear()
	e.levels.Clear()
	e.heads.Clear()
	e.softs.Clear()
	e.roce.Clear()
	e.steps.Clear()
	e.anys.Clear()
	e.tagged.Clear()
	e.uek.Clear()
}

// ForgetNoRelease lets go of a stack's steps judged for plans that name
// no release of it, which only the plans of one adapter share (some
// 13,000 steps, 10 MB, for a 10k build's grid): for a caller that has
// judged every adapter's plans on its distros and kernels. A plan judged
// after it is judged anew, to the same verdict.
func (e *Engine) ForgetNoRelease() { e.anys.Clear() }

// Peers is the engine's matrix's Peers, found once for every caller (the
// grid lint and the site each group their adapters by it): to be read,
// not changed.
func (e *Engine) Peers() map[string]string { return e.peers() }

// Judge is Judge(m, p) for the engine's matrix. The verdict's Reasons
// and Nearest are its own, to change at will; a reason's Matrix entries
// may be another verdict's too, to be read only.
func (e *Engine) Judge(p Plan) Verdict { return judge(e.m, e, p, nil) }

// JudgeInto is Judge, the verdict's reasons written into rs's array
// (from rs[:0]) while it has room: a caller that is done with each
// verdict before it asks for the next lends the one slice to them all,
// as the verdict's Reasons, grown or not, may be lent to the next.
func (e *Engine) JudgeInto(p Plan, rs []Reason) Verdict { return judge(e.m, e, p, rs[:0]) }

// adapter is m.Adapter.
func (e *Engine) adapter(m *matrix.Matrix, id string) *matrix.Adapter {
	if e == nil {
		return m.Adapter(id)
	}
	return e.adapters[id]
}

// view is the matrix Judge reads for adapter a once it is resolved.
func (e *Engine) view(m *matrix.Matrix, a *matrix.Adapter) *matrix.Matrix {
	if e == nil || e.adapters[a.ID] != a {
		return m
	}
	return e.views[a.ID]
}

// distro is findDistro, a name resolved once: a fleet's readiness plan
// names its distro as kb.toml spells it, for every host and adapter.
func (e *Engine) distro(m *matrix.Matrix, s string) matrix.Resolution[matrix.Distro] {
	if e == nil {
		return findDistro(m, s)
	}
	if d := e.distros[s]; d != nil {
		return matrix.Resolution[matrix.Distro]{Value: d, How: "id"}
	}
	if r, ok := e.named.Load(s); ok {
		return r.(matrix.Resolution[matrix.Distro])
	}
	r := findDistro(e.m, s) // the engine's matrix, as e.distros is
	e.named.Store(s, r)
	return r
}

// resolveStack is m.ResolveStack, remembered by name.
func (e *Engine) resolveStack(m *matrix.Matrix, name string) (string, matrix.Resolution[matrix.Stack]) {
	if e == nil {
		return m.ResolveStack(name)
	}
	if rs, ok := e.stackIDs[name]; ok {
		return rs.id, rs.res
	}
	if r, ok := e.stacks.Load(name); ok {
		rs := r.(resolvedStack)
		return rs.id, rs.res
	}
	id, res := m.ResolveStack(name)
	e.stacks.Store(name, resolvedStack{id: id, res: res})
	return id, res
}
