package diagnose

import (
	"fmt"
	"slices"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/rule"
)

// checkKernel compares the host kernel with the first upstream kernel that
// carries the adapter's inbox RDMA driver.
//
// Severity: error for an upstream kernel older than that release (the
// driver is not in it); warning for a distro kernel, whose vendor may have
// backported the driver although the matrix lists no backport; none when
// the matrix lists a backport for the host's distro. A removed driver is an
// error. Hosts on a vendor stack pass: its modules replace the inbox ones.
func checkKernel(v view) Result {
	h, m := v.h, v.m
	var r Result
	rel := h.Host.KernelRelease
	if rel == "" {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "the record has no kernel release (uname -r)"})
		return r
	}
	base, distroPart, ok := rule.KernelBase(rel)
	if !ok {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "kernel release " + rel + " does not start with an upstream version"})
		return r
	}
	kev := Evidence{Fact: "kernel release " + rel + " (upstream base " + base + ")", Source: kernelSource(v)}
	stack, _ := v.hostStack()
	distro := v.distro()
	for a, p := range v.roceFunctions() {
		prov, name := p.Driver, p.Name
		ma := v.match(a)
		switch v.vendorDriven(a, prov, stack) {
		case Pass:
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: "a vendor stack drives this adapter, so the inbox kernel support does not apply"})
			continue
		case Unknown:
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the record does not say whether a vendor stack (" + stack + ") or the inbox stack drives this adapter"})
			continue
		}
		drv := m.Driver(prov)
		first, refs := inboxKernel(v, ma, drv)
		if drv != nil && drv.RemovedKernel != "" {
			if c, ok := rule.Compare(base, drv.RemovedKernel); ok && c >= 0 {
				fix := "Use a kernel older than " + drv.RemovedKernel
				if drv.ReplacedBy != "" {
					fix = "Use the replacement driver " + drv.ReplacedBy
				}
				f := Finding{
					Severity: Error, Subject: a.PCIAddress, Adapter: a.PCIAddress,
					Message:     fmt.Sprintf("%s was removed in kernel %s; this host runs %s", drv.ID, drv.RemovedKernel, base),
					Explanation: "The inbox driver for this adapter is no longer in the kernel.",
					Fix:         fix + ".",
					Evidence:    []Evidence{kev},
					Matrix:      []rule.Ref{v.ref("driver "+drv.ID, drv.Claim, fmt.Sprintf("%s was removed in %s", drv.ID, drv.RemovedKernel))},
				}
				v.report(&r, a, f)
				continue
			}
		}
		if first == "" {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the matrix states no first inbox kernel for " + name})
			continue
		}
		c, ok := rule.Compare(base, first)
		if !ok {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "kernel " + base + " cannot be compared with " + first})
			continue
		}
		if c >= 0 {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: fmt.Sprintf("kernel %s is at or after %s", base, first), Evidence: []Evidence{kev}, Matrix: refs})
			continue
		}
		if distro != nil {
			if bp := rule.Backport(distro, prov); bp != nil {
				refs = append(refs, v.ref("distro "+distro.ID+" backport "+bp.Driver, bp.Claim, fmt.Sprintf("%s carries %s: %s", distro.Name, bp.Driver, bp.Text)))
				r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: fmt.Sprintf("kernel base %s predates %s, but %s backports %s", base, first, distro.ID, bp.Driver), Evidence: []Evidence{kev}, Matrix: refs})
				continue
			}
		}
		f := Finding{
			Severity: Error, Subject: a.PCIAddress, Adapter: a.PCIAddress,
			Message:     fmt.Sprintf("kernel %s is older than %s, the first with inbox support for %s", base, first, name),
			Explanation: "The inbox driver this adapter needs is not in upstream kernels before that release.",
			Fix:         fmt.Sprintf("Run a kernel ≥ %s, or install a vendor stack that supports %s on this kernel.", first, name),
			Evidence:    []Evidence{kev},
			Matrix:      refs,
		}
		if drv != nil && drv.FirstKernelBasis == "inferred" && (ma == nil || ma.InboxKernel == "") {
			f.Explanation += " The matrix infers that release from commit dates; no source states it."
		}
		if distroPart != "" {
			f.Severity = Warning
			f.Explanation += " This is a distribution kernel: distributions backport drivers, but the matrix lists no backport of " + prov + " for this host's distribution, so check the distribution's release notes."
		}
		v.report(&r, a, f)
	}
	v.unjudged(&r, v.hasProvider, "inbox kernel support")
	return r
}

// vendorDriven says whether a vendor stack drives an adapter: Pass when it
// does (the driver's origin says so, or the host's stack ships the
// adapter's modules), Found when the inbox stack does, Unknown when the
// record cannot tell.
func (v view) vendorDriven(a *record.Adapter, provider, stack string) Status {
	switch a.Driver.Origin {
	case record.OriginOFED, record.OriginVendor:
		return Pass
	case record.OriginInbox:
		return Found
	}
	if stack == "inbox" {
		// No [stack] table: the collector found no vendor stack. That
		// means inbox only when it could look, i.e. it read the module list.
		if v.modulesKnown() {
			return Found
		}
		return Unknown
	}
	for _, ms := range v.m.Stacks {
		if ms.ID == stack {
			if slices.Contains(ms.Modules, provider) || slices.Contains(ms.Modules, a.Driver.Name) {
				return Pass
			}
			return Found
		}
	}
	return Unknown
}

func kernelSource(v view) string {
	if s := v.readOf("uname"); s != nil {
		return s.ID
	}
	return ""
}

// inboxKernel is the first upstream kernel with inbox RDMA support for an
// adapter: its own inbox_kernel, else its driver's first_kernel.
func inboxKernel(v view, ma *matrix.Adapter, drv *matrix.Driver) (string, []rule.Ref) {
	if ma != nil && ma.InboxKernel != "" {
		return ma.InboxKernel, []rule.Ref{v.ref("adapter "+ma.ID, ma.Claim, fmt.Sprintf("%s is supported inbox from kernel %s", ma.Name, ma.InboxKernel))}
	}
	if drv != nil && drv.InTree && drv.FirstKernel != "" {
		text := fmt.Sprintf("%s is in the kernel from %s", drv.ID, drv.FirstKernel)
		if drv.FirstKernelBasis != "" {
			text += " (basis: " + drv.FirstKernelBasis + ")"
		}
		return drv.FirstKernel, []rule.Ref{v.ref("driver "+drv.ID, drv.Claim, text)}
	}
	return "", nil
}
