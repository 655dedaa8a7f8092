package ethtool

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"

	"github.com/google/go-cmp/cmp"
	"github.com/rocekb/rocekb/internal/lines"
)

func capture(t testing.TB, name string) []byte { return capturetest.Read(t, "ethtool", name) }

func TestParse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file string
		want []Info
	}{
		{"mlx5_core-cx4lx-ubuntu1804-5.0-0-psid.txt", []Info{{Driver: "mlx5_core", Version: "5.0-0", FirmwareVersion: "14.23.1020 (MT_2420110034)", BusInfo: "0000:af:00.0"}}},
		{"mlx5_core-cx7-doca-ofed-23.10.txt", []Info{{Driver: "mlx5_core", Version: "23.10-1.1.9", FirmwareVersion: "28.39.3560 (MT_0000000838)", BusInfo: "0000:e6:00.0"}}},
		{"mlx4_en-cx3-4.0-0-trailing-spaces.txt", []Info{{Driver: "mlx4_en", Version: "4.0-0", FirmwareVersion: "2.42.5000", BusInfo: "0000:83:00.0"}}},
		{"bnx2x-no-expansion-rom-line.txt", []Info{{Driver: "bnx2x", Version: "1.712.30-0", FirmwareVersion: "bc 7.10.4", BusInfo: "0001:0c:00.2"}}},
		{"ice-e810-inbox-fedora-5.19-and-iavf-vf.txt", []Info{
			{Driver: "ice", Version: "5.19.4-100.fc35.x86_64", FirmwareVersion: "4.22 0x80010446 1.3197.0", BusInfo: "0000:3b:00.0"},
			{Driver: "iavf", Version: "5.19.4-100.fc35.x86_64", FirmwareVersion: "N/A", BusInfo: "0000:3b:01.0"},
		}},
		{"ice-e810-preproduction-0.8.1-k.txt", []Info{{Driver: "ice", Version: "0.8.1-k", FirmwareVersion: "0.80 0x80002ec0 1.2581.0", BusInfo: "0000:3b:00.0"}}},
		{"qede-fastlinq-oot-8.10-mfw-storm.txt", []Info{{Driver: "qede", Version: "8.10.10.21", FirmwareVersion: "mfw 8.25.7.0 storm 8.20.0.0", BusInfo: "0000:5f:00.0"}}},
		{"veth-in-pod-no-bus-info.txt", []Info{{Driver: "veth", Version: "1.0"}}},
		// The poster's "# …" notes after driver and bus-info are not values.
		{"igb-inline-notes-chinese-not-rdma.txt", []Info{{Driver: "igb", Version: "5.6.0-k", FirmwareVersion: "1.61, 0x80000daa, 1.949.0", BusInfo: "0000:04:00.0"}}},
		// The kernel's ionic documentation elides every line after the
		// firmware ("..."): no bus-info line, so not known to be virtual.
		{"ionic-kernel-doc-elided.txt", []Info{{Driver: "ionic", Version: "5.7.0", FirmwareVersion: "1.8.0-28", NoBusInfo: true}}},
		// The poster's arrows after version and firmware-version are not values.
		{"ice-e810-1.11.16-openshift-arrow-annotations-after-values.txt", []Info{{Driver: "ice", Version: "1.11.16", FirmwareVersion: "4.20 0x8001778b 1.3346.0", BusInfo: "0000:10:00.0"}}},
		{"ice-e810-oot-1.12.7-kmm-shell-comment-after-command.txt", []Info{{Driver: "ice", Version: "1.12.7", FirmwareVersion: "4.40 0x8001beb1 1.3492.0", BusInfo: "0000:18:00.0"}}},
		{"ice-e810-1.3.2-three-lines-long-prompt-truncated.txt", []Info{{Driver: "ice", Version: "1.3.2", FirmwareVersion: "3.00 0x80008943 20.5.13", NoBusInfo: true}}},
		{"ice-e810-oot-1.6.7-glued-hash-prompt.txt", []Info{{Driver: "ice", Version: "1.6.7", FirmwareVersion: "3.00 0x80008944 20.5.13", BusInfo: "0000:b1:00.0"}}},
		// The second run is cut after "firmware": no firmware-version, no bus-info.
		{"ice-e810-1.3.2-then-1.6.7-same-port-prose-between-truncated.txt", []Info{
			{Driver: "ice", Version: "1.3.2", FirmwareVersion: "2.32 0x80005d1d 1.2877.0", BusInfo: "0000:1a:00.0"},
			{Driver: "ice", Version: "1.6.7", NoBusInfo: true},
		}},
		{"hns3-version-truncated-32-chars.txt", []Info{{Driver: "hns3", Version: "4.14.0-115.el7.0.1.ctyun.panic.", FirmwareVersion: "0x0114001b", BusInfo: "0000:bd:00.0"}}},
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

// TestLoopBanners: a loop's ethtool -i of every netdev, each block after a
// line naming its interface, in both forms the Kunpeng paste shows
// ("===== enp125s0f0 =====" and "----- enp125s0f0 -----"); the IPoIB
// port's driver prints as "mlx5_core[ib_ipoib]", whose module is mlx5_core.
func TestLoopBanners(t *testing.T) {
	t.Parallel()
	got, err := Parse(bytes.NewReader(capturetest.Read(t, "paste", "hns3-mlx5-ipoib-bash-prompt-ethtool-loop-banners.txt")))
	if err != nil {
		t.Fatal(err)
	}
	loop := []Info{
		{Driver: "hns3", Version: "5.10.0-236.0.0.138.oe2203sp3.aa", FirmwareVersion: "1.8.15.0", BusInfo: "0000:7d:00.0", Netdev: "enp125s0f0"},
		{Driver: "hns3", Version: "5.10.0-236.0.0.138.oe2203sp3.aa", FirmwareVersion: "1.8.15.0", BusInfo: "0000:bd:00.0", Netdev: "enp189s0f0"},
		{Driver: "hns3", Version: "5.10.0-236.0.0.138.oe2203sp3.aa", FirmwareVersion: "1.8.15.0", BusInfo: "0000:bd:00.1", Netdev: "enp189s0f1"},
		{Driver: "mlx5_core", Version: "5.8-1.0.1", FirmwareVersion: "20.35.1012 (MT_0000000237)", BusInfo: "0000:01:00.0", Netdev: "ibp1s0"},
		{Driver: "tun", Version: "1.6", BusInfo: "tun", Netdev: "tun0"},
	}
	if d := cmp.Diff(append(append([]Info(nil), loop...), loop...), got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	for _, c := range []struct{ line, name string }{
		{"----- eth0 -----", "eth0"}, {"[ens1f0np0]", "ens1f0np0"}, {"ib0:", "ib0"}, {"### bond0", "bond0"}, {"enp65s0f1", "enp65s0f1"},
		{"Output:", ""}, {"> done", ""}, {"expansion-rom-version:", ""}, {"$ ethtool -i eth0", ""}, {"averyveryverylongname0", ""},
	} {
		if got := Banner(c.line); got != c.name {
			t.Errorf("Banner(%q) = %q, want %q", c.line, got, c.name)
		}
	}
}

func TestEveryCaptureParses(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "captures", "ethtool", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no captures")
	}
	for _, f := range files {
		body := capture(t, filepath.Base(f))
		if s, _ := ParseSettings(bytes.NewReader(body)); len(s) > 0 {
			// ethtool <netdev>'s settings, not -i (TestParseSettings).
			continue
		}
		got, err := Parse(bytes.NewReader(body))
		if err != nil || len(got) == 0 || got[0].Driver == "" {
			t.Errorf("%s: got %+v, %v", f, got, err)
		}
	}
}

func TestSplitFirmware(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][2]string{
		"14.23.1020 (MT_2420110034)": {"14.23.1020", "MT_2420110034"},
		"220.0.59.0/pkg 220.0.83.0":  {"220.0.59.0/pkg 220.0.83.0", ""},
		"":                           {"", ""},
	} {
		v, p := SplitFirmware(in)
		if v != want[0] || p != want[1] {
			t.Errorf("SplitFirmware(%q) = %q, %q; want %q", in, v, p, want)
		}
	}
}

func TestLongLineIsCut(t *testing.T) {
	t.Parallel()
	in := "driver: x\nversion: " + string(bytes.Repeat([]byte("a"), 3*lines.Max)) + "\nbus-info: 0000:01:00.0\n"
	got, err := Parse(bytes.NewReader([]byte(in)))
	if err != nil || len(got) != 1 || got[0].BusInfo != "0000:01:00.0" || len(got[0].Version) >= lines.Max {
		t.Fatalf("got %d infos, version len %d, err %v", len(got), len(got[0].Version), err)
	}
}
