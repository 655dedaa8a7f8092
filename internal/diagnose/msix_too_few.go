package diagnose

import (
	"fmt"

	"github.com/rocekb/rocekb/internal/rule"
)

// checkMSIXFew compares the MSI-X vectors with the matrix minimum.
//
// Severity: error. The vendor states the minimum as a requirement (Cisco:
// "The minimum interrupt count for using RoCEv2 with Linux is 8").
func checkMSIXFew(v view) Result {
	var r Result
	for a, ma := range v.identified() {
		if len(ma.RoCE) == 0 {
			continue
		}
		if ma.Interrupts == nil || ma.Interrupts.MinVectors == 0 {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: "the matrix states no minimum interrupt count for " + ma.Name})
			continue
		}
		min := ma.Interrupts.MinVectors
		var n *int
		field := ""
		// The interrupt count set in the adapter policy shows as the MSI-X
		// table size; vectors in use is the fallback when lspci is absent.
		if a.MSIX != nil && a.MSIX.Count != nil {
			n, field = a.MSIX.Count, "msix.count"
		} else if a.MSIX != nil && a.MSIX.Vectors != nil {
			n, field = a.MSIX.Vectors, "msix.vectors"
		}
		ref := v.ref("adapter "+ma.ID+" interrupts", ma.Interrupts.Claim, fmt.Sprintf("%s RoCE on Linux needs at least %d interrupts", ma.Name, min))
		if n == nil {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the record has no MSI-X vector count for this function", Matrix: []rule.Ref{ref}})
			continue
		}
		ev := adapterFact(a, field, fmt.Sprint(*n))
		if *n >= min {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: fmt.Sprintf("%d MSI-X vectors, at least %d", *n, min), Evidence: []Evidence{ev}, Matrix: []rule.Ref{ref}})
			continue
		}
		r.Findings = append(r.Findings, Finding{
			Severity: Error, Subject: a.PCIAddress, Adapter: a.PCIAddress,
			Message:     fmt.Sprintf("%s has %d MSI-X vectors; RoCE needs at least %d", ma.Name, *n, min),
			Explanation: "The vendor states a minimum interrupt count for RoCE on Linux; with fewer, RoCE interfaces are not created or do not work.",
			Fix:         fmt.Sprintf("Raise the interrupt count of the vNIC to at least %d (on Cisco UCS: the adapter policy, e.g. Linux-NVMe-RoCE), then reboot the host.", min),
			Evidence:    []Evidence{ev},
			Matrix:      []rule.Ref{ref},
		})
	}
	v.unjudged(&r, v.isIdentified, "the interrupt minimum")
	return r
}
