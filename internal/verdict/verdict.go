package verdict

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/rule"
	"github.com/rocekb/rocekb/internal/version"
)

// Level is the verdict on a planned configuration.
type Level string

const (
	Supported   Level = "supported"
	Conditional Level = "supported-with-conditions"
	Unsupported Level = "unsupported"
	Undecided   Level = "unknown" // the matrix does not say: never a guess
)

// rank orders levels so the worst reason decides the verdict.
func (l Level) rank() int {
	switch l {
	case Conditional:
		return 1
	case Undecided:
		return 2
	case Unsupported:
		return 3
	}
	return 0
}

// Plan is a configuration someone means to run or buy.
type Plan struct {
	Adapter      string `json:"adapter"`                 // matrix id, name, alias, part number, or PCI id vvvv:dddd[/ssss:ssss]
	Kernel       string `json:"kernel,omitempty"`        // uname -r or an upstream version (judged as released)
	Distro       string `json:"distro,omitempty"`        // matrix distro id or name, e.g. rhel-9.4, "RHEL 9.4"
	Stack        string `json:"stack,omitempty"`         // "inbox" (default) or a matrix stack id, name or alias, optionally id@version
	StackVersion string `json:"stack_version,omitempty"` // the stack release
	Firmware     string `json:"firmware,omitempty"`
}

// Reason is one step of a verdict, tied to the matrix entries it rests on.
// An unknown step may carry the answer it likely has (Likely): a hint for
// a reader, never a verdict.
type Reason struct {
	Verdict Level      `json:"verdict"`
	Likely  Level      `json:"likely,omitempty"` // an unknown step's likely answer, a hint only
	Text    string     `json:"text"`
	Informs bool       `json:"informs,omitempty"` // a note: it informs without deciding the verdict
	Nearest string     `json:"nearest,omitempty"` // the closest change that would make it supported
	Matrix  []rule.Ref `json:"matrix,omitempty"`
}

// Verdict answers "will this work?" for a plan. The worst reason decides
// it, except a firmware the matrix has no minimum for: that reason says
// "unknown" without turning what the matrix does know into "unknown".
type Verdict struct {
	Plan         Plan   `json:"plan"`
	Adapter      string `json:"adapter,omitempty"` // matrix adapter id
	AdapterName  string `json:"adapter_name,omitempty"`
	Distro       string `json:"distro,omitempty"`      // matrix distro id
	Kernel       string `json:"kernel,omitempty"`      // resolved kernel release
	KernelBase   string `json:"kernel_base,omitempty"` // its upstream version
	Stack        string `json:"stack"`
	StackVersion string `json:"stack_version,omitempty"`
	Verdict      Level  `json:"verdict"`
	// Likely is the answer an unknown verdict would likely have, were its
	// unknown steps confirmed as their hints say: a hint, never drawn as
	// the verdict nor counted as one. Empty unless Verdict is unknown and
	// every unknown step carries a hint.
	Likely  Level    `json:"likely,omitempty"`
	Reasons []Reason `json:"reasons"`
	Nearest []string `json:"nearest,omitempty"` // when not supported: the nearest change to the plan (kernel, distro, stack, firmware) that is
	// rebuild: the plan named a RHEL rebuild the matrix has no entry for,
	// judged as RHEL's release of its number (asRebuild, in judge).
	rebuild bool
	// familyRow is the entry of a family's distro_support row being read
	// for a rebuild whose kernel no source says is the family's
	// (judgeDistroRow): add makes the row's own steps hints, with
	// familyWhy said after them.
	familyRow, familyWhy string
}

func (v *Verdict) add(r Reason) {
	r = unconfirmed(r)
	if v.familyRow != "" && r.Verdict != Undecided && slices.ContainsFunc(r.Matrix, func(ref rule.Ref) bool { return ref.Entry == v.familyRow }) {
		r.Likely, r.Verdict = r.Verdict, Undecided
		r.Text += v.familyWhy
	}
	v.Reasons = append(v.Reasons, r)
	if r.Verdict.rank() > v.Verdict.rank() {
		v.Verdict = r.Verdict
	}
	if r.Nearest != "" && r.Verdict != Supported && !slices.Contains(v.Nearest, r.Nearest) {
		v.Nearest = append(v.Nearest, r.Nearest)
	}
}

// unconfirmed is r as add takes it: no yes step rests on an unconfirmed
// matrix entry. Taking it again changes nothing.
func unconfirmed(r Reason) Reason {
	if r.Verdict == Supported || r.Verdict == Conditional {
		if ref, ok := unconfirmedRef(r.Matrix); ok {
			r.Likely, r.Verdict = r.Verdict, Undecided
			r.Text += fmt.Sprintf(" (but %s is unconfirmed in the matrix; a source stating it would decide it)", ref.Entry)
		}
	}
	return r
}

// unconfirmedRef returns the first ref whose claim is unconfirmed.
func unconfirmedRef(refs []rule.Ref) (rule.Ref, bool) {
	for _, ref := range refs {
		if ref.Confidence == matrix.Unconfirmed {
			return ref, true
		}
	}
	return rule.Ref{}, false
}

// finish sets the likely hint of an unknown verdict (LikelyOf). Judge
// calls it once, last.
func (v *Verdict) finish() { v.Likely = LikelyOf(v.Verdict, v.Reasons) }

// LikelyOf is the likely hint of a verdict at level with reasons rs: for
// an unknown verdict, the worst of its deciding steps and its unknown
// steps' hints, when every unknown step has one; "" otherwise. Views that
// rebuild a verdict from its reasons call it, as Judge does.
func LikelyOf(level Level, rs []Reason) Level {
	if level != Undecided {
		return ""
	}
	likely := Supported
	for _, r := range rs {
		if r.Informs {
			continue
		}
		l := r.Verdict
		if l == Undecided {
			if l = r.Likely; l == "" {
				return ""
			}
		}
		if l.rank() > likely.rank() {
			likely = l
		}
	}
	return likely
}

// note adds a reason that informs without deciding the verdict.
func (v *Verdict) note(r Reason) {
	r.Informs = true
	v.Reasons = append(v.Reasons, r)
}

// RoCE is the RoCE an adapter does as Judge's first step reads it: its
// versions, and whether the matrix sources them (an unconfirmed adapter
// entry makes that step unknown).
func RoCE(a *matrix.Adapter) (versions []string, sourced bool) {
	if a.NotRoCE != "" {
		return nil, true
	}
	return a.RoCE, len(a.RoCE) > 0 && a.Confidence != matrix.Unconfirmed
}

// Yes reports whether a verdict is a sourced yes (supported, with or
// without conditions); an unknown with a likely hint is not.
func (v Verdict) Yes() bool { return v.Verdict == Supported || v.Verdict == Conditional }

// FindAdapter resolves an adapter id, name, alias, part number or PCI id
// (vvvv:dddd, or vvvv:dddd/ssss:ssss with subsystem ids); nil when nothing
// or more than one adapter matches.
func FindAdapter(m *matrix.Matrix, s string) *matrix.Adapter {
	if a := m.Adapter(strings.TrimSpace(s)); a != nil {
		return a
	}
	return m.ResolveAdapter(s).Value
}

// findDistro resolves a distro id or name, fast for ids.
func findDistro(m *matrix.Matrix, s string) matrix.Resolution[matrix.Distro] {
	if d := m.Distro(s); d != nil {
		return matrix.Resolution[matrix.Distro]{Value: d, How: "id"}
	}
	return m.ResolveDistro(s)
}

// Judge gives the verdict for a plan. Every reason cites its matrix entry;
// what the matrix does not state makes the verdict unknown, never a guess.
// It reads the matrix only, so a grid of plans may be judged concurrently.
func Judge(m *matrix.Matrix, p Plan) Verdict {
	if m == nil {
		m = &matrix.Matrix{}
	}
	return judge(m, nil, p, nil)
}

// judge is Judge, with e's lookups when e is not nil, its reasons
// appended to rs (nil: a slice of its own).
func judge(m *matrix.Matrix, e *Engine, p Plan, rs []Reason) Verdict {
	p = p.trimmed()
	if ver, ok := internalRelease(p); ok {
		return judgeInternal(m, e, p, ver)
	}
	if p.Distro == "" && p.Kernel != "" {
		if u := e.uekLine(m, p.Kernel); u.ds != nil {
			return judgeUEK(m, e, p, u)
		}
	}
	v := judgeSteps(m, e, p, rs)
	if len(v.Reasons) == 0 {
		v.Reasons = nil // as a verdict no step added to reads
	}
	v.finish()
	switch {
	case v.rebuild:
		v.asRebuild(p.Distro, m.Distro(v.Distro))
	case v.Distro != "" && p.Distro == "":
		v.sharedKernel(m, e, p)
	}
	e.keepLevel(p, &v)
	return v
}

// trimmed is p as judge reads it: its firmware and kernel as a person
// pastes them, trimmed to the version and the release.
func (p Plan) trimmed() Plan {
	p.Firmware, p.Kernel = version.TrimFirmware(p.Firmware), rule.TrimKernel(p.Kernel)
	return p
}

// judgeUEK judges a UEK kernel named without a distro (rule.UEKLine): a
// UEK update is not tied to one Oracle Linux update level, so the kernel
// is judged as each release of its line, ds, with that kernel. When they
// all give one verdict it is the verdict, with the newest release's
// reasons; otherwise it is unknown, naming each release's verdict, and
// the release (--distro) would decide it.
func judgeUEK(m *matrix.Matrix, e *Engine, p Plan, u uekLine) Verdict {
	tag, series, _ := strings.Cut(u.line, " ")
	ds, names, refs, head := u.ds, u.names, u.refs, u.head
	vs := make([]Verdict, len(ds))
	agree := true
	newest := 0
	for i, d := range ds {
		q := p
		q.Distro = d.ID
		vs[i] = judge(m, e, q, nil)
		agree = agree && vs[i].Verdict == vs[0].Verdict
		if c, ok := rule.Compare(d.Version, ds[newest].Version); ok && c > 0 {
			newest = i
		}
	}
	if agree {
		v := vs[newest]
		v.Plan, v.Distro = p, ""
		text := fmt.Sprintf("%s, and all of them give %s: the reasons below are %s's", head, v.Verdict, ds[newest].Name)
		if len(ds) == 1 {
			text = fmt.Sprintf("kernel %s is an Oracle Linux %s UEK kernel (dist tag %s, upstream %s): judged as %s, the one release whose UEK is on %s", p.Kernel, strings.TrimSuffix(strings.TrimPrefix(tag, "el"), "uek"), tag, series, ds[0].Name, series)
		}
		r := Reason{Verdict: Supported, Informs: true, Text: text, Matrix: refs}
		v.Reasons = append([]Reason{r}, v.Reasons...)
		return v
	}
	var each []string
	for i, w := range vs {
		each = append(each, fmt.Sprintf("%s: %s", names[i], w.Verdict))
	}
	v := Verdict{Plan: p, Verdict: Undecided, Stack: vs[newest].Stack, Adapter: vs[newest].Adapter, AdapterName: vs[newest].AdapterName, Kernel: vs[newest].Kernel, KernelBase: vs[newest].KernelBase}
	v.Reasons = []Reason{{Verdict: Undecided, Text: fmt.Sprintf("%s, and they differ (%s); the release it runs on (--distro) would decide it", head, strings.Join(each, "; ")), Matrix: refs}}
	return v
}

// uekOf is rule.UEKLine of a kernel release, and for a UEK kernel what
// judgeUEK says of it whatever the adapter and stack: each release's name
// and cited entry, and the words that lead its first reason.
func uekOf(m *matrix.Matrix, release string) uekLine {
	line, ds := rule.UEKLine(m, release)
	u := uekLine{line: line, ds: ds}
	if ds == nil {
		return u
	}
	tag, series, _ := strings.Cut(line, " ")
	u.names = make([]string, len(ds))
	u.refs = make([]rule.Ref, len(ds))
	for i, d := range ds {
		u.names[i] = d.Name
		u.refs[i] = rule.Cite(m, "distro "+d.ID, d.Claim, ships(d.Name, d.Kernel, distroBase(d)))
	}
	u.head = fmt.Sprintf("kernel %s is an Oracle Linux %s UEK kernel (dist tag %s, upstream %s): a UEK update is not tied to one update level, so it is judged as each release whose UEK is on %s, %s", release, strings.TrimSuffix(strings.TrimPrefix(tag, "el"), "uek"), tag, series, series, strings.Join(u.names, ", "))
	return u
}

// sharedKernel weighs a kernel release named without a distro, which the
// verdict judged as the RHEL release its dist tag names (el10_0: RHEL
// 10.0). A rebuild of that release the matrix holds with distro_support
// rows of its own ships the same version-release with its own changes
// (AlmaLinux 10.0's kernel is 6.12.0-55.9.1.el10_0 and re-adds PCI ids RHEL
// 10 disables), so the tag alone does not say which kernel it is: where the
// rebuild gets another inbox verdict, the verdict is unknown, RHEL's the
// likely answer.
func (v *Verdict) sharedKernel(m *matrix.Matrix, e *Engine, p Plan) {
	d := m.Distro(v.Distro)
	if d == nil || d.Rebuild != "" || v.Stack != matrix.Inbox {
		return
	}
	for i := range m.Distros {
		o := &m.Distros[i]
		if o.Rebuild == "" || o.Family != d.Family || o.Version != d.Version || !hasOwnRows(m, o) {
			continue
		}
		w := e.inboxLevel(m, Plan{Adapter: p.Adapter, Distro: o.ID, Stack: p.Stack, Firmware: p.Firmware})
		// A rebuild judged by its family's rows as a hint agrees with the
		// family where its likely answer is the family's verdict.
		if w.verdict == v.Verdict || w.verdict == Undecided && w.likely != "" && (w.likely == v.Verdict || w.likely == v.Likely) {
			continue
		}
		likely := v.Verdict
		if likely == Undecided {
			likely = v.Likely
		}
		text := fmt.Sprintf("kernel %s names %s by its dist tag, but %s ships the same version-release with its own changes, and the two differ for %s (%s: %s; %s: %s); the distro (--distro) would decide it", p.Kernel, d.Name, o.Name, v.AdapterName, d.Name, v.Verdict, o.Name, w.verdict)
		ref := rule.Cite(m, "distro "+o.ID, o.Claim, ships(o.Name, o.Kernel, o.KernelBase))
		v.Reasons = append([]Reason{{Verdict: Undecided, Likely: likely, Text: text, Matrix: []rule.Ref{ref}}}, v.Reasons...)
		v.Verdict, v.Likely = Undecided, likely
		return
	}
}

// hasOwnRows reports whether a rebuild release has distro_support rows of
// its own, which make its kernel differ from its family's.
func hasOwnRows(m *matrix.Matrix, d *matrix.Distro) bool {
	return slices.ContainsFunc(m.DistroRows, func(r matrix.DistroRow) bool {
		return r.Family == d.Family && r.Rebuild == d.Rebuild
	})
}

// asRebuild makes the verdict of a distro the matrix has no entry for,
// judged as the RHEL release it rebuilds, a hint: the matrix states
// nothing of the rebuild's own kernel, so its sources decide neither a
// yes nor a no. The RHEL verdict becomes the likely answer.
func (v *Verdict) asRebuild(name string, d *matrix.Distro) {
	likely := v.Verdict
	if likely == Undecided {
		likely = v.Likely
	}
	v.Reasons = append([]Reason{{Verdict: Undecided, Likely: likely, Text: fmt.Sprintf("the matrix has no entry for %q, so it is judged as %s, the RHEL release of its number: the reasons below are RHEL's and make a hint, not a verdict; an entry for %q with a source would decide it", name, d.Name, name)}}, v.Reasons...)
	v.Verdict, v.Likely = Undecided, likely
}

// otherModule is the module of stack ms that name names ("ice", "ICE")
// when it is not the module whose version names the stack's releases
// (ReleaseModule); "" otherwise.
func otherModule(ms *matrix.Stack, name string) string {
	if ms == nil || ms.ReleaseModule == "" {
		return ""
	}
	for _, mod := range ms.Modules {
		if mod != ms.ReleaseModule && strings.EqualFold(strings.TrimSpace(name), mod) {
			return mod
		}
	}
	return ""
}

// moduleRelease reads a release given as the release module's version
// as modinfo prints it, the module's own number, a dash and the release
// (bnxt_en 1.10.2-230.2.52.0, of Broadcom's bundle 230.2.52.0): the
// release, when ver is not a release of ms and what follows its first
// dash is.
func moduleRelease(ms *matrix.Stack, ver string) (string, bool) {
	if ms == nil || ms.ReleaseModule == "" || ver == "" || ms.HasRelease(ver) {
		return "", false
	}
	_, rel, ok := strings.Cut(ver, "-")
	if !ok || !ms.HasRelease(rel) {
		return "", false
	}
	return rel, true
}

// distroList names distros by id and name: "oracle-9.4-uek (Oracle Linux
// 9.4 (UEK R7)) and oracle-9.4-rhck (Oracle Linux 9.4 (RHCK))".
func distroList(ds []*matrix.Distro) string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s (%s)", d.ID, d.Name))
	}
	if len(out) < 2 {
		return strings.Join(out, "")
	}
	return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1]
}

// judgeSteps adds the reasons of every step of the plan's chain, appended
// to rs (nil: a slice of its own).
func judgeSteps(m *matrix.Matrix, e *Engine, p Plan, rs []Reason) Verdict {
	if rs == nil {
		// Room for four reasons, made once: a grid's verdicts hold two
		// to four, and grown from none by append each took three
		// allocations.
		rs = make([]Reason, 0, 4)
	}
	v := Verdict{Plan: p, Verdict: Supported, Stack: p.Stack, Reasons: rs}
	if v.Stack == "" {
		v.Stack = matrix.Inbox
	}
	a := e.adapter(m, strings.TrimSpace(p.Adapter))
	if a == nil {
		res := m.ResolveAdapter(p.Adapter)
		// The software device itself (--adapter softroce): over any NIC.
		if ms := SoftwareDevice(m, p.Adapter); ms != nil && res.Value == nil && len(res.Candidates) == 0 {
			v.Adapter, v.AdapterName = ms.ID, ms.Name
			judgeSoftware(m, e, &v, nil, ms, p)
			return v
		}
		// A software device without RoCE (--adapter siw): not RoCE.
		if d := NotRoCESoftware(m, p.Adapter); d != nil && res.Value == nil && len(res.Candidates) == 0 {
			judgeNotRoCESoftware(m, &v, d)
			return v
		}
		if len(res.Candidates) > 0 {
			ambiguous(m, &v, p.Adapter, res.Candidates)
			return v
		}
		if a = res.Value; a == nil {
			v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("adapter %q is not in the matrix, so there is no verdict%s; `kbgen check --list adapters` lists the adapters", p.Adapter, matrix.DidYouMean(res.Suggest))})
			return v
		}
	}
	v.Adapter, v.AdapterName = a.ID, a.Name
	// A software stack reads the whole matrix: its distro rows name its
	// driver, not the adapter, so the adapter's view holds none of them.
	if ms := softwareStack(m, e, p.Stack); ms != nil {
		judgeSoftware(m, e, &v, a, ms, p)
		return v
	}
	m = e.view(m, a)
	if a.NotRoCE != "" {
		replay(&v, []Reason{e.perAdapter(p).roceStep(m, a)})
		return v
	}
	// The distro, and the kernel: --kernel, else the distro's GA kernel.
	var distro *matrix.Distro
	if p.Distro != "" {
		r := e.distro(m, p.Distro)
		switch distro = r.Value; {
		case distro != nil:
			v.Distro, v.rebuild = distro.ID, r.How == "rebuild"
		case len(r.Candidates) > 0:
			if d := KernelPicks(m, r.Candidates, p.Kernel); d != nil {
				distro, v.Distro = d, d.ID
				v.note(Reason{Verdict: Supported, Text: fmt.Sprintf("distro %q names %s; kernel %s is %s's: judged as %s", p.Distro, distroList(r.Candidates), p.Kernel, d.Name, d.Name),
					Matrix: []rule.Ref{rule.Cite(m, "distro "+d.ID, d.Claim, ships(d.Name, d.Kernel, d.KernelBase))}})
				break
			}
			v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("distro %q names %s, whose kernels the matrix judges apart; --distro with one of their ids would decide it", p.Distro, distroList(r.Candidates))})
		default:
			v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("distro %q is not in the matrix, so its kernel is unknown; `kbgen check --list distros` lists the distros", p.Distro)})
		}
	}
	k := e.planKernel(m, &v, p, distro)
	if distro != nil && k.Distro != nil && k.Distro != distro {
		distro = k.Distro // the release whose kernel the plan runs
	}
	if len(a.RoCE) == 0 {
		noRoCE(m, &v, a, adapterRef(m, a), k, p.Stack)
		return v
	}
	replay(&v, []Reason{e.perAdapter(p).roceStep(m, a)})

	// A release given apart is read as one joined to the stack's name is:
	// a DOCA-Host package's version (3.3.0-088000-26.01-ubuntu2404, as
	// dpkg -l lists doca-host) is its DOCA release.
	stackID, stackVer := matrix.Inbox, p.StackVersion
	if stackVer != "" {
		stackVer = matrix.ReadRelease(stackVer)
	}
	var ms *matrix.Stack
	if v.Stack != matrix.Inbox {
		name, ver, _ := strings.Cut(v.Stack, "@")
		var res matrix.Resolution[matrix.Stack]
		stackID, res = e.resolveStack(m, name)
		if stackID == "" && ver == "" {
			// A stack named with its release: MLNX_OFED_LINUX-5.8-3.0.7.0.
			if n, r := m.SplitStack(name); r != "" {
				name, ver = n, r
				stackID, res = e.resolveStack(m, name)
			}
		}
		if ver != "" && stackVer == "" {
			stackVer = ver
		}
		ms = res.Value
		if mod := otherModule(ms, name); mod != "" && stackVer != "" {
			// "ice 1.9.11": that module's version, not the release's.
			v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("%s %s is the version of %s, and %s releases are named by the version of %s, which %s's does not give: judged as the stack with no release named; modinfo %s's version would decide which release it is", mod, stackVer, mod, ms.Name, ms.ReleaseModule, mod, ms.ReleaseModule),
				Matrix: []rule.Ref{rule.Cite(m, "stack "+ms.ID, ms.Claim, ms.Name)}})
			stackVer = ""
		}
		if rel, ok := moduleRelease(ms, stackVer); ok {
			// modinfo bnxt_en's "1.10.2-230.2.52.0": the bundle follows
			// bnxt_en's own version.
			v.note(Reason{Verdict: Supported, Text: fmt.Sprintf("%s is %s's version as modinfo prints it, its own number then the release %s: judged as %s %s", stackVer, ms.ReleaseModule, rel, ms.Name, rel),
				Matrix: []rule.Ref{rule.Cite(m, "stack "+ms.ID, ms.Claim, ms.Name)}})
			stackVer = rel
		}
		if stackID == "" {
			v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("stack %q is not in the matrix%s; `kbgen check --list stacks` lists the stacks", name, matrix.DidYouMean(res.Suggest))})
			return v
		}
	}
	v.Stack, v.StackVersion = stackID, stackVer
	if ms != nil {
		// Drivers named by their own version (24.10-1.1.4.0) are judged
		// as the release that ships them (DOCA 2.9.1).
		ms, stackVer = asDriversRelease(m, &v, ms, stackVer)
		stackID = ms.ID
		judgeStack(m, e, &v, a, ms, stackVer, distro, k)
	} else if p.Distro == "" || distro != nil {
		judgeInbox(m, e, &v, a, k)
	}
	e.tail(m, &v, a, ms, stackID, stackVer, p.Firmware)
	return v
}

// adapterRef cites adapter a's entry.
func adapterRef(m *matrix.Matrix, a *matrix.Adapter) rule.Ref {
	return rule.Cite(m, "adapter "+a.ID, a.Claim, a.Name)
}

// roceStep is the step that adapter a does RoCE, or for an adapter the
// matrix says is not a RoCE adapter that it is not, citing its entry.
func roceStep(m *matrix.Matrix, a *matrix.Adapter) Reason {
	aref := adapterRef(m, a)
	if a.NotRoCE != "" {
		aref.Rule = a.Name + " is not a RoCE adapter: " + a.NotRoCE
		return Reason{Verdict: Unsupported, Text: aref.Rule, Matrix: []rule.Ref{aref}}
	}
	aref.Rule = fmt.Sprintf("%s does RoCE %s", a.Name, strings.Join(a.RoCE, " and "))
	return Reason{Verdict: Supported, Text: aref.Rule, Matrix: []rule.Ref{aref}}
}

// noRoCE judges an adapter whose RoCE the matrix does not state: unknown,
// unless the planned upstream kernel does not even list the device.
func noRoCE(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, aref rule.Ref, k kernel, stack string) {
	if drv := m.Driver(a.RDMADriver); drv != nil && drv.InTree && k.Base != "" && k.Distro == nil && !k.Vendor && (stack == "" || stack == matrix.Inbox) {
		dk := deviceKernelOf(m, a, drv, v.Plan.Adapter)
		if c, ok := rule.Compare(k.Base, dk.Kernel); ok && c < 0 {
			v.add(Reason{Verdict: Unsupported, Text: fmt.Sprintf("kernel %s (as released) does not list %s: %s", k.Base, a.Name, dk.Text), Nearest: "Linux " + dk.Kernel + " or later", Matrix: append([]rule.Ref{aref}, dk.Refs...)})
			return
		}
	}
	text := "the matrix does not state that " + a.Name + " does RoCE"
	if a.Note != "" {
		text += " (" + a.Note + ")"
	}
	v.add(Reason{Verdict: Undecided, Text: text + "; a source naming the RoCE versions its RDMA driver offers on it would decide it", Matrix: []rule.Ref{aref}})
}

// ambiguous explains a PCI id several adapters share: only the subsystem
// id names the model, and the candidates differ in RoCE support.
func ambiguous(m *matrix.Matrix, v *Verdict, s string, cands []*matrix.Adapter) {
	var roce, not []string
	var refs []rule.Ref
	for _, a := range cands {
		refs = append(refs, adapterRef(m, a))
		if a.NotRoCE == "" && len(a.RoCE) > 0 {
			roce = append(roce, fmt.Sprintf("%s (RoCE %s)", a.Name, strings.Join(a.RoCE, ", ")))
		} else {
			not = append(not, a.Name)
		}
	}
	text := fmt.Sprintf("%s is shared by %d adapters in the matrix; only the PCI subsystem id (vvvv:dddd/ssss:ssss, from `lspci -nnv`) names the model", s, len(cands))
	if len(roce) > 0 {
		text += "; RoCE: " + strings.Join(roce, ", ")
	}
	if len(not) > 0 {
		text += "; not RoCE: " + strings.Join(not, ", ")
	}
	v.add(Reason{Verdict: Undecided, Text: text, Matrix: refs})
}

// kernel is the kernel a plan runs: an upstream release judged as
// released, or a distro's kernel judged by its release.
type kernel struct {
	Base   string         // upstream x.y[.z]
	Distro *matrix.Distro // the distro release, when the kernel is a distro's
	Vendor bool           // a distro kernel (uname -r with a distro part) whose release the matrix does not know
	// Flavour is set for a vendor kernel that is another flavour of the
	// named release than the one its rows read (rule.UnreadFlavour).
	Flavour string
}

func planKernel(m *matrix.Matrix, e *Engine, v *Verdict, p Plan, distro *matrix.Distro) kernel {
	if p.Kernel != "" {
		v.Kernel = p.Kernel
		base, rel, ok := rule.KernelBase(p.Kernel)
		if !ok {
			v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("kernel %q is not a kernel release (want e.g. 6.8 or 5.14.0-427.13.1.el9_4.x86_64)", p.Kernel)})
			return kernel{}
		}
		v.KernelBase = base
		if rel == "" {
			return kernel{Base: base}
		}
		// A distro kernel: judged by its distro release, not its number.
		if distro == nil {
			distro = e.kernelDistro(m, p.Kernel)
		} else if flavour, ok := rule.UnreadFlavour(distro, p.Kernel); ok {
			// Another kernel package of the release: its rows read the
			// configuration of another flavour.
			v.note(Reason{Verdict: Undecided, Text: fmt.Sprintf("kernel %s is the %s flavour, another kernel package than the one whose configuration %s's distro_support rows read, so they say nothing of it and it is judged by its number alone; that flavour's own kernel configuration would decide it", p.Kernel, flavour, distro.Name), Matrix: []rule.Ref{rule.Cite(m, "distro "+distro.ID, distro.Claim, ships(distro.Name, distro.Kernel, distro.KernelBase))}})
			return kernel{Base: base, Vendor: true, Flavour: flavour}
		} else if own := e.kernelDistro(m, p.Kernel); !sameRelease(own, distro) || !sameSeries(base, distroBase(distro)) {
			// Not the release's own kernel: its rows read that kernel.
			d, text := otherKernel(m, p.Kernel, base, distro, own)
			if d == nil {
				v.note(Reason{Verdict: Undecided, Text: text, Matrix: []rule.Ref{rule.Cite(m, "distro "+distro.ID, distro.Claim, ships(distro.Name, distro.Kernel, distro.KernelBase))}})
				return kernel{Base: base, Vendor: true}
			}
			v.Distro = d.ID
			v.note(Reason{Verdict: Supported, Text: text, Matrix: []rule.Ref{rule.Cite(m, "distro "+d.ID, d.Claim, ships(d.Name, d.Kernel, d.KernelBase))}})
			return kernel{Base: base, Distro: d}
		}
		if distro != nil {
			v.Distro = distro.ID
			if p.Distro == "" {
				// Named by the kernel alone: say how.
				text := namedBy(m, p.Kernel, distro)
				v.note(Reason{Verdict: Supported, Text: text, Matrix: []rule.Ref{rule.Cite(m, "distro "+distro.ID, distro.Claim, text)}})
			}
			return kernel{Base: base, Distro: distro}
		}
		return kernel{Base: base, Vendor: true}
	}
	if distro == nil {
		return kernel{}
	}
	v.Kernel, v.KernelBase = distro.Kernel, distro.KernelBase
	if v.KernelBase == "" {
		v.KernelBase, _, _ = rule.KernelBase(distro.Kernel)
	}
	if v.KernelBase != "" {
		v.note(Reason{Verdict: Supported, Text: ships(distro.Name, distro.Kernel, v.KernelBase),
			Matrix: []rule.Ref{rule.Cite(m, "distro "+distro.ID, distro.Claim, ships(distro.Name, distro.Kernel, distro.KernelBase))}})
	}
	return kernel{Base: v.KernelBase, Distro: distro}
}

// otherKernel places a distro kernel that is not the named release d's own
// (own, the release its dist tag names, is another release of d's family,
// or its upstream base is not d's kernel base: an HWE kernel named with
// the GA release, UEK 8 on an Oracle Linux release the matrix records with
// UEK R7). A release's distro_support rows read its own kernel, so they
// say nothing of another one: the kernel is judged as the release it is,
// the one its tag names or the one release of d's version whose kernel
// base is its base, or, with none, as a distro kernel the matrix cannot
// place (unknown). text says which.
func otherKernel(m *matrix.Matrix, release, base string, d, own *matrix.Distro) (*matrix.Distro, string) {
	if own != nil && own.Family == d.Family && sameSeries(base, distroBase(own)) {
		return own, fmt.Sprintf("kernel %s is %s's by its %s, not %s's: judged as %s, whose kernel it is", release, own.Name, kernelSign(m, own), d.Name, own.Name)
	}
	var found *matrix.Distro
	for i := range m.Distros {
		o := &m.Distros[i]
		if o == d || o.Family != d.Family || o.Rebuild != d.Rebuild || o.Version != d.Version || !sameSeries(base, distroBase(o)) {
			continue
		}
		if found != nil {
			found = nil
			break
		}
		found = o
	}
	if found != nil && own == nil {
		return found, fmt.Sprintf("kernel %s (upstream %s) is not the kernel of %s (upstream %s) but that of %s: judged as %s, whose kernel it is", release, base, d.Name, distroBase(d), found.Name, found.Name)
	}
	return nil, fmt.Sprintf("kernel %s (upstream %s) is not the kernel the matrix records for %s (upstream %s), and the matrix holds no release whose kernel it is: %s's distro_support rows read that release's own kernel and say nothing of this one, so it is judged by its number alone; an entry for the release that ships it would decide it", release, base, d.Name, distroBase(d), d.Name)
}

// KernelPicks is the one release of candidates (the releases a distro
// name short of one may mean: "Ubuntu 22.04.4" is the GA and the HWE
// kernel's) that a distro kernel release is the kernel of: the release its
// dist tag or ABI name names, else the one whose kernel base has its x.y
// series. An upstream release (6.8), which no release ships by that name,
// or a kernel more than one candidate could be, picks none.
func KernelPicks(m *matrix.Matrix, candidates []*matrix.Distro, kernel string) *matrix.Distro {
	base, rel, ok := rule.KernelBase(rule.TrimKernel(kernel))
	if kernel == "" || !ok || rel == "" {
		return nil
	}
	if own := rule.KernelDistro(m, kernel); own != nil {
		for _, c := range candidates {
			if c.ID == own.ID && sameSeries(base, distroBase(c)) {
				return c
			}
		}
	}
	var found *matrix.Distro
	for _, c := range candidates {
		if b := distroBase(c); b == "" || !sameSeries(base, b) {
			continue
		}
		if found != nil {
			return nil
		}
		found = c
	}
	return found
}

// kernelSign words what names a release in a kernel release: its Debian
// ABI name or its dist tag.
func kernelSign(m *matrix.Matrix, d *matrix.Distro) string {
	if rule.DebianNamedBy(m, d) != "" {
		return "ABI name"
	}
	return "dist tag " + rule.KernelTag(d)
}

// sameRelease reports whether a release a kernel's tag names (own, nil
// when none) agrees with the named release d: the same family and
// version, a rebuild (Oracle Linux with RHCK, AlmaLinux) sharing its
// family's tag.
func sameRelease(own, d *matrix.Distro) bool {
	return own == nil || own == d || own.Family == d.Family && own.Version == d.Version
}

// distroBase is the upstream base of a release's kernel.
func distroBase(d *matrix.Distro) string {
	if d.KernelBase != "" {
		return d.KernelBase
	}
	b, _, _ := rule.KernelBase(d.Kernel)
	return b
}

// sameSeries reports whether two upstream versions share their x.y
// series (5.14.0 and 5.14); an unknown base never differs.
func sameSeries(a, b string) bool {
	if a == "" || b == "" {
		return true
	}
	series := func(s string) string {
		parts := strings.SplitN(s, ".", 3)
		if len(parts) < 2 {
			return s
		}
		return parts[0] + "." + parts[1]
	}
	return series(a) == series(b)
}

// namedBy says what names distro d in a kernel release (rule.KernelDistro),
// in d's terms alone, so that every kernel of d gets the same words.
func namedBy(m *matrix.Matrix, release string, d *matrix.Distro) string {
	if how := rule.DebianNamedBy(m, d); how != "" {
		return fmt.Sprintf("kernel %s is %s's: %s", release, d.Name, how)
	}
	tag := rule.KernelTag(d)
	st, stream := rule.KernelStream(d)
	var how string
	switch {
	case stream == "":
		how = "the dist tag " + tag
	case st != tag:
		how = fmt.Sprintf("the dist tag %s, or %s in a kernel release starting %s,", tag, st, stream)
	default:
		how = fmt.Sprintf("the dist tag %s in a kernel release starting %s", tag, stream)
	}
	return fmt.Sprintf("kernel %s is %s's: %s names that release", release, d.Name, how)
}

// ships says what kernel a distro release ships: its release and upstream
// base, or only the base when the matrix does not name the release.
func ships(name, kernel, base string) string {
	switch {
	case kernel == "":
		return fmt.Sprintf("%s ships a Linux %s kernel (its release is not recorded)", name, base)
	case base == "":
		return fmt.Sprintf("%s ships kernel %s", name, kernel)
	}
	return fmt.Sprintf("%s ships kernel %s (upstream %s)", name, kernel, base)
}

// conditions adds the adapter's interrupt needs, constraints and known
// issues that bear on a Linux host running stack.
func conditions(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, stack string) {
	if a.Interrupts != nil && (a.Interrupts.MSIXOnly || a.Interrupts.MinVectors > 0) {
		var need []string
		if a.Interrupts.MSIXOnly {
			need = append(need, "MSI-X interrupt mode")
		}
		if a.Interrupts.MinVectors > 0 {
			need = append(need, fmt.Sprintf("at least %d interrupts", a.Interrupts.MinVectors))
		}
		text := a.Name + " RoCE on Linux needs " + strings.Join(need, " and ")
		v.add(Reason{Verdict: Conditional, Text: text, Matrix: []rule.Ref{rule.Cite(m, "adapter "+a.ID+" interrupts", a.Interrupts.Claim, text)}})
	}
	// Interrupts and constraints are conditions of running the part, not
	// a change to the plan, so they add no "nearest" entry.
	for _, c := range a.Constraints {
		if !c.AppliesTo(stack) {
			continue
		}
		text := c.Text
		if c.Fix != "" {
			text += " (" + c.Fix + ")"
		}
		v.add(Reason{Verdict: Conditional, Text: text, Matrix: []rule.Ref{rule.Cite(m, "adapter "+a.ID+" constraint "+c.ID, c.Claim, c.Text)}})
	}
	for _, k := range a.KnownIssues {
		if !k.AppliesTo(stack) {
			continue
		}
		text := "known issue: " + k.Text
		if k.Fix != "" {
			text += " (fix: " + k.Fix + ")"
		}
		v.note(Reason{Verdict: Supported, Text: text, Matrix: []rule.Ref{rule.Cite(m, "adapter "+a.ID+" known_issue "+k.ID, k.Claim, k.Text)}})
	}
}
