package paste

import (
	"bytes"
	"fmt"
	"github.com/google/go-cmp/cmp"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/rocekb/rocekb/internal/capturetest"
	"github.com/rocekb/rocekb/internal/collect"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
)

// body is a real capture without its header lines: what its poster pasted.
func body(t *testing.T, tool, name string) string {
	t.Helper()
	return string(capturetest.Read(t, tool, name))
}

// TestSplitRealPastes joins four real pastes as one customer message
// would: a kernel log excerpt with no command line, then ethtool after
// its poster's user@host:~$ prompt, ibv_devinfo -vvv after a conda
// environment and [user@host dir]$, and mlxfwmanager as a bare sudo line.
func TestSplitRealPastes(t *testing.T) {
	parts := []string{
		body(t, "dmesg", "mlx5-cx4lx-renamed-from-eth0-netdev-mail.txt"),
		body(t, "ethtool", "mlx5_core-cx4lx-inbox-3.0-1.txt"),
		body(t, "ibv_devinfo", "mlx5-cx5-vvv-truncated.txt"),
		"\n" + body(t, "mlxfwmanager", "mlx5-cx4-mcx455a-two-cards-same-psid-fw-12.28-and-12.17.txt"),
	}
	paste := strings.Join(parts, "\n")
	secs, unknown, err := Split(strings.NewReader(paste))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		command, path string
		named         bool
	}{
		{"dmesg", "sos_commands/kernel/dmesg", false},
		{"ethtool -i {netdev}", "sos_commands/networking/ethtool_-i_p3p1", true},
		{"ibv_devinfo -v", "sos_commands/infiniband/ibv_devinfo_-v", true},
		{"mlxfwmanager --query", "sos_commands/kbcollect/mlxfwmanager_--query", true},
	}
	if len(secs) != len(want) {
		for _, s := range secs {
			t.Logf("section %q at line %d (%d lines)", s.Command, s.Line, s.Lines)
		}
		t.Fatalf("%d sections, want %d", len(secs), len(want))
	}
	for i, w := range want {
		if s := secs[i]; s.Command != w.command || s.Path != w.path || s.Named != w.named || s.Lines == 0 {
			t.Errorf("section %d = %q at %s (named %t, %d lines), want %q at %s (named %t)", i, s.Command, s.Path, s.Named, s.Lines, w.command, w.path, w.named)
		}
	}
	if unknown != 0 {
		t.Errorf("%d lines not filed", unknown)
	}
	if !strings.HasPrefix(secs[1].Text(), "driver: mlx5_core") {
		t.Errorf("ethtool section starts %q, want its first output line", firstLine(secs[1].Text()))
	}

	// The collector reads the paste as a capture.
	h, err := collect.Collect(snapshot.FromFS(FS(secs), "capture", "paste"))
	if err != nil {
		t.Fatal(err)
	}
	if len(h.FirmwareDevices) != 2 {
		t.Errorf("%d firmware devices from mlxfwmanager, want 2", len(h.FirmwareDevices))
	}
	if len(h.Devices) == 0 || h.Devices[0].Name != "mlx5_0" {
		t.Errorf("rdma devices %+v, want mlx5_0 from ibv_devinfo", h.Devices)
	}
	drivers := map[string]bool{}
	for _, a := range h.Adapters {
		drivers[a.Driver.Name] = true
	}
	if !drivers["mlx5_core"] {
		t.Errorf("adapters %+v: none with driver mlx5_core (ethtool, kernel log)", h.Adapters)
	}
}

// TestSplitWindowsText: a paste saved by Windows PowerShell's > (UTF-16
// with a byte order mark, CRLF line ends) or with a UTF-8 mark splits as
// the same text does.
func TestSplitWindowsText(t *testing.T) {
	t.Parallel()
	text := strings.ReplaceAll("$ ethtool -i p3p1\n"+body(t, "ethtool", "mlx5_core-cx4lx-inbox-3.0-1.txt")+"\n$ ibv_devinfo -v\n"+body(t, "ibv_devinfo", "mlx5-cx5-vvv-truncated.txt"), "\n", "\r\n")
	sections := func(b []byte) string {
		secs, unknown, err := Split(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		out := fmt.Sprint(unknown)
		for _, s := range secs {
			out += fmt.Sprintf("|%s %s %d %q", s.Command, s.Path, s.Lines, s.Text())
		}
		return out
	}
	want := sections([]byte(text))
	u16 := []byte{0xff, 0xfe}
	for _, u := range utf16.Encode([]rune(text)) {
		u16 = append(u16, byte(u), byte(u>>8))
	}
	for name, b := range map[string][]byte{"utf-16le": u16, "utf-8 with its mark": append([]byte{0xef, 0xbb, 0xbf}, text...)} {
		if got := sections(b); got != want {
			t.Errorf("%s: %s\nwant %s", name, got, want)
		}
	}
	if !strings.Contains(want, "ibv_devinfo -v") {
		t.Errorf("the text itself split into %s", want)
	}
}

// TestOtherCommandsAreLeftOut: a prompt running a command the collector
// does not read ends the section before it; its output is left out.
func TestOtherCommandsAreLeftOut(t *testing.T) {
	secs, unknown, err := Split(strings.NewReader("$ ibv_devices\n    device          \t   node GUID\n    mlx5_0          \t0c42a10300a3f0c8\n$ ls /etc/libibverbs.d\nmlx5.driver\nrxe.driver\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(secs) != 1 || secs[0].Command != "ibv_devices" || secs[0].Lines != 2 {
		t.Fatalf("sections %+v, want ibv_devices with 2 lines", secs)
	}
	if unknown != 3 {
		t.Errorf("%d lines left out, want 3 (the ls line and its output)", unknown)
	}
}

// TestOwnRulesAreRules: every rule read after another command's prompt
// is a rule.
func TestOwnRulesAreRules(t *testing.T) {
	for line := range own {
		if !slices.ContainsFunc(rules, func(r rule) bool { return r.line == line }) {
			t.Errorf("own rule %q is no rule", line)
		}
	}
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

func TestCommandLines(t *testing.T) {
	for _, c := range []struct {
		line, command string
		top, ok       bool
	}{
		{"[root@h ~]# ibv_devinfo", "ibv_devinfo", false, true},
		{"root@node1:~# sudo lspci -vvv", "lspci -vvv", false, true},
		{"$ dmesg | grep -i mlx5", "dmesg", false, true},
		{"(venv) user@h:/tmp$ rdma link show", "rdma link show", false, true},
		{"# lspci -s 3b:00.0 -vvv", "lspci -vvv", false, true},                           // closest table line
		{"modinfo mlx5_core", "modinfo {module}", true, true},                            // bare, exact with a placeholder
		{"ibv_devinfo -d mlx5_3 -v", "ibv_devinfo -v", true, true},                       // bare, the program then flags
		{"❯ rdma link show", "rdma link show", false, true},                              // zsh prompt
		{"bash-5.1$ lspci -Dnn | grep -Ei 'ethernet|network'", "lspci -nn", false, true}, // bash's default PS1
		{"sh-4.4# ibv_devinfo", "ibv_devinfo", false, true},
		{"-bash-4.2$ ofed_info -s", "ofed_info -s", false, true},
		{"ip-172-30-4-150:~ # ibstat", "ibstat", false, true},           // SUSE's root prompt (amzn-drivers#114)
		{"sles15:/tmp # rdma link show", "rdma link show", false, true}, // in another folder
		{"~$ ibstat mlx5_ib0", "ibstat", false, true},                   // PS1 "\\w\\$ " (Azure/azhpc-diagnostics#59)
		{"~/src$ ibv_devinfo", "ibv_devinfo", false, true},
		{"user@sles15:~> ibv_devinfo -v", "ibv_devinfo -v", false, true}, // SUSE's user prompt
		{"Port 1: # ibstat", "", true, false},                            // no folder, no prompt
		{"node_guid:   1ac0:4dff:feee:0c32", "", true, false},            // output
		{"bash-5.1$ hostname", "hostname", false, true},
		{"$ sudo mst start", "", false, false},                                                  // not mst status -v
		{"$ ethtool -S eth0", "", false, false},                                                 // not ethtool -i
		{"$ devlink port show", "", false, false},                                               // not devlink dev info
		{"$ devlink dev param set pci/0000:3b:00.1 name allow_fw_live_reset", "", false, false}, // sets, not devlink dev
		{"$ devlink dev reload pci/0000:3b:00.0", "", false, false},
		{"$ devlink dev eswitch show pci/0000:3b:00.0", "devlink dev", false, true}, // a report, filed as before
		{"$ rdma link list", "rdma link", false, true},                              // list is show
		{"$ rdma resource show cm_id", "rdma res show", false, true},                // rdma takes prefixes of its words
		{"# rdma res", "rdma res show", false, true},                                // show is the default
		{"$ rdma -j res show qp", "rdma res show qp", false, true},                  // JSON of the same
		{"$ rdma r s qp", "rdma res show qp", false, true},
		{"$ mlxup", "mlxup --query", false, true},                                         // queries by default
		{"#ibv_devinfo -l", "ibv_devinfo", false, true},                                   // a # prompt with no space
		{"$lspci -nn", "lspci -nn", false, true},                                          // likewise $
		{"#include <infiniband/verbs.h>", "", false, false},                               // C, not a prompt
		{"#!/bin/sh", "", true, false},                                                    // nor a shebang
		{"$ kubectl exec -n rdma pod-0 -- show_gids", "show_gids", false, true},           // in a pod
		{"$ oc exec pod-0 -c app -- ibv_devinfo -v", "ibv_devinfo -v", false, true},       // OpenShift
		{"# docker exec -it -u root ctr rdma link", "rdma link", false, true},             // in a container
		{"$ kubectl exec pod-0 -- ls /dev/infiniband", "ls /dev/infiniband", false, true}, // in a pod
		{"root@pod:/# ll /dev/infiniband/", "ls -l /dev/infiniband", false, true},         // the ll alias, a trailing slash
		{"$ ls -la /dev/infiniband/", "ls -l /dev/infiniband", false, true},               // -la is -l's report
		{"$ ls /sys/class/infiniband", "ls /sys/class/infiniband", false, true},
		{"$ ls /dev", "", false, false},                           // another folder
		{"$ docker exec ctr", "", false, false},                   // no command
		{"# ethtool ens1", "ethtool {netdev}", false, true},       // link settings, not ethtool -i
		{"# ethtool -i ens1", "ethtool -i {netdev}", false, true}, // the -i report
		{"$ devlink dev info pci/0000:0d:00.0        # the ConnectX-8 rail of the first GPU tray", "devlink dev info", false, true},
		{"uname -a: Linux h 5.10.0-7-amd64 #1 SMP Debian 5.10.42-2 (2021-06-08) x86_64", "", true, false}, // "#1" is no comment
		{"ethtool reports the driver", "", true, false},                                                   // bare prose
		{"lspci -s on the affected card:", "", true, false},                                               // prose before an output (mstflint#20)
		{"ibv_devinfo", "", false, false},                                                                 // bare, mid-output
		{"$ ls -l /tmp", "", false, false},                                                                // not a table program
		{"        link_layer:             Ethernet", "", true, false},                                     // output
	} {
		got, ok := commandLine(c.line, c.top)
		if ok != c.ok || ok && got.line != c.command {
			t.Errorf("commandLine(%q, top %t) = %q, %t; want %q, %t", c.line, c.top, got.line, ok, c.command, c.ok)
		}
	}
}

func FuzzSplit(f *testing.F) {
	capturetest.Seed(f, "dmesg", "ethtool", "ibv_devinfo", "mlxfwmanager", "lspci", "rdma", "paste")
	f.Fuzz(func(t *testing.T, b []byte) {
		secs, _, err := Split(bytes.NewReader(b))
		if err != nil {
			return
		}
		n := 0
		for _, s := range secs {
			n += s.Lines
			if _, file := tableFile(s.Path); !strings.HasPrefix(s.Path, "sos_commands/") && !file {
				t.Fatalf("section filed at %q", s.Path)
			}
		}
		if n > bytes.Count(b, []byte("\n"))+1 {
			t.Fatalf("%d lines filed from %d", n, bytes.Count(b, []byte("\n"))+1)
		}
		FS(secs)
	})
}

// TestLongLineIsCutNotFatal: a line over 1 MiB (a log line gone wrong, a
// paste without newlines) is cut there and counted; the lines after it
// are still read.
func TestLongLineIsCutNotFatal(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 3*maxLine+17)
	in := "$ dmesg\n[    1.000000] mlx5_core 0000:3b:00.0: start\n" + long + "\n[    2.000000] mlx5_core 0000:3b:00.0: end\n" +
		strings.Repeat("y", maxLine) + "\n" + strings.Repeat("z", maxLine+1)
	secs, _, err := Split(strings.NewReader(in))
	if err != nil {
		t.Fatalf("a long line is fatal: %v", err)
	}
	if len(secs) != 1 || secs[0].Cut != 2 || secs[0].Lines != 5 {
		t.Fatalf("sections %d, cut %d, lines %d; want 1 section of 5 lines, 2 cut", len(secs), secs[0].Cut, secs[0].Lines)
	}
	lines := strings.Split(strings.TrimSuffix(secs[0].Text(), "\n"), "\n")
	if len(lines[1]) != maxLine || lines[2] != "[    2.000000] mlx5_core 0000:3b:00.0: end" || len(lines[3]) != maxLine || len(lines[4]) != maxLine {
		t.Errorf("lines of %d, %q, %d, %d bytes", len(lines[1]), lines[2], len(lines[3]), len(lines[4]))
	}
}

// TestSplitRealPasteForms: real pastes in the forms people post them in. A
// code fence (```Shell, ~~~, <pre>) bounds an output and may be followed
// by a bare command line; a mail reply's "> " marks are not part of the
// output; a poster's " > note" under a command line is no prompt; a bare
// command line may carry flags the table's line has not.
func TestSplitRealPasteForms(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tool, file string
		want       []string // command and line count of each section
	}{
		{"paste", "mlx5-mlnxofed4-fenced-bare-commands-old-rdma-link.txt", []string{"ibdev2netdev 6", "rdma link 6", "ibv_devinfo -v 170"}},
		{"paste", "rxe-ibstat-notes-under-command-and-v-excerpt.txt", []string{"ibstat 19", "ibv_devinfo -v 7"}},
		{"paste", "bnxt_en-devlink-jp-mail-quoted.txt", []string{"devlink -j dev info 24"}},
		{"paste", "mlx5-show_gids-fenced-trailing-two-spaces-truncated.txt", []string{"show_gids 12"}},
		// mst start is not mst status -v: its messages are left out.
		{"paste", "mlx5-cx4lx-mst-start-then-mlxfwmanager.txt", []string{"mlxfwmanager --query 16"}},
		// flint and mstflint are read by the name sos gives their output.
		{"flint", "cx5-mstflint-q-short-bdf-with-prompt.txt", []string{"mstflint -d 18:00.0 q 13"}},
		{"flint", "cx3-flint-query-full-fs2-running-differs-truncated.txt", []string{"flint -d /dev/mst/mt4099_pci_cr0 query full 11"}},
		{"flint", "cx4lx-dell-psid-flint-query-mst-device.txt", []string{"flint -d pasted q 13"}},
		// report-hw: every line behind its command line.
		{"paste", "bnxt_en-bcm57416-report-hw-debian-installation-report-trimmed.txt", []string{"uname -a 1", "lspci -vmmkn 15", "lsmod 45"}},
		// A document converted to markdown: its prompts and text escaped.
		{"paste", "mlx5-cx6dx-centos79-markdown-escaped-redhat-release-lspci-modinfo.txt", []string{"cat /etc/redhat-release 7", "lspci -v 13", "modinfo {module} 20"}},
		// modinfo with no command line.
		{"modinfo", "ib_rxe-old-name-4.0.txt", []string{"modinfo {module} 12"}},
		// /proc/version, with its command line or alone.
		{"paste", "kylin-v10-os-release-then-proc-version.txt", []string{"cat /etc/os-release 8", "cat /proc/version 3"}},
		// Two outputs in one block with no command line: split where "Linux version" starts.
		{"paste", "kylin-v10-check-script-os-release-and-proc-version-no-commands.txt", []string{"cat /etc/os-release 12", "cat /proc/version 2"}},
		// show_gids kept in a C comment (" * " before each line, a " * $" prompt).
		{"paste", "mlx5-show_gids-in-c-block-comment.txt", []string{"show_gids 20"}},
		// rdma resource, dev and link outputs, JSON included, with or without their command lines.
		{"rdma", "mlx5-res-summary-four-devices.txt", []string{"rdma res show 4"}},
		{"rdma", "cxgb4-mlx4-res-show-cm_id-listen-connect.txt", []string{"rdma res show 6"}},
		{"rdma", "mlx5-res-show-pd-cq-mr-qp-prompts.txt", []string{"rdma res show 5", "rdma res show 7", "rdma res show 2", "rdma res show qp 5"}},
		{"rdma", "mlx5-dev-json-pretty-caps-hand-edited.txt", []string{"rdma dev show 28"}},
		{"rdma", "mlx5-ib-link-json-pretty-old-ifname-dev-port.txt", []string{"rdma link show 26"}},
		{"rdma", "hns-res-show-srq-json-raw-elided.txt", []string{"rdma res show 1"}},
		// A # prompt written against its command ("#ibv_devinfo -l").
		{"paste", "mlx4-ib-glued-hash-prompt-chinese-notes-devinfo-l.txt", []string{"ibv_devinfo 57", "ibv_devinfo 3", "ibv_devinfo 19"}},
		{"paste", "mlx5-cx4-ibv_devinfo-v-flattened-root-prompt.txt", []string{"ibv_devinfo -v 23"}},
		// The shell's "command not found" is no ofed_info output.
		{"paste", "mlx5-cx4-ofed_info-command-not-found-then-devinfo-vv.txt", []string{"ibv_devinfo -v 29"}},
		{"paste", "mlx5-show_gids-pod-prompt-v1-empty-ipv4.txt", []string{"show_gids 11"}},
		{"paste", "mlx5-cx4lx-pod-lspci-grep-kubectl-show_gids-header-only.txt", []string{"lspci -v 2", "show_gids 2"}},
		// Plain "ethtool ens1" prints link settings, not ethtool -i: filed as such.
		{"paste", "mlx4_en-cx2-ethtool-i-then-ethtool-settings.txt", []string{"lspci 1", "mstflint -d 01:00.0 q 1", "ethtool -i {netdev} 13", "ethtool {netdev} 19"}},
		// "devlink dev info pci/…   # BlueField-3": the comment is no argument.
		{"paste", "mlx5-cx8-bf3-devlink-info-trailing-shell-comments.txt", []string{"devlink dev 13", "devlink dev info 1", "devlink dev info 8", "devlink dev info 7"}},
		// Issue templates: a line in one inline code span, outputs as list items.
		{"paste", "i40iw-x722-issue-template-uname-in-code-span.txt", []string{"uname -a 13", "lspci 7"}},
		{"paste", "mlx5-cx6-ucx-template-list-items-redhat-ofed-ibstat.txt", []string{"cat /etc/redhat-release 6", "ofed_info -s 2", "ibstat 22"}},
		{"paste", "mlx5-cx7-ibv_devinfo-flattened-web-page-no-command.txt", []string{"ibv_devinfo 24"}},
		// mst status with no command line, by its header or table.
		{"mst", "bluefield3-multi-netdev.txt", []string{"mst status -v 11"}},
		{"mst", "bluefield2-dpu-no-rdma-columns.txt", []string{"mst status -v 9"}},
		// Mail-quoted: lspci through a grep, a quoted blank line, devlink dev info.
		{"paste", "ice-e830-cc-mail-quoted-lspci-grep-then-devlink-dev-info-stored-fw.txt", []string{"lspci 4", "devlink dev info 24"}},
		// mst status without -v, after mst start's messages (left out).
		{"paste", "mlx5-cx4-ib-and-cx4lx-tianhe2-mst-start-status-no-v-lspci-grep-mellanox.txt", []string{"mst status -v 13", "lspci 3"}},
		// bash's default prompt (bash-5.1$), a loop's "> " continuation
		// lines, and ethtool -i blocks after lspci -nn lines with no
		// command line, each after a line naming its netdev.
		// A remote syslog ("kern.err: Aug 15 … kernel: …") a mail wrapped
		// before each device's address: a kernel log, not lspci lines.
		{"dmesg", "bnxt_en-bcm57416-syslog-facility-prefix-mail-wrapped-tx-timeout-truncated.txt", []string{"journalctl -k --no-pager 85"}},
		// A prompt running a name the table does not know ("show_gid"):
		// its output is read by its layout, show_gids's table.
		{"show_gids", "ionic-mlx5-mi355-show_gid-mistyped-prompt-truncated.txt", []string{"show_gids 13"}},
		{"paste", "hns3-mlx5-ipoib-bash-prompt-ethtool-loop-banners.txt", []string{"lspci -nn 9", "ethtool -i {netdev} 57", "hostname 1", "ethtool -i {netdev} 56", "lspci -nn 6"}},
		// lspci with no command line is filed under the flags its layout
		// shows: -vv's registers and names with no ids; one line a device.
		{"paste", "qede-ql41212h-lspci-vvv-device-8070-lsmod-modinfo-dkms-blog.txt", []string{"lspci -vvv 81", "lsmod 4", "modinfo {module} 21"}},
		{"paste", "mthca-infinihost3-power9-mstflint-q-not-supported-lspci-class-infiniband.txt", []string{"mstflint -d 0031:01:00.0 q 1", "lspci 1"}},
	} {
		secs, _, err := Split(strings.NewReader(body(t, tc.tool, tc.file)))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range secs {
			got = append(got, fmt.Sprintf("%s %d", s.Command, s.Lines))
		}
		if strings.Join(got, ", ") != strings.Join(tc.want, ", ") {
			t.Errorf("%s: sections %q, want %q", tc.file, got, tc.want)
		}
	}
	// The fenced paste gives every device the collector can name.
	h := collectPaste(t, "mlx5-mlnxofed4-fenced-bare-commands-old-rdma-link.txt")
	if len(h.Devices) != 6 || h.Devices[0].Name != "mlx5_0" || len(h.Devices[0].Ports) != 1 || h.Devices[0].Ports[0].Netdev != "ens4f0" || h.Devices[0].Ports[0].State != "DOWN" {
		t.Errorf("devices %+v, want mlx5_0…mlx5_5, mlx5_0 port 1 DOWN on ens4f0", h.Devices)
	}
}

// TestProcVersionGivesKernelRelease: a pasted cat /proc/version names the
// kernel release, and uname -a in quotes does too.
func TestProcVersionGivesKernelRelease(t *testing.T) {
	t.Parallel()
	for file, want := range map[string]string{
		"kylin-v10-os-release-then-proc-version.txt":    "4.19.90-23.6.v2101.ky10.aarch64",
		"kylin-v10-indented-list-uname-a-in-quotes.txt": "4.19.90-52.22.v2207.ky10.aarch64",
	} {
		if h := collectPaste(t, file); h.Host.KernelRelease != want || h.Host.OS.ID != "kylin" {
			t.Errorf("%s: kernel %q, os %q; want %q, kylin", file, h.Host.KernelRelease, h.Host.OS.ID, want)
		}
	}
}

// collectPaste is the record kbcollect paste gives for a paste of
// testdata/captures/paste.
func collectPaste(t *testing.T, name string) *record.Host {
	t.Helper()
	return collectText(t, body(t, "paste", name))
}

// collectText is the record a paste gives.
func collectText(t *testing.T, text string) *record.Host {
	t.Helper()
	secs, _, err := Split(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	h, err := collect.Collect(snapshot.FromFS(FS(secs), "capture", "paste"))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestMarkdownEscapedPaste: the escapes of a document converted to
// markdown are undone, so the adapter's name and the module's file read as
// printed.
func TestMarkdownEscapedPaste(t *testing.T) {
	t.Parallel()
	h := collectPaste(t, "mlx5-cx6dx-centos79-markdown-escaped-redhat-release-lspci-modinfo.txt")
	if len(h.Adapters) != 2 || h.Adapters[0].Name != "Mellanox Technologies MT2892 Family [ConnectX-6 Dx]" || h.Host.OS.ID != "centos" {
		t.Errorf("adapters %+v, os %+v", h.Adapters, h.Host.OS)
	}
	if len(h.ModulesSeen) != 1 || h.ModulesSeen[0].Filename != "/lib/modules/3.10.0-1160.el7.x86_64/kernel/drivers/net/ethernet/mellanox/mlx5/core/mlx5_core.ko.xz" {
		t.Errorf("modules seen %+v", h.ModulesSeen)
	}
	// The conversion bracketed modinfo's padded version: "version:[        5.0-0]".
	if len(h.ModulesSeen) == 1 && h.ModulesSeen[0].Version != "5.0-0" {
		t.Errorf("module version %q, want 5.0-0", h.ModulesSeen[0].Version)
	}
}

// TestSplitLooseBlock: two real outputs pasted one after the other with
// no command line (ibdev2netdev, then ibv_devinfo from its hca_id line)
// are two sections, each read by its own parser; one output whose lines
// each name it (a kernel log) stays whole.
func TestSplitLooseBlock(t *testing.T) {
	t.Parallel()
	paste := body(t, "ibdev2netdev", "mlx5-cx6-ib-vfs-mixed-eth-starts-midway.txt") + body(t, "ibv_devinfo", "mlx5-cx5-mlnxofed-v-truncated.txt")
	secs, _, err := Split(strings.NewReader(paste))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range secs {
		got = append(got, fmt.Sprintf("%s %d", s.Command, s.Line))
	}
	n := strings.Count(body(t, "ibdev2netdev", "mlx5-cx6-ib-vfs-mixed-eth-starts-midway.txt"), "\n")
	if want := []string{"ibdev2netdev 1", fmt.Sprintf("ibv_devinfo -v %d", n+1)}; strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("sections %q, want %q", got, want)
	}
	h, err := collect.Collect(snapshot.FromFS(FS(secs), "capture", "paste"))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, d := range h.Devices {
		names[d.Name] = true
	}
	if !names["mlx5_19"] || !names["mlx5_1"] {
		t.Errorf("devices %v, want mlx5_19 (ibdev2netdev) and mlx5_1 (ibv_devinfo)", names)
	}
	log, _, _ := Split(strings.NewReader(body(t, "dmesg", "mlx5-cx4lx-renamed-from-eth0-netdev-mail.txt")))
	if len(log) != 1 {
		t.Errorf("a kernel log split in %d sections", len(log))
	}
}

// TestSplitLooseOwnOutputs: a debug script's outputs with no prompt or
// blank line before their command lines (echo lines between) are cut
// where rdma dev's lines follow rdma link's (one row, a parser each) and
// where ibstat's two-line head begins, so each is read.
func TestSplitLooseOwnOutputs(t *testing.T) {
	t.Parallel()
	name := "bnxt_re-echo-e-colour-headings-rdma-link-dev-ibstat-script-truncated.txt"
	secs, _, err := Split(strings.NewReader(body(t, "paste", name)))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range secs {
		got = append(got, fmt.Sprintf("%s %d", s.Command, s.Line))
	}
	if want := "rdma link show 1, rdma dev show 8, ibstat 15"; strings.Join(got, ", ") != want {
		t.Errorf("sections %q, want %s", got, want)
	}
	h := collectPaste(t, name)
	if len(h.Devices) != 2 {
		t.Fatalf("devices %+v, want bnxt_re0 and bnxt_re1", h.Devices)
	}
	for _, d := range h.Devices {
		if d.FwVer != "231.0.154.0" || d.Protocol != "roce" || len(d.Ports) != 1 || d.Ports[0].Netdev == "" {
			t.Errorf("%s: fw %q protocol %q ports %+v, want 231.0.154.0, roce and its netdev", d.Name, d.FwVer, d.Protocol, d.Ports)
		}
	}
	if p := h.Devices[0].Ports[0]; p.RateGbps == nil || *p.RateGbps != 100 || p.Netdev != "enp194s0f0np0" {
		t.Errorf("bnxt_re0 port 1 %+v, want 100 Gb/s (ibstat) on enp194s0f0np0 (rdma link)", p)
	}
}

// TestOldRdmaFormsBehindPrompts: rdma link as iproute2 printed it before
// v5.5.0 and rdma dev with sys_image_guid on its own line, each behind a
// prompt; ibv_devinfo under a banner, its last GUID cut short and not kept.
func TestOldRdmaFormsBehindPrompts(t *testing.T) {
	t.Parallel()
	h := collectPaste(t, "simx-rocep0s12-two-ports-old-rdma-link-dev-prompt-pr-description.txt")
	if len(h.Devices) != 1 || len(h.Devices[0].Ports) != 2 {
		t.Fatalf("devices %+v", h.Devices)
	}
	d := h.Devices[0]
	if d.FwVer != "4.4.9999" || d.PCIAddress != "" || d.Provider != "" || d.Ports[0].Netdev != "eth1" || d.Ports[1].State != "DOWN" || d.Ports[1].Netdev != "" {
		t.Errorf("rocep0s12 %+v", d)
	}
	h = collectPaste(t, "mlx5-cx5-ib-and-roce-node-banner-devinfo-per-node-truncated.txt")
	if len(h.Devices) != 2 || h.Devices[0].PCIID != "15b3:1017" || h.Devices[1].NodeGUID != "ec0d:9a03:0043:1765" {
		t.Errorf("devices %+v", h.Devices)
	}
}

// TestLsAllDevInfiniband: ls -all of /dev/infiniband keeps its character
// devices (rdma_cm, umad0 and umad2-11, uverbs0 and uverbs2-6, uverbs10
// and 11: index 1 is missing from both) and no folder (., .., by-ibdev,
// by-path); the cut last line gives none.
func TestLsAllDevInfiniband(t *testing.T) {
	t.Parallel()
	h := collectPaste(t, "unnamed-hca-ls-all-dev-infiniband-by-ibdev-by-path-eleven-umad-eight-uverbs-truncated.txt")
	var names []string
	for _, c := range h.CharDevices {
		names = append(names, c.Name)
	}
	want := "rdma_cm umad0 umad10 umad11 umad2 umad3 umad4 umad5 umad6 umad7 umad8 umad9 uverbs0 uverbs10 uverbs11 uverbs2 uverbs3 uverbs4 uverbs5 uverbs6"
	if strings.Join(names, " ") != want {
		t.Errorf("char devices %v, want %s", names, want)
	}
}

// TestRdmaResPaste: a pasted rdma resource summary names the devices.
func TestRdmaResPaste(t *testing.T) {
	t.Parallel()
	h := collectText(t, body(t, "rdma", "mlx5-res-summary-four-devices.txt"))
	if len(h.Devices) != 4 || h.Devices[3].Name != "mlx5_3" {
		t.Errorf("devices %+v, want mlx5_0…mlx5_3", h.Devices)
	}
	// QPs of one device and CQs of another, each after its prompt: both read.
	h = collectText(t, body(t, "rdma", "mlx5-res-show-qp-port-dash-before-after.txt"))
	if len(h.Devices) != 2 || h.Devices[0].Name != "mlx5_0" || h.Devices[1].Name != "rocep0s9" {
		t.Errorf("devices %+v, want mlx5_0 (QPs) and rocep0s9 (CQs)", h.Devices)
	}
}

// TestShellErrorIsNoOutput: a command line answered only by the shell's
// or sudo's "command not found" gives no output (the source stays absent);
// one with other lines is kept.
func TestShellErrorIsNoOutput(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		paste string
		want  int // sections
	}{
		{"$ ofed_info -s\n-bash: ofed_info: command not found\n", 0},
		{"$ ofed_info -s\nbash: ofed_info: command not found\n", 0},
		{"$ sudo show_gids\nsudo: show_gids: command not found\n", 0},
		{"$ ibdev2netdev\nzsh: command not found: ibdev2netdev\n", 0},
		{"$ ibstat\nsh: 1: ibstat: not found\n", 0},
		{"$ ofed_info -s\n-bash: ofed_info: command not found\nMLNX_OFED_LINUX-5.8-1.0.1.1:\n", 1},
		{"$ ofed_info -s\nMLNX_OFED_LINUX-5.8-1.0.1.1:\n", 1},
	} {
		secs, _, err := Split(strings.NewReader(c.paste))
		if err != nil {
			t.Fatal(err)
		}
		if n := len(secs); n != c.want {
			t.Errorf("%q: %d sections, want %d", c.paste, n, c.want)
		}
	}
}

// TestUnmark: the markdown an issue template puts around an output line
// that no command line heads is dropped.
func TestUnmark(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"        - MLNX_OFED_LINUX-4.9-4.1.7.0":                   "MLNX_OFED_LINUX-4.9-4.1.7.0",
		"* CentOS Linux release 7.9.2009 (Core)":                  "CentOS Linux release 7.9.2009 (Core)",
		"1. Linux h 5.4.0 #1 SMP x86_64 GNU/Linux":                "Linux h 5.4.0 #1 SMP x86_64 GNU/Linux",
		"`Linux h 3.10.0-693.el7.x86_64 #1 SMP x86_64 GNU/Linux`": "Linux h 3.10.0-693.el7.x86_64 #1 SMP x86_64 GNU/Linux",
		"- `MLNX_OFED_LINUX-5.8-1.0.1.1:`":                        "MLNX_OFED_LINUX-5.8-1.0.1.1:",
		"---\t----\t-----\t---":                                   "---\t----\t-----\t---", // show_gids' rule
		"[    2.100000] mlx5_core 0000:3b:00.0: - x":              "[    2.100000] mlx5_core 0000:3b:00.0: - x",
		"Run `ibv_devinfo` and `ibstat`":                          "Run `ibv_devinfo` and `ibstat`",
	} {
		if got := unmark(in); got != want {
			t.Errorf("unmark(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRealPasteRecords: what the record says of the real pastes whose
// forms the paste reader learned.
func TestRealPasteRecords(t *testing.T) {
	t.Parallel()
	// A pod given one of its two erdma devices: the kernel's two names
	// from ls /sys/class/infiniband, the one uverbs file of ls
	// /dev/infiniband/, verbs' one device.
	h := collectPaste(t, "erdma-pod-ls-sys-dev-infiniband-ibv_devices-partial-uverbs.txt")
	if len(h.Devices) != 2 || h.Devices[1].Name != "erdma_1" || h.Devices[1].From["name"] != "cmd/ls /sys/class/infiniband" || len(h.CharDevices) != 2 || h.CharDevices[1].Name != "uverbs0" || h.CharDevices[1].Source != "cmd/ls /dev/infiniband" {
		t.Errorf("erdma pod: devices %+v, char devices %+v", h.Devices, h.CharDevices)
	}
	// ibv_devices lists the device ibv_devinfo cannot open; ib_send_lat's
	// lines are no table command's.
	h = collectPaste(t, "iwp0s3-qemu-ibv_devices-devinfo-failed-to-open-ib_send_lat.txt")
	if len(h.Devices) != 1 || h.Devices[0].Name != "iwp0s3" || len(h.ToolMessages) != 1 || h.ToolMessages[0].Kind != "open-failed" {
		t.Errorf("qemu guest: devices %+v, messages %+v", h.Devices, h.ToolMessages)
	}
	// rdma system behind a # prompt.
	if h = collectPaste(t, "rdma-system-hash-prompt-netns-shared.txt"); h.RDMASystem == nil || h.RDMASystem.Netns != "shared" || h.RDMASystem.CopyOnFork != "on" || h.RDMASystem.From != "cmd/rdma system" {
		t.Errorf("rdma system: %+v", h.RDMASystem)
	}
	// "ofed_info: command not found": the stack source is absent, not ok.
	h = collectPaste(t, "mlx5-cx4-ofed_info-command-not-found-then-devinfo-vv.txt")
	for _, s := range h.Sources {
		if s.ID == "cmd/ofed_info -s" && s.Status != "absent" {
			t.Errorf("ofed_info -s %s, want absent", s.Status)
		}
	}
	if h.Stack != nil || len(h.Devices) != 1 || h.Devices[0].FwVer != "12.20.1820" {
		t.Errorf("stack %+v, devices %+v", h.Stack, h.Devices)
	}
	// show_gids alone: v1 GIDs on macvlan netdevs are RoCE v1.
	h = collectPaste(t, "mlx5-show_gids-pod-prompt-v1-empty-ipv4.txt")
	if len(h.Devices) != 3 || len(h.Devices[0].Ports) != 1 {
		t.Fatalf("devices %+v", h.Devices)
	}
	if c := h.Devices[0].Ports[0].GIDCounts; c.RoCEv1 != 2 || c.RoCEv2 != 2 || c.Other != 0 || c.IPv4 != 2 || h.Devices[0].Ports[0].Netdev != "net1" {
		t.Errorf("mlx5_0 port 1: %+v on %q, want 2 RoCE v1, 2 RoCE v2, 2 IPv4 on net1", c, h.Devices[0].Ports[0].Netdev)
	}
	// Plain ethtool is not filed as ethtool -i.
	h = collectPaste(t, "mlx4_en-cx2-ethtool-i-then-ethtool-settings.txt")
	for _, s := range h.Sources {
		if strings.HasPrefix(s.ID, "cmd/ethtool -i") && s.Status == "ok" && s.ID != "cmd/ethtool -i ens1" {
			t.Errorf("source %s ok", s.ID)
		}
	}
	if len(h.Adapters) != 1 || h.Adapters[0].Driver.Name != "mlx4_en" || h.Adapters[0].Firmware.Running != "2.7.700" {
		t.Errorf("adapters %+v", h.Adapters)
	}
	// ...but as ethtool <netdev>, whose Speed the netdev keeps (the paste ends before Link detected).
	if len(h.Netdevs) != 1 || h.Netdevs[0].Speed != "10000Mb/s" || h.Netdevs[0].From["speed"] != "cmd/ethtool ens1" {
		t.Errorf("netdevs %+v", h.Netdevs)
	}
	// uname -a as an inline code span gives the kernel.
	if h := collectPaste(t, "i40iw-x722-issue-template-uname-in-code-span.txt"); h.Host.KernelRelease != "3.10.0-693.21.1.el7.x86_64" || len(h.Adapters) != 7 {
		t.Errorf("kernel %q, %d adapters", h.Host.KernelRelease, len(h.Adapters))
	}
	// A converted document put the prompt in brackets and the version
	// after "version:[": MLNX_OFED's mlx5_core all the same.
	h = collectPaste(t, "mlx5-cx6dx-centos79-ofed-23.10-modinfo-bracketed-prompt-markdown-escaped.txt")
	if len(h.ModulesSeen) != 1 || h.ModulesSeen[0].Name != "mlx5_core" || h.ModulesSeen[0].Version != "23.10-1.1.9" || !strings.Contains(h.ModulesSeen[0].Filename, "/extra/mlnx-ofa_kernel/") {
		t.Errorf("modules seen %+v", h.ModulesSeen)
	}
	// A reviewer's question written between two quoted lines of devlink
	// dev info, and the mail's Cc: and Signed-off-by: lines after it, are
	// no firmware versions.
	h = collectPaste(t, "bnxt_en-devlink-info-mail-quoted-reply-interjected.txt")
	if len(h.Adapters) != 1 || h.Adapters[0].Firmware.Running != "216.0.154.32004" || len(h.Adapters[0].Firmware.Components) != 6 {
		t.Errorf("adapters %+v", h.Adapters)
	}
	// An issue template's list items: the stack and the OS.
	h = collectPaste(t, "mlx5-cx6-ucx-template-list-items-redhat-ofed-ibstat.txt")
	if h.Stack == nil || h.Stack.Name != "MLNX_OFED" || h.Stack.Version != "4.9-4.1.7.0" {
		t.Errorf("stack %+v, want MLNX_OFED 4.9-4.1.7.0", h.Stack)
	}
	if o := h.Host.OS; o.ID != "centos" || o.VersionID != "8.4.2105" || o.PrettyName != "CentOS Linux release 8.4.2105" {
		t.Errorf("os %+v", o)
	}
	if len(h.Devices) != 2 || h.Devices[0].FwVer != "20.32.1010" {
		t.Errorf("devices %+v", h.Devices)
	}
	// A # prompt glued to its command: each block is read after it.
	h = collectPaste(t, "mlx4-ib-glued-hash-prompt-chinese-notes-devinfo-l.txt")
	if len(h.Devices) != 2 || h.Devices[0].Name != "mlx4_0" || h.Devices[1].Name != "mlx4_1" || len(h.Devices[1].Ports) != 2 {
		t.Errorf("devices %+v, want mlx4_0 and mlx4_1 with two ports", h.Devices)
	}
	// ibv_devinfo with no indentation at all.
	for _, f := range []string{"mlx5-cx4-ibv_devinfo-v-flattened-root-prompt.txt", "mlx5-cx7-ibv_devinfo-flattened-web-page-no-command.txt"} {
		if h := collectPaste(t, f); len(h.Devices) != 1 || h.Devices[0].FwVer == "" || h.Devices[0].PCIID == "" {
			t.Errorf("%s: devices %+v", f, h.Devices)
		}
	}
	// A loop's ethtool -i of every netdev, each block after a line naming
	// it: every netdev with its function, the IPoIB port's driver
	// ("mlx5_core[ib_ipoib]") the module mlx5_core, of MLNX_OFED's form.
	h = collectPaste(t, "hns3-mlx5-ipoib-bash-prompt-ethtool-loop-banners.txt")
	var nds []string
	for _, nd := range h.Netdevs {
		nds = append(nds, nd.Name+" "+nd.Driver+" "+nd.PCIAddress)
	}
	if want := "enp125s0f0 hns3 0000:7d:00.0, enp189s0f0 hns3 0000:bd:00.0, enp189s0f1 hns3 0000:bd:00.1, ibp1s0 mlx5_core 0000:01:00.0, tun0 tun "; strings.Join(nds, ", ") != want {
		t.Errorf("netdevs %q, want %q", strings.Join(nds, ", "), want)
	}
	for _, a := range h.Adapters {
		if a.PCIAddress == "0000:01:00.0" && (a.Driver.Name != "mlx5_core" || a.Driver.Origin != "ofed" || a.Firmware.Running != "20.35.1012" || len(a.Netdevs) != 1 || a.Netdevs[0] != "ibp1s0") {
			t.Errorf("IPoIB adapter %+v", a)
		}
	}
	// The same loop without its banner lines (a loop that echoed no
	// names): one netdev, but every function's driver and firmware.
	var kept []string
	for _, l := range strings.Split(body(t, "paste", "hns3-mlx5-ipoib-bash-prompt-ethtool-loop-banners.txt"), "\n") {
		if !strings.HasPrefix(l, "-----") && !strings.HasPrefix(l, "=====") {
			kept = append(kept, l)
		}
	}
	h = collectText(t, strings.Join(kept, "\n"))
	var fws []string
	for _, a := range h.Adapters {
		fws = append(fws, a.PCIAddress+" "+a.Driver.Name+" "+a.Firmware.Running)
	}
	if want := "0000:01:00.0 mlx5_core 20.35.1012, 0000:7d:00.0 hns3 1.8.15.0, 0000:bd:00.0 hns3 1.8.15.0, 0000:bd:00.1 hns3 1.8.15.0"; strings.Join(fws, ", ") != want {
		t.Errorf("adapters %q, want %q", strings.Join(fws, ", "), want)
	}
	// modinfo twice: the full output, then an older install's through
	// grep. The record keeps the first whole, not its file with the
	// second's version and kernel.
	h = collectPaste(t, "mlx5-doca-24.07-debian12-lsmod-modinfo-then-older-modinfo-grep-version.txt")
	for _, m := range h.Modules {
		if m.Name == "mlx5_core" && (m.Version != "24.07-0.6.1" || m.Filename != "/lib/modules/6.1.0-25-amd64/updates/dkms/mlx5_core.ko" || m.Origin != "ofed") {
			t.Errorf("mlx5_core %+v", m)
		}
	}
	if h.Host.KernelRelease != "6.1.0-25-amd64" {
		t.Errorf("kernel %q, want 6.1.0-25-amd64", h.Host.KernelRelease)
	}
	// The grep alone: its lines are the module's its command line names.
	text := body(t, "paste", "mlx5-doca-24.07-debian12-lsmod-modinfo-then-older-modinfo-grep-version.txt")
	h = collectText(t, text[strings.Index(text, "$ modinfo mlx5_core |"):])
	if len(h.ModulesSeen) != 1 || h.ModulesSeen[0].Name != "mlx5_core" || h.ModulesSeen[0].Version != "24.01-0.3.3" || h.Host.KernelRelease != "6.1.0-20-amd64" {
		t.Errorf("modules seen %+v, kernel %q", h.ModulesSeen, h.Host.KernelRelease)
	}
	// lspci -vvv in a mail that lost its indentation and wrapped its long
	// lines: the device's whole name (which names the part when lspci
	// printed no ids), after ethtool -i of its netdev.
	h = collectPaste(t, "bnxt_en-bcm57416-mail-quoted-ethtool-i-lspci-vvv-flattened-wrapped.txt")
	if len(h.Adapters) != 1 || h.Adapters[0].Name != "Broadcom Inc. and subsidiaries BCM57416 NetXtreme-E Dual-Media 10G RDMA Ethernet Controller" ||
		h.Adapters[0].Firmware.Running != "218.0.153.0/pkg 218.0.169.0" || len(h.Adapters[0].Netdevs) != 1 {
		t.Errorf("adapters %+v", h.Adapters)
	}
	// uname -a with the host name cut out: the release is the word
	// before the build's "#47-Ubuntu", not "#47-Ubuntu"; functions in a
	// VMD domain (10006) keep it.
	h = collectPaste(t, "ice-e810c-vmd-domain-10006-modinfo-oot-1.15.4-uname-a-no-hostname.txt")
	if h.Host.KernelRelease != "6.8.0-47-generic" || len(h.Adapters) != 2 || h.Adapters[0].PCIAddress != "10006:0a:00.0" {
		t.Errorf("kernel %q, adapters %+v", h.Host.KernelRelease, h.Adapters)
	}
	// lspci -vvv of a function the host's pci.ids did not name ("QLogic
	// Corp. Device 8070"): its PCI id, with the vendor driver's modinfo.
	h = collectPaste(t, "qede-ql41212h-lspci-vvv-device-8070-lsmod-modinfo-dkms-blog.txt")
	if len(h.Adapters) != 1 || h.Adapters[0].Vendor != "1077" || h.Adapters[0].Device != "8070" || h.Adapters[0].Driver.Version != "8.33.9.0" || h.Adapters[0].Driver.Origin != "vendor" {
		t.Errorf("adapters %+v", h.Adapters)
	}
	// irdma's ibstat after a bare command line in a fence of its own,
	// its output in the next (empty CA type, "Rate: 10 (FDR10)").
	h = collectPaste(t, "irdma-e810-mtl-doc-lsmod-ibv_devices-ibstat-fenced-bare-commands.txt")
	if len(h.Devices) != 2 || h.Devices[1].Name != "irdma1" || h.Devices[1].Provider != "irdma" || len(h.Devices[1].Ports) != 1 || h.Devices[1].Ports[0].RateGbps == nil || *h.Devices[1].Ports[0].RateGbps != 10 {
		t.Errorf("devices %+v", h.Devices)
	}
	// An HCA of the serial bus class (0c06, lspci's "InfiniBand"), after
	// prose ending in a colon that names lspci: the adapter, and the
	// mstflint query that failed on it.
	h = collectPaste(t, "mthca-infinihost3-power9-mstflint-q-not-supported-lspci-class-infiniband.txt")
	if len(h.Adapters) != 1 || h.Adapters[0].PCIAddress != "0031:01:00.0" || h.Adapters[0].Name != "Mellanox Technologies MT25208 [InfiniHost III Ex]" {
		t.Errorf("adapters %+v", h.Adapters)
	}
	// Its one line, with no ids, is plain lspci's, not the prose's "lspci -s".
	for _, s := range h.Sources {
		if strings.HasPrefix(s.ID, "cmd/lspci") && s.Status == record.StatusOK && s.ID != "cmd/lspci" {
			t.Errorf("line filed as %s", s.ID)
		}
	}
	// siw after rdma link show, ibv_devinfo run by its path, and a grep
	// of lsmod: read right (no finding from the modules grep left out).
	h = collectPaste(t, "siw-rdma-link-rmmod-uverbs-ibv_devinfo-by-path-lsmod-grep.txt")
	if len(h.Devices) != 1 || h.Devices[0].Name != "siw0" || h.Devices[0].Provider != "siw" || len(h.Devices[0].Ports) != 1 || h.Devices[0].Ports[0].Netdev != "enp0s31f6" || h.Devices[0].Ports[0].State != "ACTIVE" {
		t.Errorf("devices %+v", h.Devices)
	}
	// devlink dev info after commented command lines.
	h = collectPaste(t, "mlx5-cx8-bf3-devlink-info-trailing-shell-comments.txt")
	if len(h.Adapters) != 2 || h.Adapters[0].Firmware.PSID != "NVD0000000072" || h.Adapters[1].Firmware.PSID != "MT_0000001188" {
		t.Errorf("adapters %+v", h.Adapters)
	}
}

// TestHeadingIsNoPrompt: a markdown heading or a note after a bare # is no
// prompt, so the outputs after it are read; a # prompt running a command
// the table does not read still keeps its output out.
func TestHeadingIsNoPrompt(t *testing.T) {
	for _, head := range []string{"# Environment details", "## Setup", "# notes:", "$ Output:"} {
		h := collectText(t, head+"\nCentOS Linux release 8.4.2105\nMLNX_OFED_LINUX-4.9-4.1.7.0:\n")
		if h.Host.OS.ID != "centos" || h.Stack == nil || h.Stack.Version != "4.9-4.1.7.0" {
			t.Errorf("after %q: os %+v, stack %+v", head, h.Host.OS, h.Stack)
		}
	}
	h := collectText(t, "# yum list installed\nCentOS Linux release 8.4.2105\n")
	if h.Host.OS.ID != "" {
		t.Errorf("the output of yum was read as redhat-release: %+v", h.Host.OS)
	}
}

// TestFilterIsKept: an output piped through a filter keeps the pipeline,
// so the record says the output is partial (real forms from
// testdata/captures: lsmod | grep qede, lsmod |grep rxe, a comment after);
// one through tee is whole.
func TestFilterIsKept(t *testing.T) {
	t.Parallel()
	secs, _, err := Split(strings.NewReader("root@node150:~# lsmod | grep qede\nqede                  143360  0\n$ ibv_devices | tee devices.txt\n    device          \t   node GUID\n    mlx5_0          \t0c42a10300a3f0c8\n# lsmod |grep rxe   # loaded?\nrdma_rxe              114688  0\n$ lsmod\nModule                  Size  Used by\nib_core               446464  1 rdma_rxe\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range secs {
		got = append(got, s.Command+" | "+s.Filter)
	}
	if want := "lsmod | grep qede, ibv_devices | , lsmod | grep rxe, lsmod | "; strings.Join(got, ", ") != want {
		t.Errorf("sections %q, want %q", strings.Join(got, ", "), want)
	}
}

// TestSniffLspciLayout: lspci pasted with no command line is filed under
// the table's command line its layout shows, never under flags it does
// not: real captures of each layout, their command lines taken off.
func TestSniffLspciLayout(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ tool, file, want string }{
		{"lspci", "hns3-hip08-rdma-nn-and-ethtool-loop-truncated.txt", "lspci -nn"}, // ids, one line a device
		// -nn in a quoted-printable mail, the device's ids wrapped to the next line
		{"dmesg", "mlx5-cx5-probe-failed-22-quoted-printable-mail.txt", "lspci -nn"},
		{"lspci", "mlx5-cx4-ib-v-access-denied.txt", "lspci -v"},               // Flags:, "Memory at"
		{"lspci", "mlx5-cx5ex-v-two-functions-msix.txt", "lspci -v"},           // likewise
		{"lspci", "mlx5-cx4lx-vx-hex-dump-after-capabilities.txt", "lspci -v"}, // -vx: no table line, its -v part
		{"lspci", "mlx5-cx6dx-vv-truncated.txt", "lspci -vv"},                  // Control:, Region 0:
		{"lspci", "mlx5-cx4lx-ocp-vvv-vpd-pn-link-ok.txt", "lspci -vv"},        // -vvv prints what -vv does
		{"lspci", "mlx5-cx4lx-vf-hyperv-k-long-slot.txt", "lspci -k"},          // drivers only
		{"kernellog", "mlx5-cx4lx-caller-id-stamps-mail-quoted-truncated.txt", "lspci"},
	} {
		secs, _, err := Split(strings.NewReader(body(t, tc.tool, tc.file)))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range secs {
			if strings.HasPrefix(s.Command, "lspci") {
				got = append(got, s.Command)
			}
		}
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: lspci filed as %q, want %q", tc.file, got, tc.want)
		}
	}
}

// TestSplitHeadingBeforeFence: a bare command line heading a markdown code
// block, a blank line or none between, names the block's output: one
// section, named, from the block's first line; not an empty section and
// the output loose. The block may begin with a prompt running a name the
// table does not know (show_gids's real paste, "# show_gid") or the same
// command again.
func TestSplitHeadingBeforeFence(t *testing.T) {
	t.Parallel()
	devinfo := body(t, "ibv_devinfo", "mlx4-cx3-ib-two-hcas-port2-down.txt") // "#ibv_devinfo", then the output
	output := devinfo[strings.IndexByte(devinfo, '\n')+1:]
	n := strings.Count(output, "\n")
	for _, tc := range []struct {
		name, text, cmd string
		line, lines     int
	}{
		{"show_gids, then a block run as show_gid", body(t, "show_gids", "ionic-mlx5-mi355-show_gid-mistyped-prompt-truncated.txt"), "show_gids", 4, 13},
		{"heading, blank line, block", "ibv_devinfo\n\n```text\n" + output + "```\n", "ibv_devinfo", 4, n},
		{"heading, blank lines, ~~~ block", "Devices:\n\nibv_devinfo\n\n\n~~~\n" + output + "~~~\n", "ibv_devinfo", 7, n},
		{"heading, block repeating it", "ibv_devinfo\n\n```\n" + devinfo + "```\n", "ibv_devinfo", 5, n},
	} {
		secs, _, err := Split(strings.NewReader(tc.text))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range secs {
			got = append(got, fmt.Sprintf("%s named=%v line %d, %d lines", s.Command, s.Named, s.Line, s.Lines))
		}
		want := fmt.Sprintf("%s named=true line %d, %d lines", tc.cmd, tc.line, tc.lines)
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s: sections %q, want [%q]", tc.name, got, want)
		}
	}
}

// TestSplitProseNamesBlock: prose that names a command in a code span,
// then a code block, names the block's output, as GitHub issue templates
// and blog posts write it; a block the prose did not name, or prose
// naming two commands, is read by what it says.
func TestSplitProseNamesBlock(t *testing.T) {
	t.Parallel()
	devinfo := body(t, "ibv_devinfo", "mlx4-cx3-ib-two-hcas-port2-down.txt") // "#ibv_devinfo", then the output
	output := devinfo[strings.IndexByte(devinfo, '\n')+1:]
	n := strings.Count(output, "\n")
	for _, tc := range []struct {
		name, text, want string
	}{
		// Real: UCX's issue template ("HW information from `ibstat`
		// command", then ```), and a blog post's "使用的```lspci -vvv```命令".
		{"issue template", body(t, "paste", "mlx5-cx6-ucx-template-list-items-redhat-ofed-ibstat.txt"), "ibstat named=true line 10, 22 lines"},
		{"blog, Chinese prose", body(t, "paste", "qede-ql41212h-lspci-vvv-device-8070-lsmod-modinfo-dkms-blog.txt"), "lspci -vvv named=true line 4, 81 lines"},
		{"prose, blank line, block", "Output of `ibv_devinfo`:\n\n```\n" + output + "```\n", fmt.Sprintf("ibv_devinfo named=true line 4, %d lines", n)},
		// A heading that is one code span and a note: "### `ibstat
		// mlx5_0` on c1", the command naming its device (a bare line
		// must be the table's command to the letter; code need not).
		{"heading code span naming a device", body(t, "paste", "mlx5-bf3-b3220-ib-two-hosts-code-span-headings-ibstat-grep-cut-devinfo.txt"), "ibstat named=true line 37, 35 lines"},
		{"prose naming two commands", "`ibv_devinfo` and `ibstat` say:\n```\n" + output + "```\n", fmt.Sprintf("ibv_devinfo named=false line 3, %d lines", n)},
		{"prose, then more prose", "I ran `ibstat` first.\nThen this:\n```\n" + output + "```\n", fmt.Sprintf("ibv_devinfo named=false line 4, %d lines", n)},
	} {
		secs, _, err := Split(strings.NewReader(tc.text))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range secs {
			got = append(got, fmt.Sprintf("%s named=%v line %d, %d lines", s.Command, s.Named, s.Line, s.Lines))
		}
		if !slices.Contains(got, tc.want) {
			t.Errorf("%s: sections %q, want one %q", tc.name, got, tc.want)
		}
	}
}

// TestSplitMarkdownHeadingNamesBlock: a report that heads each command's
// block with a markdown heading of the command ("### rdma link", "###
// lsmod | grep -i -E 'rxe|mlx5'（RDMA 相关内核模块）", a note after it in
// full-width parentheses) names each block; a heading that is no command
// ("### /sys/class/infiniband/", "### systemctl status rdma | head -5")
// names none, and the lsmod lines of no command line stay unread.
func TestSplitMarkdownHeadingNamesBlock(t *testing.T) {
	t.Parallel()
	secs, _, err := Split(strings.NewReader(body(t, "paste", "mlx5-cx5ex-env-check-report-markdown-headings-per-command.txt")))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range secs {
		got = append(got, fmt.Sprintf("%s|%s named=%v line %d, %d lines", s.Command, s.Filter, s.Named, s.Line, s.Lines))
	}
	want := []string{
		"rdma link| named=true line 11, 2 lines",
		"ibv_devinfo -v|head -40 named=true line 17, 19 lines",
		"modinfo {module}|head -5 named=true line 40, 5 lines",
		"lspci|grep -i -E 'mellanox|infiniband|ethernet' named=true line 49, 3 lines",
		"ip link| named=true line 70, 5 lines",
		"lsmod|grep -i -E 'rxe|mlx5' named=true line 79, 5 lines",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("sections (-want +got):\n%s", d)
	}
	secs, _, _ = Split(strings.NewReader("### Results\n```\nmlx5_ib               499712  0\n```\n"))
	if len(secs) != 0 {
		t.Errorf("a heading that is no command named %+v", secs)
	}
}

// TestSUSEPrompt: a paste whose command runs behind SUSE's root prompt
// ("ip-172-30-4-150:~ # ibstat") files the output under that command, not
// under the kernel log lines loose above it.
func TestSUSEPrompt(t *testing.T) {
	t.Parallel()
	h := collectPaste(t, "efa-dmesg-lines-then-ibstat-suse-prompt-one-space-indent.txt")
	if len(h.Devices) != 1 || h.Devices[0].Name != "efa_0" || len(h.Devices[0].Ports) != 1 || h.Devices[0].Ports[0].State != "ACTIVE" || h.Devices[0].Ports[0].LinkLayer != "Unknown" {
		t.Errorf("devices %+v, want efa_0 port 1 ACTIVE, link layer Unknown (ibstat)", h.Devices)
	}
	if len(h.Adapters) != 1 || h.Adapters[0].PCIAddress != "0000:00:07.0" {
		t.Errorf("adapters %+v, want 0000:00:07.0 (the kernel log)", h.Adapters)
	}
}

// TestSplitGrepOfFile: a grep of one file the table reads, and zcat of
// /proc/config.gz, are that file's lines through a filter, as a cat piped
// to grep is; a substitution ($(uname -r), `uname -r`) is one word. A
// recursive grep, or one of two files, is not one file's lines.
func TestSplitGrepOfFile(t *testing.T) {
	t.Parallel()
	cfg := body(t, "kconfig", "talos-1.12-config-arm64-bnxt-re-not-set.txt")
	for _, tc := range []struct {
		line, want string
	}{
		{"$ grep -i bnxt /boot/config-$(uname -r)", "cat /boot/config-$(uname -r) boot/config-$(uname -r) grep -i bnxt"},
		{"# grep INFINIBAND /boot/config-`uname -r`", "cat /boot/config-`uname -r` boot/config-`uname -r` grep INFINIBAND"},
		{"$ zcat /proc/config.gz | grep -E 'RDMA|INFINIBAND'", "cat /proc/config.gz proc/config.gz grep -E 'RDMA|INFINIBAND'"},
		{"$ grep -e BNXT -e MLX5 /boot/config-6.1.0-18-amd64", "cat /boot/config-6.1.0-18-amd64 boot/config-6.1.0-18-amd64 grep -e BNXT -e MLX5"},
		{"$ grep -E 'INFINIBAND|BNXT' /boot/config-$(uname -r)", "cat /boot/config-$(uname -r) boot/config-$(uname -r) grep -E 'INFINIBAND|BNXT'"},
		{"$ grep -r BNXT /boot/config-6.1.0-18-amd64", ""},
		{"$ grep BNXT /boot/config-6.1.0-18-amd64 /boot/config-6.1.0-17-amd64", ""},
	} {
		secs, _, err := Split(strings.NewReader(tc.line + "\n" + cfg))
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, s := range secs {
			if s.Named {
				got = s.Command + " " + s.Path + " " + s.Filter
			}
		}
		if got != tc.want {
			t.Errorf("%s: named section %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestCodeSpanOverLines: a whole terminal session inside one inline code
// span ("`~$ ls …", ibstat's lines, "Link layer: InfiniBand`"); the
// closing backtick is no part of the last value (Azure/azhpc-diagnostics#59).
func TestCodeSpanOverLines(t *testing.T) {
	t.Parallel()
	h := collectPaste(t, "mlx5-azure-ls-tab-ibpanic-an0-ibstat-ibstatus-flattened-inline-code.txt")
	var got []string
	for _, d := range h.Devices {
		for _, p := range d.Ports {
			got = append(got, d.Name+":"+p.LinkLayer+":"+p.State)
		}
	}
	if want := []string{"mlx5_an0::ACTIVE", "mlx5_ib0:InfiniBand:INIT"}; !slices.Equal(got, want) {
		t.Errorf("ports %q, want %q", got, want)
	}
	for in, want := range map[string][2]any{
		"`~$ ibstat":                     {"~$ ibstat", true},
		"Link layer: InfiniBand`":        {"Link layer: InfiniBand`", false}, // no span open
		"`uname -a`":                     {"`uname -a`", false},              // one line: unmark's
		"Run `ibv_devinfo` and `ibstat`": {"Run `ibv_devinfo` and `ibstat`", false},
	} {
		if l, open := spanMarks(in, false); l != want[0] || open != want[1] {
			t.Errorf("spanMarks(%q, false) = %q, %v; want %q, %v", in, l, open, want[0], want[1])
		}
	}
	if l, open := spanMarks("Link layer: InfiniBand`", true); l != "Link layer: InfiniBand" || open {
		t.Errorf("closing span: %q, %v", l, open)
	}
}

// TestDevinfoListByItsHeader: ibv_devinfo -l's list pasted in its own
// block, apart from its command line ("8 HCAs found:", then the names),
// is read by its header; "0 HCAs found:" names no device.
func TestDevinfoListByItsHeader(t *testing.T) {
	t.Parallel()
	h := collectText(t, body(t, "ibv_devinfo", "ionic-ainic-l-eight-hcas-doc.txt"))
	var names []string
	for _, d := range h.Devices {
		names = append(names, d.Name)
	}
	if want := []string{"ionic_0", "ionic_1", "ionic_2", "ionic_3", "ionic_4", "ionic_5", "ionic_6", "ionic_7"}; !slices.Equal(names, want) {
		t.Errorf("devices %q, want %q", names, want)
	}
	if h := collectText(t, body(t, "ibv_devinfo", "none-l-zero-hcas-found-fenced.txt")); len(h.Devices) != 0 {
		t.Errorf("0 HCAs found: devices %+v", h.Devices)
	}
	if sniff([]string{"expected output:", "2 HCAs found:", "\tmlx5_0", "\tmlx5_1"}) == nil {
		t.Error("ibv_devinfo -l's list not recognised")
	}
}

// TestHomeFolderPrompt: a prompt that is the working folder alone ("~$ ",
// bash's "\w\$ ") heads a command: node_exporter#2769's cat of a sysfs
// file and Azure/azhpc-diagnostics#59's ibstat of one device.
func TestHomeFolderPrompt(t *testing.T) {
	t.Parallel()
	h := collectText(t, body(t, "sysfs", "mlx5-board_id.txt"))
	if len(h.Devices) != 1 || h.Devices[0].Name != "mlx5_0" || h.Devices[0].BoardID != "MT_0000000222" {
		t.Errorf("devices %+v, want mlx5_0 with board_id MT_0000000222", h.Devices)
	}
	secs, _, err := Split(strings.NewReader(body(t, "paste", "mlx5-azure-ls-tab-ibpanic-an0-ibstat-ibstatus-flattened-inline-code.txt")))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range secs {
		got = append(got, fmt.Sprintf("%s@%d", s.Command, s.Line))
	}
	if want := []string{"ibstat@4", "ibstat@6", "ibstatus@27"}; !slices.Equal(got, want) {
		t.Errorf("sections %q, want %q", got, want)
	}
}

// TestFilteredLspciDoesNotHideListing: lspci -vv cut by grep to one
// "Product Name:" line lists no device; the lspci -nn line quoted in the
// same issue gives the adapter's IDs (leptonai/gpud#1164).
func TestFilteredLspciDoesNotHideListing(t *testing.T) {
	t.Parallel()
	h := collectPaste(t, "mlx5-cx7-umbriel-journal-cmd-out-err-gpud-json-lspci-quoted-networkctl.txt")
	if len(h.Adapters) != 1 || h.Adapters[0].Vendor != "15b3" || h.Adapters[0].Device != "1021" || h.Adapters[0].Driver.Name != "mlx5_core" {
		t.Errorf("adapters %+v, want 0000:d2:00.0 15b3:1021 mlx5_core", h.Adapters)
	}
}

// rxe_cfg's status table is recognised by its header when no command line
// precedes it: SoftRoCE/rxe-dev#47 put it in a fence under a markdown
// heading. Before, the paste had no recognised output at all.
func TestSniffRxeCfg(t *testing.T) {
	t.Parallel()
	secs, _, err := Split(strings.NewReader(body(t, "paste", "rxe-rxe_cfg-status-rxe0-then-ibv_rc_pingpong-g0-link-local-gids-hang.txt")))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range secs {
		got = append(got, s.Command)
	}
	if !slices.Contains(got, "rxe_cfg status") {
		t.Errorf("sections %q, want rxe_cfg status", got)
	}
}
