package modules

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rocekb/rocekb/internal/capturetest"

	"github.com/google/go-cmp/cmp"
)

var capture = capturetest.Read

func TestParseLsmod(t *testing.T) {
	t.Parallel()
	got, err := ParseLsmod(bytes.NewReader(capture(t, "lsmod", "rxe-full-arm-yocto.txt")))
	if err != nil {
		t.Fatal(err)
	}
	want := []Module{
		{Name: "rdma_rxe", Size: 102400},
		{Name: "rdma_ucm", Size: 28672},
		{Name: "rdma_cm", Size: 53248, RefCount: 1, UsedBy: []string{"rdma_ucm"}},
		{Name: "iw_cm", Size: 32768, RefCount: 1, UsedBy: []string{"rdma_cm"}},
		{Name: "ib_cm", Size: 40960, RefCount: 1, UsedBy: []string{"rdma_cm"}},
		{Name: "ib_uverbs", Size: 81920, RefCount: 1, UsedBy: []string{"rdma_ucm"}},
		{Name: "ib_core", Size: 192512, RefCount: 6, UsedBy: []string{"rdma_rxe", "ib_cm", "rdma_cm", "ib_uverbs", "iw_cm", "rdma_ucm"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	ofed, _ := ParseLsmod(bytes.NewReader(capture(t, "lsmod", "mlx5-ofed-mlx_compat-grep-rdma.txt")))
	if len(ofed) != 7 || ofed[0].Name != "rdma_ucm" || ofed[6].Name != "mlx_compat" || len(ofed[6].UsedBy) != 11 || ofed[4].RefCount != 141 {
		t.Errorf("ofed: %+v", ofed)
	}
}

// /proc/modules has the same name and size columns plus state and taint.
func TestParseProcModules(t *testing.T) {
	t.Parallel()
	in := "mlx5_ib 450560 0 - Live 0xffffffffc0a00000 (OE)\nib_core 409600 8 rdma_cm,ib_ipoib,mlx5_ib, Live 0xffffffffc0900000\n"
	got, _ := ParseLsmod(strings.NewReader(in))
	want := []Module{
		{Name: "mlx5_ib", Size: 450560, State: "Live", Taint: "OE"},
		{Name: "ib_core", Size: 409600, RefCount: 8, UsedBy: []string{"rdma_cm", "ib_ipoib", "mlx5_ib"}, State: "Live"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestParseModinfo(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file string
		want []Info
	}{
		{"irdma-oot-1.0.13-platform-alias-truncated.txt", []Info{{Name: "irdma", Filename: "/lib/modules/5.4.5/updates/drivers/infiniband/hw/irdma/irdma.ko", Version: "1.0.13",
			SrcVersion: "0CFD65E6E3D6D6D72BFEFFF", Vermagic: "5.4.5 SMP mod_unload", Description: "Intel(R) Ethernet Protocol Driver for RDMA", Depends: []string{"ib_core", "ib_uverbs"}}}},
		{"mlx5_ib-rhel79-inbox.txt", []Info{{Name: "mlx5_ib", Filename: "/lib/modules/3.10.0-1160.62.1.el7.x86_64/kernel/drivers/infiniband/hw/mlx5/mlx5_ib.ko.xz", SrcVersion: "CF2AF2DCF911C7F8B769A7B",
			InTree: "Y", Vermagic: "3.10.0-1160.62.1.el7.x86_64 SMP mod_unload modversions", Signer: "CentOS Linux kernel signing key", Description: "Mellanox Connect-IB HCA IB driver", RHELVersion: "7.9",
			Depends: []string{"mlx5_core", "ib_core", "ib_uverbs"}}}},
		{"rdma_rxe-module-not-found.txt", nil},
		// RHEL 7's inbox i40e: firmware:, retpoline:, sig_key: (its value
		// full of colons) and parm: lines among the keys read.
		{"i40e-rhel77-inbox-rhelversion-firmware.txt", []Info{{Name: "i40e", Filename: "/lib/modules/3.10.0-993.el7.x86_64/kernel/drivers/net/ethernet/intel/i40e/i40e.ko.xz",
			Version: "2.3.2-k", SrcVersion: "DC5C250666ADD8603966656", InTree: "Y", Vermagic: "3.10.0-993.el7.x86_64 SMP mod_unload modversions",
			Signer: "Red Hat Enterprise Linux kernel signing key", Description: "Intel(R) Ethernet Connection XL710 Network Driver", RHELVersion: "7.7", Depends: []string{"ptp"}}}},
		{"ixgbe-rhel73-jump3-k-rh7.3-version.txt", []Info{{Name: "ixgbe", Filename: "/lib/modules/3.10.0-514.6.1.el7.jump3.x86_64/kernel/drivers/net/ethernet/intel/ixgbe/ixgbe.ko",
			Version: "4.4.0-k-rh7.3", SrcVersion: "24F0195E8A357701DE1B32E", InTree: "Y", Vermagic: "3.10.0-514.6.1.el7.jump3.x86_64 SMP mod_unload modversions",
			Signer: "Red Hat Enterprise Linux kernel signing key", Description: "Intel(R) 10 Gigabit PCI Express Network Driver", RHELVersion: "7.3",
			Depends: []string{"i2c-core", "ptp", "dca", "i2c-algo-bit"}}}},
		// A built-in module: "name:" before "filename:       (builtin)".
		{"xhci_pci-builtin-name-before-filename-cover-letter.txt", []Info{{Name: "xhci_pci", Filename: "(builtin)", Description: "xHCI PCI Host Controller Driver"}}},
		// Two runs pasted one after the other, the second through grep
		// (no filename): two blocks, not the first's file with the
		// second's version and kernel.
		{"../paste/mlx5-doca-24.07-debian12-lsmod-modinfo-then-older-modinfo-grep-version.txt", []Info{
			{Name: "mlx5_core", Filename: "/lib/modules/6.1.0-25-amd64/updates/dkms/mlx5_core.ko", Version: "24.07-0.6.1", SrcVersion: "769E8732BF9FAF2E580D2BC",
				Vermagic: "6.1.0-25-amd64 SMP preempt mod_unload modversions", Signer: "DKMS module signing key",
				Description: "Mellanox 5th generation network adapters (ConnectX series) core driver",
				Depends:     []string{"mlxdevm", "mlx_compat", "tls", "pci-hyperv-intf", "psample", "mlxfw"}},
			{Version: "24.01-0.3.3", SrcVersion: "59290B9C495B89FC195B001", Vermagic: "6.1.0-20-amd64 SMP preempt mod_unload modversions"},
		}},
	} {
		got, err := ParseModinfo(bytes.NewReader(capture(t, "modinfo", tc.file)))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, d)
		}
	}
	if !OutOfTree("/lib/modules/5.4.5/updates/drivers/infiniband/hw/irdma/irdma.ko") || OutOfTree("/lib/modules/6.8.0-55-generic/kernel/drivers/vdpa/mlx5/mlx5_vdpa.ko.zst") {
		t.Error("OutOfTree")
	}
}

func TestReadSys(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"sys/module/mlx5_core/version":    {Data: []byte("5.8-1.0.1\n")},
		"sys/module/mlx5_core/srcversion": {Data: []byte("ABC\n")},
		"sys/module/mlx5_core/taint":      {Data: []byte("OE\n")},
	}
	got, ok := ReadSys(fsys, "mlx5_core")
	if !ok || got != (Sys{Version: "5.8-1.0.1", SrcVersion: "ABC", Taint: "OE"}) {
		t.Errorf("got %+v %v", got, ok)
	}
	if _, ok := ReadSys(fsys, "bnxt_re"); ok {
		t.Error("absent module reported present")
	}
}

// modinfo without lsmod: the modules described and the kernel release,
// from vermagic, the filename, or a modprobe "not found" directory.
func TestModinfoKernelRelease(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file, name, release, source string
	}{
		{"mlx5_ib-rhel79-inbox.txt", "mlx5_ib", "3.10.0-1160.62.1.el7.x86_64", "vermagic"},
		{"ib_rxe-old-name-4.0.txt", "ib_rxe", "4.0.0+", "vermagic"},
		{"mlx5_core-rhel7-inbox-elided.txt", "mlx5_core", "3.10.0-862.14.4.el7.x86_64", "filename"},
		{"mlx5_vdpa-ubuntu2404-inbox-elided.txt", "mlx5_vdpa", "6.8.0-55-generic", "filename"},
		{"rdma_rxe-ubuntu-aws-6.14-head.txt", "rdma_rxe", "6.14.0-1015-aws", "filename"},
		{"rdma_rxe-module-not-found.txt", "", "6.14.0-1015-aws", "not-found-directory"},
	} {
		got, err := ParseModinfoAll(bytes.NewReader(capture(t, "modinfo", tc.file)))
		if err != nil {
			t.Fatal(err)
		}
		rel, src := got.KernelRelease()
		if rel != tc.release || src != tc.source {
			t.Errorf("%s: release %q from %q", tc.file, rel, src)
		}
		if tc.name != "" && (len(got.Modules) != 1 || got.Modules[0].Name != tc.name) {
			t.Errorf("%s: modules %+v", tc.file, got.Modules)
		}
	}
	nf, _ := ParseModinfoAll(bytes.NewReader(capture(t, "modinfo", "rdma_rxe-module-not-found.txt")))
	if d := cmp.Diff([]Missing{{Name: "rdma_rxe", Release: "6.14.0-1015-aws", Line: 2}}, nf.Missing); d != "" {
		t.Errorf("missing (-want +got):\n%s", d)
	}
}
