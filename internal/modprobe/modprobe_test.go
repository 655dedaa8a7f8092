package modprobe

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rocekb/rocekb/internal/capturetest"
)

// modules lists the rules' modules and directives, "module directive line".
func modules(rules []Rule) []string {
	var out []string
	for _, r := range rules {
		out = append(out, r.Module+" "+r.Directive+" "+itoa(r.Line))
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func TestParseCaptures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		want []string // the RDMA-relevant rules, in order
		n    int      // all rules
	}{
		// Lines counted in the file as it was on the host (the capture's two
		// header lines are not part of it).
		{"doca-driver-container-blacklist-ofed-modules.txt", []string{
			"mlx5_core blacklist 3", "mlx5_ib blacklist 4", "ib_umad blacklist 5", "ib_uverbs blacklist 6",
			"ib_ipoib blacklist 7", "rdma_cm blacklist 8", "rdma_ucm blacklist 9", "ib_core blacklist 10", "ib_cm blacklist 11",
		}, 9},
		{"stig-rockylinux10-install-true-ib-core-rdma-cm.txt", []string{
			"ib_core install 71", "ib_mad install 72", "ib_sa install 73", "ib_cm install 74",
			"iw_cm install 75", "rdma_cm install 76", "rdma_ucm install 77",
		}, 56},
		{"mlx5_core-blacklist-and-install-true.txt", []string{"mlx5_core blacklist 1", "mlx5_core install 2"}, 2},
		{"irdma-blacklist-slurm-tools.txt", []string{"irdma blacklist 1"}, 1},
		// An options line for mlx4_core blocks nothing; ipv6's install
		// /bin/true is a rule, not an RDMA one.
		{"mlx4_core-options-install-ipv6-true.txt", nil, 1},
		{"kicksecure-rdma-install-false-proposed.txt", []string{
			"erdma install 5", "ionic_rdma install 6", "irdma install 7", "rdma_cm install 11", "rdma_rxe install 12", "rdma_ucm install 13", "vmw_pvrdma install 16",
		}, 14},
	} {
		rules, err := Parse(bytes.NewReader(capturetest.Read(t, "modprobe", tc.name)))
		if err != nil {
			t.Fatal(err)
		}
		if len(rules) != tc.n {
			t.Errorf("%s: %d rules, want %d", tc.name, len(rules), tc.n)
		}
		var got []string
		for _, s := range modules(rules) {
			for _, w := range tc.want {
				if w == s {
					got = append(got, s)
				}
			}
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
}

func TestParseFormat(t *testing.T) {
	t.Parallel()
	// modprobe.d(5): '#' lines and blank lines ignored, '\' continues a
	// line, '-' and '_' interchangeable; an install that may load the
	// module is no rule.
	in := strings.Join([]string{
		"# blacklist mlx5_ib",
		"",
		"  blacklist   bnxt-re   ",
		"install irdma \\",
		"  /bin/false",
		"install mlx4_core /sbin/modprobe --ignore-install mlx4_core; /sbin/mlx4_setup",
		"install qedr /usr/bin/logger qedr disabled; exit 1",
		"install rdma_rxe :",
		"options mlx5_core prof_sel=2",
		"alias net-pf-10 off",
		"blacklist",
		"install erdma",
		"install in /bin/false",
		"blacklist ib_uverbs \\",
	}, "\n")
	got, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Rule{
		{Module: "bnxt_re", Directive: Blacklist, Line: 3, Text: "blacklist   bnxt-re"},
		{Module: "irdma", Directive: Install, Command: "/bin/false", Line: 4, Text: "install irdma    /bin/false"},
		{Module: "qedr", Directive: Install, Command: "/usr/bin/logger qedr disabled; exit 1", Line: 7, Text: "install qedr /usr/bin/logger qedr disabled; exit 1"},
		{Module: "rdma_rxe", Directive: Install, Command: ":", Line: 8, Text: "install rdma_rxe :"},
		{Module: "in", Directive: Install, Command: "/bin/false", Line: 13, Text: "install in /bin/false"},
		{Module: "ib_uverbs", Directive: Blacklist, Line: 14, Text: "blacklist ib_uverbs"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestParseGrep(t *testing.T) {
	t.Parallel()
	// The layouts of grep -r, grep -rn and grep of one file, over the lines
	// of the OFED container's blacklist (doca-driver-container capture).
	in := strings.Join([]string{
		"/etc/modprobe.d/blacklist-ofed-modules.conf:blacklist mlx5_ib",
		"/etc/modprobe.d/blacklist-ofed-modules.conf:10:blacklist ib_core",
		"/etc/modprobe.d/mlx4.conf:# blacklist mlx4_ib",
		"blacklist irdma",
		"/etc/modprobe.d/stig-blacklist.conf:install rdma_cm /bin/true",
	}, "\n")
	got, err := ParseGrep(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Rule{
		{Module: "mlx5_ib", Directive: Blacklist, File: "/etc/modprobe.d/blacklist-ofed-modules.conf", Text: "blacklist mlx5_ib"},
		{Module: "ib_core", Directive: Blacklist, File: "/etc/modprobe.d/blacklist-ofed-modules.conf", Line: 10, Text: "blacklist ib_core"},
		{Module: "irdma", Directive: Blacklist, Text: "blacklist irdma"},
		{Module: "rdma_cm", Directive: Install, Command: "/bin/true", File: "/etc/modprobe.d/stig-blacklist.conf", Text: "install rdma_cm /bin/true"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestParseCmdline(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"snp-host-modprobe-blacklist-bnxt_re.txt", []string{"bnxt_re modprobe.blacklist 1", "rndis_host modprobe.blacklist 1"}},
		{"bluefield-rshim-boot-args-mlx5_core.txt", []string{"mlx5_core modprobe.blacklist 1"}},
		{"uki-modprobe-and-module-blacklist-lists.txt", []string{
			"venus_core modprobe.blacklist 1", "qcom_iris modprobe.blacklist 1", "venus_core module_blacklist 1", "qcom_iris module_blacklist 1",
		}},
	} {
		rules, err := ParseCmdline(bytes.NewReader(capturetest.Read(t, "cmdline", tc.name)))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(tc.want, modules(rules)); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
	// Quotes and dracut's list (dracut.cmdline(7)).
	got, _ := ParseCmdline(strings.NewReader(`ro quiet "modprobe.blacklist=mlx4_ib,mlx5-ib" rd.driver.blacklist=irdma module_blacklist=`))
	if d := cmp.Diff([]string{"mlx4_ib modprobe.blacklist 1", "mlx5_ib modprobe.blacklist 1", "irdma rd.driver.blacklist 1"}, modules(got)); d != "" {
		t.Errorf("quoted (-want +got):\n%s", d)
	}
}
