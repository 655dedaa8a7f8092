package site

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"html/template"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/parallel"
	"github.com/rocekb/rocekb/internal/rule"
	"github.com/rocekb/rocekb/internal/verdict"
)

// The "will it work?" form and the adapter pages' grids show verdicts the
// engine computed at build time, so the site and `kbgen check` cannot
// disagree. The browser only judges firmware, against the thresholds
// exported beside the verdicts (static/will.js, FirmwareCompare).
//
// verdicts.js registers the index: rocekbVerdicts.index({...Index});
// verdicts/<adapter>.js registers one adapter's cells:
// rocekbVerdicts.adapter("<id>", {...verdictFile}). Both load through
// <script src>, which works from file:// where fetch does not.

// Target is what a plan runs on: a distro release, a range of kernel
// releases (see KernelIndex), or nothing given ("").
type Target struct {
	Key   string `json:"k"`
	Label string `json:"n"`
	raw   string // a kernel cell's probe release (see kernelTargets)
	base  string // and its upstream base, when it stands for any base of its range
}

// mark writes a probe's words as the marks the browser replaces.
func (t Target) mark(s string) string {
	if t.raw == "" {
		return s
	}
	s = strings.ReplaceAll(s, t.raw, kernelMark)
	if t.base != "" {
		s = strings.ReplaceAll(s, t.base, baseMark)
	}
	return s
}

// Index is the data of verdicts.js: what the form can pick, and the
// reasons and matrix entries that more than one adapter's verdicts share.
type Index struct {
	Adapters []IndexAdapter      `json:"adapters"`
	Vendors  map[string][]string `json:"vendors"`  // vendor id → its id, name and aliases: a name may lead with one
	Drivers  map[string][]string `json:"drivers"`  // matrix.ModuleAdapters: a kernel module → the adapters it drives
	Families map[string][]string `json:"families"` // matrix.Families: a family's folded name → its members
	Noise    Noise               `json:"noise"`
	Distros  []Target            `json:"distros"`
	Kernels  KernelIndex         `json:"kernels"`
	Stacks   []Target            `json:"stacks"`  // "inbox" first
	Targets  []string            `json:"targets"` // the order of an adapter's cells: target-major, then Stacks
	Levels   []verdict.Level     `json:"levels"`  // a level number's verdict
	Refs     []XRef              `json:"refs"`    // matrix entries, by number
	Reasons  []XReason           `json:"reasons"` // shared reasons; an adapter's own are numbered after them
	Sources  map[string]XSource  `json:"sources"`
}

// IndexAdapter is an adapter and every name the form accepts for it:
// those matrix.ResolveAdapter accepts.
type IndexAdapter struct {
	ID     string   `json:"id"`
	Name   string   `json:"n"`
	Names  []string `json:"a,omitempty"` // matrix.AdapterNames but the part numbers
	Parts  []string `json:"p,omitempty"` // part numbers
	PCI    []string `json:"i,omitempty"` // PCI ids, vvvv:dddd or vvvv:dddd/ssss:ssss
	Vendor string   `json:"v,omitempty"`
}

// Noise is what the form reads a longer text naming an adapter with, as
// matrix.ResolveAdapter does: its noise words and the patterns of a word
// that is noise and of a PCI id in the text.
type Noise struct {
	Words   []string `json:"w"`
	Pattern string   `json:"r"`
	PCI     string   `json:"i"`
	MaxText int      `json:"n"` // words: a longer text names no adapter
	MaxName int      `json:"m"` // words of the longest name tried
	Windows string   `json:"h"` // a PCI id as Windows writes it
	Board   string   `json:"b"` // an NVIDIA board name (a part number's start)
	Part    string   `json:"c"` // a Broadcom part number, read for its chip
}

// XSource is a source as the form links it.
type XSource struct {
	Title string `json:"t"`
	Href  string `json:"u,omitempty"`
}

// AdapterVerdicts is an adapter's table, the data of
// verdicts/<adapter>.js (written as a verdictFile): the engine's verdict
// for every target × stack with no firmware given, and the firmware
// thresholds per stack.
type AdapterVerdicts struct {
	Reasons  []XReason              // numbered after the index's shared reasons
	Cells    Cells                  // Index.Targets × Index.Stacks
	Firmware map[string][]XFirmware // stack → thresholds, by feature
	Line     *XLine                 // the firmware line the adapter runs

	// rename, for a renamed peer's table as verdicts keeps it, turns the
	// texts of Reasons (its first's words) into the peer's:
	// verdicts.table renames them when asked and does not keep them.
	rename *matrix.Renamer
	// renaming are the Reasons rename may change (those holding a word
	// of the first's identity, judged.changed): the others read alike.
	renaming []int
}

// XLine is the firmware line an adapter runs ([[firmware_line]]) and the
// vendor's other lines: a firmware of another line is unsupported.
type XLine struct {
	Major  string               `json:"v"`
	Ref    XRef                 `json:"m"`
	Others map[string]XLineName `json:"o,omitempty"` // major → the line
}

// XLineName is another firmware line of the vendor.
type XLineName struct {
	Names string `json:"n"` // its adapters' names, " / "-joined
	Ref   XRef   `json:"m"`
}

// XReason is one reason of a verdict.
type XReason struct {
	Level    int    `json:"l"` // Index.Levels
	Text     string `json:"t"`
	Nearest  string `json:"x,omitempty"`
	Refs     []int  `json:"m,omitempty"` // Index.Refs
	Firmware bool   `json:"f,omitempty"` // a firmware_min reason, replaced in the browser when a firmware is given
	Likely   int    `json:"y,omitempty"` // an unknown step's likely answer: Index.Levels number + 1 (0: none), a hint only
	Informs  bool   `json:"i,omitempty"` // a note: it does not decide the verdict
}

// XRef is a matrix entry a reason rests on.
type XRef struct {
	Entry      string   `json:"e"`
	Confidence string   `json:"c,omitempty"`
	Sources    []string `json:"s,omitempty"`
}

// XCell is one verdict: [level, [reasons]] or, when the engine's nearest
// changes are not those its reasons give in order, [level, [reasons], [nearest]].
type XCell struct {
	Level   int
	Reasons []int
	Nearest []string // nil when derived from the reasons
	kernel  string   // the verdict's kernel, for the exports; not in the file
}

// MarshalJSON writes the cell as an array: it is the bulk of the file.
func (c XCell) MarshalJSON() ([]byte, error) { return c.appendJSON(nil) }

// appendJSON appends the cell's JSON to b, as encoding/json writes
// [level, reasons, nearest].
func (c XCell) appendJSON(b []byte) ([]byte, error) {
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(c.Level), 10)
	if c.Reasons == nil {
		b = append(b, ",null"...)
	} else {
		b = append(b, ",["...)
		for i, r := range c.Reasons {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(r), 10)
		}
		b = append(b, ']')
	}
	if c.Nearest != nil {
		n, err := json.Marshal(c.Nearest)
		if err != nil {
			return nil, err
		}
		b = append(append(b, ','), n...)
	}
	return append(b, ']'), nil
}

// Cells are an adapter's verdicts, written as one JSON array: a verdict
// file is mostly cells, and encoding/json would check each cell's bytes
// on its own.
type Cells []XCell

// MarshalJSON writes the cells as encoding/json writes a slice of them.
func (cs Cells) MarshalJSON() ([]byte, error) {
	if cs == nil {
		return []byte("null"), nil
	}
	b := make([]byte, 0, 12*len(cs)+2)
	b = append(b, '[')
	for i, c := range cs {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = c.appendJSON(b); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (c *XCell) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if len(raw) < 2 {
		return fmt.Errorf("verdict cell %s: want [level, reasons]", b)
	}
	if err := json.Unmarshal(raw[0], &c.Level); err != nil {
		return err
	}
	if err := json.Unmarshal(raw[1], &c.Reasons); err != nil {
		return err
	}
	if len(raw) > 2 {
		return json.Unmarshal(raw[2], &c.Nearest)
	}
	return nil
}

// XFirmware is a firmware minimum in force for an adapter on a stack.
type XFirmware struct {
	Feature    string   `json:"f"`
	Min        string   `json:"v"`
	Rule       string   `json:"rule,omitempty"` // minimum (when empty), exact or recommended
	Stack      string   `json:"st,omitempty"`   // the stack release the row is for, which
	StackVer   string   `json:"sv,omitempty"`   // the engine names instead of the feature
	Optional   bool     `json:"o,omitempty"`    // below it the plan is conditional, not unsupported
	Text       string   `json:"t"`              // the matrix entry, as the engine cites it
	Sources    []string `json:"s,omitempty"`
	Confidence string   `json:"c,omitempty"`
}

// Levels numbers the verdict levels in the export.
var Levels = []verdict.Level{verdict.Supported, verdict.Conditional, verdict.Unsupported, verdict.Undecided}

// likelyNum numbers a likely hint: levelNum + 1, 0 for none.
func likelyNum(l verdict.Level) int {
	if l == "" {
		return 0
	}
	return levelNum(l) + 1
}

func levelNum(l verdict.Level) int {
	for i, x := range Levels {
		if x == l {
			return i
		}
	}
	return len(Levels) - 1
}

// verdicts computes, once, every adapter's verdict table: the adapter
// pages, the distro pages and the verdicts files all read them.
type verdicts struct {
	m       *matrix.Matrix
	targets []Target         // distros, kernels, then ""
	distros []Target         // the targets that are distros, for the grids
	entries []*matrix.Distro // each of distros' matrix entry, by its place in distros
	stacks  []Target

	once    sync.Once
	engine  *verdict.Engine
	refs    []XRef
	shared  []XReason
	tables  map[string]*AdapterVerdicts
	targetN map[string]int
	stackN  map[string]int
	quoted  map[string]bool // stacks whose kernel cells only quote the kernel (verdict.KernelQuoted)
	html    sync.Map        // reason text → Inline(text)

	tmplOnce sync.Once
	tmpls    *sharedTmpls // the shared reasons as grids write them

	renamedFrom map[string]string // a peer whose tables are its first's renamed → that first
	reasonsHint atomic.Int64      // how many reason texts the last adapter judged had (judge)

	peerMu    sync.Mutex
	groupSize map[string]int       // a first with renamed peers → how many
	peerGrids map[string]*peerGrid // by first: its group's grid, until each member's is made

	sharedOnce sync.Once
	sharedRs   []verdict.Reason // sharedJudged

	layoutMu sync.Mutex
	layouts  map[*XCell]*layoutSlot // cells several tables share (by their first) → their file's layout

	release lists[[2]string, []*matrix.Adapter] // releaseAdapters by stack and version

	lintOnce sync.Once
	lint     diag.List // GridLint's
}

// lists is a table of verdict lists, each judged the first time a page
// asks for it (pages render concurrently) and kept with the verdicts.
type lists[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

// get returns the list of k, making it with judge the first time.
func (l *lists[K, V]) get(k K, judge func() V) V {
	l.mu.Lock()
	v, ok := l.m[k]
	l.mu.Unlock()
	if ok {
		return v
	}
	v = judge()
	l.mu.Lock()
	if l.m == nil {
		l.m = map[K]V{}
	}
	l.m[k] = v
	l.mu.Unlock()
	return v
}

func newVerdicts(m *matrix.Matrix) *verdicts {
	// One engine judges the grid, the lists judged from it and a fleet's
	// readiness plans (Site.readyEngine): its memo is the matrix's, and its
	// views of the adapters are made once.
	v := &verdicts{m: m, targetN: map[string]int{}, stackN: map[string]int{}, engine: verdict.NewEngine(m)}
	v.targets = append(append(distroTargets(m), kernelTargets(m)...), Target{Key: "", Label: "no kernel given"})
	for _, tg := range v.targets {
		if tg.isDistro() {
			v.distros = append(v.distros, tg)
			v.entries = append(v.entries, m.Distro(tg.Key))
		}
	}
	v.stacks = stackTargets(m)
	v.quoted = map[string]bool{}
	for _, st := range v.stacks {
		v.quoted[st.Key] = verdict.KernelQuoted(m, st.Key)
	}
	for i, t := range v.targets {
		v.targetN[t.Key] = i
	}
	for i, t := range v.stacks {
		v.stackN[t.Key] = i
	}
	return v
}

func distroTargets(m *matrix.Matrix) []Target {
	ds := append([]matrix.Distro(nil), m.Distros...)
	sort.SliceStable(ds, func(i, j int) bool { return distroLess(&ds[i], &ds[j]) })
	out := make([]Target, 0, len(ds))
	for _, d := range ds {
		out = append(out, Target{Key: d.ID, Label: d.Name})
	}
	return out
}

// distroLess orders distros by family, the family's own releases before
// each rebuild's (Red Hat Enterprise Linux, then AlmaLinux, Oracle Linux
// RHCK, Rocky Linux), then newest release first: the releases of one
// rebuild, which its family's rows decide alike, stand together, so the
// grid can write them as one row.
func distroLess(a, b *matrix.Distro) bool {
	if a.Family != b.Family {
		return a.Family < b.Family
	}
	if a.Rebuild != b.Rebuild {
		return a.Rebuild < b.Rebuild
	}
	if c, ok := rule.Compare(a.Version, b.Version); ok && c != 0 {
		return c > 0
	}
	return a.ID < b.ID
}

// The form takes any kernel release, as `kbgen check --kernel` does. The
// engine reads a kernel only by comparing its upstream base with the
// kernels the matrix names (kernelBounds), so its verdict is the same for
// every base from one bound up to the next: the form's cell for a release
// is the one of the greatest bound at or below its base. Each such cell is
// judged at a probe release inside its range, and the probe's words are
// exported as kernelMark (the release as given) and baseMark (its
// upstream base), which the browser replaces with the release it was
// given (TestFormKernelMatchesEngine probes between the bounds).
const (
	kernelMark = "{kernel}"
	baseMark   = "{base}"
)

// KernelIndex is how the form finds the cells of a kernel release: its
// upstream base (rule.KernelBase) at or after Bounds[i] and before
// Bounds[i+1] is target "k:"+Bounds[i] ("k:" below them all), or
// "v:"+Bounds[i] for a distro kernel the matrix cannot place; a kernel
// whose dist tag names a distro release (Tags, rule.KernelTag: el9_4 is
// rhel-9.4), or which starts the kernel stream of exactly one release of
// its tag (Streams, rule.KernelStream: 4.18.0-372.9.1.el8 is rhel-8.6),
// and whose base is that release's kernel base is target "t:"+id; so is a
// Debian kernel whose ABI name or series (rule.DebianKeys, looked up in
// Tags, the nearer first) names one: 6.1.0-18-amd64 is debian-12, whose
// series the key holds, so its base needs no check. A UEK kernel
// (el9uek) whose x.y series is one of its tag's Lines is target
// "u:"+tag+":"+series, judged as every release of that line
// (rule.UEKLine), before any other lookup.
type KernelIndex struct {
	Bounds  []string               `json:"b"` // ascending
	Tags    map[string]string      `json:"g"` // dist tag → the distro id it names
	Streams map[string][][2]string `json:"s"` // dist tag → [kernel stream, distro id]
	Tagged  map[string]string      `json:"t"` // distro id → its kernel base ("" when the matrix gives none)
	Lines   map[string][]string    `json:"u"` // UEK dist tag → the x.y series of its lines: target "u:"+tag+":"+series (rule.UEKLine)
	Kernel  string                 `json:"mk"`
	Base    string                 `json:"mb"`
}

// kernelBounds are the kernels at which the engine's verdict for a kernel
// can change: every first (and first RoCE) kernel of a PCI id, every
// driver's first and removal kernel, every adapter's inbox kernel, and
// every distro's kernel base, ascending, equal versions (4.9, 4.9.0) once.
func kernelBounds(m *matrix.Matrix) []string {
	var ks []string
	add := func(k string) {
		if k == "" {
			return
		}
		if _, ok := rule.Compare(k, k); !ok {
			return
		}
		for _, o := range ks {
			if c, ok := rule.Compare(o, k); ok && c == 0 {
				return
			}
		}
		ks = append(ks, k)
	}
	for _, k := range m.PCIKernels {
		add(k.FirstKernel)
		add(k.RoCEKernel)
	}
	for _, d := range m.Drivers {
		add(d.FirstKernel)
		add(d.RemovedKernel)
	}
	for _, a := range m.Adapters {
		add(a.InboxKernel)
	}
	for _, d := range m.Distros {
		add(d.KernelBase)
	}
	sort.SliceStable(ks, func(i, j int) bool {
		c, _ := rule.Compare(ks[i], ks[j])
		return c < 0
	})
	return ks
}

// kernelProbe is a release inside the range that starts at bound (below
// every bound when bound is ""), unlike any version the matrix names, so
// its words in a reason are the kernel's: bound with a fourth number.
func kernelProbe(bound string) string {
	if bound == "" {
		return "0.0.0.7919"
	}
	switch strings.Count(bound, ".") {
	case 1:
		return bound + ".0.7919"
	case 2:
		return bound + ".7919"
	}
	return bound
}

// kernelTargets are the form's kernel cells (see KernelIndex), each
// judged at a probe release.
func kernelTargets(m *matrix.Matrix) []Target {
	bounds := append([]string{""}, kernelBounds(m)...)
	var up, vendor, tagged []Target
	for _, b := range bounds {
		p := kernelProbe(b)
		label := "Linux " + b + " up to the next bound"
		if b == "" {
			label = "Linux before every kernel the matrix names"
		}
		up = append(up, Target{Key: "k:" + b, Label: label, raw: "v" + p + "-rc1", base: p})
		vendor = append(vendor, Target{Key: "v:" + b, Label: "a distro kernel based on " + label, raw: p + "-7919-generic", base: p})
	}
	tags := rule.KernelTags(m)
	for _, d := range m.Distros {
		raw, base := "", ""
		if t := rule.KernelTag(&d); tags[t] != nil {
			raw = d.KernelBase + "-7919." + t
		} else if tag, stream := rule.KernelStream(&d); stream != "" {
			raw = stream + ".7919." + tag
		} else if names := rule.DebianNames(&d); len(names) > 0 && tags[names[0]] != nil && tags[names[0]].ID == d.ID {
			raw, base = rule.DebianProbe(&d)
		}
		if raw != "" && d.KernelBase != "" {
			tagged = append(tagged, Target{Key: "t:" + d.ID, Label: d.Name + " kernel", raw: raw, base: base})
		}
	}
	// A UEK kernel named alone is judged as every release of its line
	// (rule.UEKLine): one cell per line, "u:el9uek:5.15".
	var lines []Target
	seen := map[string]bool{}
	for _, d := range m.Distros {
		if d.Family != "oracle" || d.Rebuild != "" || d.KernelBase == "" {
			continue
		}
		major, _, _ := strings.Cut(d.Version, ".")
		raw := d.KernelBase + "-7919.el" + major + "uek"
		line, ds := rule.UEKLine(m, raw)
		if ds == nil || seen[line] {
			continue
		}
		seen[line] = true
		tag, series, _ := strings.Cut(line, " ")
		lines = append(lines, Target{Key: "u:" + tag + ":" + series, Label: "an Oracle Linux " + major + " UEK kernel on " + series, raw: raw})
	}
	return append(append(append(up, vendor...), tagged...), lines...)
}

func stackTargets(m *matrix.Matrix) []Target {
	out := []Target{{Key: "inbox", Label: "Inbox (distro kernel drivers)"}}
	ss := append([]matrix.Stack(nil), m.Stacks...)
	sort.Slice(ss, func(i, j int) bool { return ss[i].Name < ss[j].Name })
	for _, s := range ss {
		out = append(out, Target{Key: s.ID, Label: s.Name})
	}
	return out
}

// Plan is the plan of a cell.
func (t Target) Plan(adapter, stack string) verdict.Plan {
	p := verdict.Plan{Adapter: adapter, Stack: stack}
	switch {
	case t.raw != "":
		p.Kernel = t.raw
	case t.Key != "":
		p.Distro = t.Key
	}
	return p
}

// fullReason is a reason before its matrix entries are numbered.
type fullReason struct {
	Level    int
	Text     string
	Nearest  string
	Refs     []XRef
	Firmware bool
	Likely   int // levelNum + 1, 0: none
	Informs  bool
}

type judged struct {
	reasons []fullReason
	cells   []XCell // Reasons index reasons
	from    int     // the adapter (index in all's order) whose cells these are, -1: its own copy

	// A renamed peer's reasons are not kept (at 10k adapters, 70 MB of
	// renamed texts): they are first's, renamed by rename when read
	// (judged.reason), and reasons is nil. changed tells the ones the
	// renaming may change, those naming first's identity (first's
	// naming); the others are first's.
	first   *judged
	rename  *matrix.Renamer
	changed []bool
	// naming tells the reasons (of a judged adapter) that hold a word
	// of its identity (matrix.Identity): only those can a peer's renaming
	// change, so every peer's changed is this one slice.
	naming []bool
}

// len is how many reasons j has.
func (j *judged) len() int {
	if j.first != nil {
		return len(j.first.reasons)
	}
	return len(j.reasons)
}

// reason is j's reason i: a renamed peer's made anew each time.
func (j *judged) reason(i int) fullReason {
	if j.first == nil {
		return j.reasons[i]
	}
	x := j.first.reasons[i]
	if !j.changed[i] {
		return x
	}
	return renameReason(x, j.rename)
}

// kept is j's reason i as its table keeps it: a renamed peer's in its
// first's words (renamed by verdicts.table when asked), its matrix
// entries in its own, as they are numbered.
func (j *judged) kept(i int) fullReason {
	if j.first == nil {
		return j.reasons[i]
	}
	x := j.first.reasons[i]
	if j.changed[i] {
		x.Refs = renameRefs(x.Refs, j.rename)
	}
	return x
}

// full is j with its reasons made.
func (j *judged) full() judged {
	if j.first == nil {
		return *j
	}
	out := judged{reasons: make([]fullReason, j.len()), cells: j.cells, from: j.from}
	for i := range out.reasons {
		out.reasons[i] = j.reason(i)
	}
	return out
}

// all computes every table, in parallel, then numbers the matrix entries
// and the reasons several adapters share in adapter order, so the output
// does not depend on the scheduling.
func (v *verdicts) all() {
	v.once.Do(func() {
		as := sortedAdapters(v.m)
		js := v.judgeAll(as)
		v.engine.ForgetNoRelease() // its grid's steps, judged

		// Each reason's number among the distinct ones (a 10k-adapter
		// build has 400,000 reasons): found by a hash of its fields and
		// then compared field by field, so no key is built for each.
		ids, distinct := distinctReasons(js)
		users := make([]int, distinct)
		for i := range js {
			for _, id := range ids[i] {
				users[id]++
			}
		}
		refN := map[string]int{}
		ref := func(x XRef) int {
			k := refKey(x)
			n, ok := refN[k]
			if !ok {
				n = len(v.refs)
				refN[k] = n
				v.refs = append(v.refs, x)
			}
			return n
		}
		conv := func(r fullReason) XReason {
			x := XReason{Level: r.Level, Text: r.Text, Nearest: r.Nearest, Firmware: r.Firmware, Likely: r.Likely, Informs: r.Informs}
			for _, rf := range r.Refs {
				x.Refs = append(x.Refs, ref(rf))
			}
			return x
		}
		sharedN := make([]int, distinct) // a distinct reason's number in v.shared, -1: none
		for i := range sharedN {
			sharedN[i] = -1
		}
		for i, j := range js {
			for ri, id := range ids[i] {
				if sharedN[id] < 0 && users[id] > 1 {
					sharedN[id] = len(v.shared)
					v.shared = append(v.shared, conv(j.reason(ri)))
				}
			}
		}
		v.tables = map[string]*AdapterVerdicts{}
		nums := make([][]int, len(js))
		// Each judged table is let go of once made into the adapter's
		// (and a first's once its last peer's is): the judged reasons and
		// cells of the adapters done are not held while the rest are made.
		firstN := map[*judged]int{}
		for k := range js {
			if js[k].first == nil {
				firstN[&js[k]] = k
			}
		}
		last := make([]int, len(js)) // the last table that reads js[k]
		for k := range js {
			last[k] = k
			if js[k].first != nil {
				last[firstN[js[k].first]] = k
			}
		}
		for i := range js {
			j := &js[i]
			t := &AdapterVerdicts{Firmware: map[string][]XFirmware{}, rename: j.rename}
			num := make([]int, j.len())
			for ri, id := range ids[i] {
				if n := sharedN[id]; n >= 0 {
					num[ri] = n
					continue
				}
				num[ri] = len(v.shared) + len(t.Reasons)
				if j.first != nil && j.changed[ri] {
					t.renaming = append(t.renaming, len(t.Reasons))
				}
				t.Reasons = append(t.Reasons, conv(j.kept(ri)))
			}
			nums[i] = num
			// A peer's cells are its first's, renamed: numbered alike,
			// they are kept once.
			if f := j.from; f >= 0 && f != i && slices.Equal(num, nums[f]) {
				t.Cells = v.tables[as[f].ID].Cells
			} else {
				t.Cells = numbered(j.cells, num)
			}
			a := as[i]
			if l := verdict.FirmwareLineOf(v.m, a.ID); l != nil {
				t.Line = &XLine{Major: l.Major, Ref: exportRef(verdict.LineRef(v.m, a, l, true))}
				for j := range v.m.FWLines {
					o := &v.m.FWLines[j]
					if o.Vendor == l.Vendor && o.Major != l.Major {
						if t.Line.Others == nil {
							t.Line.Others = map[string]XLineName{}
						}
						t.Line.Others[o.Major] = XLineName{Names: strings.Join(verdict.LineNames(v.m, o), " / "), Ref: exportRef(verdict.LineRef(v.m, a, o, false))}
					}
				}
			}
			for _, st := range v.stacks {
				for _, f := range rule.FirmwareMins(v.m, a.ID, st.Key, "") {
					t.Firmware[st.Key] = append(t.Firmware[st.Key], XFirmware{
						Feature: f.Feature, Min: f.Min, Rule: f.Rule, Optional: rule.OptionalFeature(f.Feature), Stack: f.Stack, StackVer: f.StackVersion,
						Text: rule.MinRule(a, f), Sources: f.Sources, Confidence: f.Confidence,
					})
				}
			}
			v.tables[a.ID] = t
			if j.first != nil {
				if f := firstN[j.first]; last[f] == i {
					js[f] = judged{}
				}
			}
			if last[i] == i {
				js[i] = judged{}
			}
		}
		v.shareLayouts()
	})
}

// judgeAll asks the engine about every adapter's targets × stacks, in
// parallel. Peers (matrix.Peers: adapters the matrix states alike but for
// their identity) are judged once: the group's first adapter is judged,
// and each other one gets its tables with the first's identity renamed to
// its own. Its second adapter is judged too, and when the renamed tables
// are not exactly what the engine said for it (a name that also occurs in
// words shared by all), every adapter of the group is judged on its own.
func (v *verdicts) judgeAll(as []*matrix.Adapter) []judged {
	peers := v.engine.Peers()
	group := map[string]int{} // a group (its first in the file) → its first in as
	firstOf := make([]int, len(as))
	second := map[int]int{} // a group's first → its second
	for i, a := range as {
		f, ok := group[peers[a.ID]]
		if !ok {
			f = i
			group[peers[a.ID]] = i
		}
		firstOf[i] = f
		if _, ok := second[f]; f < i && !ok {
			second[f] = i
		}
	}
	js := make([]judged, len(as))
	direct := make([]bool, len(as)) // a group's first and second
	for i, f := range firstOf {
		s, ok := second[f]
		direct[i] = f == i || (ok && s == i)
	}
	parallel.Each(len(as), func(i int) {
		if direct[i] {
			js[i] = v.judge(as[i].ID)
			js[i].from = i
		}
	})
	alone := map[int]bool{} // groups whose renaming did not hold
	for f, s := range second {
		if r := v.m.Rename(as[f].ID, as[s].ID); r == nil || !js[f].renamed(r).same(js[s]) {
			alone[f] = true
		}
	}
	parallel.Each(len(as), func(i int) {
		f := firstOf[i]
		switch {
		case direct[i]:
		case alone[f]:
			js[i] = v.judge(as[i].ID)
			js[i].from = i
		default:
			js[i] = js[f].peer(v.m.Rename(as[f].ID, as[i].ID))
		}
	})
	v.renamedFrom = map[string]string{}
	for i, a := range as {
		if f := firstOf[i]; !direct[i] && !alone[f] {
			v.renamedFrom[a.ID] = as[f].ID
		}
	}
	return js
}

// renamed is j with every word of an adapter's identity r maps put in
// its peer's words. The cells are j's unless a cell's own nearest
// changes name one.
func (j *judged) renamed(r *matrix.Renamer) judged {
	p := j.peer(r)
	return p.full()
}

// renameText is s in r's words: s itself, the one copy, when r changes
// nothing in it.
func renameText(r *matrix.Renamer, s string) string {
	if n := r.Replace(s); n != s {
		return n
	}
	return s
}

// renameReason is x in r's words.
func renameReason(x fullReason, r *matrix.Renamer) fullReason {
	x.Text, x.Nearest = renameText(r, x.Text), renameText(r, x.Nearest)
	x.Refs = renameRefs(x.Refs, r)
	return x
}

// renameRefs is refs in r's words: refs itself when r changes none.
func renameRefs(refs []XRef, r *matrix.Renamer) []XRef {
	out := refs
	for k, ref := range refs {
		if e := renameText(r, ref.Entry); e != ref.Entry {
			if &out[0] == &refs[0] {
				out = slices.Clone(refs)
			}
			out[k].Entry = e
		}
	}
	return out
}

// peer is renamed's answer whose reasons are made when read
// (judged.reason): j's own, which must be kept while it is read.
func (j *judged) peer(r *matrix.Renamer) judged {
	out := judged{cells: j.cells, from: j.from, first: j, rename: r, changed: j.naming}
	cloned := false
	for i, c := range j.cells {
		if c.Nearest == nil {
			continue
		}
		near := make([]string, len(c.Nearest))
		for k, n := range c.Nearest {
			near[k] = renameText(r, n)
		}
		if slices.Equal(near, c.Nearest) {
			continue
		}
		if !cloned {
			out.cells, out.from, cloned = slices.Clone(j.cells), -1, true
		}
		out.cells[i].Nearest = near
	}
	return out
}

// same reports whether j and o hold the same reasons (as the tables
// number and write them: fullReason.equal) and the same cells, field for
// field, a nil list apart from an empty one (a cell writes them apart).
// reflect.DeepEqual's record of the lists it visited was most of its cost.
func (j judged) same(o judged) bool {
	a, b := j.full(), o.full()
	return slices.EqualFunc(a.reasons, b.reasons, fullReason.equal) && slices.EqualFunc(a.cells, b.cells, XCell.same)
}

// same reports whether c and o are alike in every field.
func (c XCell) same(o XCell) bool {
	return c.Level == o.Level && c.kernel == o.kernel &&
		(c.Reasons == nil) == (o.Reasons == nil) && slices.Equal(c.Reasons, o.Reasons) &&
		(c.Nearest == nil) == (o.Nearest == nil) && slices.Equal(c.Nearest, o.Nearest)
}

// numbered is cells with each reason index i replaced by num[i].
func numbered(cells []XCell, num []int) []XCell {
	out := make([]XCell, len(cells))
	for i, c := range cells {
		rs := make([]int, len(c.Reasons))
		for k, r := range c.Reasons {
			rs[k] = num[r]
		}
		c.Reasons = rs
		out[i] = c
	}
	return out
}

// judge asks the engine about every target × stack of one adapter.
func (v *verdicts) judge(adapter string) judged {
	// One cell per target × stack, made at its size: grown by append, a
	// 10k build's judged cells held a fifth more than they used.
	j := judged{cells: make([]XCell, 0, len(v.targets)*len(v.stacks))}
	// Reasons by text, compared field by field: a key string per reason
	// of every cell was most of a 10k-adapter build's garbage. byText
	// holds the last reason of each text, along[i] the one before reason
	// i of its text (-1: none), and starts at the size the adapter judged
	// before this one needed.
	byText := make(map[string]int, v.reasonsHint.Load())
	var along []int
	// A vendor stack's cells of the upstream kernels (k:) and of the
	// distro builds no release claims (v:) differ only in the kernel's
	// words, which the marks replace: each kind is judged once per stack.
	type kindOn struct{ kind, stack string }
	quoted := map[kindOn]XCell{}
	// Each verdict is read into the cell before the next is judged: the
	// one slice of reasons is lent to them all.
	var lent []verdict.Reason
	for _, tg := range v.targets {
		for _, st := range v.stacks {
			kind, _, _ := strings.Cut(tg.Key, ":")
			same := tg.raw != "" && kind != "t" && kind != "u" && v.quoted[st.Key]
			if c, ok := quoted[kindOn{kind, st.Key}]; ok && same {
				c.Reasons = slices.Clone(c.Reasons) // numbered in place by all
				j.cells = append(j.cells, c)
				continue
			}
			res := v.engine.JudgeInto(tg.Plan(adapter, st.Key), lent)
			if res.Reasons != nil {
				lent = res.Reasons
			}
			if tg.raw != "" {
				res = tg.marked(res)
			}
			c := XCell{Level: levelNum(res.Verdict), Reasons: make([]int, 0, len(res.Reasons)), kernel: res.Kernel}
			for _, r := range res.Reasons {
				i := -1
				last, ok := byText[r.Text]
				for n := last; ok && n >= 0; n = along[n] {
					if sameReason(j.reasons[n], r) {
						i = n
						break
					}
				}
				if i < 0 {
					i = len(j.reasons)
					if !ok {
						last = -1
					}
					byText[r.Text], along = i, append(along, last)
					j.reasons = append(j.reasons, exportReason(r))
				}
				c.Reasons = append(c.Reasons, i)
			}
			if !slices.Equal(DerivedNearest(res.Reasons), res.Nearest) {
				c.Nearest = append([]string{}, res.Nearest...)
			}
			if same {
				quoted[kindOn{kind, st.Key}] = c
			}
			j.cells = append(j.cells, c)
		}
	}
	v.reasonsHint.Store(int64(len(byText)))
	words := v.m.Identity(adapter)
	j.naming = make([]bool, len(j.reasons))
	for i, x := range j.reasons {
		j.naming[i] = x.holdsAny(words)
	}
	return j
}

// holdsAny reports whether a word of words is in the reason's text, its
// nearest change or one of its matrix entries.
func (r fullReason) holdsAny(words []string) bool {
	holds := func(s string) bool {
		return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(s, w) })
	}
	return holds(r.Text) || holds(r.Nearest) || slices.ContainsFunc(r.Refs, func(x XRef) bool { return holds(x.Entry) })
}

// marked is a kernel cell's verdict with the probe's words marked, in
// place: the engine's verdict's reasons and nearest changes are its own.
func (t Target) marked(res verdict.Verdict) verdict.Verdict {
	for i := range res.Reasons {
		r := &res.Reasons[i]
		r.Text, r.Nearest = t.mark(r.Text), t.mark(r.Nearest)
	}
	for i, n := range res.Nearest {
		res.Nearest[i] = t.mark(n)
	}
	return res
}

// isDistro reports whether the target is a distro release.
func (t Target) isDistro() bool { return t.raw == "" && t.Key != "" }

// sameReason reports whether r is exported as x: exportReason(r).equal(x)
// (the firmware mark follows from the matrix entries).
func sameReason(x fullReason, r verdict.Reason) bool {
	if x.Level != levelNum(r.Verdict) || x.Text != r.Text || x.Nearest != r.Nearest || len(x.Refs) != len(r.Matrix) || x.Likely != likelyNum(r.Likely) || x.Informs != r.Informs {
		return false
	}
	for i, ref := range r.Matrix {
		xr := x.Refs[i]
		if xr.Entry != ref.Entry || xr.Confidence != ref.Confidence || len(xr.Sources) != len(ref.Sources) {
			return false
		}
		for k, s := range ref.Sources {
			if xr.Sources[k] != s.ID {
				return false
			}
		}
	}
	return true
}

// distinctReasons numbers the distinct reasons of js in order of first
// use: ids[i][ri] is the number of js[i].reasons[ri]; n is how many. A
// renamed peer's reason that the renaming leaves alone (judged.changed
// false) is its first's, which comes before it: it has the first's
// number, and is neither hashed nor compared again (most of a 10k
// corpus's reasons are its 1,952 renamed peers').
func distinctReasons(js []judged) (ids [][]int, n int) {
	at := make(map[*judged]int, len(js)) // a judged adapter → its place in js
	for i := range js {
		at[&js[i]] = i
	}
	firstAt := make([]int, len(js)) // a renamed peer's first's place in js, before it; -1: none
	for i := range js {
		firstAt[i] = -1
		if f, ok := at[js[i].first]; ok && f < i {
			firstAt[i] = f
		}
	}
	kept := func(i, ri int) bool { return firstAt[i] >= 0 && !js[i].changed[ri] }
	seed := maphash.MakeSeed()
	hashes := make([][]uint64, len(js))
	parallel.Each(len(js), func(i int) {
		j := &js[i]
		hashes[i] = make([]uint64, j.len())
		var h maphash.Hash
		h.SetSeed(seed)
		for ri := range hashes[i] {
			if kept(i, ri) {
				continue
			}
			h.Reset()
			j.reason(ri).hash(&h)
			hashes[i][ri] = h.Sum64()
		}
	})
	type place struct{ i, ri, id int }
	byHash := map[uint64][]place{}
	ids = make([][]int, len(js))
	for i := range js {
		j := &js[i]
		ids[i] = make([]int, j.len())
	next:
		for ri := range ids[i] {
			if kept(i, ri) {
				ids[i][ri] = ids[firstAt[i]][ri]
				continue
			}
			h := hashes[i][ri]
			for _, c := range byHash[h] {
				if js[c.i].reason(c.ri).equal(j.reason(ri)) {
					ids[i][ri] = c.id
					continue next
				}
			}
			byHash[h] = append(byHash[h], place{i, ri, n})
			ids[i][ri] = n
			n++
		}
	}
	return ids, n
}

// hash writes every field of r that equal compares.
func (r fullReason) hash(h *maphash.Hash) {
	var b [4]byte
	b[0], b[1] = byte(r.Level), byte(r.Likely)
	if r.Firmware {
		b[2] = 1
	}
	if r.Informs {
		b[3] = 1
	}
	h.Write(b[:])
	h.WriteString(r.Text)
	h.WriteByte(0)
	h.WriteString(r.Nearest)
	for _, x := range r.Refs {
		h.WriteByte(1)
		h.WriteString(x.Entry)
		h.WriteByte(0)
		h.WriteString(x.Confidence)
		for _, s := range x.Sources {
			h.WriteByte(0)
			h.WriteString(s)
		}
	}
}

func (r fullReason) equal(o fullReason) bool {
	if r.Level != o.Level || r.Likely != o.Likely || r.Firmware != o.Firmware || r.Informs != o.Informs ||
		r.Text != o.Text || r.Nearest != o.Nearest || len(r.Refs) != len(o.Refs) {
		return false
	}
	for k, x := range r.Refs {
		if y := o.Refs[k]; x.Entry != y.Entry || x.Confidence != y.Confidence || !slices.Equal(x.Sources, y.Sources) {
			return false
		}
	}
	return true
}

// refKey tells matrix entries apart for numbering; \x00 never occurs in
// matrix text.
func refKey(x XRef) string {
	return x.Entry + "\x00" + x.Confidence + "\x00" + strings.Join(x.Sources, "\x00")
}

// DerivedNearest is the nearest changes a verdict's reasons give, in
// order: what the browser derives when a cell stores none.
func DerivedNearest(rs []verdict.Reason) []string {
	var out []string
	for _, r := range rs {
		if r.Nearest != "" && r.Verdict != verdict.Supported && !slices.Contains(out, r.Nearest) {
			out = append(out, r.Nearest)
		}
	}
	return out
}

// exportRef is a matrix entry as the form cites it.
func exportRef(ref rule.Ref) XRef {
	xr := XRef{Entry: ref.Entry, Confidence: ref.Confidence}
	for _, s := range ref.Sources {
		xr.Sources = append(xr.Sources, s.ID)
	}
	return xr
}

func exportReason(r verdict.Reason) fullReason {
	x := fullReason{Level: levelNum(r.Verdict), Text: r.Text, Nearest: r.Nearest, Likely: likelyNum(r.Likely), Informs: r.Informs}
	for _, ref := range r.Matrix {
		x.Refs = append(x.Refs, exportRef(ref))
		// "firmware_min <adapter> <feature>" is a firmware reason; with a
		// fourth word (the module) it is a driver minimum, which stays.
		if f := strings.Fields(ref.Entry); len(f) == 3 && f[0] == "firmware_min" {
			x.Firmware = true
		}
	}
	return x
}

// ReasonView is a reason as the pages show it.
type ReasonView struct {
	Shown
	Likely  verdict.Level // an unknown step's likely answer, a hint only
	Informs bool          // a note that does not decide the verdict
	Text    string
	Nearest string
	Refs    []XRef
	html    template.HTML // Inline(Text), when already rendered
}

// inline is Inline, rendered once per text: the grids show the reasons
// several adapters share on each of their pages. (An adapter's own
// reasons are not kept: at 10,000 adapters they would be most of them.)
func (v *verdicts) inline(text string) template.HTML {
	if h, ok := v.html.Load(text); ok {
		return h.(template.HTML)
	}
	h := Inline(text)
	v.html.Store(text, h)
	return h
}

// reasonHTML is the HTML of the text of reason number r of a table: a
// shared reason's, the same in every table, made once (inline).
func (v *verdicts) reasonHTML(r int, text string) template.HTML {
	if r < len(v.shared) {
		return v.inline(text)
	}
	return Inline(text)
}

// reason resolves reason number n of an adapter's table.
func (v *verdicts) reason(t *AdapterVerdicts, n int) ReasonView {
	var x XReason
	if n < len(v.shared) {
		x = v.shared[n]
	} else {
		x = t.Reasons[n-len(v.shared)]
	}
	rv := ReasonView{Shown: Shown{Levels[x.Level]}, Text: x.Text, Nearest: x.Nearest, Informs: x.Informs}
	if x.Likely > 0 {
		rv.Likely = Levels[x.Likely-1]
	}
	for _, r := range x.Refs {
		rv.Refs = append(rv.Refs, v.refs[r])
	}
	return rv
}

// table is an adapter's verdict table. A renamed peer's reasons are made
// in its words for each call, and not kept: ask once per page.
func (v *verdicts) table(adapter string) *AdapterVerdicts {
	v.all()
	t := v.tables[adapter]
	if t == nil || t.rename == nil {
		return t
	}
	out := *t
	out.rename, out.renaming = nil, nil
	out.Reasons = slices.Clone(t.Reasons)
	for _, i := range t.renaming {
		out.Reasons[i] = t.own(i)
	}
	return &out
}

// own is t's own reason i (of Reasons), in a renamed peer's words when
// t is its table as verdicts keeps it.
func (t *AdapterVerdicts) own(i int) XReason {
	x := t.Reasons[i]
	if _, ok := slices.BinarySearch(t.renaming, i); ok && t.rename != nil {
		x.Text, x.Nearest = t.rename.Replace(x.Text), t.rename.Replace(x.Nearest)
	}
	return x
}

// cell returns an adapter's cell for target × stack.
func (v *verdicts) cell(adapter, target, stack string) (XCell, bool) {
	v.all()
	row := v.row(v.tables[adapter], target) // the cells only: a peer's reasons are not renamed
	si, ok := v.stackN[stack]
	if row == nil || !ok {
		return XCell{}, false
	}
	return row[si], true
}

// row is target's cells in table t, one per stack (v.stacks), or nil
// when t is nil or has no such target.
func (v *verdicts) row(t *AdapterVerdicts, target string) []XCell {
	ti, ok := v.targetN[target]
	if t == nil || !ok {
		return nil
	}
	return t.Cells[ti*len(v.stacks) : (ti+1)*len(v.stacks)]
}

// level is a cell's verdict and nearest changes, without its reasons.
func (v *verdicts) level(t *AdapterVerdicts, c XCell) (verdict.Level, []string) {
	near := c.Nearest
	if near == nil {
		for _, n := range c.Reasons {
			r := v.raw(t, n)
			if r.Nearest != "" && r.Level != levelNum(verdict.Supported) && !slices.Contains(near, r.Nearest) {
				near = append(near, r.Nearest)
			}
		}
	}
	return Levels[c.Level], near
}

// raw is reason number n of an adapter's table, as exported.
func (v *verdicts) raw(t *AdapterVerdicts, n int) *XReason {
	if n < len(v.shared) {
		return &v.shared[n]
	}
	return &t.Reasons[n-len(v.shared)]
}

// DistroVerdict is the engine's verdict of adapter on a distro's GA
// kernel with stack and no firmware given, as verdict.Judge gives it
// (Kernel, Verdict, Nearest and the reasons' level, text, nearest and
// matrix entries with their source ids), read from the verdict table the
// pages show; ok is false for a cell the table does not hold.
func (s *Site) DistroVerdict(adapter, distro, stack string) (v verdict.Verdict, ok bool) {
	s.DistroVerdicts(adapter, []string{stack}, []string{distro}, func(_, _ string, _ int, c *verdict.Verdict) {
		if c != nil {
			v, ok = *c, true
			v.Reasons = slices.Clone(c.Reasons) // the call's, lent to the next
		}
	})
	return v, ok
}

// DistroVerdicts calls yield with DistroVerdict's answer for each of
// stacks and each of distros in turn (stack-major): v, nil for a cell
// the table does not hold, is the call's own, to be read during yield
// only. Cells whose verdicts are alike but for their plan and kernel (the
// same level, reasons and nearest changes) are made once: n numbers the
// distinct verdicts in the order first yielded, and the cells of one
// number share its Verdict, Likely, Nearest and Reasons (the same slices,
// their Matrix entries too, to be read, not changed). The exports read
// every cell of the grid, so a build reads each adapter's reasons once
// and makes each distinct verdict once, into memory lent from one call
// to the next (distroScratch).
func (s *Site) DistroVerdicts(adapter string, stacks, distros []string, yield func(stack, distro string, n int, v *verdict.Verdict)) {
	vs := s.verdicts
	vs.all()
	t := vs.tables[adapter] // a peer's reasons renamed as they are read (own)
	if t == nil {
		for _, st := range stacks {
			for _, d := range distros {
				yield(st, d, -1, nil)
			}
		}
		return
	}
	x := distroScratches.Get().(*distroScratch)
	defer x.done()
	// Each distro's row of the table, -1 for one it does not hold; the
	// reasons of the cells read, to lay the distinct verdicts' out in one
	// slice that does not move.
	rows := slices.Grow(x.rows[:0], len(distros))
	nr := 0
	for _, d := range distros {
		r := -1
		if ti, ok := vs.targetN[d]; ok && vs.targets[ti].isDistro() {
			r = ti * len(vs.stacks)
			for _, st := range stacks {
				if si, ok := vs.stackN[st]; ok {
					nr += len(t.Cells[r+si].Reasons)
				}
			}
		}
		rows = append(rows, r)
	}
	x.rows = rows
	slots := 1
	for slots < 2*len(stacks)*len(distros) {
		slots *= 2
	}
	x.slots = slices.Grow(x.slots[:0], slots)[:slots]
	x.reasons = slices.Grow(x.reasons[:0], nr)
	x.made = slices.Grow(x.made[:0], len(t.Reasons))[:len(t.Reasons)]
	var v verdict.Verdict
	for _, st := range stacks {
		si, ok := vs.stackN[st]
		for i, d := range distros {
			if !ok || rows[i] < 0 {
				yield(st, d, -1, nil)
				continue
			}
			c := &t.Cells[rows[i]+si]
			n := x.number(c)
			if n == len(x.distinct) {
				x.distinct = append(x.distinct, vs.distroVerdict(t, c, x))
			}
			v = x.distinct[n]
			v.Plan = verdict.Plan{Adapter: adapter, Distro: d, Stack: st}
			v.Adapter, v.Distro, v.Kernel, v.Stack = adapter, d, c.kernel, st
			yield(st, d, n, &v)
		}
	}
}

// distroScratch is what DistroVerdicts makes while it reads an adapter's
// cells and lets go of when it returns: the distinct verdicts, their
// reasons, the adapter's own reasons as judged and the keys the cells are
// told apart by. The next call reuses it (distroScratches), so reading
// the grid allocates no memory per distinct verdict but its derived
// nearest changes.
type distroScratch struct {
	rows     []int
	distinct []verdict.Verdict
	reasons  []verdict.Reason // the distinct verdicts' Reasons, one after another
	made     []verdict.Reason // the table's own reasons as judged (Text set), by number after the shared ones
	keys     []byte           // the distinct verdicts' cellKeys, one after another
	at       []int            // verdict n's key is keys[at[n]:at[n+1]]
	// slots is a hash table of the keys, open and linearly probed: n+1
	// for verdict n, 0 for none. Its length, a power of two, is at least
	// twice the cells read.
	slots []int32
	seed  maphash.Seed
}

var distroScratches = sync.Pool{New: func() any { return &distroScratch{seed: maphash.MakeSeed()} }}

// number is the number of the distinct verdict cell c has, len(x.distinct)
// for a verdict not seen before (its key then kept).
func (x *distroScratch) number(c *XCell) int {
	if len(x.at) == 0 {
		x.at = append(x.at, 0)
	}
	start := len(x.keys)
	x.keys = cellKey(x.keys, c)
	key := x.keys[start:]
	mask := len(x.slots) - 1
	for i := int(maphash.Bytes(x.seed, key)) & mask; ; i = (i + 1) & mask {
		n := int(x.slots[i]) - 1
		if n < 0 {
			n = len(x.at) - 1
			x.slots[i] = int32(n + 1)
			x.at = append(x.at, len(x.keys))
			return n
		}
		if bytes.Equal(x.keys[x.at[n]:x.at[n+1]], key) {
			x.keys = x.keys[:start]
			return n
		}
	}
}

// done lets go of what the call made and lends x to the next.
func (x *distroScratch) done() {
	clear(x.distinct)
	clear(x.reasons)
	clear(x.made)
	clear(x.slots)
	x.distinct, x.reasons, x.made, x.keys, x.at = x.distinct[:0], x.reasons[:0], x.made[:0], x.keys[:0], x.at[:0]
	distroScratches.Put(x)
}

// cellKey appends what a cell's verdict is made of but its kernel: its
// level, its reasons' numbers and its own nearest changes.
func cellKey(b []byte, c *XCell) []byte {
	b = binary.AppendUvarint(b, uint64(c.Level))
	b = binary.AppendUvarint(b, uint64(len(c.Reasons)))
	for _, n := range c.Reasons {
		b = binary.AppendUvarint(b, uint64(n))
	}
	if c.Nearest == nil {
		return append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(c.Nearest))+1)
	for _, n := range c.Nearest {
		b = binary.AppendUvarint(b, uint64(len(n)))
		b = append(b, n...)
	}
	return b
}

// distroVerdict is the verdict of cell c of the adapter's table t: its
// level, reasons and nearest changes, with no plan, adapter, distro,
// kernel or stack; its reasons laid out in x.reasons, each of the table's
// own judged (and renamed, for a peer's) once into x.made.
func (vs *verdicts) distroVerdict(t *AdapterVerdicts, c *XCell, x *distroScratch) verdict.Verdict {
	at := len(x.reasons)
	shared := vs.sharedJudged()
	for _, n := range c.Reasons {
		if n < len(shared) {
			x.reasons = append(x.reasons, shared[n])
			continue
		}
		r := &x.made[n-len(shared)]
		if r.Verdict == "" {
			own := t.own(n - len(shared))
			*r = vs.judged(&own)
		}
		x.reasons = append(x.reasons, *r)
	}
	v := verdict.Verdict{Verdict: Levels[c.Level], Reasons: x.reasons[at:len(x.reasons):len(x.reasons)]}
	v.Nearest = c.Nearest
	if v.Nearest == nil {
		v.Nearest = DerivedNearest(v.Reasons)
	}
	v.Likely = verdict.LikelyOf(v.Verdict, v.Reasons)
	return v
}

// sharedJudged is each shared reason (v.shared) as verdict.Judge gives
// it, made once for every adapter's exports, not once per adapter.
func (v *verdicts) sharedJudged() []verdict.Reason {
	v.sharedOnce.Do(func() {
		v.sharedRs = make([]verdict.Reason, len(v.shared))
		for n := range v.shared {
			v.sharedRs[n] = v.judged(&v.shared[n])
		}
	})
	return v.sharedRs
}

// judged is raw reason x as verdict.Judge gives it: its level, text,
// nearest, and its matrix entries with their source ids.
func (v *verdicts) judged(x *XReason) verdict.Reason {
	r := verdict.Reason{Verdict: Levels[x.Level], Informs: x.Informs, Text: x.Text, Nearest: x.Nearest}
	if x.Likely > 0 {
		r.Likely = Levels[x.Likely-1]
	}
	if len(x.Refs) == 0 {
		return r
	}
	// The entries and their sources share two slices sized up front.
	nsrcs := 0
	for _, xr := range x.Refs {
		nsrcs += len(v.refs[xr].Sources)
	}
	refs := make([]rule.Ref, 0, len(x.Refs))
	srcs := make([]rule.SourceRef, 0, nsrcs)
	for _, xr := range x.Refs {
		e := &v.refs[xr]
		ref := rule.Ref{Entry: e.Entry, Confidence: e.Confidence}
		if len(e.Sources) > 0 {
			at := len(srcs)
			for _, id := range e.Sources {
				srcs = append(srcs, rule.SourceRef{ID: id})
			}
			ref.Sources = srcs[at:len(srcs):len(srcs)]
		}
		refs = append(refs, ref)
	}
	r.Matrix = refs
	return r
}

// GridLint is the grid lint of the site's matrix (verdict.Lint), which
// reads the verdicts the tables hold (a distro's cells) and judges the
// others with the engine that judged the tables, its memos made: a lint
// of its own, at load, judged all of them again (a build loads with
// kb.Options.SkipGridLint and lints here). Linted once for the verdicts,
// which an update of an unchanged matrix reuses; a call while it lints
// waits for its problems.
func (s *Site) GridLint() diag.List {
	v := s.verdicts
	v.all()
	v.lintOnce.Do(func() { v.lint = v.engine.LintBy(s.keptVerdict) })
	return v.lint
}

// keptVerdict is the engine's verdict for plan p: read from the
// adapter's table when it holds it (a distro's GA kernel, no release or
// firmware given: DistroVerdict), judged otherwise.
func (s *Site) keptVerdict(p verdict.Plan) verdict.Verdict {
	if p.Distro != "" && p.Kernel == "" && p.StackVersion == "" && p.Firmware == "" {
		st := p.Stack
		if st == "" {
			st = matrix.Inbox
		}
		if v, ok := s.DistroVerdict(p.Adapter, p.Distro, st); ok {
			v.Plan = p
			return v
		}
	}
	return s.verdicts.engine.Judge(p)
}

// ForgetJudging lets go of what the verdict engine memoized, for a build
// no update follows, once the verdict tables and the lists judged from
// them are made: the pages after read the tables. A plan judged after it
// is judged anew, to the same verdict (verdict.Engine.Forget).
func (s *Site) ForgetJudging() { s.verdicts.engine.Forget() }

// VerdictIndex is the data of verdicts.js.
func (s *Site) VerdictIndex() *Index {
	m := s.m
	v := s.verdicts
	v.all()
	ix := &Index{Stacks: v.stacks, Levels: Levels, Refs: v.refs, Reasons: v.shared, Sources: map[string]XSource{}}
	ix.Kernels = KernelIndex{Bounds: kernelBounds(m), Tagged: map[string]string{}, Tags: map[string]string{}, Streams: map[string][][2]string{}, Kernel: kernelMark, Base: baseMark}
	for t, d := range rule.KernelTags(m) {
		ix.Kernels.Tags[t], ix.Kernels.Tagged[d.ID] = d.ID, d.KernelBase
	}
	for _, d := range m.Distros {
		if tag, stream := rule.KernelStream(&d); stream != "" {
			ix.Kernels.Streams[tag] = append(ix.Kernels.Streams[tag], [2]string{stream, d.ID})
			ix.Kernels.Tagged[d.ID] = d.KernelBase
		}
	}
	ix.Kernels.Lines = map[string][]string{}
	for _, t := range v.targets {
		ix.Targets = append(ix.Targets, t.Key)
		if rest, ok := strings.CutPrefix(t.Key, "u:"); ok {
			tag, series, _ := strings.Cut(rest, ":")
			ix.Kernels.Lines[tag] = append(ix.Kernels.Lines[tag], series)
		}
	}
	ix.Distros = v.distros
	ix.Vendors = map[string][]string{}
	for _, vd := range m.Vendors {
		ix.Vendors[vd.ID] = append([]string{vd.ID, vd.Name}, vd.Aliases...)
	}
	ix.Drivers, ix.Families = m.ModuleAdapters(), m.Families()
	ix.Noise = Noise{Words: matrix.NoiseWords, Pattern: matrix.NoisePattern, PCI: matrix.PCIInTextPattern, MaxText: matrix.MaxTextWords, MaxName: matrix.MaxNameWords,
		Windows: matrix.WindowsPCIPattern, Board: matrix.NVIDIABoardPattern, Part: matrix.BroadcomPartPattern}
	for _, a := range sortedAdapters(m) {
		ia := IndexAdapter{ID: a.ID, Name: a.Name, Vendor: a.Vendor}
		parts := m.PartsOf(a.ID)
		for _, n := range m.AdapterNames(a) {
			if slices.ContainsFunc(parts, func(p matrix.PartNumber) bool { return p.Number == n }) {
				ia.Parts = append(ia.Parts, n)
			} else if !slices.Contains(ia.Names, n) {
				ia.Names = append(ia.Names, n)
			}
		}
		for _, p := range a.PCI {
			n := p.ID
			if p.Subsystem != "" {
				n += "/" + p.Subsystem
			}
			ia.PCI = append(ia.PCI, n)
		}
		ix.Adapters = append(ix.Adapters, ia)
	}
	for _, src := range m.Sources {
		ix.Sources[src.ID] = XSource{Title: src.Title, Href: src.Href()}
	}
	return ix
}

// VerdictAdapters lists the adapter ids that have a verdicts/<id>.js.
func (s *Site) VerdictAdapters() []string {
	var out []string
	for _, a := range sortedAdapters(s.m) {
		out = append(out, a.ID)
	}
	return out
}

// WriteVerdictIndex writes verdicts.js.
func (s *Site) WriteVerdictIndex(w io.Writer) error {
	return writeJS(w, "rocekbVerdicts.index(", s.VerdictIndex(), ");\n")
}

// WriteAdapterVerdicts writes verdicts/<adapter>.js: writeJS of its
// verdictFile, whose cells' part its layout holds encoded, once for every
// table that shares it.
func (s *Site) WriteAdapterVerdicts(w io.Writer, adapter string) error {
	name, _ := json.Marshal(adapter)
	t := s.verdicts.table(adapter)
	l := s.verdicts.layout(t)
	if l.err != nil {
		return l.err
	}
	// Written in its parts, each as it is made: put together first, they
	// were copied twice.
	var err error
	write := func(b []byte) {
		if err == nil {
			_, err = w.Write(b)
		}
	}
	part := func(v any) {
		if err == nil {
			var b []byte
			b, err = json.Marshal(v)
			write(b)
		}
	}
	write(append(append(append([]byte(jsHeader), "rocekbVerdicts.adapter("...), name...), `,{"r":`...))
	part(t.Reasons)
	write([]byte{','})
	write(l.encoded)
	write([]byte(`,"fw":`))
	part(t.Firmware)
	if t.Line != nil {
		write([]byte(`,"ln":`))
		part(t.Line)
	}
	write([]byte("});\n"))
	return err
}

// verdictFile is what verdicts/<adapter>.js holds: an AdapterVerdicts
// whose cells are written once each. A target's cells, one per stack,
// mostly share some reasons (the distro's kernel, the adapter's own
// claims), and most cells repeat once those are set apart: the file
// lists, per target, the reasons every cell of its row has (p), writing
// the k-th of them in a cell as -1-k; then each distinct cell once (u),
// each distinct row once as numbers into u (w), and each target's row by
// number (t). The browser finds target ti's cell for stack si at
// u[w[t[ti]][si]] and reads a reason -1-k as p[ti][k]. On the 10k corpus
// an adapter's 1,936 cells were 830 distinct, and the site's verdicts
// went from 97 MB, every cell written in full, to 46 MB.
type verdictFile struct {
	Reasons    []XReason              `json:"r"`
	cellLayout                        // p, u, w, t
	Firmware   map[string][]XFirmware `json:"fw"`
	Line       *XLine                 `json:"ln,omitempty"`
}

// laidOut is t's file with its cells laid out as l.
func (t *AdapterVerdicts) laidOut(l *cellLayout) *verdictFile {
	return &verdictFile{Reasons: t.Reasons, cellLayout: *l, Firmware: t.Firmware, Line: t.Line}
}

// cellLayout is the part of a verdictFile made from the cells alone.
type cellLayout struct {
	Shared  [][]int `json:"p"`
	Cells   Cells   `json:"u"`
	Rows    [][]int `json:"w"`
	Targets []int   `json:"t"`

	// encoded is the fields above as a verdictFile's JSON holds them
	// ("p":…,"t":[…]), made once for the files that share the layout
	// (the 10k corpus's 2,058 files have 106 layouts); err is why not.
	encoded []byte
	err     error
}

// layOut sets apart each row's shared reasons and numbers the distinct
// cells and rows of stacks cells, in the order they first appear.
func layOut(cells []XCell, stacks int) *cellLayout {
	f := &cellLayout{}
	cellN, rowN := map[string]int{}, map[string]int{}
	var key, row []byte
	for start := 0; start+stacks <= len(cells); start += stacks {
		shared, ns := sharedReasons(cells[start:start+stacks]), make([]int, stacks)
		f.Shared = append(f.Shared, shared)
		row = row[:0]
		for si, c := range cells[start : start+stacks] {
			if len(shared) > 0 {
				rs := make([]int, len(c.Reasons))
				for k, r := range c.Reasons {
					rs[k] = r
					if i := slices.Index(shared, r); i >= 0 {
						rs[k] = -1 - i
					}
				}
				c.Reasons = rs
			}
			key, _ = c.appendJSON(key[:0])
			n, ok := cellN[string(key)]
			if !ok {
				n = len(f.Cells)
				cellN[string(key)] = n
				f.Cells = append(f.Cells, c)
			}
			ns[si] = n
			row = strconv.AppendInt(append(row, ','), int64(n), 10)
		}
		n, ok := rowN[string(row)]
		if !ok {
			n = len(f.Rows)
			rowN[string(row)] = n
			f.Rows = append(f.Rows, ns)
		}
		f.Targets = append(f.Targets, n)
	}
	b, err := json.Marshal(f)
	if f.err = err; err == nil {
		f.encoded = b[1 : len(b)-1]
	}
	return f
}

// layoutSlot holds the layout of cells several tables share (peers'
// cells, kept once) from the first of their files written to the last.
type layoutSlot struct {
	once sync.Once
	l    *cellLayout
	left int // the files still to write
}

// shareLayouts counts the files of each table of cells several tables
// share, for layout.
func (v *verdicts) shareLayouts() {
	v.layouts = map[*XCell]*layoutSlot{}
	for _, t := range v.tables {
		if len(t.Cells) > 0 {
			if s := v.layouts[&t.Cells[0]]; s != nil {
				s.left++
			} else {
				v.layouts[&t.Cells[0]] = &layoutSlot{left: 1}
			}
		}
	}
	for k, s := range v.layouts {
		if s.left == 1 {
			delete(v.layouts, k) // its one file lays it out itself
		}
	}
}

// layout is the layout of t's cells in its verdicts file: a layout the
// cells of several tables share is made for the first of their files and
// let go of after the last (the 10k corpus's 2,058 files lay out 106
// distinct tables of cells: each peer's were its first's, laid out anew).
func (v *verdicts) layout(t *AdapterVerdicts) *cellLayout {
	if len(t.Cells) == 0 {
		return layOut(t.Cells, len(v.stacks))
	}
	key := &t.Cells[0]
	v.layoutMu.Lock()
	s := v.layouts[key]
	if s != nil {
		if s.left--; s.left == 0 {
			delete(v.layouts, key)
		}
	}
	v.layoutMu.Unlock()
	if s == nil {
		return layOut(t.Cells, len(v.stacks))
	}
	s.once.Do(func() { s.l = layOut(t.Cells, len(v.stacks)) })
	return s.l
}

// sharedReasons lists the reasons every one of cells has, in the first
// cell's order, each once; never nil, so the file writes [].
func sharedReasons(cells []XCell) []int {
	out := []int{}
	for _, r := range cells[0].Reasons {
		if slices.Contains(out, r) {
			continue
		}
		all := true
		for _, c := range cells[1:] {
			if !slices.Contains(c.Reasons, r) {
				all = false
				break
			}
		}
		if all {
			out = append(out, r)
		}
	}
	return out
}

// UnmarshalJSON reads a verdicts/<adapter>.js's data back into its
// table, each target's cells in place, as the browser looks them up.
func (t *AdapterVerdicts) UnmarshalJSON(b []byte) error {
	var f verdictFile
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	if len(f.Shared) != len(f.Targets) {
		return fmt.Errorf("verdict file: %d targets' shared reasons for %d targets", len(f.Shared), len(f.Targets))
	}
	*t = AdapterVerdicts{Reasons: f.Reasons, Firmware: f.Firmware, Line: f.Line}
	for ti, r := range f.Targets {
		if r < 0 || r >= len(f.Rows) {
			return fmt.Errorf("verdict file: target row %d of %d", r, len(f.Rows))
		}
		for _, n := range f.Rows[r] {
			if n < 0 || n >= len(f.Cells) {
				return fmt.Errorf("verdict file: cell %d of %d", n, len(f.Cells))
			}
			c := f.Cells[n]
			if c.Reasons != nil {
				rs := make([]int, len(c.Reasons))
				for k, r := range c.Reasons {
					rs[k] = r
					if r < 0 {
						if -1-r >= len(f.Shared[ti]) {
							return fmt.Errorf("verdict file: target %d has no shared reason %d", ti, -1-r)
						}
						rs[k] = f.Shared[ti][-1-r]
					}
				}
				c.Reasons = rs
			}
			t.Cells = append(t.Cells, c)
		}
	}
	return nil
}

// writeJS writes a JSON value wrapped in a call. encoding/json escapes
// <, > and &, so no string can close the script.
// jsHeader opens each verdicts file.
const jsHeader = "/* generated by kbgen build from the matrix and the verdict engine; do not edit */\n"

func writeJS(w io.Writer, pre string, v any, post string) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(w, jsHeader+pre); err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return err
	}
	_, err = io.WriteString(w, post)
	return err
}

func sortedAdapters(m *matrix.Matrix) []*matrix.Adapter {
	out := make([]*matrix.Adapter, len(m.Adapters))
	for i := range m.Adapters {
		out[i] = &m.Adapters[i]
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
