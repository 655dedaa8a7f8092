package sysinfosnapshot

import (
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

// The main HTML as html_write_paragraph writes it since 3.2.0 (newlines as
// <br/>, tabs as four &nbsp;, < and > as entities, & left alone) and in
// 3.1.8 (newlines kept), with its navigation links, the index tables and a
// section that is only links; the bodies are lines of real captures.
func TestParseHTML(t *testing.T) {
	t.Parallel()
	devinfo := string(capturetest.Read(t, "ibv_devinfo", "mlx5-cx5-mlnxofed-v-truncated.txt"))
	esc := strings.NewReplacer("\t", "&nbsp;&nbsp;&nbsp;&nbsp;", "<", "&lt;", ">", "&gt;", "\n", "<br/>").Replace
	in := `<html><head><title>t</title></head><body><pre><a name="index"></a><h1>Mellanox Technologies</h1>` +
		`<h2>1. Server Commands: </h2><table><tr><td width="25%"><a href="#sec1001">ibv_devinfo -v</a></td></tr></table><p>` +
		`<a name="sec1001"></a><small><a href="#index">[back to index]</a></small> <small><a href="#sec1002">[next>>]</a></small> ` +
		`<h2>ibv_devinfo -v</h2><p>` + esc(devinfo) + `</p>` +
		`<a name="sec1002"></a><small><a href="#sec1001">[&lt;&lt;prev]</a></small> <h2>ibdev2netdev</h2><p>mlx5_0 port 1 ==&gt; ens4f0 (Down)<br/>A&amp;B</p>` +
		`<a name="sec1003"></a><h2>mst_commands_query_output</h2><p>&nbsp;&nbsp;&nbsp;&nbsp;<td><a href=firmware/flint_0000_q>flint -d 0000 q</a></td></p>` +
		"</p><a name=\"sec3001\"></a>\n<h2>/proc/modules</h2><p>mlx5_core 1 0\nib_core 2 1 &lt;x&gt;\n</p>" +
		`<a name="sec3002"></a><h2>no paragraph</h2>` +
		`<a name="sec2001"></a><h2>ibstat</h2><p>Couldn't find command: ibstat</p></pre></body></html>`
	secs, err := ParseHTML(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, s := range secs {
		titles = append(titles, s.Title)
	}
	if want := "ibv_devinfo -v|ibdev2netdev|mst_commands_query_output|/proc/modules|ibstat"; strings.Join(titles, "|") != want {
		t.Fatalf("titles %q, want %q", titles, want)
	}
	if secs[0].Body != devinfo {
		t.Errorf("ibv_devinfo -v body:\n%q\nwant\n%q", secs[0].Body, devinfo)
	}
	if secs[1].Body != "mlx5_0 port 1 ==> ens4f0 (Down)\nA&amp;B\n" {
		t.Errorf("ibdev2netdev body %q", secs[1].Body)
	}
	if secs[3].Body != "mlx5_core 1 0\nib_core 2 1 <x>\n" || secs[3].Line != 2 || secs[3].FilePath() != "proc/modules" {
		t.Errorf("/proc/modules: %+v %q", secs[3], secs[3].FilePath())
	}
	if secs[0].Missing() || !secs[4].Missing() {
		t.Errorf("missing: %v %v", secs[0].Missing(), secs[4].Missing())
	}
	for _, s := range secs[:3] {
		if s.FilePath() != "" {
			t.Errorf("%s: file path %q", s.Title, s.FilePath())
		}
	}
}

func TestParseFile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, title, body string }{
		{"Invoked Command: ibv_devinfo -v\nhca_id:\tmlx5_0\n", "ibv_devinfo -v", "hca_id:\tmlx5_0\n"},
		{"mstflint -d 01:00.0 q\nFW Version:            14.32.1900\n", "mstflint -d 01:00.0 q", "FW Version:            14.32.1900\n"},
		{"Invoked Command: lsmod", "lsmod", ""},
		{"", "", ""},
	} {
		o, ok, err := ParseFile(strings.NewReader(tc.in))
		if err != nil || ok != (tc.title != "") || o.Title != tc.title || o.Body != tc.body {
			t.Errorf("%q: %+v %v %v", tc.in, o, ok, err)
		}
	}
}

// ethtool_all_interfaces_handler's blocks: the ethtool version first (the
// line its comment shows, "#Output - ethtool version 4.8"), a block per
// option and netdev ("ethtool  eth0" for no option), a command that could
// not run, and the ethtool -S links after.
func TestSplitEthtool(t *testing.T) {
	t.Parallel()
	info := string(capturetest.Read(t, "ethtool", "mlx5_core-cx5ex-net-next-kernel-version.txt"))
	info = info[strings.Index(info, "\n")+1:] // the prompt line
	body := "ethtool version 4.8\n\n\nethtool  mlx5p1\nCould not run command: ethtool  mlx5p1\n____________\n\n" +
		"ethtool -i mlx5p1\n" + info + "____________\n\n" +
		"ethtool -g mlx5p1\nCould not run command: ethtool -g mlx5p1\n____________\n\n" +
		"ethtool -S output:\n\nethtool -S mlx5p1\n<td><a href=ethtool_S/ethtool_S_mlx5p1>ethtool -S mlx5p1</a></td>\n\n-----\n"
	got := SplitEthtool(Output{Title: "ethtool_all_interfaces", Body: body, Line: 1})
	if len(got) != 1 || got[0].Title != "ethtool -i mlx5p1" || got[0].Body != info || got[0].Line != 8 {
		t.Fatalf("%+v", got)
	}
}

func TestCommandLine(t *testing.T) {
	t.Parallel()
	uname := string(capturetest.Read(t, "paste", "centos74-uname-a-redhat-release-root-prompt.txt"))
	uname = strings.SplitN(uname, "\n", 3)[1]
	noHost := "Linux 3.10.0-693.el7.x86_64 #1 SMP Tue Aug 22 21:09:27 UTC 2017 x86_64 x86_64 x86_64 GNU/Linux\n" // uname -s -o -p -i -v -r -m prints the same words but the host's
	for _, tc := range []struct{ title, body, want string }{
		{"uname", uname, "uname -a"},
		{"uname", noHost, ""},
		{"uname -a", uname, "uname -a"},
		{"ofed_info  -s", "", "ofed_info -s"},
	} {
		if got := (Output{Title: tc.title, Body: tc.body}).CommandLine(); got != tc.want {
			t.Errorf("%q %q: %q, want %q", tc.title, tc.body, got, tc.want)
		}
	}
}

func TestExternal(t *testing.T) {
	t.Parallel()
	dmesgT := capturetest.Read(t, "kernellog", "nvme-rdma-failover-null-deref-mlx5-link-down-dmesg-T.txt")
	dmesg := capturetest.Read(t, "dmesg", "mlx5-cx4lx-log_max_qp-probe-failed-22.txt")
	for _, tc := range []struct {
		name string
		body []byte
		want string
	}{
		{"dmesg", dmesgT, "dmesg -T"},
		{"dmesg", dmesg, "dmesg"},
		{"dmesg", nil, ""},
		{"journal", nil, "journalctl -k -o short-monotonic"},
		{"pcie_files/lspci", nil, "lspci"},
		{"pcie_files/lspci_vv", nil, ""},
	} {
		if got := External(tc.name, tc.body); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
