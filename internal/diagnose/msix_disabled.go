package diagnose

import (
	"github.com/rocekb/rocekb/internal/rule"
)

// checkMSIXDisabled flags RoCE adapters with MSI-X turned off.
//
// Severity: error when the matrix says the part's RoCE needs MSI-X (Cisco
// VIC on Linux); warning otherwise: the driver falls back to MSI or INTx,
// which the vendor did not ask for but which does not by itself stop RoCE.
func checkMSIXDisabled(v view) Result {
	var r Result
	for a, p := range v.roceFunctions() {
		ma := v.match(a)
		if a.MSIX == nil || a.MSIX.Enabled == nil {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the record has no MSI-X state for this function (lspci -vv shows it)"})
			continue
		}
		if *a.MSIX.Enabled {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: "MSI-X is enabled"})
			continue
		}
		// vfio-pci enables MSI-X only when its user (DPDK, a guest) opens
		// the function; bound-to-vfio reports the binding.
		if boundToVFIO(a) {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: "MSI-X is off because " + a.Driver.Name + " holds the function; its user turns it on"})
			continue
		}
		f := Finding{
			Severity: Warning, Subject: a.PCIAddress, Adapter: a.PCIAddress,
			Message:     p.Name + " has MSI-X disabled",
			Explanation: "With MSI-X off, the driver runs on MSI or legacy interrupts, with fewer completion vectors than the adapter offers.",
			Fix:         "Check that the driver is bound (lspci -k) and that MSI-X is not disabled by a kernel parameter (pci=nomsi) or the server's BIOS; on Cisco UCS set the interrupt mode to MSI-X in the adapter policy.",
			Evidence:    []Evidence{adapterFact(a, "msix.enabled", "false")},
		}
		if a.Driver.Name == "" {
			f.Explanation += " No driver is bound to this function, which alone leaves MSI-X off."
		}
		if ma != nil && ma.Interrupts != nil && ma.Interrupts.MSIXOnly {
			f.Severity = Error
			f.Explanation = ma.Name + " supports RoCE on Linux only in MSI-X interrupt mode. " + f.Explanation
			f.Matrix = []rule.Ref{v.ref("adapter "+ma.ID+" interrupts", ma.Interrupts.Claim, ma.Name+" RoCE on Linux needs MSI-X interrupt mode")}
		}
		v.report(&r, a, f)
	}
	v.unjudged(&r, v.hasProvider, "MSI-X")
	return r
}
