package diagnose

import (
	"fmt"
	"strings"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/rule"
)

// checkAdapterUnknown flags PCI functions the matrix does not know.
//
// Severity: warning when the function looks RDMA-capable (it has an RDMA
// device, its driver is a companion of a matrix RDMA driver, or its PCI
// vendor is a matrix vendor): the engine cannot judge the part people most
// likely care about. info for other network functions (onboard NICs,
// virtio): nothing is wrong with them, the matrix simply does not cover them.
func checkAdapterUnknown(v view) Result {
	h, m := v.h, v.m
	var r Result
	if len(h.Adapters) == 0 {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "the record lists no PCI network or RDMA function"})
		return r
	}
	for a := range v.adapters() {
		if ma := v.match(a); ma != nil {
			text := fmt.Sprintf("%s:%s is %s", a.Vendor, a.Device, ma.Name)
			if a.Vendor == "" || a.Device == "" {
				// Identified by the pci.ids name lspci printed, not by ids.
				text = fmt.Sprintf("lspci names this function %q, the pci.ids name of %s", a.Name, ma.Name)
			}
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass,
				Text: text, Evidence: []Evidence{adapterFact(a, "name", a.Name)},
				Matrix: []rule.Ref{v.ref("adapter "+ma.ID, ma.Claim, pciRule(ma))}})
			continue
		}
		if a.Vendor == "" || a.Device == "" {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the record has no PCI vendor and device id for this function"})
			continue
		}
		id := a.Vendor + ":" + a.Device
		if a.SubsystemVendor != "" {
			id += " (subsystem " + a.SubsystemVendor + ":" + a.SubsystemDevice + ")"
		}
		ev := []Evidence{adapterFact(a, "pci id", id)}
		if a.Name != "" {
			ev = append(ev, adapterFact(a, "name", a.Name))
		}
		sev, why := Info, "it has no RDMA device and its driver is not a RoCE driver the matrix knows, so it is probably a plain network function"
		switch {
		case len(v.rdmaDevicesOf(a)) > 0:
			devs := strings.Join(v.rdmaDevicesOf(a), ", ")
			sev, why = Warning, "it carries the RDMA device(s) "+devs
			ev = append(ev, adapterFact(a, "rdma_devices", devs))
		case a.Driver.Name != "" && ethDriverKnown(m, a.Driver.Name):
			sev, why = Warning, "its driver "+a.Driver.Name+" is the Ethernet side of an RDMA driver the matrix knows"
			ev = append(ev, adapterFact(a, "driver.name", a.Driver.Name))
		case vendorKnown(m, a.Vendor):
			sev, why = Warning, "its PCI vendor "+a.Vendor+" makes RoCE adapters the matrix lists"
		}
		r.Findings = append(r.Findings, Finding{
			Severity: sev, Subject: a.PCIAddress, Adapter: a.PCIAddress,
			Message:     fmt.Sprintf("PCI function %s is not in the matrix", id),
			Explanation: "The engine judges only parts the matrix lists, and gives no verdict for this one rather than guess: " + why + ".",
			Fix:         "If this part is used for RoCE, add it to matrix/<vendor>.toml with a source for its PCI id (see README, 'Add a matrix row'); otherwise ignore this finding.",
			Evidence:    ev,
		})
	}
	return r
}

func pciRule(a *matrix.Adapter) string {
	var ids []string
	for _, p := range a.PCI {
		s := p.ID
		if p.Subsystem != "" {
			s += " subsystem " + p.Subsystem
		}
		ids = append(ids, s)
	}
	return fmt.Sprintf("%s has PCI id %s", a.Name, strings.Join(ids, ", "))
}
