package diagnose

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/record"
)

// fwUnit is one adapter (or an RDMA device whose adapter the record lacks)
// with the board identity and running firmware it reports.
type fwUnit struct {
	subject, adapter, idKind, id, fw string
	ev                               Evidence
	// mst: a device of the firmware_device table, named by its mst path.
	// Those are compared among themselves only: one of them may be the
	// very card an adapter stands for, and mlxfwmanager may print the
	// flash's level where the driver reports the running one, which would
	// be a mismatch of a card with itself.
	mst bool
}

// checkFirmwareMismatch flags adapters with the same PSID (or, without one,
// the same board id) that run different firmware on one host. Functions of
// one card report the same firmware, so a difference means two cards of one
// model on two levels. The devices of mlxfwmanager that name no adapter
// (the record's firmware_device table) are compared with each other.
//
// Severity: warning. Each level may work, but the cards then differ in
// fixes and behaviour, and the vendor supports a model at one level per
// stack release.
func checkFirmwareMismatch(v view) Result {
	h := v.h
	var r Result
	var units []fwUnit
	covered := map[string]bool{}
	for a := range v.adapters() {
		fw := a.Firmware.Running
		if fw == "" || slices.Contains(placeholderFirmware, fw) {
			continue
		}
		kind, id := "PSID", a.Firmware.PSID
		if id == "" {
			kind, id = "board id", a.Firmware.BoardID
		}
		if id == "" {
			continue
		}
		for _, n := range v.rdmaDevicesOf(a) {
			covered[n] = true
		}
		units = append(units, fwUnit{subject: a.PCIAddress, adapter: a.PCIAddress, idKind: kind, id: id, fw: fw, ev: adapterFact(a, "firmware.running", fw+" ("+kind+" "+id+")")})
	}
	for i := range h.Devices {
		d := &h.Devices[i]
		if covered[d.Name] || v.adapterOf(d) != nil && v.adapterOf(d).Firmware.Running != "" || d.BoardID == "" || d.FwVer == "" {
			continue
		}
		units = append(units, fwUnit{subject: d.Name, adapter: d.PCIAddress, idKind: "board id", id: d.BoardID, fw: d.FwVer, ev: v.deviceFact(d, "fw_ver", fmt.Sprintf("%s fw_ver %s (board_id %s)", d.Name, d.FwVer, d.BoardID))})
	}
	for i := range h.FirmwareDevices {
		d := &h.FirmwareDevices[i]
		if u, ok := firmwareDeviceUnit(d); ok {
			units = append(units, u)
		}
	}
	if len(units) == 0 {
		text := "the record has no adapter with both a PSID or board id and its running firmware"
		if len(h.Adapters)+len(h.Devices)+len(h.FirmwareDevices) == 0 {
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "the record lists no adapter"})
			return r
		}
		if len(h.Adapters)+len(h.Devices)+len(h.FirmwareDevices) == 1 {
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "one adapter at most, so nothing to compare"})
			return r
		}
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: text})
		return r
	}
	groups := map[string][]fwUnit{}
	for _, u := range units {
		k := u.idKind + " " + u.id
		if u.mst {
			k = "mst " + k
		}
		groups[k] = append(groups[k], u)
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		g := groups[key]
		k := g[0].idKind + " " + g[0].id
		var levels []string
		for _, u := range g {
			levels = appendOnce(levels, u.fw)
		}
		if len(levels) < 2 {
			r.Notes = append(r.Notes, Note{Subject: g[0].subject, Adapter: g[0].adapter, Status: Pass, Text: fmt.Sprintf("every adapter with %s runs %s", k, levels[0])})
			continue
		}
		var ev []Evidence
		for _, u := range g {
			ev = append(ev, u.ev)
		}
		r.Findings = append(r.Findings, Finding{
			Severity: Warning, Subject: g[0].subject, Adapter: g[0].adapter,
			Message:     fmt.Sprintf("adapters with %s run different firmware: %s", k, strings.Join(levels, ", ")),
			Explanation: "The PSID (or board id) names the board and its firmware image line, so these adapters are the same model, yet they run different firmware. Functions of one card always report one level, so two cards are on two levels: they differ in fixes, and a stack release is tested with one level.",
			Fix:         "Bring every card with this PSID to one firmware level, the one the matrix or the stack's release notes give for the installed stack (NVIDIA: mlxfwmanager --query, then mlxfwmanager -u or the vendor image for the PSID), and reset the cards to activate it.",
			Evidence:    ev,
		})
	}
	return r
}

// firmwareDeviceUnit is an mlxfwmanager device of the firmware_device table
// with its PSID and running firmware: the "FW (Running)" row when the tool
// printed one, else the FW row. The evidence cites the row's line.
func firmwareDeviceUnit(d *record.FirmwareDevice) (fwUnit, bool) {
	fw, row := d.FWCurrent, "FW"
	if d.FWRunning != "" {
		fw, row = d.FWRunning, "FW (Running)"
	}
	if fw == "" || d.PSID == "" || slices.Contains(placeholderFirmware, fw) {
		return fwUnit{}, false
	}
	line := 0
	for _, v := range d.Versions {
		if v.Name == row {
			line = v.Line
		}
	}
	ev := Evidence{Fact: fmt.Sprintf("%s %s %s (PSID %s)", d.Name, row, fw, d.PSID), Source: d.Source, Line: line}
	return fwUnit{subject: d.Name, idKind: "PSID", id: d.PSID, fw: fw, ev: ev, mst: true}, true
}
