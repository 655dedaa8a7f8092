package verdict

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/rule"
)

// softwareStack returns the plan's stack when it is a software RDMA stack
// (SoftRoCE), which runs on any Ethernet adapter whatever its own RoCE.
func softwareStack(m *matrix.Matrix, e *Engine, s string) *matrix.Stack {
	name, _, _ := strings.Cut(s, "@")
	if name == "" {
		return nil
	}
	if _, r := e.resolveStack(m, name); r.Value != nil && r.Value.Kind == "software" {
		return r.Value
	}
	return nil
}

// judgeSoftware judges a software stack: the adapter needs an Ethernet
// netdev, and the kernel the stack's driver, from its first upstream
// release; the distro is judged by its rows for that driver, else by its
// kernel number only (never plain supported).
func judgeSoftware(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, aref rule.Ref, ms *matrix.Stack, p Plan) {
	v.Stack = ms.ID
	sref := rule.Cite(m, "stack "+ms.ID, ms.Claim, ms.Name)
	eth := a.EthDriver
	if d := m.Driver(a.RDMADriver); eth == "" && d != nil && len(d.EthDrivers) > 0 {
		eth = d.EthDrivers[0]
	}
	if eth == "" {
		v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("the matrix names no Ethernet driver for %s, and %s needs an Ethernet netdev to bind to; the adapter's Ethernet driver would decide it", a.Name, ms.Name), Matrix: []rule.Ref{aref, sref}})
		return
	}
	aref.Rule = fmt.Sprintf("%s has an Ethernet netdev (%s) for %s to bind to", a.Name, eth, ms.Name)
	v.add(Reason{Verdict: Supported, Text: aref.Rule, Matrix: []rule.Ref{aref}})
	v.add(Reason{Verdict: Conditional, Text: fmt.Sprintf("%s is RoCE v2 in software: %s", ms.Name, ms.Note), Matrix: []rule.Ref{sref}})
	var distro *matrix.Distro
	if p.Distro != "" {
		if distro = findDistro(m, p.Distro); distro == nil {
			v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("distro %q is not in the matrix, so its kernel is unknown; `kbgen check --list distros` lists the distros", p.Distro)})
			return
		}
		v.Distro = distro.ID
	}
	k := planKernel(m, v, p, distro)
	if k.Base == "" {
		return
	}
	var drv *matrix.Driver
	if len(ms.Modules) > 0 {
		drv = m.Driver(ms.Modules[0])
	}
	if drv == nil || drv.FirstKernel == "" {
		v.add(Reason{Verdict: Undecided, Text: "the matrix gives no first kernel for " + ms.Name + "'s driver", Matrix: []rule.Ref{sref}})
		return
	}
	dref := rule.Cite(m, "driver "+drv.ID, drv.Claim, drv.Name)
	if c, ok := rule.Compare(k.Base, drv.FirstKernel); ok && c < 0 {
		v.add(Reason{Verdict: Unsupported, Text: fmt.Sprintf("kernel %s is older than %s, the first with %s", k.Base, drv.FirstKernel, drv.ID), Nearest: "Linux " + drv.FirstKernel + " or later", Matrix: []rule.Ref{dref}})
		return
	}
	if k.Distro != nil {
		for i := range m.DistroRows {
			r := &m.DistroRows[i]
			if rule.Covers(r, k.Distro) && slices.Contains(r.Drivers, drv.ID) {
				judgeDistroRow(m, v, a, k.Distro, deviceKernel{Kernel: drv.FirstKernel}, r, true)
				return
			}
		}
		v.add(Reason{Verdict: Conditional, Text: fmt.Sprintf("%s's kernel base %s is after %s, the first with %s, but no distro_support row says %s builds it; judged from the kernel number only", k.Distro.Name, k.Base, drv.FirstKernel, drv.ID, k.Distro.Name), Matrix: []rule.Ref{dref}})
		return
	}
	lvl := Supported
	if drv.FirstKernelBasis != "documented" {
		lvl = Conditional
	}
	v.add(Reason{Verdict: lvl, Text: fmt.Sprintf("kernel %s has %s (from Linux %s, %s)", k.Base, drv.ID, drv.FirstKernel, drv.FirstKernelBasis), Matrix: []rule.Ref{dref}})
}
