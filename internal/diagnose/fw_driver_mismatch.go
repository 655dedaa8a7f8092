package diagnose

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/dmesg"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/rule"
)

// checkFirmwareDriver flags a driver that says, in the kernel log, that
// the firmware its device runs is out of step with it: the NVM image, the
// firmware's command interface, or (ice) the DDP package it loads is newer
// or older than the driver supports. The wordings are the drivers' own,
// each from the code that prints it (dmesg.MismatchOf): ice's
// ice_aq_ver_check and ice_log_pkg_init, i40e's i40e_probe, mlx4's
// mlx4_QUERY_FW, mlx5's mlx5_cmd_init, bnxt_en's bnxt_hwrm_ver_get.
//
// fw-below-min and stack-release judge the versions against the matrix;
// this check reads what the driver itself concluded, which holds for any
// stack (inbox included) and needs no matrix row.
//
// Severity: error when the driver gives up on the device after saying so
// (mlx4 and mlx5 stop probing, ice stops on a newer major NVM API or
// enters Safe Mode, which has no RDMA); warning when it goes on with a
// firmware it was not built for. A message its vendor called misleading
// (i40e's newer NVM) is a passing note, saying why.
func checkFirmwareDriver(v view) Result {
	h := v.h
	var r Result
	if !v.logRead() {
		r.Notes = append(r.Notes, noLogNote("whether a driver refused its firmware"))
		return r
	}
	type said struct {
		e  record.LogEvent
		mm dmesg.Mismatch
	}
	groups := map[string][]said{}
	for _, e := range h.KernelLog {
		if e.Kind != record.LogFirmwareMismatch {
			continue
		}
		mm, ok := dmesg.MismatchOf(e.Module, e.Text)
		if !ok {
			continue // a record of a collector whose wordings this one lacks
		}
		subj, _ := v.failureSubject(e)
		groups[subj] = append(groups[subj], said{e, mm})
	}
	if len(groups) == 0 {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "no driver says in the kernel log that its firmware, NVM image or DDP package is newer or older than it supports"})
		return r
	}
	for _, subj := range slices.Sorted(maps.Keys(groups)) {
		var ev []Evidence
		var refs []rule.Ref
		var worst *said
		cited := map[string]bool{}
		for i := range groups[subj] {
			s := &groups[subj][i]
			ev = append(ev, logEvidence(s.e)...)
			if !cited[s.mm.Source] {
				cited[s.mm.Source] = true
				refs = append(refs, v.ref("source "+s.mm.Source, matrix.Claim{Sources: []string{s.mm.Source}, Confidence: matrix.UpstreamSource, Quote: s.mm.Quote}, mismatchRule(s.mm)))
			}
			if s.mm.Benign {
				continue
			}
			if worst == nil || s.mm.Stops && !worst.mm.Stops {
				worst = s
			}
		}
		adapter := ""
		if isPCIAddress(subj) {
			adapter = subj
		} else if d := v.device(subj); d != nil {
			adapter = adapterPCI(v, d)
		}
		if worst == nil {
			s := groups[subj][0]
			r.Notes = append(r.Notes, Note{Subject: subj, Adapter: adapter, Status: Pass,
				Text:     fmt.Sprintf("%s says the NVM image is newer than it expected; %s", s.mm.Driver, s.mm.Why),
				Evidence: ev})
			continue
		}
		mm := worst.mm
		f := Finding{Severity: Warning, Subject: subj, Adapter: adapter, Evidence: ev, Matrix: refs}
		if mm.Stops {
			f.Severity = Error
		}
		what := "NVM image (firmware)"
		if mm.Package {
			what = "DDP package"
		} else if mm.Driver == "mlx4_core" || mm.Driver == "mlx5_core" {
			what = "firmware's command interface"
		}
		switch mm.Direction {
		case dmesg.FirmwareNewer:
			f.Message = fmt.Sprintf("%s: %s says the %s is newer than it supports: %s", subj, mm.Driver, what, clip(worst.e.Text, 120))
			f.Fix = "Install a driver that supports this firmware: a newer kernel, or the vendor's out-of-tree driver or stack release that lists this firmware (its release notes), then reload the driver; or flash the firmware the installed driver's release was tested with."
		case dmesg.FirmwareOlder:
			f.Message = fmt.Sprintf("%s: %s says the %s is older than it needs: %s", subj, mm.Driver, what, clip(worst.e.Text, 120))
			f.Fix = "Update the adapter's firmware (NVM) with the vendor's tool to a version the driver's release notes list (Intel: the NVM update utility; Broadcom: bnxtnvm or niccli; NVIDIA: mlxfwmanager or mstflint), reset or power-cycle the adapter, then reload the driver."
			if mm.Package {
				f.Fix = "Install the DDP package version the driver names (linux-firmware's intel/ice/ddp, or the package shipped with the out-of-tree ice driver), or update the NVM when the log says the firmware is not compatible with the package; unload every PF of the device (modprobe -r irdma ice) and load ice again."
			}
		default:
			f.Message = fmt.Sprintf("%s: %s does not support the %s it found: %s", subj, mm.Driver, what, clip(worst.e.Text, 120))
			f.Fix = "Bring the driver and the firmware to a pair the vendor supports: the firmware the driver's release was tested with (its release notes), or a driver release that supports this firmware; then reload the driver or reboot."
		}
		f.Explanation = mismatchWhy(mm)
		r.Findings = append(r.Findings, f)
	}
	return r
}

// mismatchRule words what the driver's code does when it prints the
// message, for the reference.
func mismatchRule(mm dmesg.Mismatch) string {
	if mm.Benign {
		return mm.Driver + "'s message about a newer NVM image reports no problem"
	}
	side := map[string]string{dmesg.FirmwareNewer: "newer than", dmesg.FirmwareOlder: "older than", dmesg.FirmwareOther: "not the one"}[mm.Direction]
	s := fmt.Sprintf("%s prints this when the firmware is %s the driver supports", mm.Driver, side)
	if mm.Stops {
		s += ", and stops"
	}
	return s
}

// mismatchWhy explains a mismatch by what the driver does after it.
func mismatchWhy(mm dmesg.Mismatch) string {
	var b strings.Builder
	b.WriteString("The driver compares the firmware's interface or package version with the one it was built for and says they do not pair. ")
	switch {
	case mm.Package:
		b.WriteString("ice then runs the port in Safe Mode: basic traffic only, with its RDMA capability cleared, so irdma creates no RoCE device on it.")
	case mm.Stops && mm.Driver == "ice":
		b.WriteString("ice stops initialising the device: it has no netdev and no RDMA device.")
	case mm.Stops:
		b.WriteString(mm.Driver + " then stops probing the function: it has no netdev and no RDMA device.")
	default:
		b.WriteString("The driver goes on, but with a firmware it was not built for: features and fixes the two sides expect of each other may be missing, which is what the vendors' release notes pair driver and firmware releases for.")
	}
	return b.String()
}
