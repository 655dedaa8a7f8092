package diagnose

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/rule"
	"github.com/rocekb/rocekb/internal/source"
)

// deviceTools are the source-table rows that list RDMA devices; any of them
// read means an empty device list is real.
var deviceTools = []string{"sysfs-infiniband", "rdma", "ibv_devices", "ibv_devinfo"}

// sysfsTools are the rows read from sysfs.
var sysfsTools = []string{"sysfs-pci", "sysfs-net", "sysfs-infiniband", "rdma_cm"}

// devicesListed reports whether the record can say "no RDMA device": a
// device source was read, or sysfs was in the snapshot but
// /sys/class/infiniband was not (the kernel creates it with the first
// RDMA device).
func (v view) devicesListed() bool {
	if v.readOf(deviceTools...) != nil {
		return true
	}
	return v.readOf(sysfsTools...) != nil || v.source(source.SysModule) != nil && v.source(source.SysModule).Status == record.StatusOK
}

// isRXE recognises a SoftRoCE device: its provider, or (when the record
// does not name the provider) the rxe name the kernel and rdma link give
// it together with the absence of a PCI function.
func isRXE(d *record.RDMADevice) bool {
	if d.Provider != "" {
		return d.Provider == "rdma_rxe" || d.Provider == "rxe"
	}
	return strings.HasPrefix(d.Name, "rxe") && d.PCIAddress == ""
}

// checkRXE flags SoftRoCE devices on hosts that also have hardware RoCE.
//
// Severity: warning. Both work, but an application that picks the first
// RDMA device, or a GID on the shared netdev, can end up on the software
// path at a fraction of the hardware's speed, and the same netdev then has
// two RoCE devices.
func checkRXE(v view) Result {
	h := v.h
	var r Result
	if len(h.Devices) == 0 {
		if v.devicesListed() {
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "no RDMA device, so no SoftRoCE device"})
			return r
		}
		r.Notes = append(r.Notes, v.noDevices("SoftRoCE"))
		return r
	}
	var rxe, hw []*record.RDMADevice
	for i := range h.Devices {
		d := &h.Devices[i]
		switch {
		case isRXE(d):
			rxe = append(rxe, d)
		case d.PCIAddress != "" && hasEthernetPort(d):
			hw = append(hw, d)
		}
	}
	if len(rxe) == 0 {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "no SoftRoCE (rxe) device"})
		return r
	}
	if len(hw) == 0 {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "SoftRoCE is the only RoCE on this host"})
		return r
	}
	var hwNames []string
	netdevs := map[string]string{}
	for _, d := range hw {
		hwNames = append(hwNames, d.Name)
		for _, p := range d.Ports {
			if p.Netdev != "" {
				netdevs[p.Netdev] = d.Name
			}
		}
	}
	sort.Strings(hwNames)
	for _, d := range rxe {
		ev := []Evidence{v.deviceFact(d, "provider", d.Name+" is a SoftRoCE device"+onParent(d.Parent))}
		for _, hd := range hw {
			ev = append(ev, v.deviceFact(hd, "pci_address", hd.Name+" is hardware RoCE on "+hd.PCIAddress))
		}
		msg := fmt.Sprintf("SoftRoCE device %s runs beside hardware RoCE (%s)", d.Name, strings.Join(hwNames, ", "))
		if hwd, ok := netdevs[d.Parent]; ok && d.Parent != "" {
			msg = fmt.Sprintf("SoftRoCE device %s rides on %s, which %s already serves in hardware", d.Name, d.Parent, hwd)
		}
		r.Findings = append(r.Findings, Finding{
			Severity: Warning, Subject: d.Name,
			Message:     msg,
			Explanation: "rdma_rxe implements RoCE v2 in software on any netdev. On a host with a RoCE adapter it adds a second, much slower RDMA device; applications and libraries that pick a device by order or by GID can land on it.",
			Fix:         "Remove it unless it is wanted: rdma link delete " + d.Name + " (and stop whatever creates it at boot, e.g. an rdma link add in a unit or script).",
			Evidence:    ev,
			Matrix:      rxeRefs(v),
		})
	}
	return r
}

func rxeRefs(v view) []rule.Ref {
	if d := v.m.Driver("rdma_rxe"); d != nil {
		return []rule.Ref{v.ref("driver rdma_rxe", d.Claim, "rdma_rxe is a software RoCE implementation that binds to an existing netdev")}
	}
	return nil
}

func onParent(p string) string {
	if p == "" {
		return ""
	}
	return " on " + p
}

func hasEthernetPort(d *record.RDMADevice) bool {
	for _, p := range d.Ports {
		if isEthernetPort(p) {
			return true
		}
	}
	return false
}
