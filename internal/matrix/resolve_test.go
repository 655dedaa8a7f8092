package matrix

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func bundled(t *testing.T) *Matrix {
	t.Helper()
	m, probs := Load(os.DirFS("../../matrix"), "matrix")
	if m == nil || probs.Errors() > 0 {
		t.Fatalf("load bundled matrix: %v", probs)
	}
	return m
}

func TestResolveAdapter(t *testing.T) {
	t.Parallel()
	m := bundled(t)
	for _, name := range []string{"connectx-5", "connectx5", "cx5", "CX-5", "ConnectX-5", "MT27800", "15b3:1017", "MCX516A-CCAT", "mcx516a-ccat"} {
		r := m.ResolveAdapter(name)
		if r.Value == nil || r.Value.ID != "connectx-5" {
			t.Errorf("ResolveAdapter(%q) = %+v, want connectx-5", name, r)
		}
	}
	// A vendor's name or alias before the model, as people write it; the
	// model must be the vendor's.
	for name, want := range map[string]string{"Mellanox ConnectX-5": "connectx-5", "NVIDIA CX5": "connectx-5", "Mellanox Technologies MT27800": "connectx-5", "Broadcom BCM57414": "bcm57414", "Intel E810-XXVDA2": "e810-xxv"} {
		if r := m.ResolveAdapter(name); r.Value == nil || r.Value.ID != want {
			t.Errorf("ResolveAdapter(%q) = %+v, want %s", name, r.Value, want)
		}
	}
	if r := m.ResolveAdapter("Broadcom ConnectX-5"); r.Value != nil || len(r.Suggest) == 0 || r.Suggest[0] != "connectx-5" {
		t.Errorf("Broadcom ConnectX-5 = %+v, want no value and connectx-5 suggested", r)
	}
	// A longer text: an lspci line, a pci.ids name, a product name with
	// its speed and form factor. Every other word must say nothing of the
	// model, and a vendor's word must be the model's vendor's.
	for name, want := range map[string]string{
		"3b:00.0 Ethernet controller [0200]: Mellanox Technologies MT27800 Family [ConnectX-5] [15b3:1017]": "connectx-5",
		"Ethernet controller: Mellanox Technologies MT2892 Family [ConnectX-6 Dx]":                          "connectx-6-dx",
		"Broadcom Inc. and subsidiaries BCM57414 NetXtreme-E 10Gb/25Gb RDMA Ethernet Controller (rev 01)":   "bcm57414",
		"Intel Corporation Ethernet Controller E810-XXV for SFP (rev 02)":                                   "e810-xxv",
		"ConnectX-6 Dx EN adapter card, 100GbE":                                                             "connectx-6-dx",
		"NVIDIA ConnectX-7 VPI 400Gb/s OSFP":                                                                "connectx-7",
		"0x15b3:0x1015":                                                                                     "connectx-4-lx",
		// Broadcom's boards by their own names, speeds as NxSpeed, PCIe
		// generations and widths.
		"P2100G":               "bcm57508",
		"Broadcom P425G 4x25G": "bcm57504",
		"NetXtreme-E Dual-port 100G QSFP56 Ethernet PCIe4.0 x16 Adapter (BCM957508-P2100G)": "bcm57508",
		"ConnectX-6 Dx 2x100GbE PCIe Gen4 x16":                                              "connectx-6-dx",
	} {
		if r := m.ResolveAdapter(name); r.Value == nil || r.Value.ID != want {
			t.Errorf("ResolveAdapter(%q) = %+v, want %s", name, r.Value, want)
		}
	}
	// A text past MaxTextWords words names nothing (a whole lspci -vvv
	// pasted into the field is not read window by window).
	if r := m.ResolveAdapter(strings.Repeat("Mellanox ConnectX-5 ", MaxTextWords)); r.Value != nil {
		t.Errorf("a %d-word text resolved to %s", 2*MaxTextWords, r.Value.ID)
	}
	if r := m.ResolveAdapter(strings.Repeat("word ", 20000)); r.Value != nil || len(r.Suggest) > 0 {
		t.Errorf("20,000 words: %+v", r)
	}
	for _, name := range []string{"Broadcom ConnectX-5 adapter", "ConnectX-5 or ConnectX-6", "Mellanox ConnectX-6 crypto", "ConnectX-5 ConnectX-6"} {
		if r := m.ResolveAdapter(name); r.Value != nil {
			t.Errorf("ResolveAdapter(%q) = %s, want none", name, r.Value.ID)
		}
	}
	if r := m.ResolveAdapter("CX-5 Ex"); r.Value == nil || r.Value.ID != "connectx-5-ex" {
		t.Errorf("CX-5 Ex resolved to %+v", r.Value)
	}
	// Only the subsystem names a Cisco VIC: a bare id is ambiguous.
	r := m.ResolveAdapter("1137:0043")
	if r.Value != nil || len(r.Candidates) < 2 {
		t.Errorf("1137:0043 = %+v, want several candidates and no value", r)
	}
	// bcm5760x lists 14e4:1760 with and without subsystem ids: one
	// adapter, not an ambiguity between it and itself.
	if r := m.ResolveAdapter("14e4:1760"); r.Value == nil || r.Value.ID != "bcm5760x" {
		t.Errorf("14e4:1760 = %+v, want bcm5760x", r)
	}
	r = m.ResolveAdapter("conectx-5")
	if r.Value != nil || len(r.Suggest) == 0 || r.Suggest[0] != "connectx-5" {
		t.Errorf("conectx-5: suggest %v, want connectx-5 first", r.Suggest)
	}
	// A family's name names no one adapter: its members are suggested,
	// never one of them chosen (E810 was E810-C, though E810-XXV is an
	// E810 too) nor ids near its spelling (NetXtreme-E was offered E810-C).
	for name, want := range map[string][]string{
		"E810":                 {"e810-c", "e810-xxv"},
		"Intel E810":           {"e810-c", "e810-xxv"},
		"NetXtreme-E":          {"bcm5760x", "bcm57412", "bcm57414", "bcm57416", "bcm57417", "bcm57502", "bcm57504", "bcm57508", "netxtreme-e-rdma-vf", "bcm5750x-rdma-vf"},
		"FastLinQ":             {"fastlinq-ql41000", "fastlinq-ql45000"},
		"Broadcom NetXtreme-C": {"bcm57311", "bcm57312", "bcm57314", "netxtreme-c-rdma-vf"},
	} {
		r := m.ResolveAdapter(name)
		got := slices.Clone(r.Suggest)
		slices.Sort(got)
		w := slices.Clone(want)
		slices.Sort(w)
		if r.Value != nil || !slices.Equal(got, w) {
			t.Errorf("ResolveAdapter(%q) = %v suggesting %v, want no value and %v", name, r.Value, r.Suggest, want)
		}
	}
	if r := m.ResolveAdapter("banana"); r.Value != nil || len(r.Suggest) != 0 {
		t.Errorf("banana = %+v, want nothing", r)
	}
}

func TestResolveDistroAndStack(t *testing.T) {
	t.Parallel()
	m := bundled(t)
	for name, want := range map[string]string{"alma10.2": "almalinux-10.2", "AlmaLinux 10.1": "almalinux-10.1", "almalinux-10.0": "almalinux-10.0", "rocky-10.0": "rocky-10.0", "Rocky Linux 9.4": "rocky-9.4", "alma-9.4": "almalinux-9.4",
		// A rebuild's names as a host prints them (/etc/redhat-release,
		// os-release's PRETTY_NAME) and as people shorten them.
		"Rocky Linux release 9.4 (Blue Onyx)": "rocky-9.4", `PRETTY_NAME="Rocky Linux 8.10 (Green Obsidian)"`: "rocky-8.10", "rocky 8.10": "rocky-8.10",
		"AlmaLinux release 9.5 (Teal Serval)": "almalinux-9.5", "alma 8.10": "almalinux-8.10", "OL8.9 RHCK": "oracle-8.9-rhck",
		// A rebuild release without an entry (Rocky's table stops at 9.7;
		// CentOS Linux has none) is RHEL's, as a hint.
		"centos-9.4": "rhel-9.4", "CentOS Linux 8.5": "rhel-8.5"} {
		if r := m.ResolveDistro(name); r.Value == nil || r.Value.ID != want {
			t.Errorf("ResolveDistro(%q) = %+v, want %s", name, r.Value, want)
		}
	}
	for _, name := range []string{"rhel-9.4", "rhel9.4", "RHEL 9.4", "Red Hat Enterprise Linux 9.4"} {
		if r := m.ResolveDistro(name); r.Value == nil || r.Value.ID != "rhel-9.4" {
			t.Errorf("ResolveDistro(%q) = %+v, want rhel-9.4", name, r)
		}
	}
	if r := m.ResolveDistro("rhel-9.44"); r.Value != nil || len(r.Suggest) == 0 {
		t.Errorf("rhel-9.44 = %+v, want suggestions", r)
	}
	// A rebuild without an entry resolves to RHEL's release, said so; RHEL
	// under another name does not.
	for name, how := range map[string]string{"centos-9.4": "rebuild", "CentOS Linux 8.5": "rebuild", "Rocky Linux 9.4": "id", "Red Hat Enterprise Linux 9.4": "id", "redhat-9.4": "name", "RHEL 9.4": "id"} {
		if r := m.ResolveDistro(name); r.How != how {
			t.Errorf("ResolveDistro(%q) is by %q, want %q", name, r.How, how)
		}
	}
	// Oracle Linux names a kernel: UEK or RHCK; a release alone names both.
	for name, want := range map[string]string{"Oracle Linux 9.4 UEK": "oracle-9.4-uek", "OL 9.4 RHCK": "oracle-9.4-rhck", "oracle linux 9.4 (RHCK)": "oracle-9.4-rhck"} {
		if r := m.ResolveDistro(name); r.Value == nil || r.Value.ID != want {
			t.Errorf("ResolveDistro(%q) = %+v, want %s", name, r.Value, want)
		}
	}
	for _, name := range []string{"Oracle Linux 9.4", "ol9.4", "oracle-9.4"} {
		r := m.ResolveDistro(name)
		var ids []string
		for _, d := range r.Candidates {
			ids = append(ids, d.ID)
		}
		if r.Value != nil || !slices.Equal(ids, r.Suggest) || !slices.Equal(ids, []string{"oracle-9.4-uek", "oracle-9.4-rhck"}) && !slices.Equal(ids, []string{"oracle-9.4-rhck", "oracle-9.4-uek"}) {
			t.Errorf("ResolveDistro(%q) = %v, candidates %v; want no value, UEK and RHCK", name, r.Value, ids)
		}
	}
	// A major version with its kernel ("Oracle Linux 10 UEK 8", as
	// Mellanox/doca-driver-build and Oracle's kconfigs name them) names
	// each release of it on that kernel, and of the UEK generation named.
	for name, want := range map[string][]string{
		"Oracle Linux 10 UEK 8": {"oracle-10.0-uek", "oracle-10.1-uek"},
		"ol10-uek":              {"oracle-10.0-uek", "oracle-10.1-uek"},
		"Oracle Linux 9 UEK 8":  {"oracle-9.6-uek", "oracle-9.7-uek"},
		"OL9 UEK R7":            {"oracle-9.1-uek", "oracle-9.2-uek", "oracle-9.3-uek", "oracle-9.4-uek", "oracle-9.5-uek"},
		"OL 10 RHCK":            {"oracle-10.0-rhck", "oracle-10.1-rhck"},
	} {
		r := m.ResolveDistro(name)
		var ids []string
		for _, d := range r.Candidates {
			ids = append(ids, d.ID)
		}
		if r.Value != nil || !slices.Equal(ids, want) || !slices.Equal(ids, r.Suggest) {
			t.Errorf("ResolveDistro(%q) = %v, candidates %v; want %v", name, r.Value, ids, want)
		}
	}
	if r := m.ResolveDistro("Oracle Linux 9 UEK 6"); r.Value != nil || len(r.Candidates) > 0 {
		t.Errorf("Oracle Linux 9 UEK 6 (no such kernel) = %+v, want nothing", r)
	}
	// A Debian codename, in one release's name's parentheses.
	if r := m.ResolveDistro("bookworm"); r.Value == nil || r.Value.ID != "debian-12" {
		t.Errorf("bookworm = %+v, want debian-12", r.Value)
	}
	if r := m.ResolveDistro("RHCK"); r.Value != nil {
		t.Errorf("RHCK, in many releases' names, resolved to %s", r.Value.ID)
	}
	// A rebuild's major release alone names its own releases.
	for _, name := range []string{"rocky9", "Rocky 9", "almalinux 8"} {
		r := m.ResolveDistro(name)
		if r.Value != nil || len(r.Suggest) == 0 || !strings.HasPrefix(r.Suggest[0], "rocky-9.") && !strings.HasPrefix(r.Suggest[0], "almalinux-8.") {
			t.Errorf("%s = %+v, want its own releases suggested", name, r)
		}
	}
	// A rebuild's release the matrix lacks suggests RHEL's near it.
	if r := m.ResolveDistro("centos 8"); r.Value != nil || len(r.Suggest) == 0 || !strings.HasPrefix(r.Suggest[0], "rhel-") {
		t.Errorf("centos 8 = %+v, want RHEL suggestions", r)
	}
	// A name as a host prints it: os-release's PRETTY_NAME, /etc/redhat-release.
	for name, want := range map[string]string{
		"Red Hat Enterprise Linux 8.6 (Ootpa)":                "rhel-8.6",
		"Red Hat Enterprise Linux release 8.6 (Ootpa)":        "rhel-8.6",
		"Red Hat Enterprise Linux Server release 7.9 (Maipo)": "rhel-7.9",
		`PRETTY_NAME="Red Hat Enterprise Linux 9.4 (Plow)"`:   "rhel-9.4",
		"Rocky Linux 9.2 (Blue Onyx)":                         "rocky-9.2",
		"CentOS Linux release 7.9.2009 (Core)":                "rhel-7.9",
		"Debian GNU/Linux 12 (bookworm)":                      "debian-12",
		"debian bookworm":                                     "debian-12",
		"Debian 12.5":                                         "debian-12",
		"Debian 11.3":                                         "debian-11.3",
		"SUSE Linux Enterprise Server 15 SP5":                 "sles-15-sp5",
		// Azure Linux's os-release (azurelinux-release.spec: PRETTY_NAME
		// "Microsoft %{distribution} %{version}").
		`PRETTY_NAME="Microsoft Azure Linux 3.0"`: "azure-linux-3.0",
		"Microsoft Azure Linux 3.0":               "azure-linux-3.0",
		"Alibaba Cloud Linux 3.2":                 "alinux-3.2",
		// Oracle's kernel named as its name names it, the family shortened.
		"OL8.9 UEKR7":   "oracle-8.9-uek",
		"OL 8.9 UEK R7": "oracle-8.9-uek",
		"OL9.4 RHCK":    "oracle-9.4-rhck",
		// openEuler's service pack is in its PRETTY_NAME's parentheses.
		`PRETTY_NAME="openEuler 22.03 (LTS-SP3)"`: "openeuler-22.03-lts-sp3",
		"openEuler release 22.03 (LTS-SP3)":       "openeuler-22.03-lts-sp3",
		`PRETTY_NAME="openEuler 22.03 (LTS)"`:     "openeuler-22.03-lts",
	} {
		if r := m.ResolveDistro(name); r.Value == nil || r.Value.ID != want {
			t.Errorf("ResolveDistro(%q) = %+v, want %s", name, r.Value, want)
		}
	}
	// An HWE kernel named by its point release is the entry whose source
	// names that point release (22.04.5's 6.8), and no other point
	// release's: 22.04.3's HWE kernel was another one.
	for name, want := range map[string]string{"Ubuntu 22.04.5 HWE": "ubuntu-22.04-hwe", "ubuntu 24.04.2 hwe kernel": "ubuntu-24.04-hwe", "Ubuntu 22.04.3 HWE": ""} {
		got := ""
		if r := m.ResolveDistro(name); r.Value != nil {
			got = r.Value.ID
		}
		if got != want {
			t.Errorf("ResolveDistro(%q) = %q, want %q", name, got, want)
		}
	}
	// Oracle Linux 8.9's entry is UEK R7: a name of UEK R6 is not it.
	if r := m.ResolveDistro("OL8.9 UEKR6"); r.Value != nil {
		t.Errorf("OL8.9 UEKR6 resolved to %s", r.Value.ID)
	}
	// A stack named with its release, as ofed_info -s prints it.
	for in, want := range map[string][2]string{
		"MLNX_OFED_LINUX-5.8-3.0.7.0:": {"MLNX_OFED_LINUX", "5.8-3.0.7.0"},
		"mlnx-ofed@5.8-1.0.1.1":        {"mlnx-ofed", "5.8-1.0.1.1"},
		"DOCA-OFED 2.9.0":              {"DOCA-OFED", "2.9.0"},
		// An LTS mark, and a package's name as downloaded.
		"MLNX_OFED 5.8 LTS": {"MLNX_OFED", "5.8"},
		"DOCA 2.9.1 (LTS)":  {"DOCA", "2.9.1"},
		"MLNX_OFED_LINUX-23.10-1.1.9.0-rhel9.2-x86_64.tgz":  {"MLNX_OFED_LINUX", "23.10-1.1.9.0"},
		"MLNX_OFED_LINUX-23.10-2.1.3.1-201":                 {"MLNX_OFED_LINUX", "23.10-2.1.3.1-201"},
		"doca-host-2.9.1-010000-24.10-ubuntu2204_amd64.deb": {"doca-host", "2.9.1"},
		"doca-ofed":                   {"doca-ofed", ""},
		"banana-5.8":                  {"banana-5.8", ""},
		strings.Repeat("x-1 ", 20000): {strings.Repeat("x-1 ", 20000), ""}, // tried at its start only
	} {
		if n, r := m.SplitStack(in); n != want[0] || r != want[1] {
			t.Errorf("SplitStack(%q) = %q, %q; want %q, %q", in, n, r, want[0], want[1])
		}
	}
	// A name short of a release gives the releases it may mean, in order.
	for name, want := range map[string][]string{
		"Ubuntu 22.04.3 LTS":      {"ubuntu-22.04", "ubuntu-22.04-hwe"},
		"rhel 10":                 {"rhel-10.0", "rhel-10.1"},
		"el10":                    {"rhel-10.0", "rhel-10.1"},
		"Oracle Linux Server 8.8": {"oracle-8.8-rhck", "oracle-8.8-uek"},
		// openEuler's VERSION_ID: the LTS release or any service pack.
		"openEuler 22.03": {"openeuler-22.03-lts", "openeuler-22.03-lts-sp1", "openeuler-22.03-lts-sp2", "openeuler-22.03-lts-sp3", "openeuler-22.03-lts-sp4"},
		// An Amazon Linux 2023 release may run any of its kernel lines.
		"Amazon Linux 2023.6.20241212": {"amzn-2023", "amzn-2023-kernel-6.12", "amzn-2023-kernel-6.18"},
		"al2023.6":                     {"amzn-2023", "amzn-2023-kernel-6.12", "amzn-2023-kernel-6.18"},
		// A cloud distro's product name with its major version only.
		"Alibaba Cloud Linux 3": {"alinux-3.2"},
		"Azure Linux 3":         {"azure-linux-3.0"},
	} {
		r := m.ResolveDistro(name)
		var ids []string
		for _, d := range r.Candidates {
			ids = append(ids, d.ID)
		}
		slices.Sort(ids)
		if r.Value != nil || !slices.Equal(ids, want) {
			t.Errorf("ResolveDistro(%q) = %v, candidates %v; want %v", name, r.Value, ids, want)
		}
	}
	if r := m.ResolveDistro("rhel 9"); len(r.Suggest) < 2 || !slices.IsSortedFunc(r.Suggest, func(a, b string) int { return compareReleases(a, b) }) || r.Suggest[0] != "rhel-9.0" {
		t.Errorf("rhel 9 suggests %v, want RHEL 9's releases from 9.0 in order", r.Suggest)
	}
	for name, want := range map[string]string{"mofed": "mlnx-ofed", "MLNX_OFED": "mlnx-ofed", "doca": "doca-ofed", "inbox": Inbox, "cisco-enic": "cisco-enic"} {
		if id, _ := m.ResolveStack(name); id != want {
			t.Errorf("ResolveStack(%q) = %q, want %q", name, id, want)
		}
	}
	// A word of one stack's id, name or modules names it; one of several
	// stacks' names none.
	for name, want := range map[string]string{"bnxt": "broadcom-bnxt", "irdma": "intel-irdma", "qedr": "marvell-fastlinq", "Intel": "intel-irdma"} {
		if id, _ := m.ResolveStack(name); id != want {
			t.Errorf("ResolveStack(%q) = %q, want %q", name, id, want)
		}
	}
	if id, _ := m.ResolveStack("tree"); id != "" {
		t.Errorf("ResolveStack(tree), a word of several stacks' names, = %q", id)
	}
	if id, r := m.ResolveStack("mlnx-ofd"); id != "" || len(r.Suggest) == 0 || r.Suggest[0] != "mlnx-ofed" {
		t.Errorf("mlnx-ofd: %q %v", id, r.Suggest)
	}
}

// FuzzResolve feeds what a person may type or paste to the name
// resolvers of the bundled matrix: they never panic, a value and
// candidates never come together, and a stack's release is part of what
// was typed.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"cx5", "3b:00.0 Ethernet controller [0200]: Mellanox Technologies MT27800 Family [ConnectX-5] [15b3:1017]",
		"Red Hat Enterprise Linux release 8.6 (Ootpa)", "Ubuntu 22.04.3 LTS", "MLNX_OFED_LINUX-5.8-3.0.7.0:", "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"", "rhel 9", "(", "=\"", "0x15b3:0x1017/"} {
		f.Add(s)
	}
	m, probs := Load(os.DirFS("../../matrix"), "matrix")
	if m == nil || probs.Errors() > 0 {
		f.Fatalf("load bundled matrix: %v", probs)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if r := m.ResolveAdapter(s); r.Value != nil && len(r.Candidates) > 0 {
			t.Errorf("ResolveAdapter(%q): a value and candidates", s)
		}
		if r := m.ResolveDistro(s); r.Value != nil && len(r.Candidates) > 0 {
			t.Errorf("ResolveDistro(%q): a value and candidates", s)
		}
		if _, rel := m.SplitStack(s); !strings.Contains(s, rel) {
			t.Errorf("SplitStack(%q) gives release %q, not in the name", s, rel)
		}
	})
}

// TestResolveAdapterAsWritten reads adapter names as people wrote them in
// public bug reports and docs: each resolves to the adapter the matrix
// says it is, or to none ("") where the matrix does not have the model or
// the name does not say which one it is.
func TestResolveAdapterAsWritten(t *testing.T) {
	t.Parallel()
	m := bundled(t)
	for _, c := range []struct{ in, want string }{
		// mlxfwmanager's Description: a speed's unit apart from its number.
		// https://github.com/NVIDIA/5t5g/issues/3
		{"Mellanox ConnectX-6 Dx Dual Port 100 GbE QSFP56 Network Adapter", "connectx-6-dx"},
		// mstconfig's Name: an NVIDIA board, a part number without its last
		// letter, and its revision.
		// https://github.com/k8snetworkplumbingwg/sriov-network-operator/pull/358
		{"MCX631102AN-ADA_Ax", "connectx-6-lx"}, {"mcx4121a-aca_a1", "connectx-4-lx"},
		// ibstat's CA type, MT and the decimal PCI device id (mlx5_ib's
		// hca_type): https://github.com/openucx/ucx/issues/5749
		{"MT4115", "connectx-4"}, {"MT4119", "connectx-5"}, {"MT27800", "connectx-5"},
		// A VPI card with its InfiniBand rate.
		// https://github.com/openshift/openshift-docs/pull/31428
		{"Mellanox MT27700 Family [ConnectX-4] VPI adapter card, EDR IB (100Gb/s), single-port QSFP28", "connectx-4"},
		// Windows' device name and hardware ids.
		// https://github.com/RROrg/rr/issues/182
		{"QLogic FastLinQ QL41000 Series Controller (VBD Client)", "fastlinq-ql41000"},
		{`PCI\VEN_1077&DEV_8070&SUBSYS_10027053&REV_02`, "fastlinq-ql41000"},
		// https://github.com/microsoft/lisa/pull/4673
		{"VEN_1414&DEV_00BA", "microsoft-mana"},
		// A pci.ids name without "network controller".
		// https://github.com/k8snetworkplumbingwg/sriov-network-operator/pull/55
		{"MT42822 BlueField-2 integrated ConnectX-6 Dx", "bluefield-2"},
		// A trademark's mark.
		{"Intel(R) Ethernet Controller E810-C for QSFP", "e810-c"},
		// Read before as they are.
		// https://github.com/k8snetworkplumbingwg/sriov-network-operator/issues/357
		{"NVIDIA Mellanox Technologies MT2894 Family Ethernet Controller ConnectX-6 Lx", "connectx-6-lx"},
		// https://github.com/xcp-ng/xcp/issues/544
		{"Mellanox Technologies MT27500/MT27520 Family [ConnectX-3/ConnectX-3 Pro Virtual Function]", "connectx-3-vf"},
		// https://github.com/aws/aws-parallelcluster/pull/1320
		{"Ethernet controller: Amazon.com, Inc. Elastic Fabric Adapter (EFA)", "aws-efa"},
		// https://github.com/System64fumo/linux/issues/27
		{"c1:00.0 Ethernet controller [0200]: Broadcom Inc. and subsidiaries BCM57416 NetXtreme-E Dual-Media 10G RDMA Ethernet Controller [14e4:16d8] (rev 01)", "bcm57416"},
		// None: a part number or board the matrix does not list
		// (https://github.com/ashhart/MCDMA/pull/3,
		// https://github.com/MrBr-github/lshca/issues/102,
		// https://github.com/NVIDIA/5t5g/issues/3), a model it lacks
		// (https://github.com/fbelavenuto/arpl-modules/issues/47), a
		// board's name it lacks (https://github.com/System64fumo/linux/issues/27),
		// and "No Crypto", which is not noise.
		// https://github.com/k8snetworkplumbingwg/sriov-network-operator/pull/358
		// MCX4131A-BCAT was one until the matrix listed it from pci.ids.
		{"MCX4131A-BCAT", "connectx-4-lx"}, {"MCX75510AAS-NEAT", ""}, {"0F6FXM_08P2T2_Ax", ""}, {"Chelsio T520", ""},
		{"NetXtreme E-Series P210TP 10G LAN card", ""},
		{"ConnectX-6 Lx EN adapter card; 25GbE ; Dual-port SFP28; PCIe 4.0 x8; No Crypto", ""},
		// A number alone is no name: "VIC 1440 Mezzanine" is not "VIC".
		{"VIC", ""},
		// A Broadcom part number the matrix does not list is a board on
		// its chip: BCM957608-P2200GQF00 is the BCM57608 2x200G card a
		// TencentOS install note names, BCM957608-P2200G the part ROCm's
		// Thor 2 plans point at (https://github.com/ROCm/mori/pull/291,
		// https://github.com/sgl-project/sglang/issues/21774). The board's
		// name alone is none: DPDK's bnxt guide lists a P2200G under the
		// BCM57500 family, so "P2200G" does not say which chip.
		{"BCM957608-P2200G", "bcm5760x"}, {"BCM957608-P2200GQF00", "bcm5760x"}, {"bcm957608-p2200g", "bcm5760x"},
		{"P2200G", ""}, {"BCM957999-P2200G", ""},
		// A product name's role word: "ConnectX-8 SuperNIC"
		// (https://github.com/Mellanox/network-operator/pull/2633 plans
		// ConnectX-8 on DOCA 25.07), "AMD Pensando Pollara 400 AI NIC"
		// (https://github.com/ROCm/mori/pull/291); NVIDIA's BlueField
		// shorthand (https://github.com/Mellanox/bfb-build/pull/115).
		{"ConnectX-8 SuperNIC", "connectx-8"}, {"NVIDIA BlueField-3 SuperNIC", "bluefield-3"},
		{"AMD Pensando Pollara 400 AI NIC", "amd-pensando-dsc"}, {"BF3", "bluefield-3"}, {"BF-2", "bluefield-2"},
	} {
		got := ""
		if r := m.ResolveAdapter(c.in); r.Value != nil {
			got = r.Value.ID
		}
		if got != c.want {
			t.Errorf("ResolveAdapter(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestResolveDistroAndStackAsWritten reads distro and stack names as
// people pasted them in public bug reports: each names the release the
// matrix has, or none where the matrix lacks it or the name may mean
// several.
func TestResolveDistroAndStackAsWritten(t *testing.T) {
	t.Parallel()
	m := bundled(t)
	for _, c := range []struct{ in, want string }{
		// lsb_release -d: https://github.com/juanschallibaum/Nuk3Gh0st/issues/2
		{"Description:    Ubuntu 22.04 LTS", "ubuntu-22.04"},
		// hostnamectl, and a beta that is not the release.
		// https://github.com/xcat2/xcat-core/pull/7144
		{"  Operating System: Red Hat Enterprise Linux 9.4 (Plow)", "rhel-9.4"},
		{"  Operating System: Red Hat Enterprise Linux 9.0 Beta (Plow)", ""},
		// SUSE Linux Enterprise, SLES's base:
		// https://github.com/openSUSE/openSUSE-release-tools/pull/2828
		{"SLE15 SP5", "sles-15-sp5"}, {"SLED 15 SP5", ""},
		// https://github.com/ansible/ansible-lint/pull/4591
		{"SLES 15SP6", "sles-15-sp6"},
		// https://github.com/wazuh/wazuh/issues/35517
		{`PRETTY_NAME="Red Hat Enterprise Linux 9.7 (Plow)"`, "rhel-9.7"},
		// Releases the matrix lacks.
		// https://github.com/k8snetworkplumbingwg/sriov-network-operator/pull/358
		{"CentOS Stream release 8", ""},
		// https://github.com/k8snetworkplumbingwg/sriov-network-operator/issues/357
		{"Red Hat Enterprise Linux CoreOS 411.86.202208311835-0 (Ootpa)", ""},
		// https://github.com/stackhpc/stackhpc-kayobe-config/pull/2404
		{"Rocky Linux 9.8", ""},
	} {
		got := ""
		if r := m.ResolveDistro(c.in); r.Value != nil {
			got = r.Value.ID
		}
		if got != c.want {
			t.Errorf("ResolveDistro(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct{ in, stack, release string }{
		// ofed_info's first line: https://github.com/open-mpi/ompi/issues/5810
		{"MLNX_OFED_LINUX-4.4-2.0.7.0 (OFED-4.4-2.0.7)", "mlnx-ofed", "4.4-2.0.7.0"},
		{"MLNX_OFED_LINUX-24.10-1.1.4.0 (OFED-24.10-1.1.4):", "mlnx-ofed", "24.10-1.1.4.0"},
		// A v before the release: https://github.com/stackhpc/ansible-slurm-appliance/pull/728
		{"OFED v24.10-3.2.5.0 LTS", "mlnx-ofed", "24.10-3.2.5.0"},
		// The Network Operator's driver tag:
		// https://github.com/Mellanox/network-operator/pull/1681
		{"doca3.1.0-25.07-0.9.7.0-0", "doca-ofed", "3.1.0"},
		// A module's name and its out-of-tree version.
		{"bnxt_re 230.2.52.0", "broadcom-bnxt", "230.2.52.0"},
		// https://github.com/DaoCloud/DaoCloud-docs (spiderpool ofed_driver.md)
		{"MLNX_OFED_LINUX-23.07-0.5.1.2:", "mlnx-ofed", "23.07-0.5.1.2"},
		// DOCA-OFED's and internal builds' ofed_info name no stack the
		// matrix tells apart: https://github.com/MrBr-github/lshca/issues/102
		{"OFED-internal-24.07-0.3.5.0.110:", "", ""},
		// mlx5_core is every NVIDIA stack's module.
		{"mlx5_core", "", ""},
	} {
		name, rel := m.SplitStack(c.in)
		id, _ := m.ResolveStack(name)
		if c.stack == "" {
			rel = ""
		}
		if id != c.stack || rel != c.release {
			t.Errorf("SplitStack(%q) = %s@%s, want %s@%s", c.in, id, rel, c.stack, c.release)
		}
	}
}

// TestPartNumberSuggestsItsGeneration: a part number the matrix lacks is
// not suggested a near-miss part number of another generation. Asked in
// public as "ConnectX-4 (MCX456A-ECAT)" (clearlinux/distribution#2581),
// it was one character from MCX556A-ECAT and suggested connectx-5; a typo
// within a part number's own prefix still finds it.
func TestPartNumberSuggestsItsGeneration(t *testing.T) {
	t.Parallel()
	m := bundled(t)
	if r := m.ResolveAdapter("MCX456A-ECAT"); r.Value != nil || slices.Contains(r.Suggest, "connectx-5") {
		t.Errorf("MCX456A-ECAT: %v, suggest %v; want no match and no connectx-5", r.Value, r.Suggest)
	}
	if r := m.ResolveAdapter("MCX556A-ECA"); r.Value != nil || !slices.Contains(r.Suggest, "connectx-5") {
		t.Errorf("MCX556A-ECA: suggest %v, want connectx-5", r.Suggest)
	}
	for f, want := range map[string]string{"mcx456aecat": "mcx4", "bcm957414a4142cc": "bcm9", "connectx6": "connectx6", "1017": ""} {
		if got := PartPrefix(f); got != want {
			t.Errorf("PartPrefix(%q) = %q, want %q", f, got, want)
		}
	}
}

// TestBroadcomPartChip holds the rule ResolveAdapter reads an unlisted
// Broadcom part number by to the part numbers the matrix lists from
// pci.ids: each names, by its chip, the adapter its row gives.
func TestBroadcomPartChip(t *testing.T) {
	t.Parallel()
	m := bundled(t)
	n := 0
	for _, pn := range m.Parts {
		chip := BroadcomPartChip(pn.Number)
		if chip == "" {
			continue
		}
		n++
		r := m.ResolveAdapter(chip)
		if r.Value == nil || r.Value.ID != pn.Adapter {
			got := ""
			if r.Value != nil {
				got = r.Value.ID
			}
			t.Errorf("part number %s (adapter %s): its chip %s resolves to %q", pn.Number, pn.Adapter, chip, got)
		}
	}
	if n < 5 {
		t.Errorf("only %d Broadcom part numbers in the matrix: the rule is not held to the data", n)
	}
}

// TestModuleDrives holds what a driver's name, given where an adapter is
// wanted, is answered with: the adapters the module drives, a module
// prefix ("mlx5") standing for every module it starts, and an Ethernet
// driver (ice) only its own adapters, not those of another Ethernet driver
// beside the same RDMA driver (irdma's X722, on i40e).
func TestModuleDrives(t *testing.T) {
	t.Parallel()
	m := bundled(t)
	for in, want := range map[string]string{
		"qedr":      "fastlinq-ql41000,fastlinq-ql45000",
		"QEDE":      "fastlinq-ql41000,fastlinq-ql45000",
		"ice":       "e830,e810-c,e810-xxv",
		"irdma":     "e830,e810-c,e810-xxv,x722",
		"mlx4":      "connectx-3,connectx-3-pro,connectx-3-vf",
		"mlx4-ib":   "connectx-3,connectx-3-pro,connectx-3-vf",
		"mlx":       "",
		"connectx5": "",
		"":          "",
	} {
		if got := strings.Join(m.ModuleDrives(in), ","); got != want {
			t.Errorf("ModuleDrives(%q) = %s, want %s", in, got, want)
		}
	}
	if mlx5, core := m.ModuleDrives("mlx5"), m.ModuleDrives("mlx5_core"); !slices.Contains(mlx5, "connectx-5") || len(mlx5) < len(core) {
		t.Errorf("ModuleDrives(mlx5) = %v, want at least mlx5_core's %v", mlx5, core)
	}
	for _, a := range m.Adapters {
		for _, mod := range []string{a.RDMADriver, a.EthDriver} {
			if mod != "" && !slices.Contains(m.ModuleDrives(mod), a.ID) {
				t.Errorf("%s is not among the adapters its driver %s drives", a.ID, mod)
			}
		}
	}
}
