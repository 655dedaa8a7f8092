package osinfo

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"

	"github.com/google/go-cmp/cmp"
)

func capture(t testing.TB, name string) []byte { return capturetest.Read(t, "ofed_info", name) }

func TestParseOFEDInfo(t *testing.T) {
	t.Parallel()
	for file, want := range map[string]OFED{
		"mlnx-ofed-4.7-s.txt":            {Name: "MLNX_OFED", Version: "4.7-3.2.9.0", Raw: "MLNX_OFED_LINUX-4.7-3.2.9.0:"},
		"mlnx-ofed-5.0-s-in-pod.txt":     {Name: "MLNX_OFED", Version: "5.0-2.1.8.0", Raw: "MLNX_OFED_LINUX-5.0-2.1.8.0:"},
		"mlnx-ofed-5.0-n.txt":            {Version: "5.0-2.1.8", Raw: "5.0-2.1.8"},
		"mlnx-ofed-internal-24.07-s.txt": {Name: "OFED-internal", Version: "24.07-0.3.5.0.110", Raw: "OFED-internal-24.07-0.3.5.0.110:"},
		// DOCA-OFED's, in a list item's code block and after a bare command.
		"doca-ofed-24.10-internal-s-list-item-indented.txt":  {Name: "OFED-internal", Version: "24.10-1.1.4.0.200", Raw: "OFED-internal-24.10-1.1.4.0.200:"},
		"doca-ofed-25.10-internal-s-bare-command-fenced.txt": {Name: "OFED-internal", Version: "25.10-1.7.1", Raw: "OFED-internal-25.10-1.7.1:"},
	} {
		got, ok, err := ParseOFEDInfo(bytes.NewReader(capture(t, file)))
		if err != nil || !ok {
			t.Fatalf("%s: %v %v", file, ok, err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", file, d)
		}
	}
	if _, ok, _ := ParseOFEDInfo(strings.NewReader("bash: ofed_info: command not found\n")); ok {
		t.Error("not found: want !ok")
	}
}

// os-release(5) syntax: quoted and unquoted values, comments.
func TestParseOSRelease(t *testing.T) {
	t.Parallel()
	in := "# comment\nNAME=\"Red Hat Enterprise Linux\"\nID=\"rhel\"\nID_LIKE='fedora'\nVERSION_ID=\"9.4\"\nPRETTY_NAME=\"Red Hat Enterprise Linux 9.4 (Plow)\"\nBAD LINE\n"
	got, err := ParseOSRelease(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := OSRelease{ID: "rhel", IDLike: "fedora", VersionID: "9.4", PrettyName: "Red Hat Enterprise Linux 9.4 (Plow)", Name: "Red Hat Enterprise Linux"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestParseUname(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"5.14.0-427.13.1.el9_4.x86_64\n": "5.14.0-427.13.1.el9_4.x86_64",
		"Linux host1 3.10.0-1160.62.1.el7.x86_64 #1 SMP Tue Apr 5 16:57:59 UTC 2022 x86_64 x86_64 x86_64 GNU/Linux\n": "3.10.0-1160.62.1.el7.x86_64",
		"": "",
		// /proc/version, and uname -a in the quotes its poster put around it
		// (testdata/captures/paste/kylin-v10-*).
		"Linux version 4.19.90-23.6.v2101.ky10.aarch64 (KYLINSOFT@localhost.localdomain) (gcc version 7.3.0 (GCC)) #1 SMP Wed Mar 17 14:45:17 CST 2021\n": "4.19.90-23.6.v2101.ky10.aarch64",
		"    'Linux localhost.localdomain 4.19.90-52.22.v2207.ky10.aarch64 #1 SMP Tue Mar 14 11:52:45 CST 2023 aarch64 aarch64 aarch64 GNU/Linux'\n":      "4.19.90-52.22.v2207.ky10.aarch64",
		// The host name cut out (paste/ice-e810c-vmd-domain-10006-…), or empty.
		"Linux 6.8.0-47-generic #47-Ubuntu SMP PREEMPT_DYNAMIC Fri Sep 27 21:40:26 UTC 2024 x86_64 x86_64 x86_64 GNU/Linux\n": "6.8.0-47-generic",
		"Linux  5.15.0-91-generic #101-Ubuntu SMP\n": "5.15.0-91-generic",
	} {
		if got, _ := ParseUname(strings.NewReader(in)); got != want {
			t.Errorf("ParseUname(%q) = %q, want %q", in, got, want)
		}
	}
	if h, _ := ParseHostname(strings.NewReader("\nnode75\n")); h != "node75" {
		t.Errorf("hostname %q", h)
	}
}

// TestRedHatPrettyName: the pretty name is the release line up to its
// codename, not what a paste ran on into after it.
func TestRedHatPrettyName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Red Hat Enterprise Linux Server release 7.9 (Maipo)":                                           "Red Hat Enterprise Linux Server release 7.9 (Maipo)",
		"CentOS Linux release 8.4.2105, Linux XXX 4.18.0-305.25.1.el8_4.x86_64 x86_64 x86_64 GNU/Linux": "CentOS Linux release 8.4.2105",
		"CentOS Linux release 7.9.2009 (Core) x86_64":                                                   "CentOS Linux release 7.9.2009 (Core)",
		"Anolis OS release 8.6": "Anolis OS release 8.6",
	} {
		o, err := ParseRedHatRelease(strings.NewReader(in))
		if err != nil || o.PrettyName != want {
			t.Errorf("%q: pretty name %q (%v), want %q", in, o.PrettyName, err, want)
		}
	}
}

// TestRedHatReleaseCaptures: every layout of the release line in
// testdata/captures/redhat-release, read whole. The pretty name keeps what
// the line prints after the number (a build suffix, Beta or Alpha, a
// codename glued to it); VERSION_ID is the number alone.
func TestRedHatReleaseCaptures(t *testing.T) {
	t.Parallel()
	for file, want := range map[string]OSRelease{
		"rhel-6.10-no-space-before-codename.txt":  {ID: "rhel", Name: "Red Hat Enterprise Linux Server", VersionID: "6.10", PrettyName: "Red Hat Enterprise Linux Server release 6.10(Santiago)"},
		"rhel-7.5-0.14-build-suffix.txt":          {ID: "rhel", Name: "Red Hat Enterprise Linux", VersionID: "7.5", PrettyName: "Red Hat Enterprise Linux release 7.5-0.14"},
		"rhel-8.5-beta-ootpa.txt":                 {ID: "rhel", Name: "Red Hat Enterprise Linux Server", VersionID: "8.5", PrettyName: "Red Hat Enterprise Linux Server release 8.5 Beta (Ootpa)"},
		"rhel-9.0-alpha-plow.txt":                 {ID: "rhel", Name: "Red Hat Enterprise Linux", VersionID: "9.0", PrettyName: "Red Hat Enterprise Linux release 9.0 Alpha (Plow)"},
		"rhel-10.0-beta-coughlan.txt":             {ID: "rhel", Name: "Red Hat Enterprise Linux", VersionID: "10.0", PrettyName: "Red Hat Enterprise Linux release 10.0 Beta (Coughlan)"},
		"centos-stream-8-no-minor.txt":            {ID: "centos", Name: "CentOS Stream", VersionID: "8", PrettyName: "CentOS Stream release 8"},
		"centos-7.6.1810-core.txt":                {ID: "centos", Name: "CentOS Linux", VersionID: "7.6.1810", PrettyName: "CentOS Linux release 7.6.1810 (Core)"},
		"almalinux-8.10-cerulean-leopard.txt":     {ID: "almalinux", Name: "AlmaLinux", VersionID: "8.10", PrettyName: "AlmaLinux release 8.10 (Cerulean Leopard)"},
		"miraclelinux-8.10-peony.txt":             {ID: "miraclelinux", Name: "MIRACLE LINUX", VersionID: "8.10", PrettyName: "MIRACLE LINUX release 8.10 (Peony)"},
		"rhev-hypervisor-6.7-build-in-parens.txt": {Name: "Red Hat Enterprise Virtualization Hypervisor", VersionID: "6.7", PrettyName: "Red Hat Enterprise Virtualization Hypervisor release 6.7 (20160219.0.el6ev)"},
	} {
		got, err := ParseRedHatRelease(bytes.NewReader(capturetest.Read(t, "redhat-release", file)))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", file, d)
		}
	}
}

// TestUnameCaptures: uname -a as sos and foreman-debug keep it (a
// "COMMAND> uname -a" header line first), with RHEL 5's PAE, a real-time
// and a site-rebuilt kernel's release.
func TestUnameCaptures(t *testing.T) {
	t.Parallel()
	for file, want := range map[string]string{
		"foreman-debug-command-header.txt": "2.6.32-279.el6.x86_64",
		"rhel5-pae-i686.txt":               "2.6.18-53.el5PAE",
		"rhel6-bgq-kernel-tag.txt":         "2.6.32-504.8.2.bgq.el6.x86_64",
		"rhel7.1-rt-kernel-el7_1.txt":      "3.10.0-229.1.2.rt56.141.2.el7_1.x86_64",
	} {
		if got, err := ParseUname(bytes.NewReader(capturetest.Read(t, "uname", file))); err != nil || got != want {
			t.Errorf("%s: %q (%v), want %q", file, got, err, want)
		}
	}
}

// TestOSReleaseCaptures: os-release files whose VERSION_ID is the major
// alone (MIRACLE LINUX's 8 beside VERSION 8.10), whose PRETTY_NAME does not
// name the release (RHEL AI's ostree date, RHV Host, a site's "Employee
// SKU"), with commented-out keys and single quotes: read as written.
func TestOSReleaseCaptures(t *testing.T) {
	t.Parallel()
	for file, want := range map[string]OSRelease{
		"miraclelinux-8.10-version-id-major-only.txt":  {ID: "miraclelinux", IDLike: "rhel fedora", VersionID: "8", PrettyName: "MIRACLE LINUX 8.10 (Peony)", Name: "MIRACLE LINUX"},
		"almalinux-8.10-support-end-blank-line.txt":    {ID: "almalinux", IDLike: "rhel centos fedora", VersionID: "8.10", PrettyName: "AlmaLinux 8.10 (Cerulean Leopard)", Name: "AlmaLinux"},
		"rhel-ai-9.4-ostree-version-single-quotes.txt": {ID: "rhel", IDLike: "fedora", VersionID: "9.4", PrettyName: "Red Hat Enterprise Linux 9.20240630.0.4 (Plow)", Name: "Red Hat Enterprise Linux"},
		"rhvh-4.0-ovirt-node-commented-keys.txt":       {ID: "rhel", IDLike: "fedora", VersionID: "7.3", PrettyName: "Red Hat Virtualization Host 4.0 (el7.3)", Name: "Red Hat Enterprise Linux"},
		"fedora-24-server-edition-unquoted.txt":        {ID: "fedora", VersionID: "24", PrettyName: "Fedora 24 (Server Edition)", Name: "Fedora"},
		"rhel-7.2-pretty-name-employee-sku.txt":        {ID: "rhel", IDLike: "fedora", VersionID: "7.2", PrettyName: "Employee SKU", Name: "Red Hat Enterprise Linux Server"},
	} {
		got, err := ParseOSRelease(bytes.NewReader(capturetest.Read(t, "os-release", file)))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", file, d)
		}
	}
}
