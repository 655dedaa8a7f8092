package ibverbs

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"

	"github.com/google/go-cmp/cmp"
)

var capture = capturetest.Read

func TestParseDevinfo(t *testing.T) {
	t.Parallel()
	irdmaPort := Port{Number: 1, State: "PORT_ACTIVE (4)", LinkLayer: "Ethernet", ActiveMTU: "1024 (3)", PortLID: "1", SMLID: "0"}
	for _, tc := range []struct {
		file string
		want Devinfo
	}{
		{"irdma-e810-xxv-two-ports.txt", Devinfo{Devices: []Device{
			{HCAID: "irdma0", Transport: "InfiniBand (0)", FwVer: "1.72", NodeGUID: "b683:51ff:fe02:7a30", SysImageGUID: "b683:51ff:fe02:7a30", VendorID: "0x8086", VendorPartID: "5531", HWVer: "0x2", PhysPortCnt: 1, Ports: []Port{irdmaPort}},
			{HCAID: "irdma1", Transport: "InfiniBand (0)", FwVer: "1.72", NodeGUID: "b683:51ff:fe02:7a31", SysImageGUID: "b683:51ff:fe02:7a31", VendorID: "0x8086", VendorPartID: "5531", HWVer: "0x2", PhysPortCnt: 1, Ports: []Port{irdmaPort}},
		}}},
		// The patch description elides the "port:" header; the port lines
		// open an implicit port 1.
		{"bnxt_re-v-gid-types-elided.txt", Devinfo{Devices: []Device{{HCAID: "bnxt_re2", Transport: "InfiniBand (0)", FwVer: "216.0.220.0", NodeGUID: "b226:28ff:fed3:b0f0", SysImageGUID: "b226:28ff:fed3:b0f0",
			Ports: []Port{{Number: 1, Implicit: true, PhysState: "LINK_UP (5)", GIDs: []GID{
				{Index: 0, GID: "fe80:0000:0000:0000:b226:28ff:fed3:b0f0", Type: "IB/RoCE v1"},
				{Index: 1, GID: "fe80::b226:28ff:fed3:b0f0", Type: "RoCE v2"},
				{Index: 2, GID: "0000:0000:0000:0000:0000:ffff:c0aa:0165", Type: "IB/RoCE v1"},
				{Index: 3, GID: "::ffff:192.170.1.101", Type: "RoCE v2"},
			}}}}}}},
		{"mlx4-cx3-list.txt", Devinfo{Devices: []Device{{HCAID: "mlx4_1"}, {HCAID: "mlx4_0"}}}},
		// The poster's "# …" notes after values are not part of them.
		{"rxe-v-inline-hash-notes-head-50.txt", Devinfo{Devices: []Device{{HCAID: "rxe0", Transport: "InfiniBand (0)", FwVer: "0.0.0", NodeGUID: "0200:00ff:fe00:0000", SysImageGUID: "0200:00ff:fe00:0000", VendorID: "0xffffff", VendorPartID: "0", HWVer: "0x0", PhysPortCnt: 1}}}},
		// Tabs collapsed to spaces by a translation of the RHEL guide.
		{"siw-rhel-doc-translation-tabs-collapsed.txt", Devinfo{Devices: []Device{{HCAID: "siw0", Transport: "iWARP (1)", FwVer: "0.0.0", NodeGUID: "1ac0:4dff:feee:0c32", SysImageGUID: "18c0:4dee:0c32:0000", VendorID: "0x626d74", VendorPartID: "1", HWVer: "0x0", PhysPortCnt: 1,
			Ports: []Port{{Number: 1, State: "PORT_ACTIVE (4)", LinkLayer: "Ethernet", ActiveMTU: "1024 (3)", PortLID: "0", SMLID: "0"}}}}}},
		// libibverbs 1.0 (2010): no transport, board_id or link_layer
		// lines, port states in lower case; leading tabs turned to spaces.
		{"mthca-infinihost-libibverbs-1.0-no-transport-lowercase-states.txt", Devinfo{Devices: []Device{{HCAID: "mthca0", FwVer: "3.0.2", NodeGUID: "0006:6a00:9800:4c78", SysImageGUID: "0006:6a00:9800:4c78", VendorID: "0x066a", VendorPartID: "23108", HWVer: "0xA1", PhysPortCnt: 2,
			Ports: []Port{{Number: 1, State: "active (4)", ActiveMTU: "2048 (4)", PortLID: "26", SMLID: "1"}, {Number: 2, State: "down (1)", ActiveMTU: "512 (2)", PortLID: "0", SMLID: "0"}}}}}},
		{"rxe-softroce-no-link-layer.txt", Devinfo{Devices: []Device{{HCAID: "rxe0", Transport: "InfiniBand (0)", FwVer: "0.0.0", NodeGUID: "428d:5cff:fe35:bb12", SysImageGUID: "0000:0000:0000:0000", VendorID: "0x0000", VendorPartID: "0", HWVer: "0x0", PhysPortCnt: 1,
			Ports: []Port{{Number: 1, State: "PORT_ACTIVE (4)", ActiveMTU: "1024 (3)", PortLID: "0", SMLID: "0"}}}}}},
	} {
		got, err := ParseDevinfo(bytes.NewReader(capture(t, "ibv_devinfo", tc.file)))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, d)
		}
	}
}

func TestParseDevinfoVerbose(t *testing.T) {
	t.Parallel()
	got, err := ParseDevinfo(bytes.NewReader(capture(t, "ibv_devinfo", "mlx5-cx6dx-v-rocep-name-mlnxofed58.txt")))
	if err != nil {
		t.Fatal(err)
	}
	want := Port{Number: 1, State: "PORT_ACTIVE (4)", PhysState: "LINK_UP (5)", LinkLayer: "Ethernet", ActiveMTU: "1024 (3)", ActiveWidth: "4X (2)", ActiveSpeed: "25.0 Gbps (32)", PortLID: "0", SMLID: "0", GIDTableLen: 255,
		GIDs: []GID{
			{0, "fe80:0000:0000:0000:c670:bdff:feaa:1fc9", "RoCE v1"},
			{1, "fe80::c670:bdff:feaa:1fc9", "RoCE v2"},
			{2, "0000:0000:0000:0000:0000:ffff:0a16:74dd", "RoCE v1"},
			{3, "::ffff:10.22.116.221", "RoCE v2"},
		}}
	if len(got.Devices) != 1 || got.Devices[0].HCAID != "rocep61s0f1" || got.Devices[0].BoardID != "MT_0000000359" || got.Devices[0].VendorPartID != "4125" {
		t.Fatalf("device: %+v", got.Devices)
	}
	if d := cmp.Diff([]Port{want}, got.Devices[0].Ports); d != "" {
		t.Errorf("port (-want +got):\n%s", d)
	}
	if r, ok := got.Devices[0].Ports[0].RateGbps(); !ok || r != 100 {
		t.Errorf("RateGbps = %v, %v; want 100", r, ok)
	}
	ct, _ := ParseDevinfo(bytes.NewReader(capture(t, "ibv_devinfo", "mlx4-cx3-vf-failed-to-open-device-in-container.txt")))
	if len(ct.Errors) != 8 || len(ct.Devices) != 1 || ct.Devices[0].Ports[0].LinkLayer != "InfiniBand" {
		t.Errorf("container: %d errors, %+v", len(ct.Errors), ct.Devices)
	}
	tr, _ := ParseDevinfo(bytes.NewReader(capture(t, "ibv_devinfo", "mlx5-cx7-ib-port-down-lid-65535-truncated.txt")))
	if len(tr.Devices) != 2 || tr.Devices[1].NodeGUID != "" || tr.Devices[0].Ports[0].PortLID != "65535" {
		t.Errorf("truncated: %+v", tr.Devices)
	}
}

// TestDevinfoMarkdownEmphasis: a poster's markdown strong emphasis
// ("**GID[ 14]: …") before a line of the output. The text is the
// start of the device (ibv_devinfo/mlx5-cx4lx-h3c-v-truncated.txt) and its
// port block (paste/mlx5-cx4lx-h3c-ibv_devinfo-v-port-…), stored apart.
func TestDevinfoMarkdownEmphasis(t *testing.T) {
	t.Parallel()
	in := append(capture(t, "ibv_devinfo", "mlx5-cx4lx-h3c-v-truncated.txt"), capture(t, "paste", "mlx5-cx4lx-h3c-ibv_devinfo-v-port-gid-markdown-bold-excerpt-truncated.txt")...)
	got, err := ParseDevinfo(bytes.NewReader(in))
	if err != nil || len(got.Devices) != 1 || len(got.Devices[0].Ports) != 1 {
		t.Fatalf("%+v, %v", got, err)
	}
	want := []GID{{14, "0000:0000:0000:0000:0000:ffff:c0a8:0606", ""}, {15, "0000:0000:0000:0000:0000:ffff:c0a8:0606", ""}}
	if d := cmp.Diff(want, got.Devices[0].Ports[0].GIDs); d != "" {
		t.Errorf("GIDs (-want +got):\n%s", d)
	}
}

// TestNotesAfterValues: a poster's notes after values ("#dz …" with no
// space after the '#', "// hardware version", a tab-led "# …") are not
// part of them.
func TestNotesAfterValues(t *testing.T) {
	t.Parallel()
	got, err := ParseDevinfo(bytes.NewReader(capture(t, "paste", "rxe-renamed-rocep0s8-ibv_devices-devinfo-inline-hash-and-slash-comments.txt")))
	if err != nil || len(got.Devices) != 1 {
		t.Fatalf("%+v, %v", got, err)
	}
	if d := got.Devices[0]; d.SysImageGUID != "0a00:27ff:feda:bfb9" || d.HWVer != "0x0" {
		t.Errorf("sys_image_guid %q, hw_ver %q; want 0a00:27ff:feda:bfb9, 0x0", d.SysImageGUID, d.HWVer)
	}
	got, err = ParseDevinfo(bytes.NewReader(capture(t, "paste", "siw-rxe-veth-ibv_devices-rdma-link-devinfo-inline-hash-comment-truncated.txt")))
	if err != nil || len(got.Devices) != 1 || got.Devices[0].Transport != "iWARP (1)" {
		t.Errorf("%+v, %v; want siw_0, transport iWARP (1)", got.Devices, err)
	}
	// "vendor_id: 0x1d0f   (Amazon)": a note in parentheses after a value
	// printed as one word; the poster's summary "port 1: PORT_ACTIVE,
	// max_mtu=4096" is no port line and gives no port.
	got, err = ParseDevinfo(bytes.NewReader(capture(t, "paste", "efa-pod-ibv_devinfo-paren-notes-after-values-port-summary-fi_info-ls.txt")))
	if err != nil || len(got.Devices) != 1 {
		t.Fatalf("%+v, %v", got, err)
	}
	want := Device{HCAID: "rdmap16s27", Transport: "unspecified (4)", FwVer: "0.0.0.0", NodeGUID: "0000:0000:0000:0000", SysImageGUID: "0000:0000:0000:0000", VendorID: "0x1d0f", VendorPartID: "61344", HWVer: "0xEFA0"}
	if d := cmp.Diff(want, got.Devices[0]); d != "" {
		t.Errorf("efa (-want +got):\n%s", d)
	}
}

func TestEveryDevinfoCaptureParses(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "captures", "ibv_devinfo", "*.txt"))
	for _, f := range files {
		got, err := ParseDevinfo(bytes.NewReader(capture(t, "ibv_devinfo", filepath.Base(f))))
		if err != nil || (len(got.Devices) == 0 || got.Devices[0].HCAID == "") && len(got.Problems) == 0 {
			t.Errorf("%s: %+v, %v", f, got, err)
		}
	}
}

func TestState(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"4: ACTIVE": "ACTIVE", "PORT_ACTIVE (4)": "ACTIVE", "Active": "ACTIVE", "ACTIVE": "ACTIVE",
		"PORT_DOWN (1)": "DOWN", "Down": "DOWN", "Initializing": "INIT", "weird": "weird", "4": "ACTIVE", "5: LinkUp": "5: LinkUp",
	} {
		if got := State(in); got != want {
			t.Errorf("State(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"5: LinkUp": "LinkUp", "LINK_UP (5)": "LinkUp", "LinkUp": "LinkUp", "LINK_UP": "LinkUp",
		"DISABLED": "Disabled", "POLLING": "Polling", "Disabled": "Disabled", "POLLING (2)": "Polling", "3: Disabled": "Disabled",
		"4: ACTIVE": "4: ACTIVE", "5": "LinkUp",
	} {
		if got := PhysState(in); got != want {
			t.Errorf("PhysState(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseDevices(t *testing.T) {
	t.Parallel()
	got, _ := ParseDevices(bytes.NewReader(capture(t, "ibv_devices", "mlx5-cx4lx-truncated.txt")))
	want := Devices{Devices: []DeviceGUID{{"mlx5_0", "98039b03003b0346"}, {"mlx5_1", "98"}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	// GUIDs the poster masked ("xxxxxxxxxxxx"): the devices, no GUID.
	got, _ = ParseDevices(bytes.NewReader(capture(t, "ibv_devices", "bnxt_re-eight-hcas-masked-guids-docker-doc.txt")))
	if len(got.Devices) != 8 || got.Devices[7] != (DeviceGUID{Name: "bnxt_re7"}) {
		t.Errorf("masked: %+v", got.Devices)
	}
	got, _ = ParseDevices(bytes.NewReader(capture(t, "ibv_devices", "rxe-no-userspace-driver.txt")))
	if len(got.Devices) != 0 || len(got.Warnings) != 2 {
		t.Errorf("rxe: %+v", got)
	}
	// ibv_devices prints libibverbs' own warnings, classified as
	// ibv_devinfo's are (SoftRoCE/rxe-dev#51's librxe that does not load).
	got, _ = ParseDevices(bytes.NewReader(capture(t, "paste", "rxe-ibv_devices-couldnt-load-rxe-rxe_cfg-start-io-error-lsmod-truncated.txt")))
	if len(got.Problems) != 2 || got.Problems[0].Kind != ProviderMissing || got.Problems[0].Driver != "rxe" ||
		got.Problems[1].Kind != ProviderMissing || got.Problems[1].Device != "uverbs0" || got.Problems[0].Line != 3 {
		t.Errorf("rxe-dev#51 problems: %+v", got.Problems)
	}
}

func TestParseIbstat(t *testing.T) {
	t.Parallel()
	got, _ := ParseIbstat(bytes.NewReader(capture(t, "ibstat", "bnxt_re-ca-truncated.txt")))
	want := Ibstat{CAs: []CA{{Name: "bnxt_re0", Type: "Broadcom NetXtreme-C/E RoCE Driver HCA", NumPorts: 1, FwVersion: "231.0.154.0", HWVersion: "0x14e4", NodeGUID: "0x8e8474fffe1f2550", SysImageGUID: "0x8e8474fffe1f2550",
		Ports: []CAPort{{Number: 1, State: "Active", PhysState: "LinkUp", Rate: "100", BaseLID: "0", SMLID: "0", PortGUID: "0x8e8"}}}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("bnxt (-want +got):\n%s", d)
	}
	got, _ = ParseIbstat(bytes.NewReader(capture(t, "ibstat", "mlx5-ib-partial-ibpanic.txt")))
	if len(got.CAs) != 1 || got.CAs[0].Type != "" || len(got.Messages) != 1 || got.CAs[0].Ports[0].Rate != "200" {
		t.Errorf("ibpanic: %+v", got)
	}
	got, _ = ParseIbstat(bytes.NewReader(capture(t, "ibstat", "mlx4-cx3-ib-with-ibwarn-debug-truncated.txt")))
	if len(got.Messages) != 4 || len(got.CAs[0].Ports) != 2 || got.CAs[0].Ports[0].State != "Down" {
		t.Errorf("ibwarn: %+v", got)
	}
}

func TestParseIbstatus(t *testing.T) {
	t.Parallel()
	got, _ := ParseIbstatus(bytes.NewReader(capture(t, "ibstatus", "mlx5-roce-ethernet-4x-edr-truncated.txt")))
	if len(got) != 3 {
		t.Fatalf("got %d", len(got))
	}
	want := PortStatus{Device: "mlx5_0", Port: 1, DefaultGID: "fe80:0000:0000:0000:8ae9:a4ff:fe9c:7f1a", BaseLID: "0x0", SMLID: "0x0", State: "4: ACTIVE", PhysState: "5: LinkUp", Rate: "100 Gb/sec (4X EDR)", LinkLayer: "Ethernet"}
	if d := cmp.Diff(want, got[0]); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestParseShowGIDs(t *testing.T) {
	t.Parallel()
	got, _ := ParseShowGIDs(bytes.NewReader(capture(t, "show_gids", "mlx5-cx6-roce-v1-v2.txt")))
	if len(got) != 6 {
		t.Fatalf("got %d rows", len(got))
	}
	want := ShowGID{Device: "mlx5_0", Port: 1, Index: 5, GID: "0000:0000:0000:0000:0000:ffff:ac13:003c", IPv4: "172.19.0.60", Ver: "v2", Netdev: "ens1f0"}
	if d := cmp.Diff(want, got[5]); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if got[0].IPv4 != "" || got[0].Ver != "v1" {
		t.Errorf("row 0: %+v", got[0])
	}
	empty, _ := ParseShowGIDs(bytes.NewReader(capture(t, "show_gids", "mlx5-cx4lx-pod-no-gids.txt")))
	if len(empty) != 0 {
		t.Errorf("empty: %+v", empty)
	}
}

func TestParseIbdev2netdev(t *testing.T) {
	t.Parallel()
	up, down := true, false
	got, _ := ParseIbdev2netdev(bytes.NewReader(capture(t, "ibdev2netdev", "mlx5-cx7-ib-and-cx6-eth-mixed-annotated.txt")))
	if len(got) != 12 {
		t.Fatalf("got %d", len(got))
	}
	if d := cmp.Diff(NetdevMap{Device: "mlx5_1", Port: 1, Netdev: "enp27s0f0np0", Up: &up, LinkState: "Up"}, got[1]); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if d := cmp.Diff(NetdevMap{Device: "mlx5_0", Port: 1, Netdev: "ibp26s0", Up: &down, LinkState: "Down"}, got[0]); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	v, _ := ParseIbdev2netdev(strings.NewReader("0000:3b:00.0 mlx5_0 (MT4119 - MCX516A-CCAT) CX516A - ConnectX-5 QSFP28 fw 16.35.2000 port 1 (ACTIVE) ==> ens1f0 (Up)\n"))
	if d := cmp.Diff([]NetdevMap{{Device: "mlx5_0", Port: 1, Netdev: "ens1f0", Up: &up, LinkState: "Up", PCIAddress: "0000:3b:00.0", CAType: "MT4119", PartID: "MCX516A-CCAT", Description: "CX516A - ConnectX-5 QSFP28", Firmware: "16.35.2000", PortState: "ACTIVE"}}, v); d != "" {
		t.Errorf("-v (-want +got):\n%s", d)
	}
}

// Error runs: every line is kept once, classified, with its count.
func TestDevinfoProblems(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file string
		want []Problem
	}{
		{"pib-no-userspace-driver-no-devices.txt", []Problem{
			{Kind: ProviderMissing, Device: "uverbs1", Text: "libibverbs: Warning: no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs1", Count: 1, Line: 2},
			{Kind: ProviderMissing, Device: "uverbs0", Text: "libibverbs: Warning: no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs0", Count: 1, Line: 3},
			{Kind: NoDevice, Text: "No IB devices found", Count: 1, Line: 4},
		}},
		{"no-config-directory-no-devices.txt", []Problem{
			{Kind: ProviderConfigMissing, Text: "libibverbs: Warning: couldn't open config directory '/etc/libibverbs.d'.", Count: 1, Line: 2},
			{Kind: NoDevice, Text: "No IB devices found", Count: 1, Line: 3},
		}},
		{"mlx4-cx3-vf-failed-to-open-device-in-container.txt", []Problem{
			{Kind: OpenFailed, Text: "Failed to open device", Count: 8, Line: 1},
		}},
	} {
		got, err := ParseDevinfo(bytes.NewReader(capture(t, "ibv_devinfo", tc.file)))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(tc.want, got.Problems); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, d)
		}
	}
	// The provider name from a "couldn't load driver" warning (rxe-dev#48,
	// printed by ibv_devices with the same libibverbs).
	p := classify("libibverbs: Warning: couldn't load driver 'rxe': librxe-rdmav2.so: cannot open shared object file: No such file or directory")
	if p.Kind != ProviderMissing || p.Driver != "rxe" {
		t.Errorf("couldn't load driver: %+v", p)
	}
	if p := classify("libibverbs: Warning: couldn't load driver 'libipathverbs-rdmav25.so': libipathverbs-rdmav25.so: cannot open shared object file: No such file or directory"); p.Driver != "ipathverbs" {
		t.Errorf("lib form: %+v", p)
	}
}

func TestDevinfoProblemsBounded(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := range MaxProblems + 5 {
		fmt.Fprintf(&b, "libibverbs: Warning: no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs%d\n", i)
	}
	got, _ := ParseDevinfo(strings.NewReader(b.String()))
	if len(got.Problems) != MaxProblems || got.ProblemsDropped != 5 {
		t.Errorf("%d problems, %d dropped", len(got.Problems), got.ProblemsDropped)
	}
}

// ibdev2netdev -v keeps the netdev link (Up/Down) apart from the verbs
// port state, and the firmware and VPD strings the script prints.
func TestParseIbdev2netdevVerbose(t *testing.T) {
	t.Parallel()
	up, down := true, false
	got, _ := ParseIbdev2netdev(bytes.NewReader(capture(t, "ibdev2netdev", "mlx5-cx4lx-cx5-cx6-mixed-v-socket-direct.txt")))
	want := []NetdevMap{
		{Device: "mlx5_0", Port: 1, Netdev: "ens4f0", Up: &down, LinkState: "Down", PCIAddress: "0000:31:00.0", CAType: "MT4117", PartID: "MT2138K10121", Description: "CX4121A - ConnectX-4 LX SFP28", Firmware: "14.27.1016", PortState: "DOWN"},
		{Device: "mlx5_1", Port: 1, Netdev: "ens4f1", Up: &down, LinkState: "Down", PCIAddress: "0000:31:00.1", CAType: "MT4117", PartID: "MT2138K10121", Description: "CX4121A - ConnectX-4 LX SFP28", Firmware: "14.27.1016", PortState: "DOWN"},
		{Device: "mlx5_2", Port: 1, Netdev: "ens6", Up: &up, LinkState: "Up", PCIAddress: "0000:4b:00.0", CAType: "MT4119", PartID: "MCX515A-CCAT", Description: "CX515A - ConnectX-5 QSFP28", Firmware: "16.27.1016", PortState: "ACTIVE"},
		{Device: "mlx5_3", Port: 1, Netdev: "ens14f0", Up: &up, LinkState: "Up", PCIAddress: "0000:98:00.0", CAType: "MT4117", PartID: "MT2138K10336", Description: "CX4121A - ConnectX-4 LX SFP28", Firmware: "14.27.1016", PortState: "ACTIVE"},
		{Device: "mlx5_4", Port: 1, Netdev: "ens14f1", Up: &down, LinkState: "Down", PCIAddress: "0000:98:00.1", CAType: "MT4117", PartID: "MT2138K10336", Description: "CX4121A - ConnectX-4 LX SFP28", Firmware: "14.27.1016", PortState: "DOWN"},
		{Device: "mlx5_5", Port: 1, Netdev: "ib0", Up: &up, LinkState: "Up", PCIAddress: "0000:b1:00.0", CAType: "MT4123", PartID: "MCX654105A-HCAT", Description: "ConnectX-6 VPI adapter card, HDR IB (200Gb/s) and 200GbE, single-port QSFP56, Socket Direct", Firmware: "20.30.1004", PortState: "ACTIVE"},
		{Device: "mlx5_6", Port: 1, Netdev: "ens6f1", Up: &down, LinkState: "Down", PCIAddress: "0000:4b:00.1", CAType: "MT4120", Firmware: "16.27.1016", PortState: "DOWN"},
		{Device: "mlx5_7", Port: 1, Netdev: "ens6f2", Up: &down, LinkState: "Down", PCIAddress: "0000:4b:00.2", CAType: "MT4120", Firmware: "16.27.1016", PortState: "DOWN"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if got[2].PartNumber() != "MCX515A-CCAT" || got[0].PartNumber() != "" {
		t.Errorf("PartNumber: %q %q", got[2].PartNumber(), got[0].PartNumber())
	}
	// xCAT's updatenode put the node's name before each line; the -v
	// description ends in "fw 16.21.0082 port 1", whose version is not the
	// device.
	xcat, _ := ParseIbdev2netdev(bytes.NewReader(capture(t, "ibdev2netdev", "mlx5-cx5-ibm-edr-xcat-node-prefix-v-fw-before-port.txt")))
	if len(xcat) != 4 || xcat[0].Device != "mlx5_0" || xcat[0].PCIAddress != "0003:01:00.0" || xcat[3].Device != "mlx5_3" || xcat[3].PCIAddress != "0033:01:00.1" ||
		xcat[0].CAType != "MT4121" || xcat[0].Firmware != "16.21.0082" || xcat[0].Port != 1 || xcat[0].Netdev != "ib0" || xcat[0].PortState != "DOWN" {
		t.Errorf("node prefix: %+v", xcat)
	}
	vf, _ := ParseIbdev2netdev(bytes.NewReader(capture(t, "ibdev2netdev", "mlx5-cx4-sriov-vfs-v-na-part.txt")))
	if len(vf) != 6 || vf[2].CAType != "MT4116" || vf[2].PartID != "" || vf[2].Description != "" || vf[2].PortState != "DOWN" || vf[0].Description != "CX456A - ConnectX-4 QSFP" {
		t.Errorf("vfs: %+v", vf)
	}
}

// show_gids is read by its header row: rows with an empty IPv4 cell and
// rows with one land in the same columns.
func TestShowGIDsByHeader(t *testing.T) {
	t.Parallel()
	got, _ := ParseShowGIDs(bytes.NewReader(capture(t, "show_gids", "mlx5-cx6-roce-v1-v2.txt")))
	if len(got) != 6 {
		t.Fatalf("%d rows", len(got))
	}
	want0 := ShowGID{Device: "mlx5_0", Port: 1, Index: 0, GID: "fe80:0000:0000:0000:0e42:a1ff:fe5d:4db8", Ver: "v1", Netdev: "ens1f0"}
	want5 := ShowGID{Device: "mlx5_0", Port: 1, Index: 5, GID: "0000:0000:0000:0000:0000:ffff:ac13:003c", IPv4: "172.19.0.60", Ver: "v2", Netdev: "ens1f0"}
	if got[0] != want0 || got[5] != want5 {
		t.Errorf("%+v\n%+v", got[0], got[5])
	}
}
