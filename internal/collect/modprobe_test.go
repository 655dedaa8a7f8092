package collect

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/rocekb/rocekb/internal/capturetest"
	"github.com/rocekb/rocekb/internal/paste"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
)

// blocks lists a record's module blocks as "module directive source:line".
func blocks(h *record.Host) []string {
	var out []string
	for _, b := range h.ModuleBlocks {
		out = append(out, b.Module+" "+b.Directive+" "+b.Source+":"+itoa(b.Line))
	}
	return out
}

func itoa(n int) string {
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	if s == "" {
		s = "0"
	}
	return s
}

// The modprobe row in an sosreport's layout: real captures where sos's
// kernel plugin copies them. A file of /lib/modprobe.d with the name of
// one in /etc/modprobe.d is hidden by it (modprobe.d(5)); a file not
// ending in .conf is not read; rules of modules outside the RDMA stack
// are not kept.
func TestModprobeRow(t *testing.T) {
	t.Parallel()
	doca := capturetest.Read(t, "modprobe", "doca-driver-container-blacklist-ofed-modules.txt")
	fsys := fstest.MapFS{
		"proc/cmdline": {Data: capturetest.Read(t, "cmdline", "snp-host-modprobe-blacklist-bnxt_re.txt")},
		"etc/modprobe.d/blacklist-ofed-modules.conf": {Data: doca},
		"lib/modprobe.d/blacklist-ofed-modules.conf": {Data: capturetest.Read(t, "modprobe", "irdma-blacklist-slurm-tools.txt")},
		"etc/modprobe.d/stig-blacklist.conf":         {Data: capturetest.Read(t, "modprobe", "stig-rockylinux10-install-true-ib-core-rdma-cm.txt")},
		"etc/modprobe.d/notes.txt":                   {Data: []byte("blacklist irdma\n")},
	}
	h, err := Collect(snapshot.FromFS(fsys, record.KindSosreport, "t"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"mlx5_core blacklist etc/modprobe.d/blacklist-ofed-modules.conf:3",
		"mlx5_ib blacklist etc/modprobe.d/blacklist-ofed-modules.conf:4",
		"ib_uverbs blacklist etc/modprobe.d/blacklist-ofed-modules.conf:6",
		"rdma_cm blacklist etc/modprobe.d/blacklist-ofed-modules.conf:8",
		"rdma_ucm blacklist etc/modprobe.d/blacklist-ofed-modules.conf:9",
		"ib_core blacklist etc/modprobe.d/blacklist-ofed-modules.conf:10",
		"ib_cm blacklist etc/modprobe.d/blacklist-ofed-modules.conf:11",
		"ib_core install etc/modprobe.d/stig-blacklist.conf:71",
		"ib_cm install etc/modprobe.d/stig-blacklist.conf:74",
		"iw_cm install etc/modprobe.d/stig-blacklist.conf:75",
		"rdma_cm install etc/modprobe.d/stig-blacklist.conf:76",
		"rdma_ucm install etc/modprobe.d/stig-blacklist.conf:77",
		"bnxt_re modprobe.blacklist proc/cmdline:1",
	}
	if d := cmp.Diff(want, blocks(h)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// A paste of cat /proc/cmdline, cat /etc/modprobe.d/*.conf and grep -r of
// the folder (the outputs are real captures; the prompt lines are added).
func TestModprobePasted(t *testing.T) {
	t.Parallel()
	in := "$ cat /proc/cmdline\n" + string(capturetest.Read(t, "cmdline", "bluefield-rshim-boot-args-mlx5_core.txt")) +
		"$ cat /etc/modprobe.d/*.conf\n" + string(capturetest.Read(t, "modprobe", "kicksecure-rdma-install-false-proposed.txt")) +
		"# grep -rn irdma /etc/modprobe.d\n/etc/modprobe.d/disable-irdma.conf:1:blacklist irdma\n"
	secs, _, err := paste.Split(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	h, err := Collect(snapshot.FromFS(paste.FS(secs), record.KindCapture, "paste"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"erdma install etc/modprobe.d/*.conf:5",
		"ionic_rdma install etc/modprobe.d/*.conf:6",
		"irdma install etc/modprobe.d/*.conf:7",
		"rdma_cm install etc/modprobe.d/*.conf:11",
		"rdma_rxe install etc/modprobe.d/*.conf:12",
		"rdma_ucm install etc/modprobe.d/*.conf:13",
		"vmw_pvrdma install etc/modprobe.d/*.conf:16",
		"mlx5_core modprobe.blacklist proc/cmdline:1",
		"irdma blacklist sos_commands/kbcollect/grep_-rn_irdma_.etc.modprobe.d:1",
	}
	if d := cmp.Diff(want, blocks(h)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if b := h.ModuleBlocks[len(h.ModuleBlocks)-1]; b.File != "/etc/modprobe.d/disable-irdma.conf" {
		t.Errorf("grep line's file = %q", b.File)
	}
}
