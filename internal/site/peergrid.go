package site

import (
	"slices"
	"strings"
	"sync"

	"github.com/rocekb/rocekb/internal/matrix"
)

// A peer group's grids (verdicts.judgeAll: a first and the peers whose
// tables are its own renamed) are laid out once, from the first's table,
// and each member's is that grid with its own words put in the reasons,
// matrix entries and nearest changes that hold a word of the first's
// identity. The grid's layout rests on which of the things it compares
// are equal (reason numbers, matrix entries, reasons without their
// nearest change, nearest changes): a member's grid is derived only when
// its table, read beside the first's, gives each of those a value of its
// own, one for one (a shared reason holding no word of the first's
// identity, and its values, their very own); and when a reason naming the
// first is written for its row's distro or as a row's kernel in neither
// table. Otherwise its grid is made from its table, as any adapter's.
// TestPeersJudgedAsThemselves (peerGridIsGridOf) holds the two ways to
// the same grid.

// gridAtom is a value a grid compares: kind 'r' a reason by its number
// in the table, 'f' a matrix entry by its number (verdicts.refs), 's' a
// reason's shown key (tmplKey without its nearest change), 'n' a nearest
// change.
type gridAtom struct {
	kind byte
	n    int
	s    string
}

// peerGrid is a peer group's grid, made once from its first's table.
type peerGrid struct {
	once  sync.Once
	first *Grid            // never handed out: each member gets a copy
	t     *AdapterVerdicts // the first's table
	cols  []int            // gridCols of first.Stacks
	// atoms are the values the first's grid compares, each true when it
	// is fixed: a shared reason (verdicts.shared, the same in every table)
	// or a value of one, holding no word of the first's identity; a
	// member's must be the same.
	atoms map[gridAtom]bool
	rows  map[int][]int  // a reason naming the first → the rows whose cells give it
	shown map[int]string // a reason naming the first → its shown key
	// changed are the reasons naming the first, and near the cells'
	// nearest changes that do, each once: what a member whose table
	// shares the first's cells pairs with itself.
	changed []int
	near    []string
	bad     bool // no member's grid is derived
	left    int  // members whose grid is yet to be asked for
}

// peerGrid is adapter's grid derived from its peer group's (see above),
// nil when it is in no group with peers or the check fails.
func (v *verdicts) peerGrid(m *matrix.Matrix, adapter string, stacks []Target) *Grid {
	v.all()
	pg := v.groupOf(adapter)
	if pg == nil {
		return nil
	}
	defer v.leave(adapter)
	pg.once.Do(func() { v.layPeerGrid(pg, m, v.firstOf(adapter)) })
	return v.groupGrid(pg, v.table(adapter), stacks)
}

// groupGrid is the grid of table t, with the columns stacks, derived from
// pg's; nil when the check fails.
func (v *verdicts) groupGrid(pg *peerGrid, t *AdapterVerdicts, stacks []Target) *Grid {
	if pg.bad {
		return nil
	}
	img, ok := v.peerAtoms(pg, t, stacks)
	if !ok {
		return nil
	}
	return v.derive(pg, t, img)
}

// groupOf is adapter's group's peerGrid, made on the first ask of one of
// its members; nil when adapter is in no group with peers.
func (v *verdicts) groupOf(adapter string) *peerGrid {
	v.peerMu.Lock()
	defer v.peerMu.Unlock()
	if v.groupSize == nil {
		v.groupSize = map[string]int{}
		for _, f := range v.renamedFrom {
			v.groupSize[f]++
		}
	}
	first := v.firstOf(adapter)
	n := v.groupSize[first]
	if n == 0 {
		return nil
	}
	if v.peerGrids == nil {
		v.peerGrids = map[string]*peerGrid{}
	}
	pg := v.peerGrids[first]
	if pg == nil {
		pg = &peerGrid{left: n + 1}
		v.peerGrids[first] = pg
	}
	return pg
}

// firstOf is the first of adapter's peer group: the adapter whose
// tables a renamed peer's are (renamedFrom), or adapter itself.
func (v *verdicts) firstOf(adapter string) string {
	if f, ok := v.renamedFrom[adapter]; ok {
		return f
	}
	return adapter
}

// leave lets go of adapter's group's grid once each member asked for its
// own (a member asking again lays it out anew).
func (v *verdicts) leave(adapter string) {
	first := v.firstOf(adapter)
	v.peerMu.Lock()
	defer v.peerMu.Unlock()
	if pg := v.peerGrids[first]; pg != nil {
		if pg.left--; pg.left <= 0 {
			delete(v.peerGrids, first)
		}
	}
}

// layPeerGrid makes the first's grid and lists the values it compares.
func (v *verdicts) layPeerGrid(pg *peerGrid, m *matrix.Matrix, first string) {
	pg.t = v.table(first)
	pg.first = v.gridOf(pg.t, adapterStacks(m, v.stacks, m.Adapter(first)))
	pg.cols = v.gridCols(pg.first.Stacks)
	words := m.Identity(first)
	holds := func(s string) bool {
		return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(s, w) })
	}
	pg.atoms = map[gridAtom]bool{}
	pg.rows, pg.shown = map[int][]int{}, map[int]string{}
	fixedR := map[int]bool{}
	var changed []int
	for i, d := range v.distros {
		row := v.row(pg.t, d.Key)
		if row == nil {
			continue
		}
		for _, k := range pg.cols {
			if k < 0 {
				continue
			}
			c := row[k]
			for _, r := range c.Reasons {
				fixed, seen := fixedR[r]
				if !seen {
					x := v.raw(pg.t, r)
					// A reason of the table's own (not shared) is read from
					// each member's table, whatever it holds.
					fixed = r < len(v.shared) && !holds(x.Text) && !holds(x.Nearest) && !slices.ContainsFunc(x.Refs, func(n int) bool { return holds(v.refs[n].Entry) })
					fixedR[r] = fixed
					if !fixed {
						changed = append(changed, r)
					}
				}
				if rs := pg.rows[r]; !fixed && (len(rs) == 0 || rs[len(rs)-1] != i) {
					pg.rows[r] = append(rs, i)
				}
			}
			for _, s := range c.Nearest {
				a := gridAtom{kind: 'n', s: s}
				if holds(s) && !slices.Contains(pg.near, s) {
					pg.near = append(pg.near, s)
				}
				pg.atoms[a] = pg.atoms[a] || !holds(s)
			}
		}
	}
	// A reason's values: those of a reason holding none of the words are
	// fixed, whatever reason naming the first shares them.
	add := func(r int, fixed bool) {
		x := v.raw(pg.t, r)
		key := v.shownKey(r, x)
		for _, a := range []gridAtom{{kind: 'r', n: r}, {kind: 's', s: key}, {kind: 'n', s: x.Nearest}} {
			pg.atoms[a] = pg.atoms[a] || fixed
		}
		for _, n := range x.Refs {
			a := gridAtom{kind: 'f', n: n}
			pg.atoms[a] = pg.atoms[a] || fixed
		}
		if !fixed {
			pg.shown[r] = key
		}
	}
	for r, fixed := range fixedR {
		add(r, fixed)
	}
	pg.changed = changed
	for _, r := range changed {
		x := v.raw(pg.t, r)
		if v.kernelLike(x) || v.namesRow(x, pg.rows[r]) {
			pg.bad = true
		}
	}
}

// shownKey is reason r's (x) tmplKey without its nearest change.
func (v *verdicts) shownKey(r int, x *XReason) string {
	if r < len(v.shared) {
		return v.sharedTmpls().shown[r]
	}
	return tmplKey(x, x.Text, "")
}

// kernelLike reports whether x could be a row's kernel (kernelNote): a
// note resting on one distro entry.
func (v *verdicts) kernelLike(x *XReason) bool {
	return x.Informs && len(x.Refs) == 1 && strings.HasPrefix(v.refs[x.Refs[0]].Entry, "distro ")
}

// namesRow reports whether x names the distro of one of rows (rowTemplate).
func (v *verdicts) namesRow(x *XReason, rows []int) bool {
	for _, i := range rows {
		if l := v.distros[i].Label; l != "" && strings.Contains(x.Text, l) {
			return true
		}
	}
	return false
}

// peerAtoms reads table t beside the first's, cell by cell of the grid,
// and gives each value the first's grid compares t's, when each has one
// of its own (see above).
func (v *verdicts) peerAtoms(pg *peerGrid, t *AdapterVerdicts, stacks []Target) (map[gridAtom]gridAtom, bool) {
	if !slices.EqualFunc(stacks, pg.first.Stacks, func(a, b Target) bool { return a.Key == b.Key && a.Label == b.Label }) {
		return nil, false
	}
	img, pre := map[gridAtom]gridAtom{}, map[gridAtom]gridAtom{}
	pair := func(a, b gridAtom) bool {
		fixed, ok := pg.atoms[a]
		switch {
		case !ok:
			return false
		case fixed:
			return a == b
		}
		if p, ok := img[a]; ok {
			return p == b
		}
		if q, ok := pre[b]; ok && q != a {
			return false
		}
		if pg.atoms[b] { // another value the first's grid holds
			return false
		}
		img[a], pre[b] = b, a
		return true
	}
	var changed [][2]int // reasons naming the first, with t's
	// A table of the first's very cells (a renamed peer's numbered alike)
	// pairs each of their values with itself: they are paired once each,
	// not read cell by cell.
	same := len(t.Cells) > 0 && &t.Cells[0] == &pg.t.Cells[0]
	if same {
		for _, r := range pg.changed {
			if !pair(gridAtom{kind: 'r', n: r}, gridAtom{kind: 'r', n: r}) {
				return nil, false
			}
			changed = append(changed, [2]int{r, r})
		}
		for _, s := range pg.near {
			if !pair(gridAtom{kind: 'n', s: s}, gridAtom{kind: 'n', s: s}) {
				return nil, false
			}
		}
	}
	for _, d := range v.distros {
		if same {
			break
		}
		rf, rt := v.row(pg.t, d.Key), v.row(t, d.Key)
		if (rf == nil) != (rt == nil) {
			return nil, false
		}
		if rf == nil {
			continue
		}
		for _, k := range pg.cols {
			if k < 0 {
				continue
			}
			a, b := rf[k], rt[k]
			if a.Level != b.Level || len(a.Reasons) != len(b.Reasons) || (a.Nearest == nil) != (b.Nearest == nil) || len(a.Nearest) != len(b.Nearest) {
				return nil, false
			}
			for i, r := range a.Reasons {
				ra, rb := gridAtom{kind: 'r', n: r}, gridAtom{kind: 'r', n: b.Reasons[i]}
				if _, done := img[ra]; !done && !pg.atoms[ra] {
					changed = append(changed, [2]int{r, b.Reasons[i]})
				}
				if !pair(ra, rb) {
					return nil, false
				}
			}
			for i, s := range a.Nearest {
				if !pair(gridAtom{kind: 'n', s: s}, gridAtom{kind: 'n', s: b.Nearest[i]}) {
					return nil, false
				}
			}
		}
	}
	for _, c := range changed {
		x, y := v.raw(pg.t, c[0]), v.raw(t, c[1])
		if x.Level != y.Level || x.Likely != y.Likely || x.Informs != y.Informs || x.Firmware != y.Firmware || len(x.Refs) != len(y.Refs) ||
			!pair(gridAtom{kind: 's', s: pg.shown[c[0]]}, gridAtom{kind: 's', s: v.shownKey(c[1], y)}) ||
			!pair(gridAtom{kind: 'n', s: x.Nearest}, gridAtom{kind: 'n', s: y.Nearest}) ||
			v.kernelLike(y) || v.namesRow(y, pg.rows[c[0]]) {
			return nil, false
		}
		for i, n := range x.Refs {
			if !pair(gridAtom{kind: 'f', n: n}, gridAtom{kind: 'f', n: y.Refs[i]}) {
				return nil, false
			}
		}
	}
	return img, true
}

// derive is the first's grid with t's values for those img gives: a
// member's own copy, but for its rows and columns, which read no reason's
// words.
func (v *verdicts) derive(pg *peerGrid, t *AdapterVerdicts, img map[gridAtom]gridAtom) *Grid {
	g := *pg.first
	ref := func(r *GridRef) {
		if b, ok := img[gridAtom{kind: 'f', n: r.src}]; ok {
			x := v.refs[b.n]
			r.Entry, r.Confidence, r.Sources, r.src = x.Entry, x.Confidence, x.Sources, b.n
		}
	}
	reasons := func(rs []GridReason) []GridReason {
		rs = slices.Clone(rs)
		for i := range rs {
			gr := &rs[i]
			gr.Own = slices.Clone(gr.Own)
			for k := range gr.Own {
				ref(&gr.Own[k])
			}
			if b, ok := img[gridAtom{kind: 'r', n: gr.src}]; ok {
				x := v.raw(t, b.n)
				gr.text, gr.src, gr.HTML = x.Text, b.n, v.reasonHTML(b.n, x.Text)
			}
		}
		return rs
	}
	g.Common, g.Reasons = reasons(g.Common), reasons(g.Reasons)
	g.Refs = slices.Clone(g.Refs)
	for i := range g.Refs {
		ref(&g.Refs[i])
	}
	g.Whys = slices.Clone(g.Whys)
	for i := range g.Whys {
		w := &g.Whys[i]
		w.Own = reasons(w.Own)
		cloned := false // the first's nearest changes may be its table's
		for k, s := range w.Nearest {
			if b, ok := img[gridAtom{kind: 'n', s: s}]; ok && b.s != s {
				if !cloned {
					w.Nearest, cloned = slices.Clone(w.Nearest), true
				}
				w.Nearest[k] = b.s
			}
		}
	}
	return &g
}
