package version

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// order is one comparison: a op b, where op is -1, 0 or +1.
type order struct {
	a, b string
	want int
}

func checkOrder(t *testing.T, tests []order) {
	t.Helper()
	for _, tt := range tests {
		a, err := Parse(tt.a)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.a, err)
			continue
		}
		b, err := Parse(tt.b)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.b, err)
			continue
		}
		if got := Compare(a, b); got != tt.want {
			t.Errorf("Compare(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := Compare(b, a); got != -tt.want {
			t.Errorf("Compare(%q, %q) = %d, want %d", tt.b, tt.a, got, -tt.want)
		}
	}
}

func TestCompareFirmware(t *testing.T) {
	t.Parallel()
	checkOrder(t, []order{
		{"16.35.2000", "16.35.10000", -1}, // numeric, not string, order
		{"16.35.2000", "16.35.2000", 0},
		{"16.35.4030", "16.35.2000", 1},
		{"12.28.2006", "14.32.1010", -1},
		{"16.26.0100", "16.26.100", 0}, // leading zeros as printed by devlink
		{"20.42.1000", "20.38.1002", 1},
		{"2.42.5000", "2.42.5000", 0},
		{"16.35", "16.35.0", 0}, // a missing number counts as 0
		{"16.35", "16.35.1", -1},
	})
}

func TestCompareCisco(t *testing.T) {
	t.Parallel()
	checkOrder(t, []order{
		{"5.1(1x)", "5.1(2x)", -1},
		{"5.1(1a)", "5.1(1x)", 1},  // any 5.1(1) build meets the 5.1(1x) minimum
		{"5.1(1x)", "5.1(1)", 0},   // the x wildcard is "any patch letter"
		{"5.1(2b)", "5.1(2a)", 1},  // patch letters in order
		{"5.1(1b)", "5.1(2x)", -1}, // build first
		{"4.2(3d)", "5.1(1x)", -1},
		{"5.2(1a)", "5.1(3x)", 1},
		{"5.1(10a)", "5.1(9a)", 1}, // builds are numbers
	})
	v := MustParse("5.1(2x)")
	if v.Kind() != Cisco {
		t.Errorf("Kind(5.1(2x)) = %v, want cisco", v.Kind())
	}
}

func TestCompareCiscoDrivers(t *testing.T) {
	t.Parallel()
	checkOrder(t, []order{
		{"4.0.0.6-802-21", "4.0.0.10-802.34", -1},
		{"4.0.0.6-802-21", "4.0.0.6-802.21", 0}, // Cisco's docs write both separators
		{"1.0.0.6-802-21", "1.0.0.10-802.34", -1},
		{"4.0.0.10-802.34", "4.0.0.10-802.35", -1},
		{"4.0.0.11-802.1", "4.0.0.10-802.34", 1},
	})
}

func TestCompareOFED(t *testing.T) {
	t.Parallel()
	checkOrder(t, []order{
		{"MLNX_OFED_LINUX-5.8-1.0.1.1", "5.8-1.0.1.1", 0}, // the product prefix is not compared
		{"MLNX_OFED_LINUX-5.8-1.0.1.1", "MLNX_OFED_LINUX-23.10-5.1.4.0", -1},
		{"4.9-4.0.8.0", "5.1-0.6.6.0", -1},
		{"5.2-2.2.3.0", "5.1-0.6.6.0", 1},
		{"24.10-0.7.0.0", "5.8-1.0.1.1", 1},
		{"24.10-0.7.0.0", "24.10-1.1.4.0", -1},
		{"2.9.2", "2.9.10", -1}, // DOCA
		{"2.9.2", "2.10.0", -1},
	})
	v := MustParse("MLNX_OFED_LINUX-5.8-1.0.1.1")
	if v.Kind() != OFED || v.Label() != "MLNX_OFED_LINUX" {
		t.Errorf("MLNX_OFED_LINUX-5.8-1.0.1.1: kind %v label %q", v.Kind(), v.Label())
	}
	if k := MustParse("5.8-1.0.1.1").Kind(); k != Dotted {
		t.Errorf("5.8-1.0.1.1 parsed as %v, want dotted (no letters: not a distro kernel)", k)
	}
}

func TestCompareKernel(t *testing.T) {
	t.Parallel()
	checkOrder(t, []order{
		{"v2.6.24", "2.6.24", 0},
		{"v2.6.24", "v2.6.37", -1},
		{"3.11", "3.11.0", 0},
		{"4.8", "4.10", -1},
		{"6.8-rc3", "6.8", -1}, // a pre-release comes before its release
		{"6.8-rc3", "6.8-rc10", -1},
		{"6.8-rc3", "6.7.12", 1},
		{"5.14.0-427.13.1.el9_4", "5.14.0-362.8.1.el9_3", 1},
		{"5.14.0-427.13.1.el9_4", "5.14.0-427.el9", 1},               // a z-stream update
		{"5.14.0-427.13.1.el9_4", "5.14.0-427.13.1.el9_4.x86_64", 0}, // the arch is not compared
		{"5.14.0-427.13.1.el9_4", "5.14.0", 1},                       // above its bare base
		{"5.14.0-427.13.1.el9_4", "5.15", -1},                        // below a newer base
		{"3.10.0-862.el7.x86_64", "3.10.0-1160.el7.x86_64", -1},
		{"4.18.0-80.el8.x86_64", "4.18.0-147.el8.x86_64", -1},
		{"6.1.0-13-amd64", "6.1.0-9-amd64", 1},
		{"5.15.0-91-generic", "5.15.0-101-generic", -1},
		{"5.14.21-150500.55.39-default", "5.14.21-150400.24.46-default", 1},
		{"2.6.32.27", "2.6.32-754.el6", 1}, // upstream stable 2.6.32.27 is past the 2.6.32 base
	})
}

func TestParseKernel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want KernelRelease
	}{
		{"5.14.0-427.13.1.el9_4", KernelRelease{Upstream: MustParse("5.14.0"), Release: "427.13.1", Tag: "el9_4"}},
		{"3.10.0-862.el7.x86_64", KernelRelease{Upstream: MustParse("3.10.0"), Release: "862", Tag: "el7", Arch: "x86_64"}},
		{"5.15.0-0.30.19.el9uek.x86_64", KernelRelease{Upstream: MustParse("5.15.0"), Release: "0.30.19", Tag: "el9uek", Arch: "x86_64"}},
		{"5.0.9-301.fc30.x86_64", KernelRelease{Upstream: MustParse("5.0.9"), Release: "301", Tag: "fc30", Arch: "x86_64"}},
		{"6.6.35.1-5.azl3", KernelRelease{Upstream: MustParse("6.6.35.1"), Release: "5", Tag: "azl3"}},
		{"5.14.0-427.el9.aarch64+64k", KernelRelease{Upstream: MustParse("5.14.0"), Release: "427", Tag: "el9", Arch: "aarch64", Variant: "64k"}},
		{"6.1.0-13-amd64", KernelRelease{Upstream: MustParse("6.1.0"), Release: "13", Flavour: "amd64"}},
		{"6.1.0-13-cloud-amd64", KernelRelease{Upstream: MustParse("6.1.0"), Release: "13", Flavour: "cloud-amd64"}},
		// Debian's backports and Debian 13's ABI names, as the Debian archive
		// names its packages: https://packages.debian.org/bullseye-backports/linux-image-6.1.0-0.deb11.17-686-dbg,
		// https://packages.debian.org/fr/buster/linux-image-5.10.0-0.deb10.29-amd64,
		// https://packages.debian.org/stable/linux-headers-6.12.41+deb13-common-rt,
		// https://packages.debian.org/linux-image-6.12.30+bpo-arm64-16k
		{"6.1.0-0.deb11.17-amd64", KernelRelease{Upstream: MustParse("6.1.0"), Release: "0.deb11.17", Flavour: "amd64"}},
		{"5.10.0-0.deb10.29-rt-amd64", KernelRelease{Upstream: MustParse("5.10.0"), Release: "0.deb10.29", Flavour: "rt-amd64"}},
		{"4.9.0-0.bpo.4-amd64", KernelRelease{Upstream: MustParse("4.9.0"), Release: "0.bpo.4", Flavour: "amd64"}},
		{"6.12.41+deb13-amd64", KernelRelease{Upstream: MustParse("6.12.41"), Release: "deb13", Flavour: "amd64"}},
		{"6.12.43+deb12-cloud-amd64", KernelRelease{Upstream: MustParse("6.12.43"), Release: "deb12", Flavour: "cloud-amd64"}},
		{"6.12.30+bpo-arm64-16k", KernelRelease{Upstream: MustParse("6.12.30"), Release: "bpo", Flavour: "arm64-16k"}},
		{"6.12.38+deb13.1-arm64", KernelRelease{Upstream: MustParse("6.12.38"), Release: "deb13.1", Flavour: "arm64"}},
		{"5.15.0-91-generic", KernelRelease{Upstream: MustParse("5.15.0"), Release: "91", Flavour: "generic"}},
		{"5.14.21-150500.55.39-default", KernelRelease{Upstream: MustParse("5.14.21"), Release: "150500.55.39", Flavour: "default"}},
		{"v2.6.24", KernelRelease{Upstream: MustParse("2.6.24")}},
		{"6.8-rc3", KernelRelease{Upstream: MustParse("6.8"), Prerelease: "rc3"}},
		{"4.14", KernelRelease{Upstream: MustParse("4.14")}},
	}
	for _, tt := range tests {
		got, err := ParseKernel(tt.in)
		if err != nil {
			t.Errorf("ParseKernel(%q): %v", tt.in, err)
			continue
		}
		tt.want.Raw = tt.in
		if d := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b Version) bool { return a.String() == b.String() })); d != "" {
			t.Errorf("ParseKernel(%q) (-want +got):\n%s", tt.in, d)
		}
		if got.IsDistro() != (tt.want.Release != "") {
			t.Errorf("ParseKernel(%q).IsDistro() = %v", tt.in, got.IsDistro())
		}
		v, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
		} else if tt.want.Release != "" || strings.HasPrefix(tt.in, "v") || tt.want.Prerelease != "" {
			if v.Kind() != Kernel || v.Kernel() == nil {
				t.Errorf("Parse(%q) kind %v, want kernel", tt.in, v.Kind())
			}
		}
	}
}

func TestParseKernelErrors(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "linux", "5", "5.14.0-", "5.14.0-abc", "5.14.0-427.el9 x86_64", "4.0.0.6-802-21", "5.14.0-427.el9.x86_64.el9", "6.12.38+deb13", "6.12.38+deb-amd64", "6.1.0-1.deb11.17-amd64"} {
		if k, err := ParseKernel(in); err == nil {
			t.Errorf("ParseKernel(%q) = %+v, want an error", in, k)
		}
	}
}

func TestUpstreamAtLeast(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kernel, min string
		want        bool
	}{
		{"5.14.0-427.13.1.el9_4", "5.14", true},
		{"5.14.0-427.13.1.el9_4", "5.15", false}, // the distro release does not lift the base
		{"4.18.0-80.el8.x86_64", "4.14", true},
		{"3.10.0-1160.el7.x86_64", "4.8", false},
		{"6.1.0-13-amd64", "v6.1", true},
		{"5.15.0-91-generic", "5.15.0", true},
		{"6.8-rc3", "6.8", false},
		{"2.6.37", "v2.6.37", true},
	}
	for _, tt := range tests {
		k, err := ParseKernel(tt.kernel)
		if err != nil {
			t.Fatal(err)
		}
		got, err := k.UpstreamAtLeast(tt.min)
		if err != nil {
			t.Errorf("UpstreamAtLeast(%q): %v", tt.min, err)
		}
		if got != tt.want {
			t.Errorf("%s UpstreamAtLeast(%s) = %v, want %v", tt.kernel, tt.min, got, tt.want)
		}
	}
	k, _ := ParseKernel("5.14.0")
	if _, err := k.UpstreamAtLeast("5.14.0-427.el9"); err == nil {
		t.Error("UpstreamAtLeast with a distro kernel as the minimum: want an error")
	}
}

func TestCompareKernelMatchesCompare(t *testing.T) {
	t.Parallel()
	a, _ := ParseKernel("5.14.0-427.13.1.el9_4")
	b, _ := ParseKernel("5.14.0-362.el9")
	if CompareKernel(a, b) != 1 || CompareKernel(b, a) != -1 || CompareKernel(a, a) != 0 {
		t.Errorf("CompareKernel disagrees with the release order")
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"", " 16.35.2000", "16.35.2000 ", "16..35", "16.35.", ".16", "-1", "latest", "x86",
		"5.1(1x", "5.1)1x(", "5.1()", "5.1((1))", "16.35(1)(2)", "5.1(.1)", "16,35", "16.35.2000\n",
		"MLNX_OFED_LINUX-", "MLNX_OFED_LINUX-abc", "5.14.0-427.el9 x86_64", strings.Repeat("1.", 70) + "1",
	} {
		if v, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %v (%v), want an error", in, v, v.Kind())
		}
	}
}

func TestParseKinds(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Kind{
		"16.35.2000":                   Dotted,
		"4.0.0.6-802-21":               Dotted,
		"4.0.0.10-802.34":              Dotted,
		"24.10-0.7.0.0":                Dotted,
		"2.9.2":                        Dotted,
		"5.1(1x)":                      Cisco,
		"MLNX_OFED_LINUX-5.8-1.0.1.1":  OFED,
		"v2.6.24":                      Kernel,
		"5.14.0-427.13.1.el9_4":        Kernel,
		"6.1.0-13-amd64":               Kernel,
		"5.15.0-91-generic":            Kernel,
		"5.14.21-150500.55.39-default": Kernel,
	} {
		v, err := Parse(in)
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if v.Kind() != want {
			t.Errorf("Parse(%q).Kind() = %v, want %v", in, v.Kind(), want)
		}
		if v.String() != in {
			t.Errorf("Parse(%q).String() = %q", in, v.String())
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"16.35.2000", "16.35.10000", "5.1(1x)", "5.1(2x)", "4.0.0.6-802-21", "4.0.0.10-802.34",
		"MLNX_OFED_LINUX-5.8-1.0.1.1", "24.10-0.7.0.0", "2.9.2", "v2.6.24", "6.8-rc3",
		"5.14.0-427.13.1.el9_4", "6.1.0-13-amd64", "5.15.0-91-generic", "5.14.21-150500.55.39-default",
		"3.10.0-862.el7.x86_64", "5.14.0-427.el9.aarch64+64k",
	} {
		f.Add(s, "16.35.2000")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		va, errA := Parse(a)
		vb, errB := Parse(b)
		_, _ = ParseKernel(a)
		if errA != nil || errB != nil {
			return
		}
		if va.String() != a {
			t.Fatalf("String() = %q, want %q", va.String(), a)
		}
		if c := Compare(va, va); c != 0 {
			t.Fatalf("Compare(%q, itself) = %d", a, c)
		}
		if x, y := Compare(va, vb), Compare(vb, va); x != -y {
			t.Fatalf("Compare(%q, %q) = %d but Compare(%q, %q) = %d", a, b, x, b, a, y)
		}
	})
}

func TestTrimFirmware(t *testing.T) {
	for in, want := range map[string]string{
		"22.36.1010":                 "22.36.1010",
		"22.36.1010 (MT_0000000359)": "22.36.1010",
		"firmware-version: 22.36.1010 (MT_0000000359)": "22.36.1010",
		"fw_ver:\t16.35.2000":                          "16.35.2000",
		"5.1(1b)":                                      "5.1(1b)",
		"mfw 8.25.7.0 storm 8.20.0.0":                  "mfw 8.25.7.0 storm 8.20.0.0",
		// As people pasted them.
		// mlxfwmanager's FW row, current then available:
		// https://github.com/NVIDIA/5t5g/issues/3
		"FW             22.31.2006     N/A": "22.31.2006",
		// ice: NVM version, EETRACK id, combo image:
		// https://github.com/intel/ethernet-linux-ice/issues/24
		"firmware-version: 4.30 0x8001af27 1.3429.0": "4.30",
		// bnxt_en: running firmware, then its package:
		// https://github.com/isc-projects/ethq/issues/33
		"firmware-version: 220.0.59.0/pkg 220.0.83.0": "220.0.59.0",
		// a dmesg line: https://github.com/PeterSuh-Q3/tinycore-redpill/issues/9
		"[   12.926115] mlx5_core 0000:03:00.0: firmware version: 14.32.1010": "14.32.1010",
		// lshca: https://github.com/MrBr-github/lshca/issues/102
		"FW: 28.42.1000": "28.42.1000",
		// mstflint q: https://github.com/Mellanox/libvma/issues/41
		"FW Version:      2.35.5100": "2.35.5100",
		// ethtool -i, ibv_devinfo: https://github.com/isc-projects/ethq/issues/8,
		// https://github.com/openucx/ucx/issues/4556
		"firmware-version: 14.23.1020":            "14.23.1020",
		"fw_ver:                      20.26.1040": "20.26.1040",
		// devlink dev info's running version (Documentation/networking/devlink/mlx5.rst:
		// https://docs.kernel.org/networking/devlink/mlx5.html), rdma dev's line
		// (https://github.com/openucx/ucx/issues/11048), bnxt_en's package alone:
		"fw.version 28.41.1000": "28.41.1000",
		"1: bnxt_re1: node_type ca protocol roce fw 231.0.154.0 node_guid 8e84:74ff:fe1f:2551 sys_image_guid 8e84:74ff:fe1f:2551": "231.0.154.0",
		"pkg 231.0.162.0": "231.0.162.0", "/pkg 220.0.83.0": "/pkg 220.0.83.0",
		// Neither a label nor a number first: as it was.
		"bc 7.10.4": "bc 7.10.4", "fwupd 1.9": "fwupd 1.9", "N/A": "N/A", "İ fw: 1": "1",
	} {
		if got := TrimFirmware(in); got != want {
			t.Errorf("TrimFirmware(%q) = %q, want %q", in, got, want)
		}
	}
}
