package lspci

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"

	"github.com/google/go-cmp/cmp"
)

func capture(t testing.TB, name string) []byte { return capturetest.Read(t, "lspci", name) }

func TestParse(t *testing.T) {
	t.Parallel()
	cx5ex := func(slot string) Device {
		return Device{Slot: slot, Class: "Ethernet controller", Name: "Mellanox Technologies MT28800 Family [ConnectX-5 Ex]",
			SubsystemName: "Mellanox Technologies Device 0002", SubsystemVendor: "15b3", SubsystemDevice: "0002", Driver: "mlx5_core", Modules: []string{"mlx5_core"}, MSIX: &MSIX{Enabled: true, Count: 64}}
	}
	hpe := func(slot string) Device {
		return Device{Slot: slot, Class: "Ethernet controller", Name: "Mellanox Technologies MT27710 Family [ConnectX-4 Lx]",
			SubsystemName: "Hewlett Packard Enterprise Device 028a", Driver: "mlx5_core", Modules: []string{"mlx5_core"}, MSIX: &MSIX{Enabled: true, Count: 64},
			Link: &Link{Speed: "8GT/s", Width: 8, CapableSpeed: "8GT/s", CapableWidth: 8}}
	}
	for _, tc := range []struct {
		file string
		want []Device
	}{
		{"mlx5-cx5ex-v-two-functions-msix.txt", []Device{cx5ex("0000:03:00.0"), cx5ex("0000:03:00.1")}},
		{"mlx5-cx4lx-hpe-vvv-wrapped-msix.txt", []Device{hpe("0000:0b:00.0"), hpe("0000:0b:00.1")}},
		{"mlx5-bf3-cx7-v-msix-disabled-truncated.txt", []Device{{Slot: "0000:b4:00.0", Class: "Ethernet controller", Rev: "01",
			Name: "Mellanox Technologies MT43244 BlueField-3 integrated ConnectX-7 network controller", SubsystemName: "Mellanox Technologies Device 0022", SubsystemVendor: "15b3", SubsystemDevice: "0022", MSIX: &MSIX{Count: 64}}}},
		{"mlx5-cx4-ib-v-access-denied.txt", []Device{{Slot: "0000:04:00.0", Class: "Infiniband controller", Name: "Mellanox Technologies MT27700 Family [ConnectX-4]",
			SubsystemName: "Mellanox Technologies Device 0013", SubsystemVendor: "15b3", SubsystemDevice: "0013", Driver: "mlx5_core", CapsDenied: true}}},
		{"hns3-hip08-rdma-nn-and-ethtool-loop-truncated.txt", []Device{
			{Slot: "0000:bd:00.0", Class: "Ethernet controller", ClassID: "0200", Name: "Huawei Technologies Co., Ltd. HNS GE/10GE/25GE RDMA Network Controller", Vendor: "19e5", Device: "a222", Rev: "21"},
			{Slot: "0000:bd:00.1", Class: "Ethernet controller", ClassID: "0200", Name: "Huawei Technologies Co., Ltd. HNS GE/10GE/25GE RDMA Network Controller", Vendor: "19e5", Device: "a222", Rev: "21"},
		}},
		// The device's lines printed flush left. pci.ids of the guest had
		// no name for the VF: lspci printed its device id after the
		// vendor's name, and the subsystem's likewise.
		{"hns3-vf-a22e-v-flush-left-guest-mail.txt", []Device{{Slot: "0000:00:02.0", Class: "Ethernet controller", Rev: "21", Name: "Huawei Technologies Co., Ltd. Device a22e",
			Vendor: "19e5", Device: "a22e", SubsystemName: "Huawei Technologies Co., Ltd. Device 0000", SubsystemVendor: "19e5", SubsystemDevice: "0000",
			Driver: "hns3", MSIX: &MSIX{Enabled: true, Count: 67}}}},
		{"ice-e810xxv-nn-grep-truncated.txt", []Device{
			{Slot: "0000:27:00.0", Class: "Ethernet controller", ClassID: "0200", Name: "Intel Corporation Ethernet Controller E810-XXV for SFP", Vendor: "8086", Device: "159b", Rev: "02"},
			{Slot: "0000:27:00.1", Class: "Ethernet controller", ClassID: "0200", Name: "Intel Corporation Ethernet Controller E810-XXV for SFP", Vendor: "8086", Device: "159b", Rev: "02"},
			{Slot: "0000:28:00.0", Class: "Ethernet controller", ClassID: "0200", Name: "Intel Corporation Ethernet Controller E810-XXV for SFP [8086:15"},
		}},
		// lspci -v -nn -mm -k: each -vmm value is the name and then its id
		// in brackets; lspci's libkmod warning came between two keys.
		{"mlx5-cx5-vf-v-nn-mm-k-libkmod-error-in-pod.txt", []Device{{Slot: "0000:5e:00.6", Class: "Ethernet controller", ClassID: "0200",
			Name: "MT27800 Family [ConnectX-5 Virtual Function]", Vendor: "15b3", Device: "1018",
			SubsystemName: "Device", SubsystemVendor: "15b3", SubsystemDevice: "0091", Driver: "mlx5_core"}}},
		// lspci -vx: no ids printed, but the config space dump after the
		// device's lines gives them (vendor, device, class, subsystem).
		{"mlx5-cx4lx-vx-hex-dump-after-capabilities.txt", []Device{{Slot: "0000:82:00.0", Class: "Ethernet controller", ClassID: "0200",
			Name: "Mellanox Technologies MT27710 Family [ConnectX-4 Lx]", Vendor: "15b3", Device: "1015",
			SubsystemName: "Mellanox Technologies MT27710 Family [ConnectX-4 Lx]", SubsystemVendor: "15b3", SubsystemDevice: "009c", MSIX: &MSIX{Count: 64}}}},
	} {
		got, err := Parse(bytes.NewReader(capture(t, tc.file)))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, d)
		}
	}
}

// TestUnnamedDevice: a function pci.ids did not name prints its id
// after its vendor's name ("QLogic Corp. Device 8070", a QL41212H on a
// host with an older pci.ids), which is its PCI id when the vendor's name
// is known; with no vendor name both ids are printed.
func TestUnnamedDevice(t *testing.T) {
	t.Parallel()
	got, err := Parse(bytes.NewReader(capturetest.Read(t, "paste", "qede-ql41212h-lspci-vvv-device-8070-lsmod-modinfo-dkms-blog.txt")))
	if err != nil || len(got) != 1 {
		t.Fatalf("%+v, %v", got, err)
	}
	if d := got[0]; d.Vendor != "1077" || d.Device != "8070" || d.SubsystemName != "Gigabyte Technology Co., Ltd Device 1000" || d.SubsystemVendor != "" || d.VPDName != "QLogic FastLinQ QL41212H 25GbE Adapter" {
		t.Errorf("%+v", d)
	}
	for name, want := range map[string]string{
		"QLogic Corp. Device 8070": "1077:8070", "Mellanox Technologies Device 1021": "15b3:1021", "Device 1dd8:1002": "1dd8:1002",
		"Gigabyte Technology Co., Ltd Device 1000": ":", "Mellanox Technologies MT27800 Family [ConnectX-5]": ":",
	} {
		if v, d := unnamedIDs(name); v+":"+d != want {
			t.Errorf("unnamedIDs(%q) = %s:%s, want %s", name, v, d, want)
		}
	}
}

// TestMailWrapped: lspci -vvv quoted in a mail that lost its
// indentation and wrapped its long lines: the device line's tail
// ("NetXtreme-E … Controller (rev 01)") and the Subsystem line's run on
// flush left, and are the names' ends (the name that identifies the part
// when lspci printed no ids), not lines to skip.
func TestMailWrapped(t *testing.T) {
	t.Parallel()
	got, err := Parse(bytes.NewReader(capturetest.Read(t, "paste", "bnxt_en-bcm57416-mail-quoted-ethtool-i-lspci-vvv-flattened-wrapped.txt")))
	if err != nil {
		t.Fatal(err)
	}
	want := []Device{{Slot: "0000:45:00.0", Class: "Ethernet controller", Rev: "01",
		Name:          "Broadcom Inc. and subsidiaries BCM57416 NetXtreme-E Dual-Media 10G RDMA Ethernet Controller",
		SubsystemName: "Super Micro Computer Inc BCM57416 NetXtreme-E Dual-Media 10G RDMA Ethernet Controller",
		Driver:        "bnxt_en", Modules: []string{"bnxt_en"}, MSIX: &MSIX{Enabled: true, Count: 255},
		Link: &Link{Speed: "8GT/s", Width: 8, CapableSpeed: "8GT/s", CapableWidth: 8}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	// What may end a wrapped line, and what is a line of its own.
	for _, c := range []struct {
		line string
		ok   bool
	}{
		{"NetXtreme-E Dual-Media 10G RDMA Ethernet Controller (rev 01)", true},
		{"[15b3:1015] (rev 00)", true},
		{"10G RDMA Ethernet Controller", true},
		{"Subsystem: Mellanox Technologies Device 0013", false},
		{"Control: I/O- Mem+ BusMaster+", false},
		{"--", false}, {"...", false}, {"", false},
	} {
		if got := continued(c.line); got != c.ok {
			t.Errorf("continued(%q) = %t, want %t", c.line, got, c.ok)
		}
	}
}

func TestParseVMM(t *testing.T) {
	t.Parallel()
	got, err := Parse(bytes.NewReader(capture(t, "mlx5-cx4lx-vf-hyperv-vmmkn-long-slot.txt")))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 6 {
		t.Fatalf("got %d devices, want 6", len(got))
	}
	want := Device{Slot: "1a06:00:02.0", ClassID: "0200", Vendor: "15b3", Device: "1016", SubsystemVendor: "15b3", SubsystemDevice: "0190", Rev: "80", Driver: "mlx5_core", Modules: []string{"mlx5_core"}}
	if d := cmp.Diff(want, got[5]); d != "" {
		t.Errorf("VF (-want +got):\n%s", d)
	}
	if !got[5].IsNetwork() || got[0].IsNetwork() {
		t.Error("IsNetwork")
	}
	k, _ := Parse(bytes.NewReader(capture(t, "mlx5-cx4lx-vf-hyperv-k-long-slot.txt")))
	if last := k[len(k)-1]; last.Slot != "1a06:00:02.0" || last.Driver != "mlx5_core" || last.SubsystemName != "Mellanox Technologies Device 0190" || last.Rev != "80" {
		t.Errorf("-k VF: %+v", last)
	}
}

func TestEveryCaptureParses(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "captures", "lspci", "*.txt"))
	for _, f := range files {
		got, err := Parse(bytes.NewReader(capture(t, filepath.Base(f))))
		if err != nil || len(got) == 0 {
			t.Errorf("%s: got %d devices, %v", f, len(got), err)
		}
	}
}

// -vv: kernel modules, subsystem name, VPD product name and part number
// (never the serial), and the link with lspci's downgrade marks.
func TestParseVV(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file string
		want []Device
	}{
		{"mlx5-cx4lx-ocp-vvv-vpd-pn-link-ok.txt", []Device{{Slot: "0000:01:00.0", Class: "Ethernet controller", Name: "Mellanox Technologies MT27710 Family [ConnectX-4 Lx]",
			SubsystemName: "Mellanox Technologies MCX4421A-ACQN ConnectX-4 Lx EN OCP,2x25G", Driver: "mlx5_core", Modules: []string{"mlx5_core"}, MSIX: &MSIX{Enabled: true, Count: 64},
			Link:    &Link{Speed: "8GT/s", Width: 8, CapableSpeed: "8GT/s", CapableWidth: 8},
			VPDName: "CX4421A- ConnectX-4 LX SFP28", PartNumber: "MCX4421A-ACQN"}}},
		// Quoted in a mail reply ("> "): width trained at x4 of x16.
		{"amdgpu-vfio-vvv-width-x4-downgraded-mail-quoted.txt", []Device{{Slot: "0000:06:00.0", Class: "VGA compatible controller",
			Name:          "Advanced Micro Devices, Inc. [AMD/ATI] Bonaire XT [Radeon HD 7790/8770 / R7 360 / R9 260/360 OEM]",
			SubsystemName: "ASUSTeK Computer Inc. Radeon HD 7790 DirectCU II OC", Driver: "vfio-pci", Modules: []string{"amdgpu"},
			Link: &Link{Speed: "8GT/s", Width: 4, CapableSpeed: "8GT/s", CapableWidth: 16, WidthDowngraded: true}}}},
		// A network adapter handed to DPDK: vfio-pci in use, mlx5_core the
		// module, MSI-X off (no host driver), and the link at x4 of x8.
		{"mlx5-cx4lx-vfio-pci-vv-width-x4-downgraded.txt", []Device{{Slot: "0000:08:00.0", Class: "Ethernet controller", Name: "Mellanox Technologies MT27710 Family [ConnectX-4 Lx]",
			SubsystemName: "Mellanox Technologies Stand-up ConnectX-4 Lx EN, 25GbE dual-port SFP28, PCIe3.0 x8, MCX4121A-ACAT", Driver: "vfio-pci", Modules: []string{"mlx5_core"},
			MSIX: &MSIX{Count: 64}, Link: &Link{Speed: "8GT/s", Width: 4, CapableSpeed: "8GT/s", CapableWidth: 8, WidthDowngraded: true},
			VPDName: "CX4121A - ConnectX-4 LX SFP28", PartNumber: "MCX4121A-ACAT"}}},
		// Space-indented, Dell VPD, link at its full 16GT/s x8.
		{"ice-e810xxv-vfio-pci-vv-link-ok.txt", []Device{{Slot: "0000:01:00.0", Class: "Ethernet controller", Name: "Intel Corporation Ethernet Controller E810-XXV for SFP", Rev: "02",
			SubsystemName: "Intel Corporation Ethernet 25G 2P E810-XXV Adapter", Driver: "vfio-pci", Modules: []string{"ice"}, MSIX: &MSIX{Enabled: true, Count: 1024},
			Link:    &Link{Speed: "16GT/s", Width: 8, CapableSpeed: "16GT/s", CapableWidth: 8},
			VPDName: "E810-XXV 25GbE Controller", PartNumber: "CD16M"}}},
	} {
		got, err := Parse(bytes.NewReader(capture(t, tc.file)))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, d)
		}
		for _, d := range got {
			if s := fmt.Sprintf("%+v", d); strings.Contains(s, "MT2042X16761") || strings.Contains(s, "MT1844K19636") {
				t.Errorf("%s: the VPD serial number leaked", tc.file)
			}
		}
	}
}

func TestLinkCompare(t *testing.T) {
	t.Parallel()
	// Old pciutils print no marks: the numbers decide.
	in := "01:00.0 Ethernet controller: Mellanox Technologies MT27500 Family [ConnectX-3]\n\t\tLnkCap:\tPort #8, Speed 8GT/s, Width x4, ASPM L0s\n\t\tLnkSta:\tSpeed 5GT/s, Width x1, TrErr- Train-\n"
	got, _ := Parse(strings.NewReader(in))
	l := got[0].Link
	if l == nil || !l.SpeedDowngraded || !l.WidthDowngraded || !l.Downgraded() || l.Width != 1 || l.CapableWidth != 4 {
		t.Errorf("%+v", l)
	}
	if v, ok := SpeedGTps("2.5GT/s"); !ok || v != 2.5 {
		t.Errorf("SpeedGTps = %v %v", v, ok)
	}
	if _, ok := SpeedGTps("unknown"); ok {
		t.Error("unknown speed parsed")
	}
}

// lspci -n prints numbers for names, on the device line and the
// Subsystem line: a ConnectX-7 in InfiniBand mode, "41:00.0 0207:
// 15b3:1021", "Subsystem: 15b3:0041".
func TestNumericOnly(t *testing.T) {
	raw := capturetest.Read(t, "paste", "mlx5-cx7-ib-h100-mst-status-v-then-lspci-s-vvn-numeric-truncated.txt")
	_, out, _ := strings.Cut(string(raw), "$ lspci -s 41:00.0 -vvn\n")
	devs, err := Parse(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	want := Device{Slot: "0000:41:00.0", ClassID: "0207", Vendor: "15b3", Device: "1021", SubsystemVendor: "15b3", SubsystemDevice: "0041"}
	if len(devs) != 1 {
		t.Fatalf("%d devices, want 1: %+v", len(devs), devs)
	}
	if diff := cmp.Diff(want, devs[0]); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !devs[0].IsNetwork() {
		t.Error("class 0207 is a network controller")
	}
}

// TestJoined: lspci's output with its line breaks turned into spaces, as
// a chat client or a ticket form that removed them leaves it, reads as
// the output itself, for one line a device (with and without -nn and
// -D, a prompt before the first device, the last line cut short), for
// -k's lines under each device and for -v, -vv and -vvv's (MSI-X, the
// link, the VPD's part number, capabilities denied to a user).
func TestJoined(t *testing.T) {
	t.Parallel()
	for _, f := range []string{
		"mlx5-cx6dx-grep-net.txt",
		"ice-e810xxv-nn-grep-truncated.txt",
		"mlx5-cx5-grep-mell-domain.txt",
		"mlx5-cx4lx-vf-hyperv-k-long-slot.txt",
		"mlx5-cx5ex-v-two-functions-msix.txt",
		"mlx5-cx4lx-ocp-vvv-vpd-pn-link-ok.txt",
		"mlx5-cx4lx-vfio-pci-vv-width-x4-downgraded.txt",
		"mlx5-cx4-ib-v-access-denied.txt",
	} {
		src := capture(t, f)
		want, err := Parse(bytes.NewReader(src))
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 {
			t.Fatalf("%s: no device", f)
		}
		joined := strings.Join(strings.Fields(string(src)), " ")
		got, err := Parse(strings.NewReader(joined))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s joined onto one line (-as printed +joined):\n%s", f, d)
		}
	}
}
