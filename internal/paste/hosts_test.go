package paste

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// hostsOf lists each part of text as "host/by" ("" for the part of no
// host named) and checks that every line of text is in exactly one part,
// in order, with its text.
func hostsOf(t *testing.T, name string, text []byte) []string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	seen := make([]int, len(lines)+1)
	var out []string
	for _, p := range Hosts(text) {
		out = append(out, p.Host+"/"+p.By)
		got := strings.Split(strings.TrimSuffix(string(p.Text), "\n"), "\n")
		if len(got) != len(p.Lines) {
			t.Fatalf("%s: part %q has %d lines and %d line numbers", name, p.Host, len(got), len(p.Lines))
		}
		if !slices.IsSorted(p.Lines) {
			t.Errorf("%s: part %q's lines out of order: %v", name, p.Host, p.Lines)
		}
		for i, n := range p.Lines {
			seen[n]++
			if want := strings.TrimRight(lines[n-1], "\r"); !strings.HasSuffix(want, got[i]) {
				t.Errorf("%s: part %q line %d is %q, the paste's %q", name, p.Host, n, got[i], want)
			}
		}
	}
	for n := 1; n < len(seen); n++ {
		if seen[n] != 1 {
			t.Errorf("%s: line %d is in %d parts, want 1", name, n, seen[n])
		}
	}
	return out
}

// TestHostsRealPastes: the captures whose prompts or prefixes name two
// hosts are cut by host; the lines before the first name are a part of
// their own. A bare command line after a blank line or a code fence ends
// the host a prompt named (the NCCL issue's second node's ibstat).
func TestHostsRealPastes(t *testing.T) {
	t.Parallel()
	for file, want := range map[string][]string{
		"ip/mlx5-cx5-enp1s0f0np0-mtu-9000-elided-two-hosts.txt":                                 {"/", "crow/prompt", "vulture/prompt"},
		"mlxfwmanager/mlx5-cx7-mlxup-d-bdf-fw-running-differs-prompts.txt":                      {"/", "csegpu1/prompt", "csegpu2/prompt"},
		"rdma/mlx5-res-show-pd-cq-mr-qp-prompts.txt":                                            {"/", "server/prompt", "nps-server-14-015/prompt"},
		"paste/mlx5-pod-ib_write_bw-gid-index-0-all-zero-gids-rtr-failed-truncated.txt":         {"/", "rdma-test-pod-1/prompt", "rdma-test-pod-2/prompt"},
		"ibdev2netdev/mlx5-cx5-ibm-edr-xcat-node-prefix-v-fw-before-port.txt":                   {"/", "briggs01/prompt", "mid05tor12cn02/parallel shell"},
		"paste/mlx5-cx7-nccl-two-nodes-ibstat-mlx5_5-two-node-guids-prompt-after-truncated.txt": {"/", "gh-3714u06/prompt", "gh-3714u15/prompt"},
		"rdma/ionic-link-show-two-pods-exclusive-and-shared-no-netdev-doc.txt":                  {"/", "workload/prompt", "rccl-app-5f8b8dbddb-fgr6s/prompt"},
		// Headings: a comment line titling each command ("# node01: RoCE
		// 链路检查"), and "### `ibstat mlx5_0` on c1".
		"paste/hns-kunpeng-two-nodes-rdma-link-hns_0-and-rocep189s0f0-report.txt":          {"/", "node01/heading", "node02/heading"},
		"paste/mlx5-bf3-b3220-ib-two-hosts-code-span-headings-ibstat-grep-cut-devinfo.txt": {"/", "c1/heading", "c2/heading"},
		// One host, or none named: one part, every line as it was.
		"paste/mlx5-two-pods-show_gids-mlx5_4-macvlan-no-host-named-truncated.txt":    {"/"},
		"kernellog/mlx5-create-dct-no-done-completion-pdsh-host-prefix-truncated.txt": {"b1360/parallel shell"},
		"kernellog/bnxt_re-bcm57416-fw-stall-qp1-warning-journal.txt":                 {"/"},
	} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "captures", file))
		if err != nil {
			t.Fatal(err)
		}
		if got := hostsOf(t, file, b); !slices.Equal(got, want) {
			t.Errorf("%s: parts %q, want %q", file, got, want)
		}
	}
	// The NCCL issue: both nodes' ibstat in the part of no host named,
	// the prompts' parts hold only their nvidia-smi lines.
	b, _ := os.ReadFile(filepath.Join("..", "..", "testdata", "captures", "paste", "mlx5-cx7-nccl-two-nodes-ibstat-mlx5_5-two-node-guids-prompt-after-truncated.txt"))
	ps := Hosts(b)
	if n := strings.Count(string(ps[0].Text), "CA type: MT4129"); n != 2 {
		t.Errorf("nccl: the unnamed part holds %d ibstat outputs, want 2", n)
	}
	for _, p := range ps[1:] {
		if strings.Contains(string(p.Text), "CA type:") {
			t.Errorf("nccl: %s's part holds an ibstat output: %q", p.Host, p.Text)
		}
	}
	// Every other capture names one host or none.
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "captures", "*", "*.txt"))
	several := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(hostsOf(t, f, b)) > 1 {
			several++
		}
	}
	if several != 9 {
		t.Errorf("%d captures cut in several parts, want the 9 above", several)
	}
	// Each node's rdma link in its own part; c1's two ibstat outputs and
	// c2's one in theirs, and the device info under a heading that names
	// no host back in the part of none.
	parts := func(file string) map[string]string {
		b, _ := os.ReadFile(filepath.Join("..", "..", "testdata", "captures", "paste", file))
		m := map[string]string{}
		for _, p := range Hosts(b) {
			m[p.Host] = string(p.Text)
		}
		return m
	}
	kp := parts("hns-kunpeng-two-nodes-rdma-link-hns_0-and-rocep189s0f0-report.txt")
	if !strings.Contains(kp["node01"], "link hns_0/1") || strings.Contains(kp["node01"], "rocep189s0f0") || !strings.Contains(kp["node02"], "link rocep189s0f0/1") {
		t.Errorf("kunpeng: parts %q", kp)
	}
	bf := parts("mlx5-bf3-b3220-ib-two-hosts-code-span-headings-ibstat-grep-cut-devinfo.txt")
	if strings.Count(bf["c1"], "CA 'mlx5_") != 2 || strings.Count(bf["c2"], "CA 'mlx5_") != 1 || strings.Contains(bf["c2"], "hca_id:") || !strings.Contains(bf[""], "hca_id:") {
		t.Errorf("bf3: parts %q", bf)
	}
}

// TestHostsForms: each way a paste names a host, on real lines (the
// ibv_devinfo of Heioy/Books, the kernel log lines of
// kernellog/bnxt_re-bcm57416-fw-stall-qp1-warning-journal.txt) behind the
// names as the tools print them.
func TestHostsForms(t *testing.T) {
	t.Parallel()
	devinfo := "hca_id:\tmlx4_0\n\ttransport:\t\t\tInfiniBand (0)\n\tfw_ver:\t\t\t\t2.42.5000\n"
	log1 := "Nov 29 13:04:29 pve2-xxx kernel: bnxt_en 0000:12:00.0: 63.008 Gb/s available PCIe bandwidth (8.0 GT/s PCIe x8 link)\n"
	log2 := "Nov 29 13:04:29 pve3-xxx kernel: bnxt_en 0000:12:00.0: 63.008 Gb/s available PCIe bandwidth (8.0 GT/s PCIe x8 link)\n"
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"ansible", "$ ansible gpu -a ibv_devinfo\ngpu1 | CHANGED | rc=0 >>\n" + devinfo + "gpu2 | CHANGED | rc=0 >>\n" + devinfo,
			[]string{"/", "gpu1/ansible", "gpu2/ansible"}},
		{"ansible failed", "gpu1 | FAILED | rc=127 >>\n/bin/sh: ibv_devinfo: not found\ngpu2 | CHANGED | rc=0 >>\n" + devinfo,
			[]string{"gpu1/ansible", "gpu2/ansible"}},
		{"tail headers", "$ tail -n +1 node1 node2.txt\n==> node1 <==\n" + devinfo + "\n==> node2.txt <==\n" + devinfo,
			[]string{"/", "node1/tail header", "node2/tail header"}},
		{"tail of a tool's file is no host", "==> ibv_devinfo.txt <==\n" + devinfo + "==> /var/log/messages <==\n" + log1,
			[]string{"/"}},
		{"syslog of two hosts", log1 + log2 + log1, []string{"pve2-xxx/syslog", "pve3-xxx/syslog"}},
		{"syslog of one host under another prompt name", "[root@pve2 ~]# grep bnxt /var/log/messages\n" + log1 + log1,
			[]string{"pve2/prompt"}},
		{"suse and bracketed prompts, one host each", "node1:~ # ibv_devinfo\n" + devinfo + "[root@node2 ~]# ibv_devinfo\n" + devinfo,
			[]string{"node1/prompt", "node2/prompt"}},
		{"short and long names are one host", "root@node1:~# ibv_devinfo\n" + devinfo + "user@NODE1.example.com:~$ ibv_devinfo\n" + devinfo,
			[]string{"node1/prompt"}},
		{"mail quoted, markdown escaped", "> \\[root@a1 \\~\\]# ibv_devinfo\n> hca_id:\tmlx4_0\n> \\[root@b2 \\~\\]# ibv_devinfo\n> hca_id:\tmlx4_0\n",
			[]string{"a1/prompt", "b2/prompt"}},
		{"bare prompts name no host", "$ ibv_devinfo\n" + devinfo + "# ibv_devinfo\n" + devinfo, []string{"/"}},
		{"headings", "## node1\n```\n" + devinfo + "```\n### host: node2\n" + devinfo + "**node3**\n" + devinfo,
			[]string{"node1/heading", "node2/heading", "node3/heading"}},
		{"a heading naming no host ends one", "## node1\n" + devinfo + "## node2\n" + devinfo + "## Results\n" + devinfo,
			[]string{"/", "node1/heading", "node2/heading"}},
		{"one host named by a heading names none", "## node1\n" + devinfo + "# ibv_devinfo\n" + devinfo, []string{"/"}},
		{"interfaces and steps are no hosts", "### eth0\n" + devinfo + "### eth1\n" + devinfo + "## Step1: check\n## Step2: check\n# ib0: ok\n# ib1: ok\n",
			[]string{"/"}},
	} {
		if got := hostsOf(t, c.name, []byte(c.text)); !slices.Equal(got, c.want) {
			t.Errorf("%s: parts %q, want %q", c.name, got, c.want)
		}
	}
	// A header is its host's first line.
	ps := Hosts([]byte("gpu1 | CHANGED | rc=0 >>\n" + devinfo + "gpu2 | CHANGED | rc=0 >>\n" + devinfo))
	if !strings.HasPrefix(string(ps[1].Text), "gpu2 | CHANGED") || ps[1].At != 5 || ps[1].Lines[0] != 5 {
		t.Errorf("ansible: part %q at %d", ps[1].Text, ps[1].At)
	}
}

// TestSeveralHosts: a device given two node GUIDs, or uname -a naming
// two hosts, is said; no other capture says either.
func TestSeveralHosts(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "testdata", "captures")
	b, err := os.ReadFile(filepath.Join(dir, "paste", "mlx5-cx7-nccl-two-nodes-ibstat-mlx5_5-two-node-guids-prompt-after-truncated.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := SeveralHosts(b), []string{"the paste may hold several hosts: mlx5_5 is given 2 different node GUIDs"}; !slices.Equal(got, want) {
		t.Errorf("nccl: %q, want %q", got, want)
	}
	b, err = os.ReadFile(filepath.Join(dir, "paste", "mlx5-two-pods-show_gids-mlx5_4-macvlan-no-host-named-truncated.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := SeveralHosts(b), []string{"the paste may hold several hosts: two show_gids tables list mlx5_4 port 1 with no GID in common"}; !slices.Equal(got, want) {
		t.Errorf("multus: %q, want %q", got, want)
	}
	// One table printed twice is one host's.
	first := strings.Join(strings.Split(string(b), "\n")[3:7], "\n") + "\n"
	if got := SeveralHosts([]byte(first + first)); len(got) != 0 {
		t.Errorf("one show_gids table twice: %q, want nothing", got)
	}
	two := "Linux zhdk0192 4.15.0-45-generic #48-Ubuntu SMP Tue Jan 29 16:28:13 UTC 2019 x86_64 GNU/Linux\nLinux gpu1 4.15.0-45-generic #48-Ubuntu SMP Tue Jan 29 16:28:13 UTC 2019 x86_64 GNU/Linux\n"
	if got := SeveralHosts([]byte(two)); len(got) != 1 || !strings.Contains(got[0], "uname -a names 2 different hosts") {
		t.Errorf("uname: %q", got)
	}
	// ibv_devinfo's colon-separated GUID and ibstat's 0x one are alike.
	same := "hca_id:\tmlx5_0\n\tnode_guid:\t\t\t9c63:c003:0055:48ae\nCA 'mlx5_0'\n\tNode GUID: 0x9c63c003005548ae\n"
	if got := SeveralHosts([]byte(same)); len(got) != 0 {
		t.Errorf("one GUID in two spellings: %q", got)
	}
	// Hosts c1 and c2 named only in headings ("### `ibstat mlx5_0` on c2").
	b, err = os.ReadFile(filepath.Join(dir, "paste", "mlx5-bf3-b3220-ib-two-hosts-code-span-headings-ibstat-grep-cut-devinfo.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := SeveralHosts(b), []string{"the paste may hold several hosts: mlx5_0 is given 2 different node GUIDs"}; !slices.Equal(got, want) {
		t.Errorf("bf3: %q, want %q", got, want)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.txt"))
	for _, f := range files {
		switch filepath.Base(f) {
		case "mlx5-cx7-nccl-two-nodes-ibstat-mlx5_5-two-node-guids-prompt-after-truncated.txt", "mlx5-two-pods-show_gids-mlx5_4-macvlan-no-host-named-truncated.txt",
			"mlx5-bf3-b3220-ib-two-hosts-code-span-headings-ibstat-grep-cut-devinfo.txt":
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := SeveralHosts(b); len(got) > 0 {
			t.Errorf("%s: %q", f, got)
		}
	}
}

func FuzzHosts(f *testing.F) {
	f.Add([]byte("[root@node1 ~]# ibv_devinfo\nhca_id:\tmlx4_0\n[root@node2 ~]# ibv_devinfo\nhca_id:\tmlx4_0\n"))
	f.Add([]byte("gpu1 | CHANGED | rc=0 >>\nhca_id:\tmlx4_0\ngpu2: hca_id:\tmlx4_0\ngpu2: \tfw_ver:\t2.42\n==> n3 <==\nx\n"))
	f.Add([]byte("Nov 29 13:04:29 a kernel: x\nNov 29 13:04:29 b kernel: y\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		n := len(strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"))
		seen := map[int]int{}
		for _, p := range Hosts(b) {
			for _, l := range p.Lines {
				seen[l]++
			}
		}
		if len(b) > 0 && len(seen) != n {
			t.Fatalf("%d lines in parts, want %d", len(seen), n)
		}
		for l, c := range seen {
			if c != 1 || l < 1 || l > n {
				t.Fatalf("line %d in %d parts", l, c)
			}
		}
		_ = SeveralHosts(b)
	})
}
