package verdict

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/rule"
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
	Adapter      string `json:"adapter"`                 // matrix id, name or alias, or PCI id vvvv:dddd[/ssss:ssss]
	Kernel       string `json:"kernel,omitempty"`        // uname -r or an upstream version
	Distro       string `json:"distro,omitempty"`        // matrix distro id, e.g. rhel-9.4
	Stack        string `json:"stack,omitempty"`         // "inbox" (default) or a matrix stack id
	StackVersion string `json:"stack_version,omitempty"` // the stack release
	Firmware     string `json:"firmware,omitempty"`
}

// Reason is one step of a verdict, tied to the matrix entries it rests on.
type Reason struct {
	Verdict Level      `json:"verdict"`
	Text    string     `json:"text"`
	Nearest string     `json:"nearest,omitempty"` // the closest change that would make it supported
	Matrix  []rule.Ref `json:"matrix,omitempty"`
}

// Verdict answers "will this work?" for a plan. The worst reason decides
// it, except a firmware the matrix has no minimum for: that reason says
// "unknown" without turning what the matrix does know into "unknown".
type Verdict struct {
	Plan        Plan     `json:"plan"`
	Adapter     string   `json:"adapter,omitempty"` // matrix adapter id
	AdapterName string   `json:"adapter_name,omitempty"`
	Kernel      string   `json:"kernel,omitempty"`      // resolved kernel release
	KernelBase  string   `json:"kernel_base,omitempty"` // its upstream version
	Stack       string   `json:"stack"`
	Verdict     Level    `json:"verdict"`
	Reasons     []Reason `json:"reasons"`
	Nearest     []string `json:"nearest,omitempty"` // when not supported: the nearest change to the plan (kernel, stack, firmware) that is
}

func (v *Verdict) add(r Reason) {
	v.Reasons = append(v.Reasons, r)
	if r.Verdict.rank() > v.Verdict.rank() {
		v.Verdict = r.Verdict
	}
	if r.Nearest != "" && r.Verdict != Supported && !slices.Contains(v.Nearest, r.Nearest) {
		v.Nearest = append(v.Nearest, r.Nearest)
	}
}

// FindAdapter resolves an adapter id, name, alias or PCI id
// (vvvv:dddd, or vvvv:dddd/ssss:ssss with subsystem ids).
func FindAdapter(m *matrix.Matrix, s string) *matrix.Adapter {
	s = strings.TrimSpace(s)
	if a := m.Adapter(s); a != nil {
		return a
	}
	for i := range m.Adapters {
		a := &m.Adapters[i]
		if strings.EqualFold(a.Name, s) || strings.EqualFold(a.ID, s) {
			return a
		}
		for _, al := range a.Aliases {
			if strings.EqualFold(al, s) {
				return a
			}
		}
	}
	id, sub, _ := strings.Cut(strings.ToLower(s), "/")
	vd := strings.Split(id, ":")
	if len(vd) != 2 {
		return nil
	}
	sv, sd := "", ""
	if sub != "" {
		ss := strings.Split(sub, ":")
		if len(ss) != 2 {
			return nil
		}
		sv, sd = ss[0], ss[1]
	}
	return m.Match(vd[0], vd[1], sv, sd)
}

// Judge gives the verdict for a plan. Every reason cites its matrix entry;
// what the matrix does not state makes the verdict unknown, never a guess.
func Judge(m *matrix.Matrix, p Plan) Verdict {
	if m == nil {
		m = &matrix.Matrix{}
	}
	v := Verdict{Plan: p, Verdict: Supported, Stack: p.Stack}
	if v.Stack == "" {
		v.Stack = "inbox"
	}
	a := FindAdapter(m, p.Adapter)
	if a == nil {
		v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("adapter %q is not in the matrix, so there is no verdict", p.Adapter)})
		return v
	}
	v.Adapter, v.AdapterName = a.ID, a.Name
	aref := rule.Cite(m, "adapter "+a.ID, a.Claim, a.Name)
	if a.NotRoCE != "" {
		aref.Rule = a.Name + " is not a RoCE adapter: " + a.NotRoCE
		v.add(Reason{Verdict: Unsupported, Text: aref.Rule, Matrix: []rule.Ref{aref}})
		return v
	}
	if len(a.RoCE) == 0 {
		v.add(Reason{Verdict: Undecided, Text: "the matrix does not state which RoCE versions " + a.Name + " supports", Matrix: []rule.Ref{aref}})
		return v
	}
	aref.Rule = fmt.Sprintf("%s does RoCE %s", a.Name, strings.Join(a.RoCE, " and "))
	v.add(Reason{Verdict: Supported, Text: aref.Rule, Matrix: []rule.Ref{aref}})

	// Kernel: from --kernel, else the distro's GA kernel.
	var distro *matrix.Distro
	if p.Distro != "" {
		for i := range m.Distros {
			if m.Distros[i].ID == p.Distro {
				distro = &m.Distros[i]
			}
		}
		if distro == nil {
			v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("distro %q is not in the matrix, so its kernel is unknown", p.Distro)})
		}
	}
	switch {
	case p.Kernel != "":
		v.Kernel = p.Kernel
		v.KernelBase, _, _ = rule.KernelBase(p.Kernel)
	case distro != nil:
		v.Kernel, v.KernelBase = distro.Kernel, distro.KernelBase
		if v.KernelBase == "" {
			v.KernelBase, _, _ = rule.KernelBase(distro.Kernel)
		}
		if v.KernelBase != "" {
			v.Reasons = append(v.Reasons, Reason{Verdict: Supported, Text: fmt.Sprintf("%s ships kernel %s (upstream %s)", distro.Name, rule.OrDash(distro.Kernel), v.KernelBase),
				Matrix: []rule.Ref{rule.Cite(m, "distro "+distro.ID, distro.Claim, fmt.Sprintf("%s ships kernel %s, based on %s", distro.Name, rule.OrDash(distro.Kernel), rule.OrDash(distro.KernelBase)))}})
		}
	}

	stackID, stackVer := "inbox", p.StackVersion
	if v.Stack != "inbox" {
		id, ver, _ := strings.Cut(v.Stack, "@")
		if ver != "" && stackVer == "" {
			stackVer = ver
		}
		ms := rule.Stack(m, id)
		if ms == nil {
			v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("stack %q is not in the matrix", id)})
			return v
		}
		stackID = ms.ID
		v.Stack = ms.ID
		judgeStack(m, &v, a, ms, stackVer)
		if v.Kernel != "" {
			// The matrix records which adapters a stack supports, not which
			// kernels each release builds for: say so rather than guess.
			v.add(Reason{Verdict: Conditional, Text: fmt.Sprintf("the matrix does not list the kernels %s supports; check that its release notes list kernel %s", ms.Name, v.Kernel),
				Matrix: []rule.Ref{rule.Cite(m, "stack "+ms.ID, ms.Claim, ms.Name+" is a vendor stack that replaces the inbox modules")}})
		}
	} else if p.Distro == "" || distro != nil {
		judgeInbox(m, &v, a, distro)
	}
	judgeFirmware(m, &v, a, stackID, stackVer, p.Firmware)
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
	// Interrupts and constraints are conditions of running the part at
	// all, not a change to the plan, so they add no "nearest" entry.
	for _, c := range a.Constraints {
		text := c.Text
		if c.Fix != "" {
			text += " (" + c.Fix + ")"
		}
		v.add(Reason{Verdict: Conditional, Text: text, Matrix: []rule.Ref{rule.Cite(m, "adapter "+a.ID+" constraint "+c.ID, c.Claim, c.Text)}})
	}
	for _, k := range a.KnownIssues {
		text := "known issue: " + k.Text
		if k.Fix != "" {
			text += " (fix: " + k.Fix + ")"
		}
		v.Reasons = append(v.Reasons, Reason{Verdict: Supported, Text: text, Matrix: []rule.Ref{rule.Cite(m, "adapter "+a.ID+" known_issue "+k.ID, k.Claim, k.Text)}})
	}
	return v
}

func judgeInbox(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, distro *matrix.Distro) {
	drv := m.Driver(a.RDMADriver)
	if a.RDMADriver == "" || drv == nil {
		v.add(Reason{Verdict: Undecided, Text: "the matrix has no RDMA driver entry for " + a.Name + ", so inbox support is unknown"})
		return
	}
	if !drv.InTree {
		text := drv.ID + " is not in the upstream kernel; " + a.Name + " needs a vendor stack"
		near := ""
		if len(a.Stacks) > 0 {
			near = "use the vendor stack " + strings.Join(a.Stacks, " or ")
		}
		v.add(Reason{Verdict: Unsupported, Text: text, Nearest: near, Matrix: []rule.Ref{rule.Cite(m, "driver "+drv.ID, drv.Claim, drv.ID+" is not in tree")}})
		return
	}
	first := a.InboxKernel
	ref := rule.Cite(m, "adapter "+a.ID, a.Claim, fmt.Sprintf("%s is supported inbox from kernel %s", a.Name, first))
	if first == "" {
		first = drv.FirstKernel
		text := fmt.Sprintf("%s is in the kernel from %s", drv.ID, first)
		if drv.FirstKernelBasis != "" {
			text += " (basis: " + drv.FirstKernelBasis + ")"
		}
		ref = rule.Cite(m, "driver "+drv.ID, drv.Claim, text)
	}
	if first == "" {
		v.add(Reason{Verdict: Undecided, Text: "the matrix states no first inbox kernel for " + a.Name})
		return
	}
	if v.KernelBase == "" {
		v.add(Reason{Verdict: Conditional, Text: fmt.Sprintf("inbox support for %s needs kernel ≥ %s; no kernel or distro was given", a.Name, first), Nearest: "kernel ≥ " + first, Matrix: []rule.Ref{ref}})
		return
	}
	if drv.RemovedKernel != "" {
		if c, ok := rule.Compare(v.KernelBase, drv.RemovedKernel); ok && c >= 0 {
			near := "kernel < " + drv.RemovedKernel
			if drv.ReplacedBy != "" {
				near = "the replacement driver " + drv.ReplacedBy
			}
			v.add(Reason{Verdict: Unsupported, Text: fmt.Sprintf("%s was removed in kernel %s", drv.ID, drv.RemovedKernel), Nearest: near, Matrix: []rule.Ref{rule.Cite(m, "driver "+drv.ID, drv.Claim, fmt.Sprintf("%s was removed in %s", drv.ID, drv.RemovedKernel))}})
			return
		}
	}
	c, ok := rule.Compare(v.KernelBase, first)
	switch {
	case !ok:
		v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("kernel %s cannot be compared with %s", v.KernelBase, first), Matrix: []rule.Ref{ref}})
	case c >= 0:
		text := fmt.Sprintf("kernel %s is at or after %s, the first with inbox support", v.KernelBase, first)
		if drv.FirstKernelBasis == "inferred" && a.InboxKernel == "" {
			text += " (that release is inferred from commit dates)"
		}
		v.add(Reason{Verdict: Supported, Text: text, Matrix: []rule.Ref{ref}})
	default:
		if distro != nil {
			if bp := rule.Backport(distro, drv.ID); bp != nil {
				v.add(Reason{Verdict: Conditional, Text: fmt.Sprintf("kernel base %s predates %s, but %s backports %s: %s", v.KernelBase, first, distro.Name, drv.ID, bp.Text), Matrix: []rule.Ref{ref, rule.Cite(m, "distro "+distro.ID+" backport "+bp.Driver, bp.Claim, bp.Text)}})
				return
			}
		}
		v.add(Reason{Verdict: Unsupported, Text: fmt.Sprintf("kernel %s is older than %s, the first with inbox support for %s", v.KernelBase, first, a.Name), Nearest: "kernel ≥ " + first, Matrix: []rule.Ref{ref}})
	}
}

func judgeStack(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, ms *matrix.Stack, ver string) {
	for _, se := range a.SupportEnd {
		if se.Stack != ms.ID {
			continue
		}
		ref := rule.Cite(m, "adapter "+a.ID+" support_end "+ms.ID, se.Claim, se.Text)
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
		if se.DroppedIn == "" {
			v.add(Reason{Verdict: Conditional, Text: se.Text, Nearest: near, Matrix: []rule.Ref{ref}})
			continue
		}
		if ver == "" {
			v.add(Reason{Verdict: Conditional, Text: fmt.Sprintf("%s supports %s only before %s: %s", ms.Name, a.Name, se.DroppedIn, se.Text), Nearest: near, Matrix: []rule.Ref{ref}})
			continue
		}
		c, ok := rule.Compare(ver, se.DroppedIn)
		switch {
		case !ok:
			v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("stack version %s cannot be compared with %s", ver, se.DroppedIn), Matrix: []rule.Ref{ref}})
		case c >= 0:
			v.add(Reason{Verdict: Unsupported, Text: fmt.Sprintf("%s %s no longer supports %s: %s", ms.Name, ver, a.Name, se.Text), Nearest: near, Matrix: []rule.Ref{ref}})
		default:
			v.add(Reason{Verdict: Supported, Text: fmt.Sprintf("%s %s is before %s, which dropped %s", ms.Name, ver, se.DroppedIn, a.Name), Matrix: []rule.Ref{ref}})
		}
		return
	}
	aref := rule.Cite(m, "adapter "+a.ID, a.Claim, fmt.Sprintf("%s is supported by %s", a.Name, strings.Join(a.Stacks, ", ")))
	if slices.Contains(a.Stacks, ms.ID) {
		v.add(Reason{Verdict: Supported, Text: fmt.Sprintf("%s supports %s", ms.Name, a.Name), Matrix: []rule.Ref{aref}})
		return
	}
	v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("the matrix does not list %s for %s", ms.Name, a.Name)})
}

func lts(ms *matrix.Stack, version string) bool {
	for _, r := range ms.Releases {
		if r.Version == version || strings.HasPrefix(r.Version, version+"-") || strings.HasPrefix(version, r.Version) {
			return r.LTS
		}
	}
	return false
}

func judgeFirmware(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, stack, stackVer, fw string) {
	mins := rule.FirmwareMins(m, a.ID, stack, stackVer)
	if len(mins) == 0 && fw != "" {
		// Say the firmware went unjudged, without letting the matrix's
		// silence decide the verdict on everything it does know.
		v.Reasons = append(v.Reasons, Reason{Verdict: Undecided, Text: fmt.Sprintf("firmware %s not judged: the matrix states no minimum firmware for %s", fw, a.Name)})
		return
	}
	for _, f := range mins {
		ref := rule.Cite(m, fmt.Sprintf("firmware_min %s %s", a.ID, f.Feature), f.Claim, rule.MinRule(a, f))
		near := fmt.Sprintf("firmware ≥ %s for %s", f.Min, featureWords(f.Feature))
		if fw == "" {
			v.add(Reason{Verdict: Conditional, Text: fmt.Sprintf("%s needs firmware ≥ %s for %s; no firmware was given", a.Name, f.Min, f.Feature), Nearest: near, Matrix: []rule.Ref{ref}})
			continue
		}
		c, ok := rule.Compare(fw, f.Min)
		switch {
		case !ok:
			v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("firmware %s cannot be compared with %s", fw, f.Min), Matrix: []rule.Ref{ref}})
		case c >= 0:
			v.add(Reason{Verdict: Supported, Text: fmt.Sprintf("firmware %s meets the %s minimum %s", fw, f.Feature, f.Min), Matrix: []rule.Ref{ref}})
		case rule.OptionalFeature(f.Feature):
			v.add(Reason{Verdict: Conditional, Text: fmt.Sprintf("firmware %s is below %s, needed for %s", fw, f.Min, f.Feature), Nearest: near, Matrix: []rule.Ref{ref}})
		default:
			v.add(Reason{Verdict: Unsupported, Text: fmt.Sprintf("firmware %s is below %s, needed for %s", fw, f.Min, f.Feature), Nearest: near, Matrix: []rule.Ref{ref}})
		}
	}
}

// featureWords turns a feature id into what people say: roce-v2-ipv6 → IPv6.
func featureWords(f string) string {
	switch {
	case strings.HasSuffix(f, "-ipv6"):
		return "IPv6"
	case strings.HasSuffix(f, "-ipv4"):
		return "IPv4"
	}
	return f
}
