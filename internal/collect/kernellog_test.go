package collect

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/rocekb/rocekb/internal/capturetest"
	"github.com/rocekb/rocekb/internal/snapshot"
)

// One sosreport keeps the same kernel messages in dmesg, dmesg -T, the
// journal and /var/log/messages: each event is counted once, from the
// first place that held it, and a message that repeats in one log (two
// timeouts) is kept as often as the log that holds it most repeats it. A
// rotated, compressed file and a verbose journal (no message lines) are
// handled as what they are.
func TestKernelLogsMergedOnce(t *testing.T) {
	t.Parallel()
	const timeout = "mlx5_core 0000:01:00.0: wait_func_handle_exec_timeout:1081:(pid 3): cmd[0]: DESTROY_EQ(0x302) No done completion"
	const gid = "infiniband mlx5_0: add_roce_gid GID add failed port=1 index=0"
	fsys := fstest.MapFS{
		"sos_commands/kernel/dmesg":    {Data: []byte("[   12.000001] " + timeout + "\n")},
		"sos_commands/kernel/dmesg_-T": {Data: []byte("[Tue Dec  2 09:56:04 2025] " + timeout + "\n")},
		"sos_commands/logs/journalctl_--no-pager": {Data: []byte(
			"Dec 02 09:56:04 node1 kernel: " + timeout + "\n" +
				"Dec 02 09:56:05 node1 kernel: " + timeout + "\n" +
				"Dec 02 09:56:06 node1 kernel: " + gid + "\n")},
		"sos_commands/logs/journalctl_--no-pager_--all_--boot_--output_verbose": {Data: []byte("    MESSAGE=" + gid + "\n")},
		"var/log/messages": {Data: []byte("Dec  2 09:56:06 node1 kernel: " + gid + "\n")},
		"var/log/messages-20251201": {Data: []byte(
			"Dec  1 08:00:00 node1 kernel: [    3.1] bnxt_en 0000:3b:00.0 eno1: Error (timeout: 500015) msg {0x41 0x2c4} len:0\n")},
	}
	h, err := Collect(snapshot.FromFS(fsys, snapshot.KindSosreport, "merge"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range h.KernelLog {
		got = append(got, fmt.Sprintf("%s %s %s:%d", e.Kind, e.Device, e.Source, e.Line))
	}
	want := []string{
		"command-timeout 0000:01:00.0 cmd/dmesg:1",
		"command-timeout 0000:01:00.0 sos_commands/logs/journalctl_--no-pager:2",
		"gid-error mlx5_0 sos_commands/logs/journalctl_--no-pager:3",
		"command-timeout 0000:3b:00.0 var/log/messages-20251201:1",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	read := map[string]string{}
	for _, s := range h.Sources {
		read[s.ID] = s.Status
	}
	for _, id := range []string{"cmd/dmesg", "cmd/dmesg -T", "sos_commands/logs/journalctl_--no-pager", "var/log/messages", "var/log/messages-20251201"} {
		if read[id] != "ok" {
			t.Errorf("source %s: %q, want ok", id, read[id])
		}
	}
	if _, ok := read["sos_commands/logs/journalctl_--no-pager_--all_--boot_--output_verbose"]; ok {
		t.Error("a verbose journal was read as a log")
	}
}

// When an sosreport holds both rdma_link and rdma_link_show (two
// collectors' names for one output), both are read: a port only one of
// them lists is kept, each with the file that gave it. The two files are
// the halves of one real capture.
func TestBothRdmaLinkFilesRead(t *testing.T) {
	t.Parallel()
	lines := strings.SplitAfter(string(capturetest.Read(t, "rdma", "mlx5-link-six-ports-two-disabled.txt")), "\n")
	fsys := fstest.MapFS{
		"sos_commands/rdma/rdma_link_show": {Data: []byte(strings.Join(lines[:3], ""))},
		"sos_commands/rdma/rdma_link":      {Data: []byte(strings.Join(lines[3:], ""))},
	}
	h, err := Collect(snapshot.FromFS(fsys, snapshot.KindSosreport, "links"))
	if err != nil {
		t.Fatal(err)
	}
	from := map[string]int{}
	ports := 0
	for _, d := range h.Devices {
		for _, p := range d.Ports {
			ports++
			from[d.From[fmt.Sprintf("port.%d.state", p.Number)]]++
		}
	}
	if ports != 6 || from["cmd/rdma link show"] != 2 || from["cmd/rdma link"] != 4 {
		t.Errorf("%d ports, from %v; want 6: 2 from rdma_link_show, 4 from rdma_link", ports, from)
	}
}

// A loaded module whose own files were not copied takes the version its
// adapter's driver reports: lsmod lists mlx5_core and ethtool -i says
// 23.10-1.1.9 (DOCA-OFED), so the module is not called inbox beside an
// OFED driver of the same name. (The two captures come from two hosts,
// put together here to make the case.)
func TestModuleOriginFollowsItsDriversVersion(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"sos_commands/kernel/lsmod":                    {Data: capturetest.Read(t, "lsmod", "mlx5-inbox-grep-mlx.txt")},
		"sos_commands/networking/ethtool_-i_ens4np0":   {Data: capturetest.Read(t, "ethtool", "mlx5_core-cx7-doca-ofed-23.10.txt")},
		"sys/class/net/ens4np0/device":                 {Data: []byte("../../../0000:e6:00.0"), Mode: fs.ModeSymlink},
		"sys/bus/pci/devices/0000:e6:00.0/net/ens4np0": {Mode: fs.ModeDir | 0o555},
	}
	h, err := Collect(snapshot.FromFS(fsys, snapshot.KindSosreport, "origin"))
	if err != nil {
		t.Fatal(err)
	}
	driver, module := "", ""
	for _, a := range h.Adapters {
		if a.Driver.Name == "mlx5_core" {
			driver = a.Driver.Origin
		}
	}
	for _, m := range h.Modules {
		if m.Name == "mlx5_core" {
			module = m.Origin
		}
	}
	if driver != "ofed" || module != "ofed" {
		t.Errorf("mlx5_core: driver origin %q, module origin %q; want ofed for both", driver, module)
	}
}
