package collect

import (
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

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
