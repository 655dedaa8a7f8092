package verdict

import (
	"fmt"
	"hash/maphash"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/rule"
	"github.com/rocekb/rocekb/internal/version"
)

// judgeStack judges a vendor stack: its [[stack_support]] rows that
// exclude the adapter from every release, the vendor, and then each step
// a release must pass: it covers the adapter (its own adapter list, else a
// sourced first..last range, never a range with an open first bound), it
// has not dropped it (support_end), and it lists the OS (its own OS list).
// A named release the matrix lacks is unknown, never judged from its
// neighbours; without a version, every release the matrix holds is judged
// and the plan needs one that passes.
func judgeStack(m *matrix.Matrix, e *Engine, v *Verdict, a *matrix.Adapter, ms *matrix.Stack, ver string, d *matrix.Distro, k kernel) {
	rows, done := e.perAdapter(v.Plan).stackHead(m, v, a, ms, ver)
	if done {
		return
	}
	if d == nil {
		d = k.Distro
	}
	s := stackSteps{m: m, a: a, ms: ms, rows: rows, d: d, kernel: v.Kernel}
	if e != nil {
		s.cache = &e.steps
		if e.perAdapter(v.Plan) != nil {
			s.anys = &e.anys
		}
	}
	if ver != "" {
		for _, r := range s.release(ver) {
			if r.Text != "" {
				v.add(r)
			}
		}
		return
	}
	s.any(v)
}

// stackHead is judgeStack's steps before the releases, which read the
// adapter, the stack and the release named but not the OS: the
// stack_support rows that exclude the adapter from every release, the
// vendor, a release numbered past the matrix's. It returns the adapter's
// stack_support rows, and whether those steps decided the verdict.
func stackHead(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, ms *matrix.Stack, ver string) (rows []*matrix.StackRow, done bool) {
	rows = StackRows(m, ms.ID, a.ID)
	for _, r := range rows {
		if r.Status == matrix.StatusUnsupported {
			ref := rule.Cite(m, "stack_support "+ms.ID+" "+a.ID, r.Claim, rule.OrDash(r.Text))
			v.add(Reason{Verdict: Unsupported, Text: fmt.Sprintf("no %s release supports %s: %s", ms.Name, a.Name, r.Text), Nearest: otherStacks(m, a, ms.ID), Matrix: []rule.Ref{ref}})
			return rows, true
		}
	}
	if len(rows) == 0 && !slices.Contains(a.Stacks, ms.ID) && !listedByRelease(ms, a.ID) {
		if ms.Vendor != "" && a.Vendor != "" && ms.Vendor != a.Vendor {
			v.add(Reason{Verdict: Unsupported, Text: fmt.Sprintf("%s is %s's stack and %s is a %s adapter; the matrix lists no %s release for it", ms.Name, ms.Vendor, a.Name, a.Vendor, ms.Name), Nearest: otherStacks(m, a, ms.ID),
				Matrix: []rule.Ref{rule.Cite(m, "stack "+ms.ID, ms.Claim, ms.Name+" is "+ms.Vendor+"'s stack"), rule.Cite(m, "adapter "+a.ID, a.Claim, a.Name+" is made by "+a.Vendor)}})
			return rows, true
		}
		if !anyList(ms) {
			v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("the matrix does not list %s for %s; a stack_support row or a release's adapter list from its release notes would decide it", ms.Name, a.Name)})
			return rows, true
		}
	}
	if ver != "" {
		if newest, beyond := beyondNumbering(ms, ver); beyond {
			// A hint only where some source ties the stack to the adapter
			// and no range or end of support makes the release matter.
			var likely Level
			if (len(rows) > 0 || slices.Contains(a.Stacks, ms.ID) || listedByRelease(ms, a.ID)) && !releaseBound(a, ms, rows) {
				likely = Supported
			}
			v.add(Reason{Verdict: Undecided, Likely: likely, Text: fmt.Sprintf("%s %s is numbered past every %s release the matrix holds (the newest: %s), so no release list, range or end of support is compared with it: it is a later line the matrix lacks, or another numbering, such as a driver package's own version; the %s release it is, named as the matrix numbers them, would decide it", ms.Name, ver, ms.Name, newest.Version, ms.Name)})
			return rows, true
		}
	}
	return rows, false
}

// beyondNumbering reports whether stack release number ver lies past
// every line of the stack's releases the matrix holds: its leading number
// is above the newest release's. Such a number is a later line or another
// numbering altogether, and comparing it with the matrix's bounds says
// nothing: DOCA-OFED's releases are DOCA's (2.9.1, 3.0.0), while its
// driver packages and ofed_info print their own YY.MM versions
// (24.10-1.1.4.0), which would sort after every DOCA release. newest is
// the newest release the matrix holds (nil when none compares).
func beyondNumbering(ms *matrix.Stack, ver string) (newest *matrix.StackRelease, beyond bool) {
	ro := releaseOrderOf(ms)
	for i := len(ro.rels) - 1; i >= 0 && newest == nil; i-- {
		if _, ok := ro.rank[ro.rels[i]]; ok {
			newest = ro.rels[i]
		}
	}
	if newest == nil {
		return nil, false
	}
	major, ok := leadingNumber(newest.Version)
	if !ok {
		return newest, false
	}
	c, ok := rule.Compare(ver, strconv.Itoa(major+1))
	return newest, ok && c >= 0
}

// releaseBound reports whether the matrix bounds the releases of ms that
// support a: a stack_support row with a first or last release, or an end
// of support on ms.
func releaseBound(a *matrix.Adapter, ms *matrix.Stack, rows []*matrix.StackRow) bool {
	return slices.ContainsFunc(rows, func(r *matrix.StackRow) bool { return r.First != "" || r.Last != "" }) ||
		slices.ContainsFunc(a.SupportEnd, func(se matrix.SupportEnd) bool { return se.Stack == ms.ID })
}

// leadingNumber is the first number of a version (24 of 24.10-1.1.4.0),
// after any product prefix (MLNX_OFED_LINUX-).
func leadingNumber(s string) (int, bool) {
	s = strings.TrimLeftFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	end := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(s)
	}
	n, err := strconv.Atoi(s[:end])
	return n, err == nil
}

// releaseOrder is a stack's releases sorted by version (unparsable ones
// last, in file order), cached per stack: the grid asks for it millions
// of times.
type releaseOrder struct {
	first *matrix.StackRelease // &Releases[0], to notice a changed stack
	n     int
	rels  []*matrix.StackRelease
	rank  map[*matrix.StackRelease]int // index in rels of each release whose version compares
}

var orders sync.Map // *matrix.Stack → releaseOrder

func sortedReleases(ms *matrix.Stack) []*matrix.StackRelease {
	return releaseOrderOf(ms).rels
}

func releaseOrderOf(ms *matrix.Stack) releaseOrder {
	if len(ms.Releases) == 0 {
		return releaseOrder{}
	}
	if o, ok := orders.Load(ms); ok {
		ro := o.(releaseOrder)
		if ro.first == &ms.Releases[0] && ro.n == len(ms.Releases) {
			return ro
		}
	}
	rels := make([]*matrix.StackRelease, len(ms.Releases))
	for i := range ms.Releases {
		rels[i] = &ms.Releases[i]
	}
	sort.SliceStable(rels, func(i, j int) bool { return later(rels[j].Version, rels[i].Version) })
	ro := releaseOrder{first: &ms.Releases[0], n: len(ms.Releases), rels: rels, rank: map[*matrix.StackRelease]int{}}
	for i, r := range rels {
		if _, ok := rule.Compare(r.Version, r.Version); ok {
			ro.rank[r] = i
		}
	}
	orders.Store(ms, ro)
	return ro
}

// AdapterStacks are the stacks the matrix relates to an adapter, inbox
// first, then in the matrix's stack order: those its entry names, those of
// its support_end entries and stack_support rows, and those with a release
// whose adapter list names it. Every view's grid shows these columns.
func AdapterStacks(m *matrix.Matrix, a *matrix.Adapter) []string {
	rel := map[string]bool{}
	for _, s := range a.Stacks {
		rel[s] = true
	}
	for _, e := range a.SupportEnd {
		rel[e.Stack] = true
	}
	for _, r := range m.StackRows {
		if slices.Contains(r.Adapters, a.ID) {
			rel[r.Stack] = true
		}
	}
	out := []string{matrix.Inbox}
	for i := range m.Stacks {
		st := &m.Stacks[i]
		if st.ID != matrix.Inbox && (rel[st.ID] || listedByRelease(st, a.ID)) {
			out = append(out, st.ID)
		}
	}
	return out
}

// anyList reports whether a release of the stack has its adapter list.
func anyList(ms *matrix.Stack) bool {
	for _, r := range ms.Releases {
		if len(r.Adapters) > 0 {
			return true
		}
	}
	return false
}

// listedByRelease reports whether a release of the stack lists the adapter.
func listedByRelease(ms *matrix.Stack, adapter string) bool {
	for _, r := range ms.Releases {
		if slices.Contains(r.Adapters, adapter) {
			return true
		}
	}
	return false
}

// StackRows returns the [[stack_support]] rows for a stack and an adapter.
func StackRows(m *matrix.Matrix, stack, adapter string) []*matrix.StackRow {
	var out []*matrix.StackRow
	for i := range m.StackRows {
		r := &m.StackRows[i]
		if r.Stack == stack && slices.Contains(r.Adapters, adapter) {
			out = append(out, r)
		}
	}
	return out
}

// stackSteps judges the releases of one stack for one adapter and OS.
type stackSteps struct {
	m      *matrix.Matrix
	a      *matrix.Adapter
	ms     *matrix.Stack
	rows   []*matrix.StackRow
	d      *matrix.Distro // nil: no distro given
	kernel string         // the kernel given, when no distro
	cache  *sync.Map      // the engine's: stepKey → []Reason (nil: none)
	// anys, the engine's, keeps any's step (anyKey → Reason) for a plan
	// that names a distro or a kernel (see Engine.perAdapter); nil: none.
	anys *sync.Map
}

// stepKey names the steps of one release for an adapter (os false) or an
// OS (os true): what they depend on, so an engine judges each once.
type stepKey struct {
	os     bool
	a      *matrix.Adapter
	ms     *matrix.Stack
	rel    *matrix.StackRelease
	ver    string
	d      *matrix.Distro
	kernel string
}

// steps is adapterSteps then osStep, each from the engine's cache when
// there is one.
func (s stackSteps) steps(ver string, rel *matrix.StackRelease) []Reason {
	if s.cache == nil {
		return append(s.adapterSteps(ver, rel), s.osStep(ver, rel))
	}
	ak := stepKey{a: s.a, ms: s.ms, rel: rel, ver: ver}
	as, ok := s.cache.Load(ak)
	if !ok {
		as, _ = s.cache.LoadOrStore(ak, s.adapterSteps(ver, rel))
	}
	ok2 := stepKey{os: true, ms: s.ms, rel: rel, ver: ver, d: s.d, kernel: s.osKernel()}
	os, ok := s.cache.Load(ok2)
	if !ok {
		os, _ = s.cache.LoadOrStore(ok2, []Reason{s.osStep(ver, rel)})
	}
	out := append([]Reason(nil), as.([]Reason)...)
	return append(out, os.([]Reason)...)
}

// release gives the steps of one named release: the adapter, its drop,
// and the OS.
func (s stackSteps) release(ver string) []Reason {
	return s.steps(ver, findRelease(s.ms, ver))
}

// worst is the level the steps give together.
func worst(rs []Reason) Reason {
	w := Reason{Verdict: Supported}
	for _, r := range rs {
		if r.Verdict.rank() > w.Verdict.rank() {
			w = r
		}
	}
	return w
}

// any judges a plan that names no release: it passes with the releases
// whose every step passes, is unknown while a release's steps are unknown,
// and unsupported when every release in the matrix fails a sourced step.
func (s stackSteps) any(v *Verdict) {
	if len(s.ms.Releases) == 0 {
		// The matrix holds none of the stack's releases: the first
		// release of a sourced range stands for the range (its lists are
		// still unknown).
		var rels []*matrix.StackRelease
		for _, r := range s.rows {
			if r.First != "" {
				rels = append(rels, &matrix.StackRelease{Version: r.First})
			}
		}
		if len(rels) == 0 {
			v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("the matrix holds no %s release; a release with its supported-adapter and OS lists would decide it", s.ms.Name), Matrix: []rule.Ref{rule.Cite(s.m, "stack "+s.ms.ID, s.ms.Claim, s.ms.Name)}})
			return
		}
		forAdapter, forOS := make([][]Reason, len(rels)), make([]Reason, len(rels))
		for i, r := range rels {
			rs := s.steps(r.Version, nil)
			forAdapter[i], forOS[i] = rs[:len(rs)-1], rs[len(rs)-1]
		}
		v.add(s.anyStep(rels, forAdapter, forOS))
		return
	}
	// The matrix holds every release judged: each one's adapter steps
	// and OS step, by index in its Releases.
	forAdapter, forOS := s.releaseSteps()
	if s.cache == nil || s.anys == nil {
		v.add(s.anyStep(s.releases(), forAdapter, forOS))
		return
	}
	// The step reads the adapter's steps (its own) and the OS's, one
	// list for every OS whose steps read alike (releaseSteps): it is made
	// once for all of them, where each distro and kernel of a grid made
	// its words anew.
	key := anyKey{a: s.a, ms: s.ms, onDistro: s.d != nil, os: &forOS[0]}
	x, ok := s.anys.Load(key)
	if !ok {
		// Kept as add takes it, which the plans then add alike.
		x, _ = s.anys.LoadOrStore(key, unconfirmed(s.anyStep(s.releases(), forAdapter, forOS)))
	}
	r := x.(Reason)
	r.Matrix = slices.Clip(r.Matrix) // shared: an append makes its own
	v.add(r)
}

// releases are the stack's releases the matrix holds.
func (s stackSteps) releases() []*matrix.StackRelease {
	rels := make([]*matrix.StackRelease, len(s.ms.Releases))
	for i := range s.ms.Releases {
		rels[i] = &s.ms.Releases[i]
	}
	return rels
}

// anyKey names any's step for an adapter on a stack when the matrix
// holds the stack's releases: the adapter, whether a distro is named (its
// words say so), and the OS steps' list, one per content (osList).
type anyKey struct {
	a        *matrix.Adapter
	ms       *matrix.Stack
	onDistro bool
	os       *Reason
}

// anyStep is any's step from each release's adapter steps and OS step
// (by index in rels).
func (s stackSteps) anyStep(rels []*matrix.StackRelease, forAdapter [][]Reason, forOS []Reason) Reason {
	worstAt := func(i int) Reason { return worstOf(forAdapter[i], forOS[i]) }
	steps := func(i int) []Reason {
		return append(append(make([]Reason, 0, len(forAdapter[i])+1), forAdapter[i]...), forOS[i])
	}
	var pass, open, fail []*matrix.StackRelease
	var lastPass, lastOpen, lastFail int
	for i, r := range rels {
		switch worstAt(i).Verdict {
		case Supported, Conditional:
			pass, lastPass = append(pass, r), i
		case Undecided:
			open, lastOpen = append(open, r), i
		default:
			fail, lastFail = append(fail, r), i
		}
	}
	// The plan names the distro: the words do not, so the reason is the
	// same on every distro whose releases fare alike (a grid of 100
	// distros then shows it once).
	what := s.a.Name
	if s.d != nil {
		what += " on this distro"
	}
	versions := func(rs []*matrix.StackRelease) string { return releaseNames(s.ms, rs) }
	switch {
	case len(pass) > 0:
		newest := pass[len(pass)-1]
		rs := steps(lastPass)
		var refs []rule.Ref
		for _, r := range rs {
			refs = append(refs, r.Matrix...)
		}
		if len(open) == 0 && len(fail) == 0 {
			return Reason{Verdict: worst(rs).Verdict, Text: fmt.Sprintf("every %s release in the matrix (%s) supports %s%s", s.ms.Name, versions(pass), what, actions(rs)), Matrix: refs}
		}
		return Reason{Verdict: Conditional, Text: fmt.Sprintf("use a %s release that supports %s: %s (sourced); %s%s", s.ms.Name, what, versions(pass), s.others(open, fail), actions(rs)), Nearest: s.ms.Name + " " + newest.Version, Matrix: refs}
	case len(open) > 0:
		r := open[len(open)-1]
		u := worstAt(lastOpen)
		text := fmt.Sprintf("no %s release in the matrix is sourced for %s; %s %s: %s", s.ms.Name, what, s.ms.Name, r.Version, u.Text)
		if len(open) > 1 {
			text += fmt.Sprintf(" (releases %s are open too)", versions(open[:len(open)-1]))
		}
		if len(fail) > 0 {
			text += fmt.Sprintf("; releases %s do not support it", versions(fail))
		}
		return Reason{Verdict: Undecided, Likely: u.Likely, Text: text, Nearest: u.Nearest, Matrix: u.Matrix}
	default:
		// Each release the matrix holds excludes it, by its own lists:
		// a release it lacks may not (a span no release supports is
		// stack_support's or support_end's, and says so on its own).
		r := fail[len(fail)-1]
		u := worstAt(lastFail)
		return Reason{Verdict: Undecided, Likely: Unsupported, Text: fmt.Sprintf("no %s release in the matrix (%s) supports %s; %s %s: %s; the matrix does not hold every %s release, and the lists of one it lacks would decide it", s.ms.Name, versions(fail), what, s.ms.Name, r.Version, u.Text, s.ms.Name), Nearest: firstNonEmpty(u.Nearest, otherStacks(s.m, s.a, s.ms.ID)), Matrix: u.Matrix}
	}
}

// worstOf is worst(append(rs, o)) without making the slice.
func worstOf(rs []Reason, o Reason) Reason {
	w := worst(rs)
	if o.Verdict.rank() > w.Verdict.rank() {
		return o
	}
	return w
}

// allKey names the steps of every release of a stack that the matrix
// holds, for an adapter (os false) or an OS (os true): what any reads,
// looked up once a plan instead of twice a release.
type allKey struct {
	os     bool
	a      *matrix.Adapter
	ms     *matrix.Stack
	d      *matrix.Distro
	kernel string
}

// releaseSteps are adapterSteps and osStep of each release of the stack,
// by index in its Releases, each list from the engine's cache when there
// is one. Steps are read, never changed.
func (s stackSteps) releaseSteps() (forAdapter [][]Reason, forOS []Reason) {
	rels := s.ms.Releases
	adapter := func() [][]Reason {
		out := make([][]Reason, len(rels))
		for i := range rels {
			out[i] = s.adapterSteps(rels[i].Version, &rels[i])
		}
		return out
	}
	oses := func() []Reason {
		out := make([]Reason, len(rels))
		for i := range rels {
			out[i] = s.osStep(rels[i].Version, &rels[i])
		}
		return out
	}
	if s.cache == nil {
		return adapter(), oses()
	}
	adapterKey := allKey{a: s.a, ms: s.ms}
	x, ok := s.cache.Load(adapterKey)
	if !ok {
		x, _ = s.cache.LoadOrStore(adapterKey, adapter())
	}
	osKey := allKey{os: true, ms: s.ms, d: s.d, kernel: s.osKernel()}
	y, ok := s.cache.Load(osKey)
	if !ok {
		// One list for every OS whose steps read alike: its first
		// element names it in any's memo (anyKey). Lists whose hashes
		// collide and do not read alike are each their own.
		rs := oses()
		y = rs
		c, _ := s.cache.LoadOrStore(osListOf(rs), rs)
		if c := c.([]Reason); reflect.DeepEqual(c, rs) {
			y = c
		}
		y, _ = s.cache.LoadOrStore(osKey, y)
	}
	return x.([][]Reason), y.([]Reason)
}

// osList is a hash of a list of steps, of every field of each reason:
// lists that read alike have the same osList.
type osList uint64

var osSeed = maphash.MakeSeed()

func osListOf(rs []Reason) osList {
	var h maphash.Hash
	h.SetSeed(osSeed)
	str := func(s string) {
		h.WriteString(s)
		h.WriteByte(0)
	}
	for _, r := range rs {
		str(string(r.Verdict))
		str(string(r.Likely))
		str(r.Text)
		str(strconv.FormatBool(r.Informs))
		str(r.Nearest)
		str(strconv.Itoa(len(r.Matrix)))
		for _, ref := range r.Matrix {
			for _, f := range [...]string{ref.Entry, ref.At, ref.Rule, ref.Confidence, ref.Note, ref.Quote} {
				str(f)
			}
			str(strconv.Itoa(len(ref.Sources)))
			for _, src := range ref.Sources {
				str(src.ID)
				str(src.Title)
				str(src.URL)
			}
		}
	}
	return osList(h.Sum64())
}

// actions words the conditions of a passing release's steps, which the
// plan must take with it (e.g. an OS its notes support only with OFED).
func actions(rs []Reason) string {
	var out []string
	for _, r := range rs {
		if r.Verdict == Conditional && r.Text != "" {
			out = append(out, r.Text)
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " (" + strings.Join(out, "; ") + ")"
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// others words the releases that do not pass.
func (s stackSteps) others(open, fail []*matrix.StackRelease) string {
	var parts []string
	if len(open) > 0 {
		parts = append(parts, "unknown for "+releaseNames(s.ms, open))
	}
	if len(fail) > 0 {
		parts = append(parts, "not "+releaseNames(s.ms, fail))
	}
	return strings.Join(parts, "; ")
}

// releaseNames words a set of a stack's releases in version order, a run
// of three or more that follow one another among the matrix's releases of
// the stack as "first to last (n releases)": every release the matrix
// holds from first to last, none left out. Releases the matrix does not
// hold (stand-ins for ranges), or whose version does not compare, are
// named one by one.
func releaseNames(ms *matrix.Stack, rs []*matrix.StackRelease) string {
	ro := releaseOrderOf(ms)
	all, at := ro.rels, ro.rank
	var ranked []int
	var loose []string
	for _, r := range rs {
		if i, ok := at[r]; ok {
			ranked = append(ranked, i)
		} else {
			loose = append(loose, r.Version)
		}
	}
	slices.Sort(ranked)
	var out []string
	for i := 0; i < len(ranked); {
		j := i
		for j+1 < len(ranked) && ranked[j+1] == ranked[j]+1 {
			j++
		}
		if n := j - i + 1; n >= 3 {
			out = append(out, fmt.Sprintf("%s to %s (%d releases)", all[ranked[i]].Version, all[ranked[j]].Version, n))
		} else {
			for k := i; k <= j; k++ {
				out = append(out, all[ranked[k]].Version)
			}
		}
		i = j + 1
	}
	return strings.Join(append(out, loose...), ", ")
}

func (s stackSteps) citeRelease(r *matrix.StackRelease, text string) rule.Ref {
	return rule.Cite(s.m, "stack "+s.ms.ID+" release "+r.Version, r.Claim, text)
}

// citeAdapters cites a release's supported-adapter list.
func (s stackSteps) citeAdapters(r *matrix.StackRelease) rule.Ref {
	return s.citeRelease(r, fmt.Sprintf("%s %s supports %s", s.ms.Name, r.Version, strings.Join(r.Adapters, ", ")))
}

// adapterName is the name of adapter id, or the id when the matrix lacks it.
func (s stackSteps) adapterName(id string) string {
	if o := s.m.Adapter(id); o != nil {
		return o.Name
	}
	return id
}

func (s stackSteps) citeRow(r *matrix.StackRow) rule.Ref {
	return rule.Cite(s.m, "stack_support "+s.ms.ID+" "+s.a.ID, r.Claim, rule.OrDash(r.Text))
}

// adapterSteps judge whether release ver (rel, nil when the matrix lacks
// it) supports the adapter: the adapter's support_end and the rows'
// ranges can exclude it; the release's own adapter list, else a range
// with both its bounds sourced, includes it.
func (s stackSteps) adapterSteps(ver string, rel *matrix.StackRelease) []Reason {
	a, ms := s.a, s.ms
	var out []Reason
	// Dropped by a release: support_end.
	for _, se := range a.SupportEnd {
		if se.Stack != ms.ID {
			continue
		}
		ref := rule.Cite(s.m, "adapter "+a.ID+" support_end "+ms.ID, se.Claim, se.Text)
		near := ""
		if se.LastRelease != "" {
			near = fmt.Sprintf("%s: %s %s", a.Name, ms.Name, se.LastRelease)
			if lts(ms, se.LastRelease) {
				near += " LTS"
			}
			if se.DroppedIn != "" {
				near += fmt.Sprintf(", since %s dropped it", se.DroppedIn)
			}
		}
		switch {
		case se.DroppedIn != "":
			c, ok := rule.Compare(ver, se.DroppedIn)
			switch {
			case sameLine(ver, se.DroppedIn) || ok && c >= 0:
				return []Reason{{Verdict: Unsupported, Text: fmt.Sprintf("%s %s no longer supports %s: %s", ms.Name, ver, a.Name, se.Text), Nearest: near, Matrix: []rule.Ref{ref}}}
			case !ok:
				return []Reason{{Verdict: Undecided, Text: fmt.Sprintf("stack version %s cannot be compared with %s, the release that dropped %s; a release number would decide it", ver, se.DroppedIn, a.Name), Matrix: []rule.Ref{ref}}}
			}
		case se.LastRelease != "" && !atOrBefore(ver, se.LastRelease):
			return []Reason{{Verdict: Unsupported, Text: fmt.Sprintf("%s %s is after %s, the last release for %s: %s", ms.Name, ver, se.LastRelease, a.Name, se.Text), Nearest: near, Matrix: []rule.Ref{ref}}}
		}
	}
	// The release's own list, complete for it: it wins over the ranges,
	// which summarise many releases.
	if rel != nil && len(rel.Adapters) > 0 {
		if slices.Contains(rel.Adapters, a.ID) {
			out = append(out, Reason{Verdict: Supported, Text: fmt.Sprintf("%s %s's release notes list %s among its supported adapters", ms.Name, rel.Version, a.Name), Matrix: []rule.Ref{s.citeAdapters(rel)}})
			return out
		}
		// A list names cards: a virtual function's card being on it
		// says nothing either way of the release's SR-IOV support.
		if i := slices.IndexFunc(a.VFOf, func(pf string) bool { return slices.Contains(rel.Adapters, pf) }); i >= 0 {
			return []Reason{{Verdict: Undecided, Text: fmt.Sprintf("%s %s's release notes list %s, the card, but not its virtual function; whether the release supports %s is not stated, and its SR-IOV documentation would decide it", ms.Name, rel.Version, s.adapterName(a.VFOf[i]), a.Name), Matrix: []rule.Ref{s.citeAdapters(rel)}}}
		}
		if !rel.AdaptersPartial {
			return []Reason{{Verdict: Unsupported, Text: fmt.Sprintf("%s %s's release notes do not list %s among its supported adapters (%s)", ms.Name, rel.Version, a.Name, strings.Join(rel.Adapters, ", ")), Nearest: s.listing(), Matrix: []rule.Ref{s.citeAdapters(rel)}}}
		}
		// Only part of the list was read: the steps below may still
		// decide, and absence from it is never a no.
	}
	// Outside every bounded range: no release there supports it.
	var bounded []*matrix.StackRow
	for _, r := range s.rows {
		if r.First != "" || r.Last != "" {
			bounded = append(bounded, r)
		}
	}
	var inside *matrix.StackRow
	for _, r := range bounded {
		if (r.First == "" || atOrAfter(ver, r.First)) && (r.Last == "" || atOrBefore(ver, r.Last)) {
			if inside == nil || inside.First == "" && r.First != "" {
				inside = r
			}
		}
	}
	if len(bounded) > 0 && inside == nil {
		var refs []rule.Ref
		text := fmt.Sprintf("%s %s is outside the releases that support %s", ms.Name, ver, a.Name)
		near := ""
		for _, r := range bounded {
			refs = append(refs, s.citeRow(r))
			text += fmt.Sprintf("; %s..%s: %s", rule.OrDash(r.First), rule.OrDash(r.Last), r.Text)
			if near == "" {
				if r.Last != "" && !atOrBefore(ver, r.Last) {
					near = upTo(ms, r.Last)
				} else {
					near = fmt.Sprintf("%s %s or later", ms.Name, r.First)
				}
			}
		}
		return []Reason{{Verdict: Unsupported, Text: text, Nearest: near, Matrix: refs}}
	}
	// Firmware the release was tested with on the adapter: its notes
	// name the adapter.
	if f := testedWith(s.m, a.ID, ms.ID, ver); f != nil {
		ref := rule.Cite(s.m, fmt.Sprintf("firmware_min %s %s %s", a.ID, ms.ID, f.StackVersion), f.Claim, rule.MinRule(a, f))
		return append(out, Reason{Verdict: Supported, Text: fmt.Sprintf("%s %s names %s with firmware %s (%s)", ms.Name, f.StackVersion, a.Name, f.Min, rule.OrDash(f.Rule)), Matrix: []rule.Ref{ref}})
	}
	// A range with both bounds stated.
	if inside != nil && inside.First != "" {
		return append(out, Reason{Verdict: Supported, Text: fmt.Sprintf("%s %s is within %s..%s, the releases that support %s: %s", ms.Name, ver, inside.First, rule.OrDash(inside.Last), a.Name, inside.Text), Matrix: []rule.Ref{s.citeRow(inside)}})
	}
	what := fmt.Sprintf("the matrix lacks %s %s's supported-adapter list", ms.Name, ver)
	var refs []rule.Ref
	if rel != nil && rel.AdaptersPartial {
		what = fmt.Sprintf("the matrix holds only part of %s %s's supported-adapter list (%s), which does not name it", ms.Name, ver, strings.Join(rel.Adapters, ", "))
		refs = append(refs, s.citeAdapters(rel))
	}
	switch {
	case inside != nil:
		what += fmt.Sprintf(", and its range for %s has no first release (-..%s: %s)", a.Name, rule.OrDash(inside.Last), inside.Text)
		refs = append(refs, s.citeRow(inside))
	case len(s.rows) > 0:
		what += fmt.Sprintf(", and its rows for %s name no releases (%s)", a.Name, s.rows[0].Text)
		refs = append(refs, s.citeRow(s.rows[0]))
	}
	// A hint only where some source ties the stack to the adapter.
	var likely Level
	if len(s.rows) > 0 || slices.Contains(a.Stacks, ms.ID) || listedByRelease(ms, a.ID) {
		likely = Supported
	}
	return append(out, Reason{Verdict: Undecided, Likely: likely, Text: fmt.Sprintf("whether %s %s supports %s is not sourced: %s; that release's \"Supported NICs\" list would decide it%s", ms.Name, ver, a.Name, what, s.nearestKnown(ver)), Matrix: refs})
}

// listing names the releases whose adapter list holds the adapter.
func (s stackSteps) listing() string {
	var vs []string
	for _, r := range s.ms.Releases {
		if slices.Contains(r.Adapters, s.a.ID) {
			vs = append(vs, r.Version)
		}
	}
	if len(vs) == 0 {
		return otherStacks(s.m, s.a, s.ms.ID)
	}
	return s.ms.Name + " " + strings.Join(vs, " or ")
}

// nearestKnown names the releases the matrix holds around ver, for a
// release it lacks.
func (s stackSteps) nearestKnown(ver string) string {
	if findRelease(s.ms, ver) != nil {
		return ""
	}
	var line []string
	for _, r := range s.ms.Releases {
		if sameLine(r.Version, ver) {
			line = append(line, r.Version)
		}
	}
	if len(line) > 1 {
		sort.SliceStable(line, func(i, j int) bool { return later(line[j], line[i]) })
		return fmt.Sprintf(" (%s %s names a line of releases whose lists may differ: %s; name one)", s.ms.Name, ver, strings.Join(line, ", "))
	}
	var before, after *matrix.StackRelease
	for i := range s.ms.Releases {
		r := &s.ms.Releases[i]
		c, ok := rule.Compare(r.Version, ver)
		if !ok {
			continue
		}
		if c < 0 && (before == nil || later(r.Version, before.Version)) {
			before = r
		}
		if c > 0 && (after == nil || later(after.Version, r.Version)) {
			after = r
		}
	}
	var near []string
	if before != nil {
		near = append(near, before.Version)
	}
	if after != nil {
		near = append(near, after.Version)
	}
	if len(near) == 0 {
		return fmt.Sprintf(" (%s %s is not in the matrix)", s.ms.Name, ver)
	}
	return fmt.Sprintf(" (%s %s is not in the matrix; the nearest it holds: %s)", s.ms.Name, ver, strings.Join(near, " and "))
}

func later(a, b string) bool {
	c, ok := rule.Compare(a, b)
	return ok && c > 0
}

// osKernel is the kernel osStep reads: the kernel given when no distro
// is (a distro's kernel, named or its GA one, is judged by the distro's
// place in the OS list), so a distro's kernels share its steps.
func (s stackSteps) osKernel() string {
	if s.d != nil {
		return ""
	}
	return s.kernel
}

// osStep judges the OS of the plan against the release's OS list.
func (s stackSteps) osStep(ver string, rel *matrix.StackRelease) Reason {
	ms, d := s.ms, s.d
	if d == nil {
		if s.kernel == "" {
			return Reason{Verdict: Supported, Informs: true}
		}
		return Reason{Verdict: Undecided, Likely: Supported, Text: fmt.Sprintf("a %s release is judged by the OS list of its release notes, and kernel %s names no distro release; --distro would decide it", ms.Name, s.kernel)}
	}
	if rel == nil {
		return Reason{Verdict: Undecided, Likely: Supported, Text: fmt.Sprintf("the matrix holds no single %s %s release, so its OS list is unknown; that release's notes would decide it%s", ms.Name, ver, s.nearestKnown(ver))}
	}
	o := s.releaseOS(rel)
	if o.unlisted != nil {
		return *o.unlisted
	}
	list, ref := o.list, o.ref
	matches := func(e string) bool { return matrix.OSMatches(e, d) }
	if slices.ContainsFunc(rel.OS, matches) {
		return Reason{Verdict: Supported, Text: fmt.Sprintf("%s %s lists %s", ms.Name, rel.Version, d.Name), Matrix: []rule.Ref{ref}}
	}
	for _, w := range rel.OSWith {
		if slices.ContainsFunc(w.OS, matches) {
			return Reason{Verdict: Conditional, Text: fmt.Sprintf("%s %s supports %s only this way: %s", ms.Name, rel.Version, d.Name, w.Text), Matrix: []rule.Ref{ref}}
		}
	}
	// A rebuild or an HWE kernel of a listed release: the list names the
	// release it derives from, not it, so it is neither a yes nor a no.
	if i := slices.IndexFunc(rel.OS, func(e string) bool { return matrix.OSCoversBase(e, d) }); i >= 0 {
		what := "a rebuild of " + rel.OS[i]
		if d.KernelFlavour() == "hwe" {
			what = "an HWE kernel of " + rel.OS[i] + ", which the list names with its GA kernel"
		}
		return Reason{Verdict: Undecided, Likely: Supported, Text: fmt.Sprintf("%s %s lists %s, not %s, %s; whether it covers it is not sourced, a list that names %s would decide it", ms.Name, rel.Version, o.joined, d.Name, what, d.ID), Matrix: []rule.Ref{ref}}
	}
	if rel.OSPartial {
		return Reason{Verdict: Undecided, Text: fmt.Sprintf("the matrix holds only part of %s %s's OS table (%s), which does not name this distro; the rest of the table would decide it", ms.Name, rel.Version, o.joined), Matrix: []rule.Ref{ref}}
	}
	no := Reason{Verdict: Unsupported, Text: fmt.Sprintf("%s %s supports only %s, not %s", ms.Name, rel.Version, o.joined, d.Name), Nearest: "a distro " + ms.Name + " " + rel.Version + " lists: " + o.joined, Matrix: []rule.Ref{ref}}
	if ver != rel.Version && !sameLine(ver, rel.Version) && !sameLine(rel.Version, ver) {
		return no
	}
	// A list written before the OS came out says nothing of it: then a
	// later release may list it, and the answer is unknown, not no.
	// On a line the list names, it stops below d: d came out after it. A
	// new line, or a family the list leaves out, is unknown only on the
	// newest release whose OS list the matrix holds: versions cannot tell
	// whether it came out after the list.
	switch age := predatesList(list, d); {
	case age == listPredates:
		return Reason{Verdict: Undecided, Text: fmt.Sprintf("%s %s lists %s: on that line it stops below %s, so the list likely predates it; a later release's OS list would decide it", ms.Name, rel.Version, o.joined, d.Name), Matrix: []rule.Ref{ref}}
	case age != listExcludes && newestListed(ms) == rel:
		return Reason{Verdict: Undecided, Text: fmt.Sprintf("%s %s, the newest %s release whose OS list the matrix holds, lists %s, not %s, which it likely predates; a later release's OS list would decide it", ms.Name, rel.Version, ms.Name, o.joined, d.Name), Matrix: []rule.Ref{ref}}
	}
	return no
}

// releaseOS is what osStep reads of a release whatever the OS: its OS
// list, written out and cited, or the step for every OS when the matrix
// lacks the list.
type releaseOS struct {
	list     []string
	joined   string
	ref      rule.Ref
	unlisted *Reason // the matrix lacks the release's OS list
}

// relOSKey names a release's releaseOS in the engine's cache.
type relOSKey struct{ rel *matrix.StackRelease }

// releaseOS is rel's releaseOS, made once per release with the engine's
// cache: each OS of a grid read it anew.
func (s stackSteps) releaseOS(rel *matrix.StackRelease) releaseOS {
	read := func() releaseOS {
		if len(rel.OS) == 0 && len(rel.OSWith) == 0 {
			return releaseOS{unlisted: &Reason{Verdict: Undecided, Likely: Supported, Text: fmt.Sprintf("the matrix lacks %s %s's OS list, so whether it supports this distro is not sourced; the release notes' supported OS list would decide it%s", s.ms.Name, rel.Version, s.nearestLists(rel))}}
		}
		o := releaseOS{list: rel.ListedOS()}
		o.joined = strings.Join(o.list, ", ")
		o.ref = s.citeRelease(rel, fmt.Sprintf("%s %s supports %s", s.ms.Name, rel.Version, o.joined))
		o.ref.Sources = slices.Clip(o.ref.Sources)
		return o
	}
	if s.cache == nil {
		return read()
	}
	key := relOSKey{rel}
	x, ok := s.cache.Load(key)
	if !ok {
		x, _ = s.cache.LoadOrStore(key, read())
	}
	return x.(releaseOS)
}

// nearestLists names the releases nearest rel whose OS list the matrix holds.
func (s stackSteps) nearestLists(rel *matrix.StackRelease) string {
	rels := sortedReleases(s.ms)
	at := slices.Index(rels, rel)
	var near []string
	for i := at - 1; i >= 0 && at >= 0; i-- {
		if os := rels[i].ListedOS(); len(os) > 0 && later(rel.Version, rels[i].Version) {
			near = append(near, fmt.Sprintf("%s (%s)", rels[i].Version, strings.Join(os, ", ")))
			break
		}
	}
	for i := at + 1; i < len(rels) && at >= 0; i++ {
		if os := rels[i].ListedOS(); len(os) > 0 && later(rels[i].Version, rel.Version) {
			near = append(near, fmt.Sprintf("%s (%s)", rels[i].Version, strings.Join(os, ", ")))
			break
		}
	}
	if len(near) == 0 {
		return ""
	}
	return "; the nearest releases with an OS list, never used in its place: " + strings.Join(near, "; ")
}

// newestListed is the stack's latest release, by version, whose OS list the
// matrix holds. A later release without one says nothing of an OS either:
// it cannot make an older list binding on a line the list predates, or
// every release added without its notes' OS table would turn that list's
// silence into a no.
func newestListed(ms *matrix.Stack) *matrix.StackRelease {
	rels := sortedReleases(ms)
	var last *matrix.StackRelease
	for i := len(rels) - 1; i >= 0; i-- {
		if len(rels[i].ListedOS()) == 0 {
			continue
		}
		if _, ok := rule.Compare(rels[i].Version, rels[i].Version); ok {
			return rels[i]
		}
		if last == nil {
			last = rels[i]
		}
	}
	return last
}

// listAge is what an OS list that does not name a distro release says of it.
type listAge int

const (
	listExcludes    listAge = iota // the list was written with d out, and left it out
	listPredates                   // the list names d's line only below d: it may be older than d
	listNewerLine                  // the list names only earlier lines of d's family
	listLacksFamily                // the list names no release of d's family
)

// predatesList reads an OS list that does not name distro release d.
// Minor releases of one major line come out in order, and a major line
// comes out before the next one, but the lines of a family overlap (RHEL
// 8.8 came out with 9.2), so versions order releases in time only within a
// line. The list excludes d when it names a release of d's major line at
// or after d (d was out and was left out), or names a later major line
// of d's family and none of d's (d's line was out and was left out). It
// may predate d when it names d's line only below d; it names only earlier
// lines, or none of d's family, when d's line may be newer than the list
// or the release leaves the line out: versions cannot tell which. An entry
// for a whole line ("rhel-9") or from a release on ("rhel-7.3+") that
// covers d has already matched it; "rhel-7.3+" still excludes 7.2. SUSE's
// "15-SP5" is line 15, minor 5.
func predatesList(list []string, d *matrix.Distro) listAge {
	dMajor, dv, ok := osLine(d.Version)
	if !ok {
		return listExcludes
	}
	family, line, later := false, false, false
	for _, e := range list {
		fam, rel, ok := strings.Cut(e, "-")
		if !ok || fam != d.Family {
			continue
		}
		family = true
		major, ev, ok := osLine(strings.TrimSuffix(rel, "+"))
		if !ok {
			return listExcludes
		}
		switch c := version.Compare(major, dMajor); {
		case c > 0:
			later = true
		case c == 0:
			line = true
			if version.Compare(ev, dv) >= 0 {
				return listExcludes // a release at or after d
			}
		}
	}
	switch {
	case !family:
		return listLacksFamily
	case line:
		return listPredates
	case !later:
		return listNewerLine
	}
	return listExcludes
}

// osLine reads a distro version as its major line and a version: "9.4" is
// line 9, "15-SP5" (SUSE) line 15 and 15.5, "11" line 11.
func osLine(s string) (major, v version.Version, ok bool) {
	s = strings.Replace(strings.ToLower(s), "-sp", ".", 1)
	m, _, _ := strings.Cut(s, ".")
	mv, err1 := version.Parse(m)
	vv, err2 := version.Parse(s)
	return mv, vv, err1 == nil && err2 == nil
}

func appendNew(s []string, x string) []string {
	if slices.Contains(s, x) {
		return s
	}
	return append(s, x)
}

// upTo words "MLNX_OFED ≤ 4.9 LTS".
func upTo(ms *matrix.Stack, last string) string {
	s := ms.Name + " ≤ " + last
	if lts(ms, last) {
		s += " LTS"
	}
	return s
}

// atOrAfter and atOrBefore compare a release with a range bound; a bound
// written shorter (4.9, 24.10, 2.9) stands for every release of that line.
func atOrAfter(ver, bound string) bool {
	if sameLine(ver, bound) {
		return true
	}
	c, ok := rule.Compare(ver, bound)
	return ok && c >= 0
}

func atOrBefore(ver, bound string) bool {
	if sameLine(ver, bound) {
		return true
	}
	c, ok := rule.Compare(ver, bound)
	return ok && c <= 0
}

func sameLine(ver, bound string) bool {
	if ver == bound {
		return true
	}
	rest, ok := strings.CutPrefix(ver, bound)
	return ok && rest != "" && strings.ContainsRune(".-", rune(rest[0]))
}

// otherStacks suggests the stacks whose rows or adapter entry support it.
func otherStacks(m *matrix.Matrix, a *matrix.Adapter, not string) string {
	var ids []string
	for _, s := range a.Stacks {
		if s != not {
			ids = appendNew(ids, s)
		}
	}
	for _, r := range m.StackRows {
		if r.Stack != not && r.Status != matrix.StatusUnsupported && slices.Contains(r.Adapters, a.ID) {
			ids = appendNew(ids, r.Stack)
		}
	}
	if drv := m.Driver(a.RDMADriver); drv != nil && drv.InTree {
		ids = append(ids, matrix.Inbox)
	}
	if len(ids) == 0 {
		return ""
	}
	return "--stack " + strings.Join(ids, " or ")
}

func lts(ms *matrix.Stack, version string) bool {
	for _, r := range ms.Releases {
		if r.Version == version || strings.HasPrefix(r.Version, version+"-") || strings.HasPrefix(r.Version, version+".") || strings.HasPrefix(version, r.Version) {
			if r.LTS {
				return true
			}
		}
	}
	return false
}

// findRelease finds the release a version names: the same release, or the
// one release of its line (4.9 for 4.9-4.0.8.0); nil when the matrix holds
// none, or several releases of a shorter version's line. Never the
// nearest release: a release's lists are its own.
func findRelease(ms *matrix.Stack, ver string) *matrix.StackRelease {
	var line []*matrix.StackRelease
	for i := range ms.Releases {
		r := &ms.Releases[i]
		if r.Version == ver {
			return r
		}
		if sameLine(ver, r.Version) || sameLine(r.Version, ver) {
			line = append(line, r)
		}
	}
	if len(line) == 1 {
		return line[0]
	}
	return nil
}

// testedWith returns a firmware_min row that ties the adapter to the very
// release ver of the stack (the firmware its notes give for the adapter);
// nil when none does.
func testedWith(m *matrix.Matrix, adapter, stack, ver string) *matrix.FirmwareMin {
	for i := range m.Firmware {
		f := &m.Firmware[i]
		if f.Adapter == adapter && f.Stack == stack && f.StackVersion != "" && (f.StackVersion == ver || sameLine(ver, f.StackVersion)) {
			return f
		}
	}
	return nil
}

// KernelQuoted reports whether a plan on stack that names a kernel
// release but no distro, and whose kernel no distro release claims (it
// carries no RPM tag of one), gets a verdict that reads the kernel only to
// quote it: true for a vendor stack, whose releases are judged by their
// adapter and OS lists, never by the kernel's version. The inbox drivers
// and a software stack's driver are judged by the kernel itself. A
// caller judging one such plan per kernel can judge one and reword it
// (TestKernelQuoted holds every adapter of the matrix to it).
func KernelQuoted(m *matrix.Matrix, stack string) bool {
	st := m.Stack(stack)
	return st != nil && stack != matrix.Inbox && st.Kind != matrix.KindSoftware
}
