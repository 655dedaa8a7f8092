package diagnose

import (
	"fmt"
	"strings"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/rule"
)

// checkFirmwareMin compares running firmware with the matrix minimums.
//
// Severity: error below the minimum for RoCE itself (the vendor does not
// support the part there); warning below the minimum of an optional
// feature only (e.g. Cisco's IPv6 minimum: RoCE v2 over IPv4 still works).
func checkFirmwareMin(h *record.Host, m *matrix.Matrix) Result {
	v := newView(h, m)
	var r Result
	stack, stackVer := v.hostStack()
	for a, ma := range v.identified() { // unjudged notes the rest
		mins := rule.FirmwareMins(m, ma.ID, stack, stackVer)
		if len(mins) == 0 {
			// Every part has some lowest working firmware; the matrix not
			// knowing it is absent data, not a pass.
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the matrix states no minimum firmware for " + ma.Name})
			continue
		}
		if a.Firmware.Running == "" {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the record has no running firmware version for this function"})
			continue
		}
		ev := adapterFact(a, "firmware.running", a.Firmware.Running)
		var refs []rule.Ref
		var below []string
		sev := Severity("")
		unknown := false
		for _, f := range mins {
			ref := v.ref(fmt.Sprintf("firmware_min %s %s", ma.ID, f.Feature), f.Claim, rule.MinRule(ma, f))
			c, ok := rule.Compare(a.Firmware.Running, f.Min)
			if !ok {
				unknown = true
				continue
			}
			if c >= 0 {
				continue
			}
			refs = append(refs, ref)
			below = append(below, fmt.Sprintf("%s (needs ≥ %s)", f.Feature, f.Min))
			if s := featureSeverity(f.Feature); s.Rank() > sev.Rank() {
				sev = s
			}
		}
		switch {
		case len(below) > 0:
			r.Findings = append(r.Findings, Finding{
				Severity: sev, Subject: a.PCIAddress, Adapter: a.PCIAddress,
				Message:     fmt.Sprintf("%s firmware %s is below the matrix minimum for %s", ma.Name, a.Firmware.Running, strings.Join(below, ", ")),
				Explanation: "The vendor states a lowest firmware for these features; below it the feature is unsupported or missing.",
				Fix:         "Update the adapter firmware to at least the minimum shown, with the vendor's tool, then reset the adapter or reboot so the new firmware runs.",
				Evidence:    []Evidence{ev},
				Matrix:      refs,
			})
		case unknown:
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "firmware " + a.Firmware.Running + " cannot be compared with the matrix minimum", Evidence: []Evidence{ev}})
		default:
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: "firmware " + a.Firmware.Running + " meets every matrix minimum", Evidence: []Evidence{ev}})
		}
	}
	v.unjudged(&r, v.isIdentified, "the firmware minimum")
	return r
}
