package verdict

import (
	"sync"

	"github.com/rocekb/rocekb/internal/matrix"
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
	stacks   sync.Map                  // stack name → resolvedStack
	steps    sync.Map                  // stepKey → []Reason: a stack release's steps, judged once
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
	e := &Engine{m: m, adapters: map[string]*matrix.Adapter{}, distros: map[string]*matrix.Distro{}, views: map[string]*matrix.Matrix{}}
	for i := range m.Distros {
		if _, ok := e.distros[m.Distros[i].ID]; !ok {
			e.distros[m.Distros[i].ID] = &m.Distros[i]
		}
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
	for _, r := range m.DistroRows {
		for _, v := range rowViews(e.views, byDriver, r.Adapters, r.Drivers) {
			v.DistroRows = append(v.DistroRows, r)
		}
	}
	for _, r := range m.StackRows {
		for _, v := range rowViews(e.views, nil, r.Adapters, nil) {
			v.StackRows = append(v.StackRows, r)
		}
	}
	return e
}

// rowViews are the views a row naming adapters and drivers belongs in, each once.
func rowViews(views map[string]*matrix.Matrix, byDriver map[string][]*matrix.Matrix, adapters, drivers []string) []*matrix.Matrix {
	var out []*matrix.Matrix
	add := func(v *matrix.Matrix) {
		for _, o := range out {
			if o == v {
				return
			}
		}
		out = append(out, v)
	}
	for _, id := range adapters {
		if v := views[id]; v != nil {
			add(v)
		}
	}
	for _, d := range drivers {
		for _, v := range byDriver[d] {
			add(v)
		}
	}
	return out
}

// Judge is Judge(m, p) for the engine's matrix.
func (e *Engine) Judge(p Plan) Verdict { return judge(e.m, e, p) }

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

// distro is findDistro.
func (e *Engine) distro(m *matrix.Matrix, s string) *matrix.Distro {
	if e != nil {
		if d := e.distros[s]; d != nil {
			return d
		}
	}
	return findDistro(m, s)
}

// resolveStack is m.ResolveStack, remembered by name.
func (e *Engine) resolveStack(m *matrix.Matrix, name string) (string, matrix.Resolution[matrix.Stack]) {
	if e == nil {
		return m.ResolveStack(name)
	}
	if r, ok := e.stacks.Load(name); ok {
		rs := r.(resolvedStack)
		return rs.id, rs.res
	}
	id, res := m.ResolveStack(name)
	e.stacks.Store(name, resolvedStack{id: id, res: res})
	return id, res
}
