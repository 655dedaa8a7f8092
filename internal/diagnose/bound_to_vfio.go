package diagnose

import (
	"github.com/rocekb/rocekb/internal/record"
)

// checkBoundToVFIO reports RDMA-capable adapters bound to vfio-pci (or a
// UIO driver): the host kernel has no netdev and no RDMA device for them.
//
// Severity: info. It is what DPDK and device passthrough to a guest need;
// it only explains why the host shows no RDMA device for the function.
func checkBoundToVFIO(v view) Result {
	h := v.h
	var r Result
	unknown := 0
	for a := range v.adapters() {
		if a.Driver.Name == "" {
			unknown++
			continue
		}
		if !boundToVFIO(a) {
			continue
		}
		name := a.Name
		if name == "" && len(a.KernelModules) > 0 {
			name = "a " + a.KernelModules[0] + " function"
		}
		if ma := v.match(a); ma != nil {
			if len(ma.RoCE) == 0 {
				continue
			}
			name = ma.Name
		} else if !v.rdmaLike(a) && !v.rdmaModules(a) {
			continue
		}
		r.Findings = append(r.Findings, Finding{
			Severity: Info, Subject: a.PCIAddress, Adapter: a.PCIAddress,
			Message:     a.PCIAddress + " (" + rulesOr(name, "RDMA-capable function") + ") is bound to " + a.Driver.Name + ", so the host has no RDMA device on it",
			Explanation: a.Driver.Name + " hands the whole PCI function to user space (DPDK) or to a guest (passthrough): the host kernel's driver, its netdev and its RDMA device are gone. This is expected under DPDK or passthrough; RDMA then happens in the guest or not at all.",
			Fix:         "Nothing to do under DPDK or passthrough. To use RDMA on the host, unbind it (driverctl unset-override " + a.PCIAddress + ", or echo the address to the driver's unbind and the vendor driver's bind file) and load the vendor driver.",
			Evidence:    []Evidence{adapterFact(a, "driver.name", a.Driver.Name)},
		})
	}
	if len(r.Findings) > 0 {
		return r
	}
	switch {
	case len(h.Adapters) == 0:
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "the record lists no adapter"})
	case unknown == len(h.Adapters):
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "the record has no driver for any adapter"})
	default:
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "no RDMA-capable adapter is bound to vfio-pci"})
	}
	return r
}

// rdmaModules reports whether lspci's "Kernel modules" line names a driver
// of a matrix RDMA part for the function: what it would be bound to
// without vfio-pci.
func (v view) rdmaModules(a *record.Adapter) bool {
	for _, k := range a.KernelModules {
		if ethDriverKnown(v.m, k) {
			return true
		}
	}
	return false
}
