package diagnose

import (
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/record"
)

// The checks of issue 13, each on real fixture records (testdata/hosts):
// a pass, a finding and an unknown. Where no capture shows the problem, a
// real record is changed in the one field the check reads, and the case
// name says so.

func TestNoRDMADevice(t *testing.T) {
	t.Parallel()
	runCases(t, "no-rdma-device", []checkCase{
		{"golden rxe-arm-yocto-abi-mismatch: rdma_rxe loaded, ibv_devices empty", golden(t, "rxe-arm-yocto-abi-mismatch"), Found, Warning, "host"},
		{"golden bnxt_re-port-disabled", golden(t, "bnxt_re-port-disabled"), Pass, "", ""},
		{"golden verbs-pib-no-userspace-driver: no adapter named", golden(t, "verbs-pib-no-userspace-driver"), Unknown, "", ""},
		{"golden dmesg-only-mlx5-cx5-arm-bandwidth: no device listing", golden(t, "dmesg-only-mlx5-cx5-arm-bandwidth"), Unknown, "", ""},
		{"ConnectX-5, ibv_devinfo finds none", with(healthy, func(h *record.Host) {
			h.Devices, h.Adapters[0].RDMADevices = nil, nil
			h.ToolMessages = []record.ToolMessage{{Tool: "ibv_devinfo", Kind: "no-device", Text: "No IB devices found", Source: "cmd/ibv_devinfo", Line: 1}}
		}), Found, Error, "host"},
		{"ConnectX-5 bound to vfio-pci", with(healthy, func(h *record.Host) {
			h.Devices, h.Adapters[0].RDMADevices = nil, nil
			h.Adapters[0].Driver.Name = "vfio-pci"
			h.ToolMessages = []record.ToolMessage{{Tool: "ibv_devinfo", Kind: "no-device", Text: "No IB devices found", Source: "cmd/ibv_devinfo", Line: 1}}
		}), Pass, "", ""},
	})
}

func TestProviderMissing(t *testing.T) {
	t.Parallel()
	runCases(t, "provider-missing", []checkCase{
		{"golden verbs-pib-no-userspace-driver", golden(t, "verbs-pib-no-userspace-driver"), Found, Error, "host"},
		{"golden verbs-no-config-directory", golden(t, "verbs-no-config-directory"), Found, Error, "host"},
		{"golden rxe-arm-yocto-abi-mismatch (kernel ABI)", golden(t, "rxe-arm-yocto-abi-mismatch"), Found, Error, "host"},
		{"golden bnxt_re-devinfo-elided-port", golden(t, "bnxt_re-devinfo-elided-port"), Pass, "", ""},
		{"golden dmesg-only-mlx5_ib-warning-modules-linked-in", golden(t, "dmesg-only-mlx5_ib-warning-modules-linked-in"), Unknown, "", ""},
	})
	r, _ := Evaluate(tm(t), golden(t, "verbs-pib-no-userspace-driver")(), "provider-missing")
	f := r.Findings[0]
	if len(f.Evidence) != 3 || f.Evidence[0].Line != 2 || !strings.Contains(f.Evidence[0].Fact, "uverbs1") {
		t.Errorf("evidence = %+v, want both provider lines and the no-device line", f.Evidence)
	}
}

func TestRXEInUse(t *testing.T) {
	t.Parallel()
	runCases(t, "rxe-in-use", []checkCase{
		{"golden rxe-softroce-aws", golden(t, "rxe-softroce-aws"), Found, Info, "rxe_ens5"},
		{"golden rxe-cfg-status-vif-aws", golden(t, "rxe-cfg-status-vif-aws"), Found, Info, "rxe0"},
		{"golden rxe-cfg-status-vif-aws, on a bond", with(golden(t, "rxe-cfg-status-vif-aws"), func(h *record.Host) {
			h.Devices[0].Parent, h.Netdevs[0].Name, h.Netdevs[0].Driver = "bond0", "bond0", "bonding"
		}), Found, Warning, "rxe0"},
		{"golden rxe-cfg-status-vif-aws, on a VLAN", with(golden(t, "rxe-cfg-status-vif-aws"), func(h *record.Host) {
			h.Devices[0].Parent, h.Netdevs[0].Name = "eth0.100", "eth0.100"
		}), Found, Warning, "rxe0"},
		{"golden rxe-softroce-aws, GIDs read and empty", with(golden(t, "rxe-softroce-aws"), func(h *record.Host) {
			h.Devices[0].From["port.1.gid"] = "sys/class/infiniband/rxe_ens5/ports/1/gids"
		}), Found, Warning, "rxe_ens5"},
		{"golden mlx5-cx6dx-sysfs-gids", golden(t, "mlx5-cx6dx-sysfs-gids"), Pass, "", ""},
		{"golden dmesg-only-mlx5-cx5-arm-bandwidth", golden(t, "dmesg-only-mlx5-cx5-arm-bandwidth"), Unknown, "", ""},
	})
}

func TestRoCEModeNotSet(t *testing.T) {
	t.Parallel()
	runCases(t, "roce-mode-not-set", []checkCase{
		{"golden rxe-cfg-start-configfs-not-permitted", golden(t, "rxe-cfg-start-configfs-not-permitted"), Found, Warning, "rxe0"},
		{"golden rxe-cfg-status-vif-aws", golden(t, "rxe-cfg-status-vif-aws"), Pass, "", ""},
		{"golden mlx5-cx4-rhel7-rdma-cm-mode", golden(t, "mlx5-cx4-rhel7-rdma-cm-mode"), Pass, "", ""},
		{"golden bnxt_re-port-disabled", golden(t, "bnxt_re-port-disabled"), Unknown, "", ""},
	})
	r, _ := Evaluate(tm(t), golden(t, "rxe-cfg-start-configfs-not-permitted")(), "roce-mode-not-set")
	if ev := r.Findings[0].Evidence; len(ev) != 2 || ev[0].Line != 2 || ev[1].Line != 3 || !strings.Contains(r.Findings[0].Explanation, "configfs rdma_cm could not be created") {
		t.Errorf("finding = %+v", r.Findings[0])
	}
}

func TestFirmwareMismatch(t *testing.T) {
	t.Parallel()
	runCases(t, "fw-mismatch", []checkCase{
		{"golden mlx5-cx7-devlink", golden(t, "mlx5-cx7-devlink"), Pass, "", ""},
		{"golden mlx5-cx7-devlink, a second card on older firmware", with(golden(t, "mlx5-cx7-devlink"), func(h *record.Host) {
			b := h.Adapters[0]
			b.PCIAddress, b.From = "0000:d8:00.0", nil
			b.Firmware.Running = "28.39.1002"
			h.Adapters = append(h.Adapters, b)
		}), Found, Warning, "0000:08:00.0"},
		{"golden mlx5-cx7-devlink, a second card without firmware", with(golden(t, "mlx5-cx7-devlink"), func(h *record.Host) {
			b := h.Adapters[0]
			b.PCIAddress, b.Firmware.Running = "0000:d8:00.0", ""
			h.Adapters = append(h.Adapters, b)
		}), Pass, "", ""},
		{"golden mlx5-six-ports-two-down: no PSID", golden(t, "mlx5-six-ports-two-down"), Unknown, "", ""},
	})
}

func TestFlashFailed(t *testing.T) {
	t.Parallel()
	flash := record.LogEvent{Kind: record.LogFlashFailure, Module: "mlx5_core", Device: "0000:3b:00.0",
		Text: "mlx5_core 0000:3b:00.0: mlxfw_firmware_flash: Firmware flash failed: -5", Source: "cmd/dmesg", Line: 3}
	runCases(t, "fw-flash-failed", []checkCase{
		{"golden mlx5-cx4lx-hpe-probe-failed", golden(t, "mlx5-cx4lx-hpe-probe-failed"), Pass, "", ""},
		{"golden mlx5-cx4lx-hpe-probe-failed, with a flash failure", with(golden(t, "mlx5-cx4lx-hpe-probe-failed"), func(h *record.Host) {
			h.KernelLog = append(h.KernelLog, flash)
		}), Found, Error, "0000:3b:00.0"},
		{"unreadable image", with(golden(t, "mlx5-cx4lx-hpe-probe-failed"), func(h *record.Host) {
			h.KernelLog = append(h.KernelLog, record.LogEvent{Kind: record.LogFirmwareProblem, Device: "0000:0b:00.1", Text: "ice 0000:0b:00.1: NVM image is corrupt", Source: "cmd/dmesg", Line: 30})
		}), Found, Error, "0000:0b:00.1"},
		{"golden mlx5-cx7-doca-ofed: no kernel log", golden(t, "mlx5-cx7-doca-ofed"), Unknown, "", ""},
	})
}

func TestPCIeDegraded(t *testing.T) {
	t.Parallel()
	runCases(t, "pcie-degraded", []checkCase{
		{"golden mlx5-cx4lx-hpe-probe-failed (lspci, full link)", golden(t, "mlx5-cx4lx-hpe-probe-failed"), Pass, "", ""},
		{"golden dmesg-only-mlx5-cx5-arm-bandwidth (log line without limited by)", golden(t, "dmesg-only-mlx5-cx5-arm-bandwidth"), Pass, "", ""},
		{"golden mlx5-cx4lx-hpe-probe-failed, trained at x4", with(golden(t, "mlx5-cx4lx-hpe-probe-failed"), func(h *record.Host) {
			h.Adapters[0].PCIe.Width, h.Adapters[0].PCIe.Downgraded = ptr(4), ptr(true)
		}), Found, Warning, "0000:0b:00.0"},
		{"kernel log limited by", with(golden(t, "dmesg-only-mlx5-cx5-arm-bandwidth"), func(h *record.Host) {
			h.Adapters[0].PCIe.CapableGbps, h.Adapters[0].PCIe.LimitedBy = ptr(126.016), "0004:00:00.0"
		}), Found, Warning, "0004:01:00.0"},
		{"golden mlx5-six-ports-two-down: no adapter", golden(t, "mlx5-six-ports-two-down"), Unknown, "", ""},
	})
	r, _ := Evaluate(tm(t), with(golden(t, "mlx5-cx4lx-hpe-probe-failed"), func(h *record.Host) {
		h.Adapters[0].PCIe.Width, h.Adapters[0].PCIe.Downgraded = ptr(4), ptr(true)
	})(), "pcie-degraded")
	if m := r.Findings[0].Message; !strings.Contains(m, "31.5 Gb/s of the 63.0 Gb/s") || !strings.Contains(m, "50% lost") {
		t.Errorf("message = %q, want the bandwidth lost", m)
	}
}

func TestPortDown(t *testing.T) {
	t.Parallel()
	runCases(t, "port-down", []checkCase{
		{"golden mlx5-ibdev2netdev-v-mixed", golden(t, "mlx5-ibdev2netdev-v-mixed"), Found, Warning, "mlx5_4/1"},
		{"golden mlx5-cx4lx-vf-hyperv-sysfs", golden(t, "mlx5-cx4lx-vf-hyperv-sysfs"), Pass, "", ""},
		{"golden mlx5-six-ports-two-down: devices not placed on PCI", golden(t, "mlx5-six-ports-two-down"), Unknown, "", ""},
		{"two ports of one device, one disabled", with(healthy, func(h *record.Host) {
			p := h.Devices[0].Ports[0]
			p.Number, p.State, p.PhysState = 2, "DOWN", "Disabled"
			h.Devices[0].Ports = append(h.Devices[0].Ports, p)
		}), Found, Info, "mlx5_0/2"},
	})
	// Virtual functions share the slot but not the model: the two DOWN VFs
	// of the ConnectX-5 are not reported against its ACTIVE PF.
	r, _ := Evaluate(tm(t), golden(t, "mlx5-ibdev2netdev-v-mixed")(), "port-down")
	if len(r.Findings) != 1 {
		t.Errorf("findings = %+v, want mlx5_4/1 only", r.Findings)
	}
	// no-active-port leaves mlx5_4 to port-down.
	r, _ = Evaluate(tm(t), golden(t, "mlx5-ibdev2netdev-v-mixed")(), "no-active-port")
	for _, f := range r.Findings {
		if f.Subject == "mlx5_4" {
			t.Errorf("no-active-port reports %s beside port-down", f.Subject)
		}
	}
}

func TestLogErrors(t *testing.T) {
	t.Parallel()
	runCases(t, "rdma-log-error", []checkCase{
		{"golden dmesg-only-mlx5_ib-warning-modules-linked-in", golden(t, "dmesg-only-mlx5_ib-warning-modules-linked-in"), Found, Warning, "host"},
		{"golden qede-qedr-fastlinq", golden(t, "qede-qedr-fastlinq"), Found, Warning, "host"},
		{"golden mlx5-cx4lx-hpe-probe-failed: command errors a probe failure quotes", golden(t, "mlx5-cx4lx-hpe-probe-failed"), Pass, "", ""},
		{"qp error", with(golden(t, "mlx5-cx4lx-hpe-probe-failed"), func(h *record.Host) {
			h.KernelLog = append(h.KernelLog, record.LogEvent{Kind: record.LogQPError, Device: "mlx5_0", Module: "infiniband", Text: "infiniband mlx5_0: create_qp:3092:(pid 1): Create QP type 2 failed", Source: "cmd/dmesg", Line: 40})
		}), Found, Error, "mlx5_0"},
		{"golden mlx5-cx7-doca-ofed: no kernel log", golden(t, "mlx5-cx7-doca-ofed"), Unknown, "", ""},
	})
	r, _ := Evaluate(tm(t), golden(t, "dmesg-only-mlx5_ib-warning-modules-linked-in")(), "rdma-log-error")
	if ev := r.Findings[0].Evidence; len(ev) != 6 || !strings.Contains(ev[len(ev)-1].Fact, "RIP: 0010:alloc_cacheable_mr") || ev[len(ev)-1].Line != 6 {
		t.Errorf("evidence = %+v, want the warning and its context lines", ev)
	}
}

func TestBoundToVFIO(t *testing.T) {
	t.Parallel()
	runCases(t, "bound-to-vfio", []checkCase{
		{"golden ice-e810-devlink-bundle-id", golden(t, "ice-e810-devlink-bundle-id"), Pass, "", ""},
		{"golden mlx5-cx4lx-hpe-probe-failed, bound to vfio-pci", with(golden(t, "mlx5-cx4lx-hpe-probe-failed"), func(h *record.Host) {
			h.Adapters[1].Driver.Name = "vfio-pci"
		}), Found, Info, "0000:0b:00.1"},
		{"golden mlx5-six-ports-two-down: no adapter", golden(t, "mlx5-six-ports-two-down"), Unknown, "", ""},
	})
}

func TestProbeFailedQuotesContext(t *testing.T) {
	t.Parallel()
	r, _ := Evaluate(tm(t), golden(t, "mlx5-cx4lx-hpe-probe-failed")(), "driver-probe-failed")
	var facts []string
	for _, e := range r.Findings[0].Evidence {
		facts = append(facts, e.Fact)
	}
	if !strings.Contains(strings.Join(facts, "\n"), "Failed to create EQs") {
		t.Errorf("evidence lacks the context lines: %q", facts)
	}
}
