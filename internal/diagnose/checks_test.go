package diagnose

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/checkid"
	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
)

func TestCheckIDs(t *testing.T) {
	t.Parallel()
	ids := CheckIDs()
	if !slices.IsSorted(ids) || len(slices.Compact(slices.Clone(ids))) != len(ids) {
		t.Fatalf("ids not sorted and unique: %v", ids)
	}
	for _, want := range []string{"adapter-unknown", "driver-probe-failed", "fw-below-min", "fw-update-pending", "stack-mixed", "enic-rdma-unmatched", "module-not-loaded", "no-active-port", "gid-table-empty", "gid-no-roce-v2", "msix-disabled", "msix-too-few", "roce-mode-v1", "rxe-with-hardware", "kernel-too-old"} {
		if !slices.Contains(ids, want) {
			t.Errorf("missing check %s", want)
		}
	}
}

func TestHealthyHostPasses(t *testing.T) {
	t.Parallel()
	for _, h := range []*record.Host{healthy(), cisco()} {
		rep := Diagnose(tm(t), nil, h)
		if len(rep.Findings) != 0 {
			t.Errorf("%s: findings on a healthy host: %+v", h.Host.ID, rep.Findings)
		}
	}
}

func TestAdapterUnknown(t *testing.T) {
	t.Parallel()
	runCases(t, "adapter-unknown", []checkCase{
		{"known", healthy, Pass, "", ""},
		{"plain nic", with(healthy, func(h *record.Host) {
			h.Adapters = append(h.Adapters, record.Adapter{PCIAddress: "0000:01:00.0", Vendor: "1af4", Device: "1041", Driver: record.Driver{Name: "virtio_net"}})
		}), Found, Info, "0000:01:00.0"},
		{"rdma function", with(healthy, func(h *record.Host) {
			h.Adapters[0].Device = "9999"
		}), Found, Warning, "0000:3b:00.0"},
		{"known vendor", with(healthy, func(h *record.Host) {
			h.Adapters[0].Device, h.Adapters[0].RDMADevices = "9999", nil
		}), Found, Warning, "0000:3b:00.0"},
		{"no ids", with(healthy, func(h *record.Host) { h.Adapters[0].Vendor, h.Adapters[0].Name = "", "" }), Unknown, "", ""},
		{"no ids, lspci name", with(healthy, func(h *record.Host) {
			h.Adapters[0].Vendor, h.Adapters[0].Device, h.Adapters[0].Name = "", "", ""
			h.Adapters[0].Name = "Mellanox Technologies MT27800 Family [ConnectX-5]"
		}), Pass, "", ""},
		{"golden mlx5-cx5-mlnxofed (named by lspci)", golden(t, "mlx5-cx5-mlnxofed"), Pass, "", ""},
		{"no adapters", with(healthy, func(h *record.Host) { h.Adapters = nil }), Unknown, "", ""},
		{"cisco subsystem", cisco, Pass, "", ""},
		{"golden hns-hip08-kunpeng", golden(t, "hns-hip08-kunpeng"), Found, Info, "0000:bd:00.0"},
	})
}

func TestFirmwareMin(t *testing.T) {
	t.Parallel()
	runCases(t, "fw-below-min", []checkCase{
		{"no minimum in matrix", healthy, Unknown, "", ""},
		{"cisco ok", cisco, Pass, "", ""},
		{"cisco below ipv6 only", with(cisco, func(h *record.Host) { h.Adapters[0].Firmware.Running = "5.1(1b)" }), Found, Warning, "0000:62:00.1"},
		{"cisco below ipv4", with(cisco, func(h *record.Host) { h.Adapters[0].Firmware.Running = "4.5(3a)" }), Found, Error, "0000:62:00.1"},
		{"cisco newer train", with(cisco, func(h *record.Host) { h.Adapters[0].Firmware.Running = "5.2(3a)" }), Pass, "", ""},
		{"running absent", with(cisco, func(h *record.Host) { h.Adapters[0].Firmware.Running = "" }), Unknown, "", ""},
		{"unparsable", with(cisco, func(h *record.Host) { h.Adapters[0].Firmware.Running = "((" }), Unknown, "", ""},
		{"no adapters", with(cisco, func(h *record.Host) { h.Adapters = nil }), Unknown, "", ""},
		{"an rdma-like part the matrix lacks", with(cisco, func(h *record.Host) { h.Adapters[0].SubsystemDevice = "9999" }), Unknown, "", ""},
		{"a function the record cannot identify", with(cisco, func(h *record.Host) {
			h.Adapters[0].Vendor, h.Adapters[0].Device, h.Adapters[0].Driver = "", "", record.Driver{}
		}), Unknown, "", ""},
	})
	// The finding cites both minimums' matrix entries and their source.
	r, _ := Evaluate(tm(t), with(cisco, func(h *record.Host) { h.Adapters[0].Firmware.Running = "4.5(3a)" })(), "fw-below-min")
	f := r.Findings[0]
	if len(f.Matrix) != 2 || !strings.Contains(f.Matrix[0].At, "engine.toml:") || f.Matrix[0].Sources[0].ID != "cisco-ucsm-vic-4.3" || f.Matrix[0].Sources[0].URL == "" {
		t.Errorf("refs = %+v", f.Matrix)
	}
}

func TestFirmwarePending(t *testing.T) {
	t.Parallel()
	runCases(t, "fw-update-pending", []checkCase{
		{"same", healthy, Pass, "", ""},
		{"pending", with(healthy, func(h *record.Host) { h.Adapters[0].Firmware.Stored = "16.35.4030" }), Found, Warning, "0000:3b:00.0"},
		{"placeholder", with(healthy, func(h *record.Host) { h.Adapters[0].Firmware.Stored = "255.255.65535" }), Unknown, "", ""},
		{"no stored", with(healthy, func(h *record.Host) { h.Adapters[0].Firmware.Stored = "" }), Unknown, "", ""},
		{"golden mlx5-cx7-devlink", golden(t, "mlx5-cx7-devlink"), Pass, "", ""},
		{"golden bnxt_re-port-disabled", golden(t, "bnxt_re-port-disabled"), Unknown, "", ""},
		// mlxup after a burn: FW (Running) 28.46.3048, flash 28.47.1026.
		{"golden mlxup-only-cx7-fw-running-differs", golden(t, "mlxup-only-cx7-fw-running-differs"), Found, Warning, "0000:8e:00.0"},
	})
	r, _ := Evaluate(tm(t), with(healthy, func(h *record.Host) { h.Adapters[0].Firmware.Stored = "16.35.4030" })(), "fw-update-pending")
	if ev := r.Findings[0].Evidence[0]; ev.Source != "cmd/devlink dev info" {
		t.Errorf("evidence source = %q, want the from map's source", ev.Source)
	}
}

func TestStackMixed(t *testing.T) {
	t.Parallel()
	runCases(t, "stack-mixed", []checkCase{
		{"all inbox", healthy, Pass, "", ""},
		{"cisco vendor beside inbox ib_core", cisco, Pass, "", ""},
		{"ofed beside inbox", with(healthy, func(h *record.Host) {
			h.Modules[1].Origin = record.OriginOFED
			h.Modules[2].Origin = record.OriginOFED
		}), Found, Error, "host"},
		{"ofed installed, inbox loaded", with(healthy, func(h *record.Host) {
			h.Stack = &record.Stack{Name: "MLNX_OFED", Version: "5.8-1.0.1.1", From: "cmd/ofed_info -s"}
		}), Found, Error, "host"},
		{"symbol mismatch in log", with(healthy, func(h *record.Host) {
			h.KernelLog = []record.LogEvent{{Kind: record.LogSymbolMismatch, Module: "ksmbd", Text: "ksmbd: disagrees about version of symbol ib_dealloc_pd_user", Source: "cmd/dmesg", Line: 12}}
		}), Found, Error, "host"},
		{"no module list", with(healthy, func(h *record.Host) { h.Modules, h.Sources = nil, nil }), Unknown, "", ""},
		{"golden mlx5-cx7-doca-ofed", golden(t, "mlx5-cx7-doca-ofed"), Pass, "", ""},
		{"golden mlx4-cx3-mlnxofed-roce-v1", golden(t, "mlx4-cx3-mlnxofed-roce-v1"), Unknown, "", ""},
	})
	r, _ := Evaluate(tm(t), with(healthy, func(h *record.Host) {
		h.KernelLog = []record.LogEvent{{Kind: record.LogUnknownSymbol, Text: "mlx5_ib: Unknown symbol ib_register_device (err -22)", Source: "cmd/dmesg", Line: 7}}
	})(), "stack-mixed")
	if ev := r.Findings[0].Evidence[0]; ev.Source != "cmd/dmesg" || ev.Line != 7 {
		t.Errorf("evidence = %+v, want the log line", ev)
	}
	if refs := r.Findings[0].Matrix; len(refs) != 1 || refs[0].Entry != "adapter connectx-3 constraint one-stack" {
		t.Errorf("refs = %+v, want the one-stack constraint", refs)
	}
}

func TestEnicRDMA(t *testing.T) {
	t.Parallel()
	runCases(t, "enic-rdma-unmatched", []checkCase{
		{"matched", cisco, Pass, "", ""},
		{"not loaded", healthy, Pass, "", ""},
		{"inbox enic", with(cisco, func(h *record.Host) { h.Modules[0].Origin = record.OriginInbox }), Found, Error, "host"},
		{"old enic_rdma for ipv6", with(cisco, func(h *record.Host) { h.Modules[1].Version = "1.0.0.6-802.21" }), Found, Warning, "host"},
		{"older than ipv4 minimum", with(cisco, func(h *record.Host) { h.Modules[1].Version = "1.0.0.5-700.1" }), Found, Error, "host"},
		{"enic origin unknown", with(cisco, func(h *record.Host) {
			h.Modules[0].Origin = record.OriginUnknown
			h.Adapters[0].Driver.Origin = ""
		}), Unknown, "", ""},
		{"no module list", with(cisco, func(h *record.Host) { h.Modules, h.Sources = nil, nil }), Unknown, "", ""},
		// The Cisco guide's dmesg example: enic_rdma 1.0.0.6-802.21 is below the IPv6 driver minimum.
		{"kernel log only, below ipv6", with(cisco, func(h *record.Host) {
			h.Modules, h.Sources, h.Adapters = nil, nil, nil
			h.KernelLog = []record.LogEvent{{Kind: record.LogDriverInit, Module: "enic_rdma", Text: "enic_rdma: Cisco VIC Ethernet NIC RDMA Driver, ver 1.0.0.6-802.21 init", Source: "cmd/dmesg", Line: 2}}
		}), Found, Warning, "host"},
		{"kernel log only, new enough", with(cisco, func(h *record.Host) {
			h.Modules, h.Sources, h.Adapters = nil, nil, nil
			h.KernelLog = []record.LogEvent{{Kind: record.LogDriverInit, Module: "enic_rdma", Text: "enic_rdma: Cisco VIC Ethernet NIC RDMA Driver, ver 1.0.0.10-802.34 init", Source: "cmd/dmesg", Line: 2}}
		}), Unknown, "", ""},
		{"golden cisco-vic-enic-rdma", golden(t, "cisco-vic-enic-rdma"), Found, Warning, "host"},
	})
	// Each rule is judged once, and only for the Cisco models present.
	r, _ := Evaluate(tm(t), with(cisco, func(h *record.Host) {
		h.Modules[0].Version, h.Modules[1].Version = "4.0.0.5-700.1", "1.0.0.5-700.1"
	})(), "enic-rdma-unmatched")
	msg := r.Findings[0].Message
	if strings.Count(msg, "enic_rdma 1.0.0.5-700.1 < 1.0.0.6-802-21") != 1 || !strings.Contains(msg, "enic 4.0.0.5-700.1 < 4.0.0.6-802-21 for roce-v2-ipv4") {
		t.Errorf("message = %s", msg)
	}
}

func TestModuleNotLoaded(t *testing.T) {
	t.Parallel()
	runCases(t, "module-not-loaded", []checkCase{
		{"device present", healthy, Pass, "", ""},
		{"loaded without device", with(healthy, func(h *record.Host) { h.Adapters[0].RDMADevices, h.Devices = nil, nil }), Pass, "", ""},
		{"device linked by pci address only", with(healthy, func(h *record.Host) {
			h.Adapters[0].RDMADevices, h.Modules = nil, nil
		}), Pass, "", ""},
		{"provider missing", with(healthy, func(h *record.Host) {
			h.Adapters[0].RDMADevices, h.Devices = nil, nil
			h.Modules = h.Modules[:2]
		}), Found, Warning, "0000:3b:00.0"},
		{"ib_core missing", with(healthy, func(h *record.Host) {
			h.Adapters[0].RDMADevices, h.Devices = nil, nil
			h.Modules = h.Modules[1:]
		}), Found, Warning, "0000:3b:00.0"},
		{"module list absent", with(healthy, func(h *record.Host) {
			h.Adapters[0].RDMADevices, h.Devices = nil, nil
			h.Modules, h.Sources = nil, nil
		}), Unknown, "", ""},
		// A module list pasted through a filter (lsmod | grep mlx) says a
		// module is not loaded only when the filter would have shown it.
		{"ib_core not shown by the filter", with(healthy, func(h *record.Host) {
			h.Adapters[0].RDMADevices, h.Devices = nil, nil
			h.Modules, h.Sources[0].Filter = h.Modules[1:], "grep mlx"
		}), Unknown, "", ""},
		{"ib_core missing under a filter that shows it", with(healthy, func(h *record.Host) {
			h.Adapters[0].RDMADevices, h.Devices = nil, nil
			h.Modules, h.Sources[0].Filter = h.Modules[1:], `grep -E "mlx|ib_"`
		}), Found, Warning, "0000:3b:00.0"},
		{"provider missing under a filter that shows it", with(healthy, func(h *record.Host) {
			h.Adapters[0].RDMADevices, h.Devices = nil, nil
			h.Modules, h.Sources[0].Filter = h.Modules[:2], "grep -i MLX5"
		}), Found, Warning, "0000:3b:00.0"},
		{"provider not shown by an inverted filter", with(healthy, func(h *record.Host) {
			h.Adapters[0].RDMADevices, h.Devices = nil, nil
			h.Modules, h.Sources[0].Filter = h.Modules[:2], "grep mlx5 | grep -v core"
		}), Unknown, "", ""},
		{"no roce adapter", with(healthy, func(h *record.Host) { h.Adapters[0].Device = "9999" }), Pass, "", ""},
		{"pci ids not recorded: the bound driver hints, never proves", with(healthy, func(h *record.Host) {
			h.Adapters[0].Vendor, h.Adapters[0].Device, h.Adapters[0].Name = "", "", ""
			h.Adapters[0].RDMADevices, h.Devices = nil, nil
			h.Modules = h.Modules[:2]
		}), Unknown, "", ""},
		{"pci ids not recorded, lspci name identifies it", with(healthy, func(h *record.Host) {
			h.Adapters[0].Vendor, h.Adapters[0].Device = "", ""
			h.Adapters[0].RDMADevices, h.Devices = nil, nil
			h.Modules = h.Modules[:2]
		}), Found, Warning, "0000:3b:00.0"},
		{"pci ids not recorded, provider loaded", with(healthy, func(h *record.Host) {
			h.Adapters[0].Vendor, h.Adapters[0].Device, h.Adapters[0].Name = "", "", ""
			h.Adapters[0].RDMADevices, h.Devices = nil, nil
		}), Pass, "", ""},
		{"no adapters, but a device", with(healthy, func(h *record.Host) { h.Adapters = nil }), Pass, "", ""},
		{"no adapters, no device", with(healthy, func(h *record.Host) { h.Adapters, h.Devices = nil, nil }), Unknown, "", ""},
	})
}

func TestNoActivePort(t *testing.T) {
	t.Parallel()
	runCases(t, "no-active-port", []checkCase{
		{"active", healthy, Pass, "", ""},
		{"down, polling", with(healthy, func(h *record.Host) {
			h.Devices[0].Ports[0].State, h.Devices[0].Ports[0].PhysState = "DOWN", "Polling"
		}), Found, Error, "mlx5_0"},
		{"down, disabled", with(healthy, func(h *record.Host) {
			h.Devices[0].Ports[0].State, h.Devices[0].Ports[0].PhysState = "DOWN", "Disabled"
		}), Found, Warning, "mlx5_0"},
		{"state missing", with(healthy, func(h *record.Host) { h.Devices[0].Ports[0].State = "" }), Unknown, "", ""},
		{"no ports", with(healthy, func(h *record.Host) { h.Devices[0].Ports = nil }), Unknown, "", ""},
		{"no devices", with(healthy, func(h *record.Host) { h.Devices = nil }), Unknown, "", ""},
		{"golden bnxt_re-port-disabled", golden(t, "bnxt_re-port-disabled"), Found, Warning, "bnxt_re1"},
		{"golden mlx5-six-ports-two-down", golden(t, "mlx5-six-ports-two-down"), Found, Warning, "mlx5_0"},
		{"golden irdma-e810-xxv", golden(t, "irdma-e810-xxv"), Pass, "", ""},
	})
}

func TestGIDTableEmpty(t *testing.T) {
	t.Parallel()
	runCases(t, "gid-table-empty", []checkCase{
		{"gids", healthy, Pass, "", ""},
		{"empty", with(healthy, func(h *record.Host) { h.Devices[0].Ports[0].GIDCounts = record.GIDCounts{} }), Found, Error, "mlx5_0/1"},
		{"roce disabled", with(healthy, func(h *record.Host) {
			h.Devices[0].Ports[0].GIDCounts = record.GIDCounts{}
			h.Adapters[0].EnableRoCE = ptr(false)
		}), Found, Error, "mlx5_0/1"},
		{"infiniband port", with(healthy, func(h *record.Host) {
			h.Devices[0].Ports[0].GIDCounts = record.GIDCounts{}
			h.Devices[0].Ports[0].LinkLayer = "InfiniBand"
		}), Pass, "", ""},
		{"link layer missing", with(healthy, func(h *record.Host) { h.Devices[0].Ports[0].LinkLayer = "" }), Unknown, "", ""},
		{"gids not read", with(healthy, func(h *record.Host) {
			h.Devices[0].Ports[0].GIDCounts = record.GIDCounts{}
			h.Devices[0].From = nil
		}), Unknown, "", ""},
		{"no devices", with(healthy, func(h *record.Host) { h.Devices = nil }), Unknown, "", ""},
		{"golden azure, no GID source", golden(t, "azure-renamed-unknown-provider"), Unknown, "", ""},
		{"show_gids read, device without a line", with(healthy, func(h *record.Host) {
			h.Devices[0].Ports = nil
			h.Sources = append(h.Sources, record.Source{ID: "cmd/show_gids", Status: record.StatusOK})
		}), Found, Error, "mlx5_0"},
		{"device without ports, no show_gids", with(healthy, func(h *record.Host) { h.Devices[0].Ports = nil }), Unknown, "", ""},
		{"golden mlx5-cx4lx-mlnxofed-pod: show_gids found none", golden(t, "mlx5-cx4lx-mlnxofed-pod"), Found, Error, "mlx5_0"},
	})
	r, _ := Evaluate(tm(t), with(healthy, func(h *record.Host) {
		h.Devices[0].Ports[0].GIDCounts = record.GIDCounts{}
		h.Adapters[0].EnableRoCE = ptr(false)
	})(), "gid-table-empty")
	if !strings.Contains(r.Findings[0].Fix, "enable_roce value true") {
		t.Errorf("fix does not address enable_roce: %s", r.Findings[0].Fix)
	}
}

func TestGIDNoRoCEv2(t *testing.T) {
	t.Parallel()
	v1only := func(h *record.Host) { h.Devices[0].Ports[0].GIDCounts = record.GIDCounts{RoCEv1: 2} }
	runCases(t, "gid-no-roce-v2", []checkCase{
		{"v2 gids", healthy, Pass, "", ""},
		{"v1 only on v2 adapter", with(healthy, v1only), Found, Warning, "mlx5_0/1"},
		{"v1 only on v1 adapter", with(healthy, v1only, func(h *record.Host) { h.Adapters[0].Device = "1003" }), Pass, "", ""},
		{"adapter unknown", with(healthy, v1only, func(h *record.Host) { h.Adapters[0].Device = "9999" }), Unknown, "", ""},
		{"no adapter in record: provider decides", with(healthy, v1only, func(h *record.Host) {
			h.Adapters, h.Devices[0].PCIAddress = nil, ""
		}), Found, Warning, "mlx5_0/1"},
		{"no adapter, unknown provider", with(healthy, v1only, func(h *record.Host) {
			h.Adapters, h.Devices[0].PCIAddress, h.Devices[0].Provider = nil, "", "foo_ib"
		}), Unknown, "", ""},
		{"types unread", with(healthy, func(h *record.Host) { h.Devices[0].Ports[0].GIDCounts = record.GIDCounts{Other: 3} }), Unknown, "", ""},
		{"no gids", with(healthy, func(h *record.Host) { h.Devices[0].Ports[0].GIDCounts = record.GIDCounts{} }), Unknown, "", ""},
	})
}

func TestMSIXDisabled(t *testing.T) {
	t.Parallel()
	runCases(t, "msix-disabled", []checkCase{
		{"enabled", healthy, Pass, "", ""},
		{"disabled", with(healthy, func(h *record.Host) { h.Adapters[0].MSIX.Enabled = ptr(false) }), Found, Warning, "0000:3b:00.0"},
		{"disabled on msix-only cisco", with(cisco, func(h *record.Host) { h.Adapters[0].MSIX.Enabled = ptr(false) }), Found, Error, "0000:62:00.1"},
		{"absent", with(healthy, func(h *record.Host) { h.Adapters[0].MSIX = nil }), Unknown, "", ""},
		// As on the real CX-4 Lx handed to DPDK
		// (lspci/mlx5-cx4lx-vfio-pci-vv-width-x4-downgraded.txt).
		{"disabled under vfio-pci", with(healthy, func(h *record.Host) {
			h.Adapters[0].Driver.Name, h.Adapters[0].MSIX.Enabled = "vfio-pci", ptr(false)
		}), Pass, "", ""},
		{"pci ids not recorded, mlx5_core bound", with(healthy, func(h *record.Host) {
			h.Adapters[0].Vendor, h.Adapters[0].Device, h.Adapters[0].Name = "", "", ""
			h.Adapters[0].MSIX.Enabled = ptr(false)
		}), Unknown, "", ""},
		{"only a plain nic", with(healthy, func(h *record.Host) {
			h.Adapters = []record.Adapter{{PCIAddress: "0000:01:00.0", Vendor: "1af4", Device: "1041", Driver: record.Driver{Name: "virtio_net"}}}
		}), Pass, "", ""},
		{"an rdma-like part the matrix lacks", with(healthy, func(h *record.Host) { h.Adapters[0].Device = "9999" }), Unknown, "", ""},
	})
}

func TestMSIXTooFew(t *testing.T) {
	t.Parallel()
	runCases(t, "msix-too-few", []checkCase{
		{"cisco 16", cisco, Pass, "", ""},
		{"cisco 8", with(cisco, func(h *record.Host) { h.Adapters[0].MSIX.Count = ptr(8) }), Pass, "", ""},
		{"cisco 4", with(cisco, func(h *record.Host) { h.Adapters[0].MSIX.Count = ptr(4) }), Found, Error, "0000:62:00.1"},
		{"cisco vectors only", with(cisco, func(h *record.Host) { h.Adapters[0].MSIX = &record.MSIX{Vectors: ptr(2)} }), Found, Error, "0000:62:00.1"},
		{"cisco unknown", with(cisco, func(h *record.Host) { h.Adapters[0].MSIX = nil }), Unknown, "", ""},
		{"no minimum in matrix", with(healthy, func(h *record.Host) { h.Adapters[0].MSIX.Count = ptr(1) }), Pass, "", ""},
	})
}

func TestRoCEModeV1(t *testing.T) {
	t.Parallel()
	runCases(t, "roce-mode-v1", []checkCase{
		{"v2", healthy, Pass, "", ""},
		{"v1 on v2 adapter", with(healthy, func(h *record.Host) { h.Devices[0].Ports[0].DefaultRoCEMode = "IB/RoCE v1" }), Found, Warning, "mlx5_0/1"},
		{"v1 on v1 adapter", with(healthy, func(h *record.Host) {
			h.Devices[0].Ports[0].DefaultRoCEMode = "IB/RoCE v1"
			h.Adapters[0].Device = "1003"
		}), Pass, "", ""},
		{"mode absent", with(healthy, func(h *record.Host) { h.Devices[0].Ports[0].DefaultRoCEMode = "" }), Unknown, "", ""},
		{"link layer and mode absent", with(healthy, func(h *record.Host) {
			h.Devices[0].Ports[0].DefaultRoCEMode, h.Devices[0].Ports[0].LinkLayer = "", ""
		}), Unknown, "", ""},
		{"infiniband port", with(healthy, func(h *record.Host) {
			h.Devices[0].Ports[0].DefaultRoCEMode, h.Devices[0].Ports[0].LinkLayer = "", "InfiniBand"
		}), Pass, "", ""},
		{"mode set, link layer unread", with(healthy, func(h *record.Host) {
			h.Devices[0].Ports[0].DefaultRoCEMode, h.Devices[0].Ports[0].LinkLayer = "IB/RoCE v1", ""
		}), Unknown, "", ""},
		{"device without ports", with(healthy, func(h *record.Host) { h.Devices[0].Ports = nil }), Unknown, "", ""},
		{"show_gids read, device without a line (not this check's concern)", with(healthy, func(h *record.Host) {
			h.Devices[0].Ports = nil
			h.Sources = append(h.Sources, record.Source{ID: "cmd/show_gids", Status: record.StatusOK})
		}), Unknown, "", ""},
	})
	r, _ := Evaluate(tm(t), with(healthy, func(h *record.Host) { h.Devices[0].Ports[0].DefaultRoCEMode = "IB/RoCE v1" })(), "roce-mode-v1")
	f := r.Findings[0]
	if !strings.Contains(f.Explanation, "a RoCE v2 client with a RoCE v1 server does not connect") || !strings.Contains(f.Explanation, "RDMA_CM defaults to RoCE v2 on rhel since 7.5 for ConnectX-5") || len(f.Matrix) != 6 {
		t.Errorf("explanation lacks the client/server table: %s (%d refs)", f.Explanation, len(f.Matrix))
	}
}

func TestRXEWithHardware(t *testing.T) {
	t.Parallel()
	addRXE := func(h *record.Host) {
		h.Devices = append(h.Devices, record.RDMADevice{Name: "rxe0", Provider: "rdma_rxe", Parent: "ens1f0np0",
			Ports: []record.Port{{Number: 1, State: "ACTIVE", LinkLayer: "Ethernet"}}})
	}
	runCases(t, "rxe-with-hardware", []checkCase{
		{"hardware only", healthy, Pass, "", ""},
		{"rxe beside hardware", with(healthy, addRXE), Found, Warning, "rxe0"},
		{"rxe alone", with(healthy, addRXE, func(h *record.Host) { h.Devices = h.Devices[1:] }), Pass, "", ""},
		{"no devices, class absent in a sysfs snapshot", with(healthy, func(h *record.Host) {
			h.Devices = nil
			h.Sources[1].Status = record.StatusAbsent
			h.Sources = append(h.Sources, record.Source{ID: "sys/class/net", Status: record.StatusOK})
		}), Pass, "", ""},
		{"no devices, rdma tool read", with(healthy, func(h *record.Host) {
			h.Devices = nil
			h.Sources = []record.Source{{ID: "cmd/rdma link show", Status: record.StatusOK}}
		}), Pass, "", ""},
		{"no devices, no device source", with(healthy, func(h *record.Host) {
			h.Devices = nil
			h.Sources[1].Status = record.StatusAbsent
		}), Unknown, "", ""},
		{"no devices, class unreadable", with(healthy, func(h *record.Host) {
			h.Devices = nil
			h.Sources[1].Status = record.StatusFailed
		}), Unknown, "", ""},
		{"golden rxe-softroce-aws", golden(t, "rxe-softroce-aws"), Pass, "", ""},
	})
	r, _ := Evaluate(tm(t), with(healthy, addRXE)(), "rxe-with-hardware")
	if !strings.Contains(r.Findings[0].Message, "rides on ens1f0np0") {
		t.Errorf("message does not name the shared netdev: %s", r.Findings[0].Message)
	}
}

func TestKernelTooOld(t *testing.T) {
	t.Parallel()
	e810 := func(h *record.Host) {
		h.Adapters[0].Vendor, h.Adapters[0].Device = "8086", "1592"
		h.Adapters[0].Driver.Name = "ice"
	}
	runCases(t, "kernel-too-old", []checkCase{
		{"new kernel", healthy, Pass, "", ""},
		{"upstream kernel too old", with(healthy, e810, func(h *record.Host) { h.Host.KernelRelease = "5.10.0" }), Found, Error, "0000:3b:00.0"},
		{"distro kernel too old", with(healthy, e810, func(h *record.Host) {
			h.Host.KernelRelease = "5.10.0-13-amd64"
			h.Host.OS = record.OSRelease{ID: "debian", VersionID: "11.3"}
		}), Found, Warning, "0000:3b:00.0"},
		{"distro backport", with(healthy, e810, func(h *record.Host) {
			h.Host.KernelRelease = "3.10.0-1160.el7.x86_64"
			h.Host.OS = record.OSRelease{ID: "oldrpm", VersionID: "1"}
		}), Pass, "", ""},
		{"vendor stack", with(healthy, e810, func(h *record.Host) {
			h.Host.KernelRelease = "5.10.0"
			h.Adapters[0].Driver.Origin = record.OriginVendor
		}), Pass, "", ""},
		{"ofed on the host, but this adapter is inbox", with(healthy, e810, func(h *record.Host) {
			h.Host.KernelRelease = "5.10.0"
			h.Stack = &record.Stack{Name: "MLNX_OFED", Version: "5.8-1.0.1.1"}
		}), Found, Error, "0000:3b:00.0"},
		{"ofed ships this adapter's modules", with(healthy, func(h *record.Host) {
			h.Host.KernelRelease = "3.10.0"
			h.Adapters[0].Driver.Origin = ""
			h.Stack = &record.Stack{Name: "MLNX_OFED", Version: "5.8-1.0.1.1"}
		}), Pass, "", ""},
		{"a stack the matrix does not know", with(healthy, func(h *record.Host) {
			h.Host.KernelRelease = "3.10.0"
			h.Adapters[0].Driver.Origin = ""
			h.Stack = &record.Stack{Name: "OFED"}
		}), Unknown, "", ""},
		{"no kernel", with(healthy, func(h *record.Host) { h.Host.KernelRelease = "" }), Unknown, "", ""},
		{"developer build kernel, too old", with(healthy, e810, func(h *record.Host) { h.Host.KernelRelease = "5.1.0-rc7-next-20190430+" }), Found, Error, "0000:3b:00.0"},
		{"not a kernel release", with(healthy, func(h *record.Host) { h.Host.KernelRelease = "linux" }), Unknown, "", ""},
		{"pci ids not recorded, ice bound", with(healthy, e810, func(h *record.Host) {
			h.Adapters[0].Vendor, h.Adapters[0].Device, h.Adapters[0].Name = "", "", ""
			h.Host.KernelRelease = "5.10.0"
		}), Unknown, "", ""},
		{"pci ids not recorded, new kernel", with(healthy, e810, func(h *record.Host) {
			h.Adapters[0].Vendor, h.Adapters[0].Device, h.Adapters[0].Name = "", "", ""
		}), Pass, "", ""},
		{"no first kernel in matrix", with(healthy, func(h *record.Host) { h.Adapters[0].Device = "1003" }), Unknown, "", ""},
		{"no adapters", with(healthy, func(h *record.Host) { h.Adapters = nil }), Unknown, "", ""},
		{"origin unknown, no stack table, no module list", with(healthy, e810, func(h *record.Host) {
			h.Host.KernelRelease = "5.10.0"
			h.Adapters[0].Driver.Origin = ""
			h.Modules, h.Sources = nil, nil
		}), Unknown, "", ""},
		{"origin unknown, no stack table, modules read", with(healthy, e810, func(h *record.Host) {
			h.Host.KernelRelease = "5.10.0"
			h.Adapters[0].Driver.Origin = ""
		}), Found, Error, "0000:3b:00.0"},
	})
	r, _ := Evaluate(tm(t), with(healthy, e810, func(h *record.Host) { h.Host.KernelRelease = "5.10.0" })(), "kernel-too-old")
	if f := r.Findings[0]; !strings.Contains(f.Explanation, "infers that release from commit dates") || !strings.Contains(f.Matrix[0].Rule, "basis: inferred") {
		t.Errorf("inferred first kernel not flagged: %s / %+v", f.Explanation, f.Matrix)
	}
}

func TestDiagnoseOrderAndLinks(t *testing.T) {
	t.Parallel()
	h := with(healthy, func(h *record.Host) {
		h.Devices[0].Ports[0].State = "DOWN"
		h.Devices[0].Ports[0].DefaultRoCEMode = "IB/RoCE v1"
		h.Adapters = append(h.Adapters, record.Adapter{PCIAddress: "0000:01:00.0", Vendor: "1af4", Device: "1041"})
	})()
	c := testContent(t)
	rep := Diagnose(tm(t), c, h)
	var got []string
	for _, f := range rep.Findings {
		got = append(got, string(f.Severity)+" "+f.Key())
	}
	want := []string{"error no-active-port@mlx5_0", "warning roce-mode-v1@mlx5_0/1", "info adapter-unknown@0000:01:00.0"}
	if !slices.Equal(got, want) {
		t.Fatalf("findings = %q, want %q", got, want)
	}
	if rep.Errors != 1 || rep.Warnings != 1 || rep.Infos != 1 || rep.Worst() != Error {
		t.Errorf("counts %d/%d/%d worst %s", rep.Errors, rep.Warnings, rep.Infos, rep.Worst())
	}
	if f := rep.Findings[0]; !slices.Equal(f.Trees, []string{"tree/no-traffic"}) || !slices.Equal(f.FAQ, []string{"faq/ports"}) {
		t.Errorf("links = %v %v", f.FAQ, f.Trees)
	}
	if len(rep.Results) != len(CheckIDs()) {
		t.Errorf("%d results for %d checks", len(rep.Results), len(CheckIDs()))
	}
}

// TestRegistryComplete: every id of the check registry (internal/checkid)
// has a check here and every check here has a registered id, so content
// lint, --list and the engine agree on one list.
func TestRegistryComplete(t *testing.T) {
	t.Parallel()
	for _, id := range checkid.IDs() {
		if _, ok := funcs[id]; !ok {
			t.Errorf("registered id %s has no check", id)
		}
	}
	for id := range funcs {
		if !checkid.Known(id) {
			t.Errorf("check %s is not in internal/checkid", id)
		}
	}
	if got := len(Checks()); got != len(checkid.IDs()) {
		t.Errorf("%d checks for %d ids", got, len(checkid.IDs()))
	}
	if !slices.Equal(content.KnownChecks, CheckIDs()) {
		t.Errorf("content.KnownChecks %v\nregistry %v", content.KnownChecks, CheckIDs())
	}
}

// TestEmptyRecordIsUnknown: a record with no evidence at all gets no
// finding and no pass from any check. Absent is data, never a guess.
func TestEmptyRecordIsUnknown(t *testing.T) {
	t.Parallel()
	empty := &record.Host{Schema: 1, Host: record.HostInfo{ID: "empty", SourceKind: "root"}}
	for _, id := range CheckIDs() {
		r, _ := Evaluate(tm(t), empty, id)
		if r.Status != Unknown {
			t.Errorf("%s on an empty record: %s (%+v %+v)", id, r.Status, r.Findings, r.Notes)
		}
	}
}

// TestChecksDoNotShareFindings guards against one check's logic leaking
// into another: no two checks report the same message on one host.
func TestChecksDoNotShareFindings(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "hosts", "*.golden.toml"))
	var hosts []*record.Host
	for _, f := range files {
		hosts = append(hosts, golden(t, strings.TrimSuffix(filepath.Base(f), ".golden.toml"))())
	}
	hosts = append(hosts, with(healthy, func(h *record.Host) {
		h.Devices[0].Ports = nil
		h.Sources = append(h.Sources, record.Source{ID: "cmd/show_gids", Status: record.StatusOK})
	})())
	for _, h := range hosts {
		seen := map[string]string{}
		for _, f := range Diagnose(tm(t), nil, h).Findings {
			k := f.Subject + "|" + f.Message
			if other, ok := seen[k]; ok && other != f.Check {
				t.Errorf("%s: %s and %s both report %q", h.Host.ID, other, f.Check, f.Message)
			}
			seen[k] = f.Check
		}
	}
}

func TestProbeFailed(t *testing.T) {
	t.Parallel()
	runCases(t, "driver-probe-failed", []checkCase{
		{"clean log", with(healthy, func(h *record.Host) {
			h.Sources = append(h.Sources, record.Source{ID: "cmd/dmesg", Status: record.StatusOK})
		}), Pass, "", ""},
		{"no kernel log read", healthy, Unknown, "", ""},
		{"probe failure", with(healthy, func(h *record.Host) {
			e := -22
			h.KernelLog = []record.LogEvent{{Kind: record.LogProbeFailure, Module: "mlx5_core", Device: "0000:3b:00.0", Errno: &e, Text: "mlx5_core: probe of 0000:3b:00.0 failed with error -22", Source: "cmd/dmesg", Line: 40}}
		}), Found, Error, "0000:3b:00.0"},
		{"golden mlx5-cx4lx-hpe-probe-failed", golden(t, "mlx5-cx4lx-hpe-probe-failed"), Found, Error, "0000:0b:00.0"},
		{"golden cisco-vic-enic-rdma", golden(t, "cisco-vic-enic-rdma"), Pass, "", ""},
		{"golden mlx5-cx7-doca-ofed (no kernel log)", golden(t, "mlx5-cx7-doca-ofed"), Unknown, "", ""},
	})
	r, _ := Evaluate(tm(t), golden(t, "mlx5-cx4lx-hpe-probe-failed")(), "driver-probe-failed")
	if len(r.Findings) != 2 || !strings.Contains(r.Findings[0].Message, "-22 (EINVAL)") {
		t.Errorf("want one finding per function with the errno named, got %+v", r.Findings)
	}
}

// TestFirmwareRulesAsTheEngine: a recommended or exact firmware row is
// read as the verdict engine reads it (rule.CheckFirmware), not as a
// minimum. ConnectX-5 at 16.35.2000 on MLNX_OFED 24.10: below the
// firmware 24.10 was tested with is a warning, below an earlier release's
// tested firmware too, at or above only an earlier release's is not
// judged, off an exact firmware is an error even above it.
func TestFirmwareRulesAsTheEngine(t *testing.T) {
	t.Parallel()
	onOFED := with(healthy, func(h *record.Host) { h.Stack = &record.Stack{Name: "mlnx-ofed", Version: "24.10-1.1.4.0"} })
	for _, tc := range []struct {
		name, rule, min, stackVer string
		status                    Status
		sev                       Severity
	}{
		{"recommended, this release, older", matrix.RuleRecommended, "16.36.1010", "24.10-1.1.4.0", Found, Warning},
		{"recommended, this release, newer", matrix.RuleRecommended, "16.34.1002", "24.10-1.1.4.0", Pass, ""},
		{"recommended, an earlier release, older", matrix.RuleRecommended, "16.36.1010", "24.07-0.6.1.0", Found, Warning},
		{"recommended, an earlier release, newer", matrix.RuleRecommended, "16.34.1002", "24.07-0.6.1.0", Unknown, ""},
		{"exact, another", matrix.RuleExact, "16.34.1002", "", Found, Error},
		{"exact, the same", matrix.RuleExact, "16.35.2000", "", Pass, ""},
		{"minimum, below", "", "16.36.1010", "", Found, Error},
	} {
		m := *tm(t)
		m.Firmware = append([]matrix.FirmwareMin{{Adapter: "connectx-5", Feature: "roce", Min: tc.min, Rule: tc.rule, Stack: "mlnx-ofed", StackVersion: tc.stackVer,
			Claim: matrix.Claim{Confidence: matrix.VendorDocumented}}}, m.Firmware...)
		r, _ := Evaluate(&m, onOFED(), "fw-below-min")
		if r.Status != tc.status || tc.status == Found && r.Findings[0].Severity != tc.sev {
			t.Errorf("%s: %s %+v, want %s %s", tc.name, r.Status, r.Findings, tc.status, tc.sev)
		}
	}
}
