package diagnose

import (
	"fmt"
	"strings"

	"github.com/rocekb/rocekb/internal/rule"
)

// checkFirmwareMin compares running firmware with the matrix's firmware
// rows, each by its rule as the verdict engine reads it
// (rule.CheckFirmware).
//
// Severity: error below the minimum for RoCE itself (the vendor does not
// support the part there) or off an exact firmware; warning below the
// minimum of an optional feature only (e.g. Cisco's IPv6 minimum: RoCE v2
// over IPv4 still works) or below the firmware the host's stack release
// (or an earlier one) was tested with.
func checkFirmwareMin(v view) Result {
	m := v.m
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
		unknown, minimums := false, true
		for _, f := range mins {
			s, need := Severity(""), ""
			switch rule.CheckFirmware(f, a.Firmware.Running, stackVer) {
			case rule.FirmwareIncomparable, rule.FirmwareNotJudged:
				unknown = true
				continue
			case rule.FirmwareMeets:
				continue
			case rule.FirmwareBelow:
				s, need = featureSeverity(f.Feature), "needs ≥ "+f.Min
			case rule.FirmwareNotExact:
				s, need, minimums = Error, "needs exactly "+f.Min, false
			case rule.FirmwareOlderThanTested:
				s, need, minimums = Warning, "tested with "+f.Min, false
				if f.Stack != "" && f.StackVersion != "" {
					need += " on " + f.Stack + " " + f.StackVersion
				}
			}
			refs = append(refs, v.ref(fmt.Sprintf("firmware_min %s %s", ma.ID, f.Feature), f.Claim, rule.MinRule(ma, f)))
			below = append(below, fmt.Sprintf("%s (%s)", f.Feature, need))
			if s.Rank() > sev.Rank() {
				sev = s
			}
		}
		switch {
		case len(below) > 0:
			msg := "%s firmware %s is below the matrix minimum for %s"
			if !minimums {
				msg = "%s firmware %s does not meet the matrix's firmware for %s"
			}
			r.Findings = append(r.Findings, Finding{
				Severity: sev, Subject: a.PCIAddress, Adapter: a.PCIAddress,
				Message:     fmt.Sprintf(msg, ma.Name, a.Firmware.Running, strings.Join(below, ", ")),
				Explanation: "The vendor states a lowest firmware for these features (below it the feature is unsupported or missing), an exact firmware, or the firmware a driver stack release was tested with.",
				Fix:         "Update the adapter firmware to the version shown, with the vendor's tool, then reset the adapter or reboot so the new firmware runs.",
				Evidence:    []Evidence{ev},
				Matrix:      refs,
			})
		case unknown:
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "firmware " + a.Firmware.Running + " cannot be judged against the matrix's firmware rows (a version that does not compare, or only an earlier stack release's tested firmware)", Evidence: []Evidence{ev}})
		default:
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: "firmware " + a.Firmware.Running + " meets every matrix minimum", Evidence: []Evidence{ev}})
		}
	}
	v.unjudged(&r, v.isIdentified, "the firmware minimum")
	return r
}
