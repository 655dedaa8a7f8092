package diagnose

import (
	"regexp"

	"github.com/rocekb/rocekb/internal/record"
)

// imageUnreadable matches firmware-problem lines in which a driver says it
// cannot read or trust the firmware image stored on the adapter (mlx5
// "failed to read ... image", ice "NVM ... corrupt", bnxt "NVM ... invalid").
var imageUnreadable = regexp.MustCompile(`(?i)(unable to read|failed to read|cannot read|can't read|unreadable|corrupt|invalid|bad)\b.*\b(image|nvm|flash|firmware)|\b(image|nvm|flash)\b.*\b(corrupt|invalid|unreadable|checksum)`)

// checkFlashFailed flags firmware flashes or activations that failed, and
// drivers that report the stored image as unreadable.
//
// Severity: error. A failed flash can leave the adapter on an old image or
// on none at the next reset; an unreadable stored image means the next
// reset may not bring the adapter back.
func checkFlashFailed(v view) Result {
	h := v.h
	var r Result
	if !v.logRead() {
		r.Notes = append(r.Notes, noLogNote("firmware flash failures"))
		return r
	}
	bySubj := map[string][]record.LogEvent{}
	var order []string
	for _, e := range h.KernelLog {
		if e.Kind != record.LogFlashFailure && !(e.Kind == record.LogFirmwareProblem && imageUnreadable.MatchString(e.Text)) {
			continue
		}
		s := logSubject(e)
		if _, ok := bySubj[s]; !ok {
			order = append(order, s)
		}
		bySubj[s] = append(bySubj[s], e)
	}
	if len(order) == 0 {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "the kernel log has no firmware flash or activation failure and no unreadable image"})
		return r
	}
	for _, s := range order {
		var ev []Evidence
		for _, e := range bySubj[s] {
			ev = append(ev, logEvidence(e)...)
		}
		adapter := ""
		if isPCIAddress(s) {
			adapter = s
		}
		r.Findings = append(r.Findings, Finding{
			Severity: Error, Subject: s, Adapter: adapter,
			Message:     s + ": firmware flash or image failure in the kernel log: " + clip(bySubj[s][0].Text, 120),
			Explanation: "The driver (or mlxfw, which flashes Mellanox/NVIDIA adapters for devlink dev flash) reported that writing or activating firmware failed, or that the image stored on the adapter cannot be read. The adapter keeps running its current image until the next reset, which then may load an old image or fail.",
			Fix:         "Do not reset or power-cycle the host yet. Re-run the flash with the vendor tool (mlxfwmanager or mstflint for NVIDIA, the NVM update tool for Intel, the vendor's update utility otherwise) using an image for this exact board (PSID or board id), read back the result (devlink dev info shows the stored version), and contact the vendor if the write fails again.",
			Evidence:    ev,
		})
	}
	return r
}
