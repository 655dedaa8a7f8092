package diagnose

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/hosttest"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/rxecfg"
)

// rxeCfgMessages are the messages rxecfg reads from a real rxe_cfg
// capture (testdata/captures/rxe_cfg), as collect records them.
func rxeCfgMessages(t *testing.T, name string) []record.ToolMessage {
	t.Helper()
	f, err := os.Open(filepath.Join(hosttest.Root, "testdata", "captures", "rxe_cfg", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, err := rxecfg.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []record.ToolMessage
	for _, m := range out.Messages {
		msgs = append(msgs, record.ToolMessage{Tool: "rxe_cfg", Kind: m.Kind, Text: m.Text, Source: "cmd/rxe_cfg start", Line: m.Line})
	}
	return msgs
}

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
	// rxe_cfg start's failed echoes (SoftRoCE/rxe-dev issue 55, no RDEV in
	// its table) are the adds the module refused: they are the finding's
	// evidence, on the yocto host whose ibv_devices is empty.
	h := golden(t, "rxe-arm-yocto-abi-mismatch")()
	h.ToolMessages = append(h.ToolMessages, rxeCfgMessages(t, "rxe-start-echo-invalid-argument-no-rdev.txt")...)
	r, _ := Evaluate(tm(t), h, "no-rdma-device")
	if len(r.Findings) != 1 || !strings.Contains(r.Findings[0].Explanation, "rdma_rxe's add parameter") {
		t.Fatalf("findings %+v, want the refused adds explained", r.Findings)
	}
	n := 0
	for _, e := range r.Findings[0].Evidence {
		if strings.Contains(e.Fact, "echo: write error") {
			n++
		}
	}
	if n != 3 {
		t.Errorf("evidence %+v, want rxe_cfg's three echo lines", r.Findings[0].Evidence)
	}
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

// TestProviderPrivateABI: providers that need another libibverbs' private
// symbol version (bytedance/byteps#313: an image's own libibverbs.so.1
// under /usr/local/nvidia/cpu_lib) are said to be so, not missing.
func TestProviderPrivateABI(t *testing.T) {
	t.Parallel()
	h := &record.Host{ToolMessages: []record.ToolMessage{{
		Tool: "ibv_devinfo", Kind: "provider-missing", Driver: "mlx4", Source: "cmd/ibv_devinfo", Line: 1,
		Text: "libibverbs: Warning: couldn't load driver 'mlx4': /usr/local/nvidia/cpu_lib/libibverbs.so.1: version `IBVERBS_PRIVATE_22' not found (required by /usr/lib64/libibverbs/libmlx4-rdmav2.so)",
	}}}
	r, _ := Evaluate(tm(t), h, "provider-missing")
	if len(r.Findings) != 1 || !strings.Contains(r.Findings[0].Message, "IBVERBS_PRIVATE_22 not found") || !strings.Contains(r.Findings[0].Fix, "bundled copy") {
		t.Errorf("findings %+v, want the private ABI named", r.Findings)
	}
	h.ToolMessages[0].Text = "libibverbs: Warning: couldn't load driver 'rxe': librxe-rdmav2.so: cannot open shared object file: No such file or directory"
	if r, _ := Evaluate(tm(t), h, "provider-missing"); len(r.Findings) != 1 || r.Findings[0].Message != "libibverbs cannot load a userspace provider for a device" {
		t.Errorf("findings %+v, want a missing provider", r.Findings)
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
		// rxe_cfg start echoes each interface of its persistence file into
		// rdma_rxe's add parameter; dash reports a refused write as
		// "sh: echo: I/O error". Those are not RoCE mode writes (issue 49).
		{"golden rxe-cfg-status-vif-aws with rxe_cfg start's echo I/O errors", with(golden(t, "rxe-cfg-status-vif-aws"), func(h *record.Host) {
			h.ToolMessages = append(h.ToolMessages, rxeCfgMessages(t, "rxe-start-echo-io-error.txt")...)
		}), Pass, "", ""},
		{"golden rxe-cfg-status-vif-aws with bash's echo write errors", with(golden(t, "rxe-cfg-status-vif-aws"), func(h *record.Host) {
			h.ToolMessages = append(h.ToolMessages, rxeCfgMessages(t, "rxe-start-echo-invalid-argument-no-rdev.txt")...)
		}), Pass, "", ""},
	})
	h := golden(t, "rxe-cfg-status-vif-aws")()
	h.ToolMessages = append(h.ToolMessages, rxeCfgMessages(t, "rxe-start-echo-io-error.txt")...)
	if r, _ := Evaluate(tm(t), h, "roce-mode-not-set"); len(r.Notes) != 1 || len(r.Notes[0].Evidence) != 5 || !strings.Contains(r.Notes[0].Text, "add (or remove) parameter") {
		t.Errorf("notes %+v, want the five echo lines named as rdma_rxe add writes", r.Notes)
	}
	r, _ := Evaluate(tm(t), golden(t, "rxe-cfg-start-configfs-not-permitted")(), "roce-mode-not-set")
	if ev := r.Findings[0].Evidence; len(ev) != 2 || ev[0].Line != 2 || ev[1].Line != 3 || !strings.Contains(r.Findings[0].Explanation, "configfs rdma_cm could not be created") {
		t.Errorf("finding = %+v", r.Findings[0])
	}
}

// The one real host with two cards of one PSID on two levels is an
// mlxfwmanager --query capture whose devices are named by mst device, so
// they sit in the record's firmware_device table.
func TestFirmwareMismatch(t *testing.T) {
	t.Parallel()
	runCases(t, "fw-mismatch", []checkCase{
		{"golden mlx5-cx7-devlink", golden(t, "mlx5-cx7-devlink"), Pass, "", ""},
		{"golden mlxfwmanager-only-cx4-two-cards-same-psid", golden(t, "mlxfwmanager-only-cx4-two-cards-same-psid"), Found, Warning, "/dev/mst/mt4115_pciconf0"},
		{"golden mlxup-only-cx7-fw-running-differs: one card", golden(t, "mlxup-only-cx7-fw-running-differs"), Pass, "", ""},
		{"golden mlx5-cx7-devlink, a second card without firmware", with(golden(t, "mlx5-cx7-devlink"), func(h *record.Host) {
			b := h.Adapters[0]
			b.PCIAddress, b.Firmware.Running = "0000:d8:00.0", ""
			h.Adapters = append(h.Adapters, b)
		}), Pass, "", ""},
		{"golden mlx5-six-ports-two-down: no PSID", golden(t, "mlx5-six-ports-two-down"), Unknown, "", ""},
		// An mst device may be the adapter's own card, its flash a level
		// ahead of what the driver runs: not two cards on two levels.
		{"golden mlx5-cx7-devlink with an mst device of its PSID at another level", with(golden(t, "mlx5-cx7-devlink"), func(h *record.Host) {
			h.FirmwareDevices = append(h.FirmwareDevices, record.FirmwareDevice{Name: "/dev/mst/mt4129_pciconf0", PSID: h.Adapters[0].Firmware.PSID, FWCurrent: "28.99.1000"})
		}), Pass, "", ""},
	})
	r, _ := Evaluate(tm(t), golden(t, "mlxfwmanager-only-cx4-two-cards-same-psid")(), "fw-mismatch")
	f := r.Findings[0]
	want := []Evidence{
		{Fact: "/dev/mst/mt4115_pciconf0 FW 12.17.2046 (PSID MT_2180110032)", Source: "cmd/mlxfwmanager --query", Line: 31},
		{Fact: "/dev/mst/mt4115_pciconf1 FW 12.28.2040 (PSID MT_2180110032)", Source: "cmd/mlxfwmanager --query", Line: 15},
	}
	if f.Message != "adapters with PSID MT_2180110032 run different firmware: 12.17.2046, 12.28.2040" || !slices.Equal(f.Evidence, want) {
		t.Errorf("finding = %q, evidence %+v", f.Message, f.Evidence)
	}
}

func TestFlashFailed(t *testing.T) {
	t.Parallel()
	runCases(t, "fw-flash-failed", []checkCase{
		{"golden mlx5-cx4lx-hpe-probe-failed", golden(t, "mlx5-cx4lx-hpe-probe-failed"), Pass, "", ""},
		{"golden dmesg-only-mlx5-cx5-quoted-printable-mail: probe failures, no flash", golden(t, "dmesg-only-mlx5-cx5-quoted-printable-mail"), Pass, "", ""},
		// mlxfw names no PCI function, so the host is the subject.
		{"golden dmesg-only-mlxfw-flash-failed", golden(t, "dmesg-only-mlxfw-flash-failed"), Found, Error, "mlxfw"},
		// No capture shows a driver calling its stored image unreadable.
		{"golden mlx5-cx4lx-hpe-probe-failed, with an unreadable image line added", with(golden(t, "mlx5-cx4lx-hpe-probe-failed"), func(h *record.Host) {
			h.KernelLog = append(h.KernelLog, record.LogEvent{Kind: record.LogFirmwareProblem, Device: "0000:0b:00.1", Text: "ice 0000:0b:00.1: NVM image is corrupt", Source: "cmd/dmesg", Line: 30})
		}), Found, Error, "0000:0b:00.1"},
		{"golden mlx5-cx7-doca-ofed: no kernel log", golden(t, "mlx5-cx7-doca-ofed"), Unknown, "", ""},
	})
	r, _ := Evaluate(tm(t), golden(t, "dmesg-only-mlxfw-flash-failed")(), "fw-flash-failed")
	if ev := r.Findings[0].Evidence; len(ev) != 1 || ev[0].Line != 1 || !strings.Contains(ev[0].Fact, "key not applicable, err (7)") {
		t.Errorf("evidence = %+v, want the mlxfw line", ev)
	}
}

func TestPCIeDegraded(t *testing.T) {
	t.Parallel()
	runCases(t, "pcie-degraded", []checkCase{
		{"golden mlx5-cx4lx-hpe-probe-failed (lspci, full link)", golden(t, "mlx5-cx4lx-hpe-probe-failed"), Pass, "", ""},
		{"golden lspci-only-ice-e810xxv-vfio-pci (lspci, full link, on vfio-pci)", golden(t, "lspci-only-ice-e810xxv-vfio-pci"), Pass, "", ""},
		{"golden dmesg-only-mlx5-cx5-arm-bandwidth (log line without limited by)", golden(t, "dmesg-only-mlx5-cx5-arm-bandwidth"), Pass, "", ""},
		// Three x16 lines without "limited by" pass; 0000:13:00.0 has neither a bandwidth line nor PCI ids.
		{"golden dmesg-only-mlx5-grep-line-numbered (line-numbered log)", golden(t, "dmesg-only-mlx5-grep-line-numbered"), Unknown, "", ""},
		{"golden lspci-only-mlx5-cx4lx-vfio-pci-x4-downgraded (LnkSta x4 of x8)", golden(t, "lspci-only-mlx5-cx4lx-vfio-pci-x4-downgraded"), Found, Warning, "0000:08:00.0"},
		{"golden dmesg-only-mlx5-cx5-limited-by-x8 (mlx5_core: limited by x8, capable of x16)", golden(t, "dmesg-only-mlx5-cx5-limited-by-x8"), Found, Warning, "0001:43:00.0"},
		{"golden dmesg-only-pci-cx3pro-limited-5gts (PCI core: limited by 5 GT/s)", golden(t, "dmesg-only-pci-cx3pro-limited-5gts"), Found, Warning, "0000:01:00.0"},
		{"golden mlx5-six-ports-two-down: no adapter", golden(t, "mlx5-six-ports-two-down"), Unknown, "", ""},
	})
	for _, tc := range []struct {
		host, msg string
		lines     []int // evidence lines: the link fact's source has none, log lines have theirs
	}{
		{"lspci-only-mlx5-cx4lx-vfio-pci-x4-downgraded", "0000:08:00.0: the link gives 31.5 Gb/s of the 63.0 Gb/s it can (50% lost)", []int{0}},
		{"dmesg-only-mlx5-cx5-limited-by-x8", "0001:43:00.0: the link gives 63.0 Gb/s of the 126.0 Gb/s it can (50% lost)", []int{0, 2}},
		{"dmesg-only-pci-cx3pro-limited-5gts", "0000:01:00.0: the link gives 32.0 Gb/s of the 63.0 Gb/s it can (49% lost)", []int{0, 26}},
	} {
		r, _ := Evaluate(tm(t), golden(t, tc.host)(), "pcie-degraded")
		f := r.Findings[0]
		var lines []int
		for _, e := range f.Evidence {
			lines = append(lines, e.Line)
		}
		if f.Message != tc.msg || !slices.Equal(lines, tc.lines) {
			t.Errorf("%s: message %q, evidence %+v", tc.host, f.Message, f.Evidence)
		}
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
	runCases(t, "kernel-warning", []checkCase{
		{"golden dmesg-only-mlx5_ib-warning-modules-linked-in", golden(t, "dmesg-only-mlx5_ib-warning-modules-linked-in"), Found, Warning, "host"},
		// The BUG names no device; qedr0 on 0000:5f:00.0 is the host's only RDMA device.
		{"golden qede-qedr-fastlinq", golden(t, "qede-qedr-fastlinq"), Found, Warning, "0000:5f:00.0"},
		{"golden mlx5-cx7-doca-ofed: no kernel log", golden(t, "mlx5-cx7-doca-ofed"), Unknown, "", ""},
	})
	runCases(t, "fw-command-failed", []checkCase{
		{"golden mlx5-cx4lx-hpe-probe-failed: command errors a probe failure quotes", golden(t, "mlx5-cx4lx-hpe-probe-failed"), Pass, "", ""},
	})
	runCases(t, "qp-create-failed", []checkCase{
		{"qp error", with(golden(t, "mlx5-cx4lx-hpe-probe-failed"), func(h *record.Host) {
			h.KernelLog = append(h.KernelLog, record.LogEvent{Kind: record.LogQPError, Device: "mlx5_0", Module: "infiniband", Text: "infiniband mlx5_0: create_qp:3092:(pid 1): Create QP type 2 failed", Source: "cmd/dmesg", Line: 40})
		}), Found, Error, "mlx5_0"},
	})
	// Each failure kind is reported by its own check, on the device the
	// line names.
	for kind, id := range map[string]string{
		record.LogCommandTimeout: "fw-command-timeout", record.LogQueueFailure: "hw-queue-failed", record.LogGIDError: "gid-table-error",
		record.LogRoCEDisabled: "roce-disabled", record.LogResourceExhausted: "resource-exhausted", record.LogResetRecovery: "device-reset",
		record.LogULPFailure: "ulp-failure", record.LogAsyncError: "rdma-log-error",
	} {
		h := with(golden(t, "mlx5-cx7-doca-ofed"), func(h *record.Host) {
			h.KernelLog = append(h.KernelLog, record.LogEvent{Kind: kind, Device: "0000:3b:00.0", Module: "bnxt_en", Text: "a line", Source: "cmd/dmesg", Line: 7})
		})()
		r, _ := Evaluate(tm(t), h, id)
		if len(r.Findings) != 1 || r.Findings[0].Subject != "0000:3b:00.0" || r.Findings[0].Adapter != "0000:3b:00.0" {
			t.Errorf("%s: %s findings = %+v", kind, id, r.Findings)
		}
	}
	r, _ := Evaluate(tm(t), golden(t, "dmesg-only-mlx5_ib-warning-modules-linked-in")(), "kernel-warning")
	if ev := r.Findings[0].Evidence; len(ev) != 6 || !strings.Contains(ev[len(ev)-1].Fact, "RIP: 0010:alloc_cacheable_mr") || ev[len(ev)-1].Line != 6 {
		t.Errorf("evidence = %+v, want the warning and its context lines", ev)
	}
}

func TestBoundToVFIO(t *testing.T) {
	t.Parallel()
	runCases(t, "bound-to-vfio", []checkCase{
		{"golden ice-e810-devlink-bundle-id", golden(t, "ice-e810-devlink-bundle-id"), Pass, "", ""},
		// lspci -vv without -nn: no ids, so "Kernel modules" says what the
		// function is.
		{"golden lspci-only-mlx5-cx4lx-vfio-pci-x4-downgraded (Kernel modules: mlx5_core)", golden(t, "lspci-only-mlx5-cx4lx-vfio-pci-x4-downgraded"), Found, Info, "0000:08:00.0"},
		{"golden lspci-only-ice-e810xxv-vfio-pci (Kernel modules: ice)", golden(t, "lspci-only-ice-e810xxv-vfio-pci"), Found, Info, "0000:01:00.0"},
		{"golden mlx5-six-ports-two-down: no adapter", golden(t, "mlx5-six-ports-two-down"), Unknown, "", ""},
	})
	r, _ := Evaluate(tm(t), golden(t, "lspci-only-mlx5-cx4lx-vfio-pci-x4-downgraded")(), "bound-to-vfio")
	if ev := r.Findings[0].Evidence; len(ev) != 1 || ev[0].Source != "cmd/lspci -vv" || !strings.Contains(ev[0].Fact, "vfio-pci") {
		t.Errorf("evidence = %+v, want lspci's driver line", ev)
	}
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
