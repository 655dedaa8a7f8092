package diagnose

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
)

// logErrorKinds are the kernel log events rdma-log-error reports, with the
// severity and words for each. QP and asynchronous errors break traffic
// that is running (error); a failed firmware command, a ULP that could not
// attach, a kernel warning in RDMA code and an unassigned BAR show a fault
// whose effect the log alone does not tell (warning).
var logErrorKinds = map[string]struct {
	sev  Severity
	what string
	why  string
	fix  string
}{
	record.LogQPError: {Error, "QP error",
		"The kernel could not create or modify a queue pair: an application or ULP on this device cannot open a connection, or one it had was torn down.",
		"Read the quoted lines: an errno such as -12 (ENOMEM) points at resource limits (ulimit -l, the device's max_qp), -22 (EINVAL) at attributes the device rejects (MTU, GID index, path); check the port is ACTIVE with GIDs, then retry."},
	record.LogAsyncError: {Error, "asynchronous error",
		"The device raised an asynchronous event (a CQ, QP or work-queue error, or a catastrophic error): the QPs it names moved to the error state and their traffic stopped.",
		"Look up the event and syndrome in the quoted lines; a catastrophic or port error usually needs the firmware, cable and switch port checked and the driver reloaded; a local QP or CQ error points at the application that owns it."},
	record.LogCommandError: {Warning, "failed firmware command",
		"The driver sent the adapter a firmware command that failed with the status and syndrome quoted; the feature the command sets up is missing.",
		"Send the quoted status and syndrome with 'devlink dev info' (or 'ethtool -i') output to the adapter vendor, and bring the firmware to the level the driver expects."},
	record.LogULPFailure: {Warning, "ULP failure",
		"An RDMA upper-layer protocol (NFS over RDMA, iSER, SRP, NVMe over RDMA, IPoIB) failed to attach to the device or to connect, so the storage or IP traffic it carries is not on RDMA.",
		"Check the port the ULP uses is ACTIVE with GIDs and reachable (rping or ib_send_bw between the hosts), then restart the ULP (remount, reconnect the target)."},
	record.LogKernelWarning: {Warning, "kernel warning or BUG in RDMA code",
		"The kernel hit a WARNING (or BUG) in RDMA code: a driver or core path met a state it does not expect. The system went on, but the operation that triggered it may have failed.",
		"Note the function and module in the quoted lines; look for a fix in a newer kernel or driver (the stack's release notes), and report it with the full trace if it recurs."},
	record.LogBARUnassigned: {Warning, "unassigned BAR",
		"The PCI core could not assign a memory window (BAR) of the function, so its driver cannot map the device and the probe fails or the function is missing.",
		"Enable 'Above 4G decoding' (and for SR-IOV, 'SR-IOV support') in the system firmware, or boot with pci=realloc, then check the function in lspci -vv."},
}

// checkLogErrors turns RDMA errors in the kernel log into findings that
// quote the lines and their context. A failed firmware command that a
// probe failure already quotes is left to driver-probe-failed.
//
// Severity: per kind, see logErrorKinds.
func checkLogErrors(h *record.Host, m *matrix.Matrix) Result {
	v := newView(h, m)
	var r Result
	if !v.logRead() {
		r.Notes = append(r.Notes, noLogNote("RDMA errors in it"))
		return r
	}
	quoted := map[int]bool{} // lines a probe failure quotes
	for _, e := range h.KernelLog {
		if e.Kind == record.LogProbeFailure {
			for _, c := range e.Context {
				quoted[c.Line] = true
			}
		}
	}
	type key struct{ subj, kind string }
	groups := map[key][]record.LogEvent{}
	for _, e := range h.KernelLog {
		if _, ok := logErrorKinds[e.Kind]; !ok {
			continue
		}
		if e.Kind == record.LogCommandError && quoted[e.Line] && e.Line > 0 {
			continue
		}
		k := key{logSubject(e), e.Kind}
		groups[k] = append(groups[k], e)
	}
	if len(groups) == 0 {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "the kernel log has no QP, async, firmware command or ULP error, no RDMA kernel warning and no unassigned BAR"})
		return r
	}
	keys := make([]key, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].subj != keys[j].subj {
			return keys[i].subj < keys[j].subj
		}
		return keys[i].kind < keys[j].kind
	})
	for _, k := range keys {
		es := groups[k]
		info := logErrorKinds[k.kind]
		var ev []Evidence
		for i, e := range es {
			if i == 3 {
				ev = append(ev, Evidence{Fact: fmt.Sprintf("… and %d more such lines", len(es)-3), Source: e.Source})
				break
			}
			ev = append(ev, logEvidence(e)...)
		}
		what := info.what
		if len(es) > 1 {
			what = fmt.Sprintf("%d× %s", len(es), info.what)
		}
		msg := fmt.Sprintf("%s: %s in the kernel log", k.subj, what)
		if k.subj == "host" {
			msg = strings.ToUpper(what[:1]) + what[1:] + " in the kernel log"
		}
		adapter := ""
		if isPCIAddress(k.subj) {
			adapter = k.subj
		} else if d := v.device(k.subj); d != nil {
			adapter = adapterPCI(v, d)
		}
		r.Findings = append(r.Findings, Finding{
			Severity: info.sev, Subject: k.subj, Adapter: adapter,
			Message:     msg + ": " + clip(es[0].Text, 120),
			Explanation: info.why,
			Fix:         info.fix,
			Evidence:    ev,
		})
	}
	return r
}

// device returns the RDMA device with the given name, or nil.
func (v view) device(name string) *record.RDMADevice {
	for i := range v.h.Devices {
		if v.h.Devices[i].Name == name {
			return &v.h.Devices[i]
		}
	}
	return nil
}

// clip shortens s to n bytes at most, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
