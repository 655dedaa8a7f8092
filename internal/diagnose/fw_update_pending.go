package diagnose

import (
	"fmt"
	"slices"
)

// placeholderFirmware lists versions drivers print when they have no
// version to report. mlx5 reported 255.255.65535 (0xff…) as the stored
// version when flash held none; the fix "net/mlx5: report 0 or 0xfff..
// versions" (https://patch.msgid.link/20260330194015.53585-3-tariqt@nvidia.com)
// stops that. Remove when kernels without the fix are gone from the field.
var placeholderFirmware = []string{"255.255.65535", "65535.65535.65535", "0.0.0", "0.0.0000"}

// checkFirmwarePending flags adapters whose stored firmware differs from the
// running one.
//
// Severity: warning. Today's behaviour follows the running firmware; the
// stored one takes over at the next reset or reboot, which can change
// behaviour without any other change to the host.
func checkFirmwarePending(v view) Result {
	h := v.h
	var r Result
	for a := range v.adapters() {
		fw := a.Firmware
		switch {
		case fw.Running == "" || fw.Stored == "":
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the record lacks the running or the stored firmware version (devlink dev info reports both)"})
		case slices.Contains(placeholderFirmware, fw.Stored):
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown,
				Text:     "stored firmware " + fw.Stored + " is a placeholder the driver prints when it has no version, not a pending update",
				Evidence: []Evidence{adapterFact(a, "firmware.stored", fw.Stored)}})
		case fw.Stored != fw.Running:
			r.Findings = append(r.Findings, Finding{
				Severity: Warning, Subject: a.PCIAddress, Adapter: a.PCIAddress,
				Message:     fmt.Sprintf("firmware %s is stored but %s is running: a reset or reboot is pending", fw.Stored, fw.Running),
				Explanation: "devlink reports the version burned in flash as 'stored' and the active one as 'running'. They differ after a firmware update that has not been activated; the stored firmware takes over at the next adapter reset or reboot.",
				Fix:         "Reboot, or reset the adapter (for mlx5: mlxfwreset, or devlink dev reload with action fw_activate where supported), at a time the change is safe.",
				Evidence:    []Evidence{adapterFact(a, "firmware.running", fw.Running), adapterFact(a, "firmware.stored", fw.Stored)},
			})
		default:
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: "stored firmware equals running firmware " + fw.Running})
		}
	}
	if len(h.Adapters) == 0 {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "the record lists no adapter"})
	}
	return r
}
