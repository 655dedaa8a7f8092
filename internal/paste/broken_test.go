package paste

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/rocekb/rocekb/internal/diagnose"
	"github.com/rocekb/rocekb/internal/matrix"
)

// TestBrokenHostPastes: pastes from public reports of a broken RoCE host
// (testdata/captures/paste, each with its report's address) keep what the
// text holds, and the checks say what the report's resolution says.
func TestBrokenHostPastes(t *testing.T) {
	t.Parallel()
	// show_gids rows that stop after the GID or its IPv4 cell (no VER, no
	// netdev) under the full header: both GIDs of qedr0 are kept.
	h := collectPaste(t, "qedr-show_gids-no-ver-column-two-gids.txt")
	if len(h.Devices) != 1 || h.Devices[0].Name != "qedr0" || len(h.Devices[0].Ports) != 1 || len(h.Devices[0].Ports[0].GIDs) != 2 {
		t.Fatalf("devices %+v, want qedr0 with two GIDs on port 1", h.Devices)
	}
	if g := h.Devices[0].Ports[0].GIDs; g[0].Index != 0 || g[1].Index != 1 || !g[1].IPv4Mapped || g[0].IPv4Mapped {
		t.Errorf("GIDs %+v, want index 0 link-local, index 1 IPv4-mapped", g)
	}

	// mlx5's error completions with the dynamic debug on: the syndrome
	// line is kept with each, and syndrome 0x5 (flushed) is no error of
	// the device; the last one, whose syndrome was cut off, stays an
	// error completion.
	h = collectPaste(t, "mlx5-error-cqe-syndrome-0x5-dynamic-debug-nvme-rdma-truncated.txt")
	if len(h.KernelLog) != 7 || len(h.KernelLog[0].Context) != 1 || !strings.Contains(h.KernelLog[0].Context[0].Text, "syndrome 0x5,") {
		t.Fatalf("kernel log %+v, want 7 error cqe lines, each but the last with its syndrome", h.KernelLog)
	}
	// The renamed device's provider is the one whose function printed
	// the line (mlx5_poll_one: mlx5_ib), so the findings link its pages.
	if len(h.Devices) != 1 || h.Devices[0].Name != "rocep33s0f0" || h.Devices[0].Provider != "mlx5_ib" {
		t.Errorf("devices %+v, want rocep33s0f0 of mlx5_ib", h.Devices)
	}
	if got := findings(t, "mlx5-error-cqe-syndrome-0x5-dynamic-debug-nvme-rdma-truncated.txt", "rdma-log-error"); got != "warning rocep33s0f0: error completion; info rocep33s0f0: 6× flushed work completion" {
		t.Errorf("rdma-log-error: %s", got)
	}

	// A log framed by "======" lines: the frame is no part of the probe
	// failure's line.
	h = collectPaste(t, "mlx5-cx4lx-probe-einval-handle_hca_cap-equals-rules.txt")
	for _, e := range h.KernelLog {
		if strings.Contains(e.Text, "===") {
			t.Errorf("kernel log line %q holds the frame", e.Text)
		}
	}
	for _, f := range []string{"mlx5-cx4lx-probe-einval-handle_hca_cap-equals-rules.txt", "mlx5-cx4lx-probe-einval-log_max_qp-user-prompt.txt"} {
		if got := findings(t, f, "driver-probe-failed"); !strings.HasPrefix(got, "error 0000:0") || !strings.Contains(got, "mlx5_core probe failed with error -22") {
			t.Errorf("%s: driver-probe-failed: %s", f, got)
		}
	}

	// The verdicts that were right already, each what its report's
	// maintainers said or what its own lines show.
	for _, c := range []struct{ file, check, want string }{
		// libibverbs found no provider in the container: "0 HCAs found".
		{"mlx5-container-ibv_devinfo-l-no-userspace-driver-0-hcas.txt", "provider-missing", "error libibverbs cannot load a userspace provider for a device"},
		// Port 2 of the CX-4 Lx (Ethernet) and the IB mlx5_0 are down.
		{"mlx5-cx4-cx4lx-ibdev2netdev-then-ibv_devinfo-tabs-eth-port-down-truncated.txt", "no-active-port", "error mlx5_0 has no ACTIVE port; error mlx5_3 has no ACTIVE port"},
		// bnxt_re1's port was disabled; the report's GPU RDMA failure is
		// elsewhere (PCIe topology), which no paste here shows.
		{"bnxt_re-rdma-link-dev-ibstat-echo-lines-truncated.txt", "no-active-port", "warning bnxt_re1 has no ACTIVE port"},
		// rdma_rxe loaded, rxe_cfg shows no RDEV, ibv_devices lists none.
		{"rxe-lsmod-rxe_cfg-status-no-rdev-ibv_devices-empty.txt", "no-rdma-device", "warning SoftRoCE is set up, but verbs sees no RDMA device"},
		// Three active RoCE ports: nothing wrong on this host's side.
		{"mlx5-cx6dx-ibstat-three-eth-ports-active-truncated.txt", "no-active-port", ""},
		// The host's bond port is ACTIVE; NCCL's "Call to ibv_open_device
		// failed" inside the container is no output kbcollect reads.
		{"mlx5-bond-ibstatus-then-nccl-ibv_open_device-failed-in-container.txt", "no-active-port", ""},
	} {
		if got := findings(t, c.file, c.check); got != c.want {
			t.Errorf("%s: %s: %q, want %q", c.file, c.check, got, c.want)
		}
	}
	if h := collectPaste(t, "mlx5-cx6dx-ibstat-three-eth-ports-active-truncated.txt"); len(h.Devices) != 3 || h.Devices[0].FwVer != "22.38.1900" {
		t.Errorf("ibstat devices %+v, want mlx5_0…mlx5_2 at 22.38.1900", h.Devices)
	}
	if h := collectPaste(t, "mlx5-bond-ibstatus-then-nccl-ibv_open_device-failed-in-container.txt"); len(h.Devices) != 1 || h.Devices[0].Name != "mlx5_bond_0" {
		t.Errorf("ibstatus devices %+v, want mlx5_bond_0", h.Devices)
	}

	// A script's bare commands with no blank line between their outputs:
	// rdma dev and ibstat are read as themselves, not as rdma link show.
	secs, _, err := Split(strings.NewReader(body(t, "paste", "bnxt_re-rdma-link-dev-ibstat-echo-lines-truncated.txt")))
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	for _, s := range secs {
		cmds = append(cmds, s.Command)
	}
	if strings.Join(cmds, ", ") != "rdma link show, rdma dev, ibstat" {
		t.Errorf("sections %q, want rdma link show, rdma dev, ibstat", cmds)
	}
	if h := collectPaste(t, "bnxt_re-rdma-link-dev-ibstat-echo-lines-truncated.txt"); len(h.Devices) != 2 || h.Devices[0].FwVer != "231.0.154.0" || h.Devices[1].FwVer != "231.0.154.0" {
		t.Errorf("devices %+v, want bnxt_re0 and bnxt_re1 at 231.0.154.0", h.Devices)
	}

	// An application's libibverbs warnings with no command line are no
	// tool's output: the paste asks for the command (left so, since
	// filing them as ibv_devinfo would claim a run that did not happen).
	for _, f := range []string{"bnxt_re-libibverbs-kernel-abi-6-warnings-no-command-truncated.txt", "libibverbs-ibverbs-private-22-not-found-no-command-truncated.txt"} {
		if secs, _, err := Split(strings.NewReader(body(t, "paste", f))); err != nil || len(secs) != 0 {
			t.Errorf("%s: %d sections (%v), want none", f, len(secs), err)
		}
	}
}

var (
	brokenMatrix     *matrix.Matrix
	brokenMatrixOnce sync.Once
)

// findings are one check's findings on a paste's record, "severity
// message-before-the-quote" joined by "; ".
func findings(t *testing.T, name, check string) string {
	t.Helper()
	brokenMatrixOnce.Do(func() {
		m, probs := matrix.Load(os.DirFS("../../matrix"), "matrix")
		if probs.Errors() == 0 {
			brokenMatrix = m
		}
	})
	if brokenMatrix == nil {
		t.Fatal("the matrix does not load")
	}
	r, ok := diagnose.Evaluate(brokenMatrix, collectPaste(t, name), check)
	if !ok {
		t.Fatalf("no check %s", check)
	}
	var out []string
	for _, f := range r.Findings {
		msg, _, _ := strings.Cut(f.Message, " in the kernel log")
		out = append(out, fmt.Sprintf("%s %s", f.Severity, msg))
	}
	return strings.Join(out, "; ")
}
