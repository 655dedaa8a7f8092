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

// SoftwareDevice returns the software RDMA stack a name means when a plan
// names it as the adapter ("softroce", "soft-roce", "rxe", "rdma_rxe"): a
// stack of kind software whose id, name, module, or vendor's id, name or
// alias the name is (ignoring case, dashes and underscores); nil when none.
func SoftwareDevice(m *matrix.Matrix, name string) *matrix.Stack {
	n := softFold(name)
	if n == "" {
		return nil
	}
	for i := range m.Stacks {
		st := &m.Stacks[i]
		if st.Kind != matrix.KindSoftware {
			continue
		}
		if softNamed(m, n, st.Vendor, append([]string{st.ID, st.Name}, st.Modules...)) {
			return st
		}
	}
	return nil
}

// softNamed reports whether the folded name n is one of names or the id,
// name or an alias of the vendor vendorID.
func softNamed(m *matrix.Matrix, n, vendorID string, names []string) bool {
	if v := m.Vendor(vendorID); v != nil {
		names = append(names, v.ID, v.Name)
		names = append(names, v.Aliases...)
	}
	return slices.ContainsFunc(names, func(x string) bool { return softFold(x) == n })
}

// NotRoCESoftware returns the software RDMA driver a name means when a plan
// names a software device that does no RoCE as the adapter ("siw",
// "soft-iwarp", "SoftiWARP": iWARP over TCP): a driver of kind software
// whose transports lack roce, named by its id, name, or its vendor's id,
// name or alias (ignoring case, dashes and underscores); nil when none. Such
// a plan asks a RoCE question the device answers "not RoCE", the way an
// adapter's not_roce does, rather than naming nothing in the matrix.
func NotRoCESoftware(m *matrix.Matrix, name string) *matrix.Driver {
	n := softFold(name)
	if n == "" {
		return nil
	}
	for i := range m.Drivers {
		d := &m.Drivers[i]
		if d.Kind != matrix.KindSoftware || slices.Contains(d.Transports, "roce") || len(d.Transports) == 0 {
			continue
		}
		if softNamed(m, n, d.Vendor, []string{d.ID, d.Name}) {
			return d
		}
	}
	return nil
}

// judgeNotRoCESoftware answers a plan naming a software device without
// RoCE: unsupported, citing the driver's transports, and naming the
// software RoCE stacks the matrix has as the way to RoCE on the same NIC.
func judgeNotRoCESoftware(m *matrix.Matrix, v *Verdict, d *matrix.Driver) {
	v.Adapter, v.AdapterName = d.ID, d.Name
	ref := rule.Cite(m, "driver "+d.ID, d.Claim, fmt.Sprintf("%s is not RoCE: its transport is %s", d.Name, strings.Join(d.Transports, ", ")))
	text := ref.Rule
	var alt []string
	for i := range m.Stacks {
		if st := &m.Stacks[i]; st.Kind == matrix.KindSoftware {
			alt = append(alt, fmt.Sprintf("%s (--adapter %s, or --stack %s with the NIC)", st.Name, st.ID, st.ID))
		}
	}
	if len(alt) > 0 {
		text += "; RoCE in software on the same Ethernet NIC is " + strings.Join(alt, " or ")
	}
	v.add(Reason{Verdict: Unsupported, Text: text, Matrix: []rule.Ref{ref}})
}

var softFolder = strings.NewReplacer("-", "", "_", "", " ", "")

func softFold(s string) string { return softFolder.Replace(strings.ToLower(strings.TrimSpace(s))) }

// judgeSoftware judges a software stack: the adapter needs an Ethernet
// netdev (a nil adapter: any Ethernet NIC, the plan named the software
// device itself), and the kernel the stack's driver, from its first
// upstream release; a distro is judged by its rows for that driver (its own
// kernel configuration), and without one is unknown, never judged by its
// kernel number.
func judgeSoftware(m *matrix.Matrix, e *Engine, v *Verdict, a *matrix.Adapter, ms *matrix.Stack, p Plan) {
	v.Stack = ms.ID
	if e.perAdapter(p).softwareHead(m, v, a, ms) {
		return
	}
	var distro *matrix.Distro
	if p.Distro != "" {
		r := e.distro(m, p.Distro)
		if distro = r.Value; distro == nil {
			v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("distro %q is not in the matrix, so its kernel is unknown; `kbgen check --list distros` lists the distros", p.Distro)})
			return
		}
		v.Distro, v.rebuild = distro.ID, r.How == "rebuild"
	}
	k := e.planKernel(m, v, p, distro)
	if k.Base == "" {
		return
	}
	e.softwareTail(m, v, a, ms, k)
}

// softwareTail is judgeSoftware's steps that read the kernel k the plan
// runs (and its release, v.Kernel): the stack's driver in that kernel, or
// the distro_support row of its release. Of the adapter they read only
// what a row asks of it (judgeDistroRow: its drivers, and itself where a
// row names it), so adapters alike in those share them (Engine.softwareTail).
func softwareTail(m *matrix.Matrix, e *Engine, v *Verdict, a *matrix.Adapter, ms *matrix.Stack, k kernel) {
	var drv *matrix.Driver
	if len(ms.Modules) > 0 {
		drv = m.Driver(ms.Modules[0])
	}
	if drv == nil || drv.FirstKernel == "" {
		v.add(Reason{Verdict: Undecided, Text: "the matrix gives no first kernel for " + ms.Name + "'s driver; a [[driver]] first_kernel would decide it", Matrix: []rule.Ref{stackRef(m, ms)}})
		return
	}
	sure := drv.FirstKernelBasis != "inferred" && drv.Confidence != matrix.Unconfirmed
	dref := rule.Cite(m, "driver "+drv.ID, drv.Claim, fmt.Sprintf("%s is in the kernel from %s (%s)", drv.ID, drv.FirstKernel, rule.OrDash(drv.FirstKernelBasis)))
	if k.Distro != nil {
		if r := e.softwareRow(m, k.Distro, drv.ID); r != nil {
			judgeDistroRow(m, v, a, k.Distro, deviceKernel{Kernel: drv.FirstKernel}, r, true)
			return
		}
		v.add(Reason{Verdict: Undecided, Likely: Supported, Text: fmt.Sprintf("no distro_support row says whether %s builds %s (its kernel base %s is not judged by its number); %s's kernel configuration (CONFIG_RDMA_RXE) or release notes would decide it", k.Distro.Name, drv.ID, k.Base, k.Distro.Name), Matrix: []rule.Ref{dref}})
		return
	}
	if k.Vendor {
		v.add(Reason{Verdict: Undecided, Likely: Supported, Text: fmt.Sprintf("%s is a distro or custom kernel, and its number alone does not say whether it builds %s; --distro (a distro_support row for %s), or a custom build's configuration, would decide it", v.Kernel, drv.ID, drv.ID), Matrix: []rule.Ref{dref}})
		return
	}
	c, ok := rule.Compare(k.Base, drv.FirstKernel)
	switch {
	case !ok:
		v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("kernel %s cannot be compared with %s; a kernel release x.y would decide it", k.Base, drv.FirstKernel), Matrix: []rule.Ref{dref}})
	case c < 0 && sure:
		v.add(Reason{Verdict: Unsupported, Text: fmt.Sprintf("kernel %s is older than %s, the first with %s", k.Base, drv.FirstKernel, drv.ID), Nearest: "Linux " + drv.FirstKernel + " or later", Matrix: []rule.Ref{dref}})
	case c < 0:
		v.add(Reason{Verdict: Undecided, Likely: Unsupported, Text: fmt.Sprintf("kernel %s is likely older than %s, the first with %s, but that release is %s, not sourced; a source dating the merge would decide it", k.Base, drv.FirstKernel, drv.ID, drv.FirstKernelBasis), Nearest: "Linux " + drv.FirstKernel + " or later", Matrix: []rule.Ref{dref}})
	case sure:
		v.add(Reason{Verdict: Supported, Text: fmt.Sprintf("kernel %s has %s (from Linux %s, %s)", k.Base, drv.ID, drv.FirstKernel, drv.FirstKernelBasis), Matrix: []rule.Ref{dref}})
	default:
		v.add(Reason{Verdict: Undecided, Likely: Supported, Text: fmt.Sprintf("kernel %s is at or after %s, the first with %s, but that release is %s, not sourced; a source dating the merge would decide it", k.Base, drv.FirstKernel, drv.ID, drv.FirstKernelBasis), Matrix: []rule.Ref{dref}})
	}
}

// softwareHead is judgeSoftware's steps that read the adapter (nil: the
// plan named the software device) and the stack, not the OS: that the
// adapter has an Ethernet netdev, and what the stack is. done is true
// when they decided the verdict.
func softwareHead(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, ms *matrix.Stack) (done bool) {
	sref := stackRef(m, ms)
	if a == nil {
		sref.Rule = ms.Name + " runs over any Ethernet interface"
		v.add(Reason{Verdict: Supported, Text: fmt.Sprintf("%s needs no RoCE adapter: it runs over any Ethernet NIC's netdev", ms.Name), Matrix: []rule.Ref{sref}})
	} else {
		aref := adapterRef(m, a)
		eth := a.EthDriver
		if d := m.Driver(a.RDMADriver); eth == "" && d != nil && len(d.EthDrivers) > 0 {
			eth = d.EthDrivers[0]
		}
		if eth == "" {
			v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("the matrix names no Ethernet driver for %s, and %s needs an Ethernet netdev to bind to; the adapter's Ethernet driver would decide it", a.Name, ms.Name), Matrix: []rule.Ref{aref, sref}})
			return true
		}
		aref.Rule = fmt.Sprintf("%s has an Ethernet netdev (%s) for %s to bind to", a.Name, eth, ms.Name)
		v.add(Reason{Verdict: Supported, Text: aref.Rule, Matrix: []rule.Ref{aref}})
	}
	v.add(Reason{Verdict: Conditional, Text: fmt.Sprintf("%s is RoCE v2 in software: %s", ms.Name, ms.Note), Matrix: []rule.Ref{sref}})
	return false
}

// stackRef cites stack ms's entry.
func stackRef(m *matrix.Matrix, ms *matrix.Stack) rule.Ref {
	return rule.Cite(m, "stack "+ms.ID, ms.Claim, ms.Name)
}

// softwareRow returns the distro_support row that says whether release d
// builds a software device's module, chosen as DistroRow chooses: a row
// about the release's rebuild (Rocky Linux 9.0's own configuration) wins
// over the family's, then the later from. The first row in file order
// let RHEL's row decide a rebuild that has its own.
func softwareRow(m *matrix.Matrix, d *matrix.Distro, module string) *matrix.DistroRow {
	return latestRow(m, d, func(r *matrix.DistroRow) bool { return slices.Contains(r.Drivers, module) })
}

// latestRow returns, of the distro_support rows covering d that keep
// takes, one about d's rebuild over the family's, then the later from.
func latestRow(m *matrix.Matrix, d *matrix.Distro, keep func(*matrix.DistroRow) bool) *matrix.DistroRow {
	var row *matrix.DistroRow
	for i := range m.DistroRows {
		r := &m.DistroRows[i]
		if !rule.Covers(r, d) || !keep(r) {
			continue
		}
		switch {
		case row == nil, r.Rebuild != "" && row.Rebuild == "":
		case r.Rebuild == "" && row.Rebuild != "":
			continue
		default:
			if c, ok := rule.Compare(r.From, row.From); !ok || c <= 0 {
				continue
			}
		}
		row = r
	}
	return row
}
