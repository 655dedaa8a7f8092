package diagnose

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/record"
)

// errnoNames names the errno values probe failures print most often
// (include/uapi/asm-generic/errno-base.h and errno.h).
var errnoNames = map[int]string{
	-1: "EPERM", -2: "ENOENT", -5: "EIO", -12: "ENOMEM", -16: "EBUSY", -19: "ENODEV",
	-22: "EINVAL", -28: "ENOSPC", -95: "EOPNOTSUPP", -110: "ETIMEDOUT",
}

// checkProbeFailed flags devices whose driver failed to probe, from the
// kernel log's probe-failure lines.
//
// Severity: error. A PCI function whose driver probe failed gets no netdev
// and no RDMA device, so nothing above it can work until the cause (often
// printed on the lines just before) is fixed.
func checkProbeFailed(v view) Result {
	h := v.h
	var r Result
	// At least one kernel log must have been read for silence to mean
	// anything.
	read := v.readOf("kernel-log") != nil
	byDevice := map[string][]record.LogEvent{}
	for _, e := range h.KernelLog {
		if e.Kind != record.LogProbeFailure {
			continue
		}
		// A line that names no device is about the host's only one, or
		// the host; never the driver that printed it.
		subj, _ := v.failureSubject(e)
		byDevice[subj] = append(byDevice[subj], e)
	}
	if len(byDevice) == 0 {
		if read || len(h.KernelLog) > 0 {
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "the kernel log has no driver probe failure"})
		} else {
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "no kernel log was read (dmesg, /var/log/dmesg or journalctl -k), so probe failures cannot be judged"})
		}
		return r
	}
	subjects := make([]string, 0, len(byDevice))
	for s := range byDevice {
		subjects = append(subjects, s)
	}
	sort.Strings(subjects)
	for _, subj := range subjects {
		events := byDevice[subj]
		var ev []Evidence
		var errs, mods []string
		for _, e := range events {
			ev = append(ev, logEvidence(e)...)
			if e.Errno != nil {
				name := fmt.Sprint(*e.Errno)
				if n, ok := errnoNames[*e.Errno]; ok {
					name += " (" + n + ")"
				}
				errs = appendOnce(errs, name)
			}
			if e.Module != "" {
				mods = appendOnce(mods, e.Module)
			}
		}
		msg := subj + ": driver probe failed"
		if len(mods) > 0 {
			msg = subj + ": " + strings.Join(mods, ", ") + " probe failed"
		}
		if len(errs) > 0 {
			msg += " with error " + strings.Join(errs, ", ")
		}
		adapter := ""
		if isPCIAddress(subj) {
			adapter = subj
		}
		r.Findings = append(r.Findings, Finding{
			Severity: Error, Subject: subj, Adapter: adapter,
			Message:     msg,
			Explanation: "The kernel driver gave up on the device, so it has no netdev and no RDMA device. The error is a negative errno; the lines printed just before the failure usually name the cause (firmware the driver does not accept, a command that timed out, resources such as interrupts that could not be allocated, or modules from two different stacks).",
			Fix:         "Read the kernel log lines before the failure. Bring the firmware to the matrix minimum for the adapter and this driver, make sure only one RDMA stack (inbox or vendor) is installed, then reload the driver or reboot. If it still fails, send the failing lines with 'devlink dev info' and 'ethtool -i' output to the adapter vendor.",
			Evidence:    ev,
		})
	}
	return r
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
