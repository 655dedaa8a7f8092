package diagnose

import (
	"strings"

	"github.com/rocekb/rocekb/internal/record"
)

// vfioDrivers are the drivers that hand a PCI function to user space or a
// guest, so no kernel RDMA device is expected on it.
var vfioDrivers = []string{"vfio-pci", "vfio_pci", "uio_pci_generic", "igb_uio"}

func boundToVFIO(a *record.Adapter) bool {
	for _, d := range vfioDrivers {
		if a.Driver.Name == d {
			return true
		}
	}
	return false
}

// rxeConfigured gives the evidence that SoftRoCE is set up on the host: an
// rxe device in the record, rxe_cfg's output, or rdma_rxe loaded.
func (v view) rxeConfigured() []Evidence {
	var ev []Evidence
	for i := range v.h.Devices {
		if d := &v.h.Devices[i]; isRXE(d) {
			ev = append(ev, v.deviceFact(d, "provider", d.Name+" is a SoftRoCE device"+onParent(d.Parent)))
		}
	}
	if s := v.readOf("rxe_cfg"); s != nil && len(ev) == 0 {
		ev = append(ev, Evidence{Fact: "rxe_cfg was run on the host", Source: s.ID})
	}
	if mod := v.module("rdma_rxe"); mod != nil {
		ev = append(ev, Evidence{Fact: "module rdma_rxe is loaded", Source: v.moduleSource()})
	}
	return ev
}

// checkNoRDMADevice flags hosts that should have RDMA devices, for their
// RoCE adapters or their SoftRoCE set-up, on which verbs sees none.
//
// Severity: error when a RoCE adapter is present (hardware RDMA is down);
// warning when only rdma_rxe is loaded (no rxe link may have been added
// yet, or on purpose).
func checkNoRDMADevice(v view) Result {
	h := v.h
	var r Result
	empty, verbsEv, ok := v.verbsEmpty()
	if !ok {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "no RDMA device listing was read (ibv_devinfo, ibv_devices, rdma dev or /sys/class/infiniband), so whether verbs sees a device cannot be judged"})
		return r
	}
	if !empty {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "verbs sees an RDMA device"})
		return r
	}
	var hw []string
	var ev []Evidence
	guessed := true
	for a, p := range v.roceFunctions() {
		if boundToVFIO(a) {
			continue // bound-to-vfio says why it has no RDMA device
		}
		hw = appendOnce(hw, p.Name)
		ev = append(ev, adapterFact(a, "driver.name", rulesOr(a.Driver.Name, "not recorded")))
		if !v.guessed(a) {
			guessed = false
		}
	}
	rxe := v.rxeConfigured()
	if len(hw) == 0 && len(rxe) == 0 {
		if len(h.Adapters) == 0 {
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "verbs sees no RDMA device, and the record lists no adapter and no SoftRoCE set-up, so whether it should cannot be judged", Evidence: verbsEv})
			return r
		}
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "verbs sees no RDMA device, and no adapter here is a RoCE part", Evidence: verbsEv})
		return r
	}
	ev = append(append(ev, rxe...), verbsEv...)
	f := Finding{Subject: "host", Evidence: ev}
	if len(hw) > 0 {
		f.Severity = Error
		f.Message = "verbs sees no RDMA device on a host with RoCE adapters (" + strings.Join(hw, ", ") + ")"
		f.Explanation = "The adapters are RoCE parts, but no RDMA device exists for them as verbs sees it: the provider module (mlx5_ib, bnxt_re, irdma, …) is not loaded or failed, RoCE is disabled on the function, or rdma-core's userspace provider for it is missing."
		f.Fix = "Load the provider module (modprobe mlx5_ib, bnxt_re, irdma, …) and check the kernel log for its errors; check RoCE is enabled (devlink dev param show, enable_roce); install rdma-core with the provider (libibverbs and its providers package); then run ibv_devinfo again."
		f.Matrix = nil
		if guessed {
			r.Notes = append(r.Notes, unconfirmed(f))
			return r
		}
	} else {
		f.Severity = Warning
		f.Message = "SoftRoCE is set up, but verbs sees no RDMA device"
		f.Explanation = "rdma_rxe (SoftRoCE) is loaded or configured, but verbs lists no device: no rxe link was added on a netdev, the add failed, or libibverbs cannot load its rxe provider (a missing or mismatched rdma-core)."
		f.Fix = "Add the device (rdma link add rxe0 type rxe netdev <netdev>; the old rxe_cfg add <netdev> on rdma-core before 27), check rdma link show, and make sure the rdma-core userspace (libibverbs with the rxe provider) matches the kernel; then run ibv_devinfo again."
		f.Matrix = rxeRefs(v)
		// rxe_cfg add and start echo each interface name into rdma_rxe's
		// add parameter; a failed echo is an add the module refused.
		if adds := v.messages(msgWriteError); len(adds) > 0 {
			f.Explanation += " rxe_cfg's failed echo lines are its writes of an interface name to rdma_rxe's add parameter (/sys/module/rdma_rxe/parameters/add), which the module refused: no device was added by them."
			for _, m := range adds {
				f.Evidence = append(f.Evidence, messageFact(m))
			}
		}
	}
	r.Findings = append(r.Findings, f)
	return r
}

func rulesOr(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
