package diagnose

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/checkid"
	"github.com/rocekb/rocekb/internal/dmesg"
	"github.com/rocekb/rocekb/internal/record"
)

// logKind is what a check says of one kind of kernel log event.
type logKind struct {
	sev  Severity
	what string
	why  string
	fix  string
}

// logChecks are the checks that report kernel log events, one row per
// check: the kinds it reports and its words for each. A failure is
// reported on the device the line names (PCI function, RDMA device), so
// two adapters' failures are two findings.
var logChecks = map[string]struct {
	kinds map[string]logKind
	pass  string // the pass note when a log was read and holds none
}{
	checkid.RDMALogError: {map[string]logKind{
		record.LogAsyncError: {Error, "asynchronous error",
			"The device raised an asynchronous event (a CQ, QP or work-queue error, or a catastrophic error): the QPs it names moved to the error state and their traffic stopped.",
			"Look up the event and syndrome in the quoted lines; a catastrophic or port error usually needs the firmware, cable and switch port checked and the driver reloaded; a local QP or CQ error points at the application that owns it."},
		kindErrorCQE: {Warning, "error completion",
			"mlx5 logged a work request that completed with an error (\"Requestor error cqe\" on the sending side, \"Responder error cqe\" on the receiving side) and its syndrome, which maps to the work completion status: the queue pair that owns it went to the error state. This is the application's or the peer's error on one connection, not a fault of the device.",
			"Map the syndrome to its status: 0x15 transport retry exceeded points at the path or GID to the peer, 0x16 RNR retry at the receiver posting too few receives, 0x13 remote access at the memory key; find the first error on the QP, since the ones after it are flushed."},
		kindFlushedCQE: {Info, "flushed work completion",
			"mlx5 logged work requests that completed with syndrome 0x5, Work Request Flushed Error: they were still posted when their queue pair had already gone to the error state (it was closed, or failed earlier), so the hardware returned them unexecuted. Flushed completions name no cause.",
			"If connections failed, look for the first completion on that QP whose syndrome is not 0x5, or for the reason the QP was closed (the ULP's or application's own messages); a log of flushed completions alone is normal teardown."},
		record.LogBARUnassigned: {Warning, "unassigned BAR",
			"The PCI core could not assign a memory window (BAR) of the function, so its driver cannot map the device and the probe fails or the function is missing.",
			"Enable 'Above 4G decoding' (and for SR-IOV, 'SR-IOV support') in the system firmware, or boot with pci=realloc, then check the function in lspci -vv."},
		record.LogMRFailure: {Warning, "memory registration refused",
			"A provider refused a user memory registration (the program's ibv_reg_mr returned NULL): the kernel could not pin the buffer's pages (umem), the length was 0 or above the device's maximum MR size, or the device's own command to create the MR failed.",
			"Check that the buffer is ordinary mapped memory of the program (GPU or other device memory needs its peer-memory module), raise the program's locked-memory limit (ulimit -l), and compare the length with ibv_devinfo -v max_mr_size."},
	}, "the kernel log has no asynchronous RDMA error, no unassigned BAR and no refused memory registration"},
	checkid.FWCommandTimeout: {map[string]logKind{
		record.LogCommandTimeout: {Error, "firmware command timeout",
			"The driver sent the adapter's firmware a command that got no answer in time (or the firmware never left its initialising state): the device is hung or its firmware is stuck, and what the command set up (a queue, a port, the device itself) is missing.",
			"Note the command and the device in the quoted lines; check the adapter's firmware level against the driver's release notes, look for PCIe errors (AER) around the same time, then reset the device (devlink dev reload, or a cold reboot) and update the firmware if the timeouts return."},
	}, "the kernel log has no firmware command timeout"},
	checkid.FWCommandFailed: {map[string]logKind{
		record.LogCommandError: {Warning, "failed firmware command",
			"The driver sent the adapter a firmware command that failed with the status and syndrome quoted; the feature the command sets up is missing.",
			"Send the quoted status and syndrome with 'devlink dev info' (or 'ethtool -i') output to the adapter vendor, and bring the firmware to the level the driver expects."},
	}, "the kernel log has no failed firmware command"},
	checkid.HWQueueFailed: {map[string]logKind{
		record.LogQueueFailure: {Error, "hardware queue or port failure",
			"The provider could not create a hardware queue (event, completion, notification or command queue) or open a port: the RDMA device is missing or has no working port.",
			"Read the failure before it in the quoted lines (a failed or timed out firmware command, too few MSI-X vectors, memory); fix that, then reload the driver."},
	}, "the kernel log shows no failure to create a hardware queue or open a port"},
	checkid.GIDTableError: {map[string]logKind{
		record.LogGIDError: {Warning, "GID table error",
			"The RDMA core or the provider could not write a GID (an address of the port) to the GID table: RoCE connections to or from that address fail, often because the table is full (-28, ENOSPC) or the device rejected the entry (-22).",
			"Count the port's addresses (IPv4, IPv6, VLAN and macvlan interfaces each add GIDs) against the GID table size, remove the ones RoCE does not need, and check the firmware for GID-related fixes."},
	}, "the kernel log has no GID table error"},
	checkid.RoCEDisabled: {map[string]logKind{
		record.LogRoCEDisabled: {Error, "RoCE refused at probe",
			"The provider found the function without RoCE enabled (a firmware or NVM setting, devlink enable_roce, a port configuration the driver runs without RDMA, a licence, or a device that cannot do it) and registered no RDMA device for it.",
			"Read the quoted line for which: enable RoCE in the adapter's NVM configuration with its vendor's tool or with devlink enable_roce; on an Intel E810 whose line says RDMA is not available with the current device configuration, ice turns RDMA off when the device has more than four ports, so configure four ports or fewer; check the adapter model supports RoCE; then reload the driver or reboot."},
	}, "the kernel log shows no provider refusing RoCE"},
	checkid.QPCreateFailed: {map[string]logKind{
		record.LogQPError: {Error, "QP error",
			"The kernel could not create or modify a queue pair: an application or ULP on this device cannot open a connection, or one it had was torn down.",
			"Read the quoted lines: an errno such as -12 (ENOMEM) points at resource limits (ulimit -l, the device's max_qp), -22 (EINVAL) at attributes the device rejects (MTU, GID index, path); check the port is ACTIVE with GIDs, then retry."},
	}, "the kernel log shows no QP creation or modification rejected"},
	checkid.ResourceExhausted: {map[string]logKind{
		record.LogResourceExhausted: {Warning, "resource exhaustion",
			"A driver ran out of memory, pages or a device resource (QPs, MRs, vectors): what it was setting up failed.",
			"Check memory pressure and locked-memory limits at the time of the quoted lines, and the device's limits (ibv_devinfo -v max_qp, max_mr); reduce the load or raise the limits."},
	}, "the kernel log shows no exhausted resource"},
	checkid.DeviceReset: {map[string]logKind{
		record.LogResetRecovery: {Warning, "device reset or error recovery",
			"The device was reset, or its driver entered error recovery (a firmware fatal error, a PCI error): RDMA connections over it were torn down and the applications had to reconnect.",
			"Look for the cause just before the quoted lines (firmware assert, PCIe AER error, command timeout); update the firmware and driver if it recurs, and check the slot and cooling."},
	}, "the kernel log shows no device reset or error recovery"},
	checkid.ULPFailure: {map[string]logKind{
		record.LogULPFailure: {Warning, "ULP failure",
			"An RDMA upper-layer protocol (NVMe over RDMA, NFS over RDMA, iSER, SRP, SMB Direct, IPoIB) failed to attach to the device or to connect, so the storage or IP traffic it carries is not on RDMA.",
			"Check the port the ULP uses is ACTIVE with GIDs and reachable (rping or ib_send_bw between the hosts), then restart the ULP (remount, reconnect the target)."},
	}, "the kernel log has no ULP failure"},
	checkid.KernelWarning: {map[string]logKind{
		record.LogKernelWarning: {Warning, "kernel warning or BUG in RDMA code",
			"The kernel hit a WARNING (or BUG) in RDMA, devlink or driver code: a driver or core path met a state it does not expect. The system went on, but the operation that triggered it may have failed.",
			"Note the function and module in the quoted lines; look for a fix in a newer kernel or driver (the stack's release notes), and report it with the full trace if it recurs."},
	}, "the kernel log has no WARNING or BUG in RDMA code"},
}

// logCheck returns the check of a logChecks row: it turns the row's
// kernel log events into findings that quote the lines and their context,
// one per device and kind. A failed firmware command or queue that a
// probe failure already quotes is left to driver-probe-failed.
func logCheck(id string) func(view) Result {
	row := logChecks[id]
	return func(v view) Result {
		h := v.h
		var r Result
		if !v.logRead() {
			r.Notes = append(r.Notes, noLogNote("what it says of "+id))
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
		inferred := map[key]string{} // why a group's subject is its device
		for _, e := range h.KernelLog {
			if _, ok := row.kinds[e.Kind]; !ok {
				continue
			}
			if (e.Kind == record.LogCommandError || e.Kind == record.LogQueueFailure) && quoted[e.Line] && e.Line > 0 {
				continue // driver-probe-failed quotes it as the probe's cause
			}
			subj, why := v.failureSubject(e)
			k := key{subj, cqeKind(e)}
			groups[k] = append(groups[k], e)
			if why != "" {
				inferred[k] = why
			}
		}
		if len(groups) == 0 {
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: row.pass})
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
			info := row.kinds[k.kind]
			var ev []Evidence
			for i, e := range es {
				if i == 3 {
					ev = append(ev, Evidence{Fact: fmt.Sprintf("… and %d more such lines", len(es)-3), Source: e.Source})
					break
				}
				ev = append(ev, logEvidence(e)...)
			}
			if why := inferred[k]; why != "" {
				ev = append(ev, Evidence{Fact: why, Source: es[0].Source})
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
}

// The kinds rdma-log-error gives an asynchronous error that is mlx5's
// error completion ("Requestor|Responder error cqe on cqn 0x%x:", its
// syndrome line kept as context; drivers/infiniband/hw/mlx5/cq.c): a
// flushed one (syndrome 0x5, MLX5_CQE_SYNDROME_WR_FLUSH_ERR) or another.
const (
	kindErrorCQE   = record.LogAsyncError + "/error-cqe"
	kindFlushedCQE = record.LogAsyncError + "/flushed-cqe"
)

// cqeKind is the kind an event is reported under: an asynchronous error
// that is mlx5's error completion is an error completion, a flushed one
// when its syndrome is 0x5; any other event keeps its kind.
func cqeKind(e record.LogEvent) string {
	if e.Kind != record.LogAsyncError || !dmesg.ErrorCQE(e.Text) {
		return e.Kind
	}
	for _, c := range e.Context {
		if syn, ok := dmesg.CQESyndrome(c.Text); ok && c.Line > e.Line {
			if syn == "5" || syn == "05" {
				return kindFlushedCQE
			}
			break
		}
	}
	return kindErrorCQE
}

// device returns the RDMA device with the given name, or nil.
func (v view) device(name string) *record.RDMADevice {
	if i, ok := v.lookup().device[name]; ok {
		return &v.h.Devices[i]
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
