package rule

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rocekb/rocekb/internal/hosttest"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
)

// HostDistro on the bundled matrix: the kernel release picks between the
// releases one os-release names.
func TestHostDistro(t *testing.T) {
	m, probs := matrix.Load(os.DirFS(filepath.Join(hosttest.Root, "matrix")), "matrix")
	if probs.Errors() > 0 {
		t.Fatal(probs.Err())
	}
	for _, c := range []struct {
		id, ver, kernel, want string
		pretty                string
	}{
		{"rhel", "9.4", "5.14.0-427.13.1.el9_4.x86_64", "rhel-9.4", ""},
		{"rhel", "9.4", "", "rhel-9.4", ""},
		{"ol", "9.4", "5.15.0-205.149.5.1.el9uek.x86_64", "oracle-9.4-uek", ""},
		{"ol", "9.4", "5.14.0-427.13.1.el9_4.x86_64", "oracle-9.4-rhck", ""},
		{"almalinux", "10.0", "6.12.0-55.9.1.el10_0.x86_64", "almalinux-10.0", ""},
		{"ubuntu", "22.04", "6.8.0-45-generic", "ubuntu-22.04-hwe", ""},
		{"ubuntu", "22.04", "5.15.0-119-generic", "ubuntu-22.04", ""},
		{"ubuntu", "22.04", "", "ubuntu-22.04", ""},
		{"rocky", "9.4", "5.14.0-427.13.1.el9_4.x86_64", "rocky-9.4", ""},
		{"rocky", "8.10", "4.18.0-553.el8_10.x86_64", "rocky-8.10", "Rocky Linux 8.10 (Green Obsidian)"},
		{"almalinux", "9.5", "5.14.0-503.11.1.el9_5.x86_64", "almalinux-9.5", ""},
		{"rocky", "9.8", "5.14.0-687.5.3.el9_8.x86_64", "", ""}, // no Rocky 9.8 entry, nor RHEL 9.8's
		{"", "", "5.14.0-427.13.1.el9_4.x86_64", "", ""},
		{"sles", "15.5", "5.14.21-150500.53-default", "sles-15-sp5", ""}, // VERSION_ID 15.5 is SP5
		{"sles", "12.5", "", "sles-12-sp5", ""},
		{"opensuse-leap", "15.5", "", "", ""}, // Leap is not SLES: no source makes it one
		{"plan9", "4", "", "", ""},
		// openEuler's VERSION_ID stops short of the release; PRETTY_NAME
		// or the kernel's dist tag names it (os-release and uname -r as
		// public posts printed them).
		{"openEuler", "22.03", "5.10.0-182.0.0.95.oe2203sp3.x86_64", "openeuler-22.03-lts-sp3", `openEuler 22.03 (LTS-SP3)`},
		{"openEuler", "22.03", "", "openeuler-22.03-lts-sp3", `openEuler 22.03 (LTS-SP3)`},
		{"openEuler", "22.03", "5.10.0-60.18.0.50.oe2203.x86_64", "openeuler-22.03-lts", ""},
		{"openEuler", "22.03", "5.10.0-153.12.0.92.oe2203sp2.x86_64", "openeuler-22.03-lts-sp2", ""},
		{"openEuler", "22.03", "", "", ""}, // GA or any service pack
		{"openEuler", "20.03", "4.19.90-2112.8.0.0131.oe1.aarch64", "openeuler-20.03-lts-sp3", ""}, // .oe1 is every 20.03 LTS release's; 2112 is SP3's stream
		{"openEuler", "20.03", "4.19.90-2012.4.0.0053.oe1.aarch64", "", ""},
		{"openEuler", "20.03", "4.19.90-2112.8.0.0131.oe1.aarch64", "openeuler-20.03-lts-sp3", "openEuler 20.03 (LTS-SP3)"},
		{"rhel", "9.4", "", "rhel-9.4", "openEuler 22.03 (LTS-SP3)"}, // another family's name is not taken
		// Debian's VERSION_ID is the major release: 10 is no matrix release,
		// but buster 10.0's own kernel (ABI name 4.19.0-5) names it; a later
		// buster kernel names none.
		{"debian", "10", "4.19.0-5-amd64", "debian-10.0", "Debian GNU/Linux 10 (buster)"},
		{"debian", "10", "4.19.0-26-amd64", "", "Debian GNU/Linux 10 (buster)"},
		{"debian", "11", "5.10.0-28-amd64", "debian-11", ""},
		// CentOS 7's VERSION_ID is 7: its kernel's stream names the RHEL
		// release it rebuilds.
		{"centos", "7", "3.10.0-1160.el7.x86_64", "rhel-7.9", "CentOS Linux 7 (Core)"},
		{"centos", "7", "", "", "CentOS Linux 7 (Core)"},
		{"ubuntu", "7", "3.10.0-1160.el7.x86_64", "", ""},
	} {
		h := &record.Host{}
		h.Host.OS = record.OSRelease{ID: c.id, VersionID: c.ver, PrettyName: c.pretty}
		h.Host.KernelRelease = c.kernel
		got := ""
		if d := HostDistro(m, h); d != nil {
			got = d.ID
		}
		if got != c.want {
			t.Errorf("HostDistro(%s %s, kernel %q) = %q, want %q", c.id, c.ver, c.kernel, got, c.want)
		}
	}
}

// A row limited to one kernel base covers only the release with it: Ubuntu
// 24.04's HWE kernels share version and flavour.
func TestCoversKernelBase(t *testing.T) {
	r := &matrix.DistroRow{Family: "ubuntu", From: "24.04", Until: "24.04", Flavour: "hwe", KernelBase: "6.11"}
	for _, c := range []struct {
		d    *matrix.Distro
		want bool
	}{
		{&matrix.Distro{ID: "ubuntu-24.04-hwe", Family: "ubuntu", Version: "24.04", Flavour: "hwe", KernelBase: "6.11"}, true},
		{&matrix.Distro{ID: "ubuntu-24.04-hwe-6.14", Family: "ubuntu", Version: "24.04", Flavour: "hwe", KernelBase: "6.14"}, false},
		{&matrix.Distro{ID: "ubuntu-24.04", Family: "ubuntu", Version: "24.04", KernelBase: "6.8"}, false},
	} {
		if got := Covers(r, c.d); got != c.want {
			t.Errorf("Covers(6.11 row, %s) = %v, want %v", c.d.ID, got, c.want)
		}
	}
	r.KernelBase = ""
	if !Covers(r, &matrix.Distro{ID: "ubuntu-24.04-hwe-7.0", Family: "ubuntu", Version: "24.04", Flavour: "hwe", KernelBase: "7.0"}) {
		t.Error("a row without kernel_base must cover every HWE kernel")
	}
}

// KernelDistro on the bundled matrix: a kernel release as uname -r prints
// it names a release by its dist tag, or by the kernel stream of its
// tag's family (the kernels as public posts printed them).
func TestKernelDistro(t *testing.T) {
	m, probs := matrix.Load(os.DirFS(filepath.Join(hosttest.Root, "matrix")), "matrix")
	if probs.Errors() > 0 {
		t.Fatal(probs.Err())
	}
	for k, want := range map[string]string{
		"5.14.0-427.13.1.el9_4.x86_64":       "rhel-9.4",
		"5.10.0-182.0.0.95.oe2203sp3.x86_64": "openeuler-22.03-lts-sp3",
		"5.10.0-60.18.0.50.oe2203.x86_64":    "openeuler-22.03-lts",
		"6.6.0-72.0.0.76.oe2403sp1.x86_64":   "openeuler-24.03-lts-sp1",
		// .el7 and .el8 without a minor: the stream names it.
		"3.10.0-1160.el7.x86_64":            "rhel-7.9",
		"3.10.0-1160.102.1.el7.x86_64":      "rhel-7.9",
		"4.18.0-372.9.1.el8.x86_64":         "rhel-8.6",
		"4.19.90-2112.8.0.0131.oe1.aarch64": "openeuler-20.03-lts-sp3",
		// No release's stream: not named.
		"4.18.0-3720.el8.x86_64":            "",
		"4.19.90-2012.4.0.0053.oe1.aarch64": "",
		"5.15.0-91-generic":                 "",
		"6.8":                               "",
		// Debian: a release's own kernel line (6.1.0-<serial> is bookworm's,
		// https://packages.debian.org/de/bookworm/linux-image-amd64), a point
		// release's own kernel (5.10.0-13-amd64 is Debian 11.3's, nearer
		// than bullseye's line), trixie's 6.12.<z>+deb13
		// (https://packages.debian.org/stable/linux-headers-6.12.41+deb13-common-rt).
		"6.1.0-18-amd64":        "debian-12",
		"6.1.0-37-arm64":        "debian-12",
		"5.10.0-35-amd64":       "debian-11",
		"5.10.0-13-amd64":       "debian-11.3",
		"5.10.0-13-arm64":       "debian-11.3",
		"4.19.0-5-amd64":        "debian-10.0",
		"4.9.0-13-amd64":        "debian-9.13",
		"6.12.41+deb13-amd64":   "debian-13",
		"6.12.38+deb13.1-arm64": "debian-13",
		// Not named: buster's other kernels (the matrix has only 10.0), a
		// flavour the Debian rows do not stand for, a backport of a later
		// series (bullseye's 6.1: https://packages.debian.org/source/bullseye/linux-6.1,
		// bookworm's 6.12: https://packages.debian.org/linux-image-6.12.30+bpo-arm64-16k),
		// +deb13 on another series than trixie's (https://packages.debian.org/testing/kernel/linux-image-amd64).
		"4.19.0-26-amd64":           "",
		"6.1.0-18-cloud-amd64":      "",
		"6.1.0-18-rt-amd64":         "",
		"6.1.0-0.deb11.17-amd64":    "",
		"5.10.0-0.deb10.29-amd64":   "",
		"6.12.30+bpo-amd64":         "",
		"6.12.43+deb12-amd64":       "",
		"6.19.13+deb13-cloud-amd64": "",
		"7.0.12+deb13-amd64":        "",
	} {
		got := ""
		if d := KernelDistro(m, k); d != nil {
			got = d.ID
		}
		if got != want {
			t.Errorf("KernelDistro(%s) = %q, want %q", k, got, want)
		}
	}
}

// DebianKeys reads Debian's ABI names (the Debian kernel handbook's
// "Version numbers and ABIs"), and DebianNames gives each bundled Debian
// release its keys: the nearer (a point release's own kernel) first.
func TestDebianKeys(t *testing.T) {
	for k, want := range map[string][]string{
		"6.1.0-18-amd64":         {"6.1.0-18-amd64", "6.1.0-*-amd64"},
		"6.1.0-18-cloud-amd64":   {"6.1.0-18-cloud-amd64", "6.1.0-*-cloud-amd64"},
		"6.12.38+deb13-amd64":    {"6.12.38+deb13-amd64", "6.12.*+deb13-amd64"},
		"6.12.38+deb13.1-arm64":  {"6.12.38+deb13.1-arm64", "6.12.*+deb13-arm64"},
		"6.1.0-0.deb11.17-amd64": nil, // a backport's serial
		"4.9.0-0.bpo.4-amd64":    nil,
		"6.12.30+bpo-amd64":      nil,
		"6.1.5-18-amd64":         nil,                                       // the third number is 0 before Debian 13
		"5.15.0-91-generic":      {"5.15.0-91-generic", "5.15.0-*-generic"}, // read, but no release's (not a Debian flavour)
		"5.14.0-427.el9_4":       nil,
	} {
		if got := DebianKeys(k); !slices.Equal(got, want) {
			t.Errorf("DebianKeys(%s) = %q, want %q", k, got, want)
		}
	}
	m, probs := matrix.Load(os.DirFS(filepath.Join(hosttest.Root, "matrix")), "matrix")
	if probs.Errors() > 0 {
		t.Fatal(probs.Err())
	}
	for id, want := range map[string][]string{
		"debian-12":   {"6.1.0-*-amd64", "6.1.0-*-arm64"},
		"debian-11":   {"5.10.0-*-amd64", "5.10.0-*-arm64"},
		"debian-11.3": {"5.10.0-13-amd64", "5.10.0-13-arm64"},
		"debian-13":   {"6.12.*+deb13-amd64", "6.12.*+deb13-arm64"},
		"rhel-9.4":    nil,
	} {
		d := m.Distro(id)
		if d == nil {
			t.Fatalf("no distro %s", id)
		}
		if got := DebianNames(d); !slices.Equal(got, want) {
			t.Errorf("DebianNames(%s) = %q, want %q", id, got, want)
		}
	}
	if raw, base := DebianProbe(m.Distro("debian-11.3")); raw != "5.10.0-13-arm64" || base != "" {
		t.Errorf("DebianProbe(debian-11.3) = %s, %s", raw, base)
	}
	if raw, base := DebianProbe(m.Distro("debian-13")); raw != "6.12.7919+deb13-amd64" || base != "6.12.7919" {
		t.Errorf("DebianProbe(debian-13) = %s, %s", raw, base)
	}
}
