package dmesg

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each failure kind from the format string that prints it, one message
// per provider where the provider has its own wording; the device is the
// PCI function, else the RDMA device the line names. The printf verbs
// are filled as the kernel fills them.
func TestFailureKinds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ line, kind, device string }{
		// Firmware command timeouts and stalls.
		{"mlx5_core 0000:01:00.0: wait_func_handle_exec_timeout:1081:(pid 3): cmd[0]: DESTROY_EQ(0x302) No done completion", CommandTimeout, "0000:01:00.0"},
		{"mlx5_core 0000:01:00.0: cmd_work_handler:954:(pid 9): ACCESS_REG(0x805) timeout. Will cause a leak of a command resource", CommandTimeout, "0000:01:00.0"},
		{"mlx5_core 0000:03:00.0: mlx5_function_setup:1236:(pid 182): Firmware over 120000 MS in pre-initializing state, aborting", CommandTimeout, "0000:03:00.0"},
		{"bnxt_en 0000:3b:00.0 eno1: Error (timeout: 500015) msg {0x41 0x2c4} len:0", CommandTimeout, "0000:3b:00.0"},
		{"bnxt_en 0000:3b:00.0: Error (timeout: 500015) msg {0x41 0x2c4} len:0", CommandTimeout, "0000:3b:00.0"},
		{"qed 0000:04:00.0: The MFW failed to respond to command 0x30000000 [param 0x00000000].", CommandTimeout, "0000:04:00.0"},
		{"mana 7870:00:00.0: HWC: Request timed out!", CommandTimeout, "7870:00:00.0"},
		{"infiniband bnxt_re0: bnxt_re_net_ring_free: failed to free NQ ring", "", ""},
		// Firmware command failures.
		{"mlx5_core 0000:d2:00.0: mlx5_cmd_out_err:838:(pid 1441871): ACCESS_REG(0x805) op_mod(0x1) failed, status bad operation(0x2), syndrome (0x9a6171), err(-22)", CommandError, "0000:d2:00.0"},
		{"bnxt_en 0000:3b:00.0 eno1: hwrm req_type 0x1a seq id 0x5 error 0x2", CommandError, "0000:3b:00.0"},
		// netdev mail of 2023-08-16 (paste/bnxt_en-bcm57416-mail-quoted-…).
		{"bnxt_en 0000:45:00.0 eth0: hwrm_ring_free type 1 failed. rc:fffffff0 err:0", CommandError, "0000:45:00.0"},
		{"bnxt_en 0000:45:00.0 eth0: TX timeout detected, starting reset task!", ResetRecovery, "0000:45:00.0"},
		// Hardware queues and ports.
		{"mlx5_core 0000:0b:00.0: mlx5_load:1053:(pid 13): Failed to create EQs", QueueFailure, "0000:0b:00.0"},
		{"hns_roce_hw_v2 0000:7d:00.0: failed to init eq, ret = -12.", QueueFailure, "0000:7d:00.0"},
		{"infiniband irdma0: Create CQP failed", QueueFailure, "irdma0"},
		{"mlx4_ib: mlx4_0: Couldn't open port 1", QueueFailure, "mlx4_0"},
		// GID table.
		{"__ib_cache_gid_add: unable to add gid fe80:0000:0000:0000:4600:4dff:fea7:9599 error=-28", GIDError, ""},
		{"infiniband mlx5_2: add_roce_gid GID add failed port=1 index=0", GIDError, "mlx5_2"},
		// RoCE refused at probe.
		{"bnxt_en 0000:3b:00.0: bnxt_re: probe error: RoCE is not supported on this device", RoCEDisabled, "0000:3b:00.0"},
		// ice: RDMA off, for the function (ice_main.c) or for a device
		// configured with more than four ports (ice_common.c
		// ice_recalc_port_limited_caps); dmesg/ice-e810-8-port-…
		{"ice 0000:89:00.5: RDMA is not supported on this device", RoCEDisabled, "0000:89:00.5"},
		{"ice 0000:89:00.6: RDMA functionality is not available with the current device configuration.", RoCEDisabled, "0000:89:00.6"},
		// QP creation rejected.
		{"infiniband mlx5_0: create_qp:3183:(pid 4201): Create QP type 2 failed", QPError, "mlx5_0"},
		// hns_roce "hns_roce_set_user_sq_size error for create qp" and
		// qedr "create qp: unsupported send_sge=0x%x requested
		// (max_send_sge=0x%x)": the refusal names the QP after it.
		{"hns3 0000:7d:00.0: hns_roce_set_user_sq_size error for create qp", QPError, "0000:7d:00.0"},
		{"[qedr_check_qp_attrs:1230(qedr0)]create qp: unsupported send_sge=0x10 requested (max_send_sge=0x4)", QPError, "qedr0"},
		// Resource exhaustion, reset and recovery.
		{"mlx5_core 0000:01:00.0: give_pages:413:(pid 2): page allocation failure", ResourceExhausted, "0000:01:00.0"},
		{"bnxt_en 0000:3b:00.0 eno1: Firmware reset in progress", ResetRecovery, "0000:3b:00.0"},
		{"irdma 0000:af:00.0: Requesting a reset", ResetRecovery, "0000:af:00.0"},
		{"mlx5_core 0000:01:00.0: mlx5_pci_err_detected Device state = 1 pci_status: 1. Enter, pci channel state = 2", ResetRecovery, "0000:01:00.0"},
		// A user memory registration refused (vmw_pvrdma pvrdma_mr.c,
		// mlx5_ib mr.c, rdma_rxe rxe_mr.c); with -12 it is memory that ran
		// out. The bare PCI address is the line as a report pasted it
		// (paste/pvrdma-rdma-client-…); the mlx5 line is NVIDIA/gdrcopy
		// issue 1's.
		{"vmw_pvrdma 0000:0b:00.1: could not get umem for mem region", MRFailure, "0000:0b:00.1"},
		{"0000:0b:00.1: could not get umem for mem region", MRFailure, "0000:0b:00.1"},
		{"vmw_pvrdma 0000:0b:00.1: invalid mem region length", MRFailure, "0000:0b:00.1"},
		{"vmw_pvrdma 0000:0b:00.1: overflow 600000 pages in mem region", MRFailure, "0000:0b:00.1"},
		{"vmw_pvrdma 0000:0b:00.1: could not register mem region, error: -22", MRFailure, "0000:0b:00.1"},
		{"vmw_pvrdma 0000:0b:00.1: could not register mem region, error: -12", ResourceExhausted, "0000:0b:00.1"},
		{"mlx5_warn:mlx5_0:mlx5_ib_reg_user_mr:1418:(pid 23265): umem get failed (-14)", MRFailure, "mlx5_0"},
		{"rdma_rxe: rxe_mr_init_user: Unable to pin memory region err = -14", MRFailure, ""},
		{"rdma_rxe: err -12 from rxe_umem_get", ResourceExhausted, ""},
		// A driver that is no RDMA speaker saying "mem region" is not one.
		{"foo 0000:0b:00.0: invalid mem region", "", ""},
		// ULPs name the RDMA device they failed on, not their controller.
		{"nvme nvme0: rdma connection establishment failed (-104)", ULPFailure, ""},
		{"scsi host5: ib_srp: Connection 0/8 to fe80::1 failed on mlx5_0", ULPFailure, "mlx5_0"},
		{"rpcrdma: removing device mlx5_1 for 192.0.2.1:20049 failed", ULPFailure, "mlx5_1"},
		// ib_srpt's pr_fmt is DRV_NAME " ": a space, not ": ", after its name.
		{"ib_srpt srpt_add_one(mlx5_0) failed.", ULPFailure, "mlx5_0"},
		{"ib_srpt ib_cm_listen() failed: -22 (cm_id state = 0)", ULPFailure, ""},
		// mlx5's "func:line:(pid N): " with the device name left empty.
		{"mlx5_cmd_check:810:(pid 923941): create_mkey(0x200) op_mod(0x0) failed, status bad parameter(0x3), syndrome (0x35e6ec)", CommandError, ""},
		// nvme-rdma's wordings that name no transport; CIFS only for SMB Direct.
		{"nvme nvme0: Connect rejected: status 8 (invalid service ID).", ULPFailure, ""},
		{"nvme nvme1: failed to initialize pi mr pool sized 128 for qid 1", ULPFailure, ""},
		{"CIFS: VFS: smbd_post_send:815 ib_post_send failed rc=-22", ULPFailure, ""},
		{"CIFS: VFS: \\\\172.5.5.2 Error -11 sending data on socket to server", "", ""},
		// MANA's HWC verify output and probe; a provider's set-up errno.
		{"mana 7870:00:00.0: VfVerifyVersionOutput: -71, status=0xc00000bb", CommandError, "7870:00:00.0"},
		{"mana 7870:00:00.0: gdma probe failed", ProbeFailure, "7870:00:00.0"},
		{"rdma_rxe: failed to allocate crc algorithmi err:-2", ProbeFailure, ""},
		// Format strings of the providers' command channels, filled:
		// irdma utils.c "[%s Error][op_code=%d] status=%d waiting=%d
		// completion_err=%d maj=0x%x min=0x%x" (a CQP command; -110 is its
		// wait timing out), erdma main.c "ERROR: err code = %d, cmd of
		// query capibility failed.", bnxt_re main.c "Failed to free HW
		// ring:%d :%#x" (HWRM_RING_FREE).
		{"infiniband irdma0: [Create QP Error][op_code=2] status=-110 waiting=1 completion_err=0 maj=0x0 min=0x0", CommandTimeout, "irdma0"},
		{"infiniband irdma0: [Modify QP Error][op_code=3] status=-5 waiting=1 completion_err=1 maj=0x8029 min=0x8002", CommandError, "irdma0"},
		{"erdma 0000:00:05.0: ERROR: err code = -110, cmd of query capibility failed.", CommandError, "0000:00:05.0"},
		{"infiniband bnxt_re0: Failed to free HW ring:17 :0xffffff92", CommandError, "bnxt_re0"},
		// hns_roce cmd.c "failed to post mailbox 0x%x in poll mode, ret = %d.":
		// -ETIMEDOUT is the wait running out.
		{"hns3 0000:7d:00.0: failed to post mailbox 0x29 in poll mode, ret = -110.", CommandTimeout, "0000:7d:00.0"},
		{"hns3 0000:7d:00.0: failed to post mailbox 0x29 in poll mode, ret = -16.", CommandError, "0000:7d:00.0"},
		// ib_core cache.c's port, P_Key and GID queries (the device as
		// the class prefix names it, or, before 5.x, after "for"); efa
		// efa_com.c's admin command that got no completion; irdma hw.c's
		// CQP completion with an error code; mlx4 catas.c's reset.
		{"infiniband mlx5_0: ib_query_port failed (-110)", QueueFailure, "mlx5_0"},
		{"infiniband mlx5_1: ib_query_pkey failed (-110) for index 0", QueueFailure, "mlx5_1"},
		{"ib_query_port failed (-110) for mlx4_0", QueueFailure, "mlx4_0"},
		{"ib_query_gid failed (-110) for mlx4_0 (index 0)", QueueFailure, "mlx4_0"},
		{"infiniband efa_0: The device didn't send any completion for admin cmd CREATE_QP(1) status 1 (id: 9, sq producer: 10, sq consumer: 9, cq consumer: 9)", CommandTimeout, "efa_0"},
		{"infiniband irdma0: cqp opcode = 0x1 maj_err_code = 0xffff min_err_code = 0x8029", CommandError, "irdma0"},
		{"mlx4_core 0000:82:00.0: device is going to be reset", ResetRecovery, "0000:82:00.0"},
		// bnxt_re qplib_rcfw.c "cmdq[%#x]=%#x status %#x" (a command the
		// firmware answered with an error), mlx5 cq.c "WC error: %d,
		// Message: %s" (an error completion), health.c "Driver is in error
		// state. Unloading" (a fatal error with no recovery), main.c
		// "handle_hca_cap failed" (a probe step).
		{"bnxt_en 0000:19:00.0: QPLIB: cmdq[0x4b9]=0x15 status 0x5", CommandError, "0000:19:00.0"},
		{"infiniband mlx5_0: mlx5_handle_error_cqe:333:(pid 0): WC error: 10, Message: remote access error", AsyncError, "mlx5_0"},
		{"mlx5_core 0000:98:00.0: mlx5_fw_fatal_reporter_err_work:727:(pid 12): Driver is in error state. Unloading", ResetRecovery, "0000:98:00.0"},
		{"mlx5_core 0000:01:00.0: handle_hca_cap failed", ProbeFailure, "0000:01:00.0"},
		// The RDMA device never registered: ib_core device.c, siw_main.c.
		{"infiniband mlx5_0: Couldn't set up InfiniBand P_Key/GID cache", ProbeFailure, "mlx5_0"},
		{"siw: device registration error -17", ProbeFailure, ""},
		// Not failures.
		{"infiniband bnxt_re0: Device registered with IB successfully", "", ""},
		{"mlx5_core 0000:01:00.0: firmware version: 16.35.2000", Firmware, "0000:01:00.0"},
		{"nvme nvme0: 8/0/0 default/read/poll queues", "", ""},
		{"nvme 0000:05:00.0: reset requested", "", ""},
		// hfi1 init_chip's other method (use_flr=0): the format string
		// has no verbs. A reset of the chip's registers at load is bring-up.
		{"hfi1 0000:d8:00.0: hfi1_0: Resetting CSRs with writes", "", ""},
		// A driver's init finishing after a reset is still the reset
		// (hclge_reset_rebuild; kernellog/hns3-…).
		{"hns3 0000:bd:00.1: Reset done, hclge driver initialization finished.", ResetRecovery, "0000:bd:00.1"},
	} {
		lg, _ := ParseLog(strings.NewReader("[    1.000000] " + tc.line + "\n"))
		kind, device := "", ""
		if len(lg.Events) > 0 {
			kind, device = lg.Events[0].Kind, lg.Events[0].Device
		}
		if kind != tc.kind || device != tc.device {
			t.Errorf("%s\n  = %q on %q, want %q on %q", tc.line, kind, device, tc.kind, tc.device)
		}
	}
}

// A WARNING is in RDMA code when its own line, the line before it, the
// WARN message after it (a driver of RDMA hardware speaking for its
// function, which names the device) or a module being loaded says so;
// pdsh-style node prefixes are stamps' prefixes.
func TestWarningBlocks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ log, device string }{
		{"[1.0] workqueue: WQ_MEM_RECLAIM hclge:hclge_service_task [hclge] is flushing !WQ_MEM_RECLAIM infiniband:0x0\n[1.1] WARNING: CPU: 50 PID: 2279 at ./kernel/workqueue.c:2605 check_flush_dependency+0xcc/0x140\n", ""},
		{"[1.0] WARNING: CPU: 1 PID: 2873 at lib/dma-debug.c:601 debug_dma_assert_idle+0x198/0x210()\n[1.1] mlx4_core 0000:00:07.0: DMA-API: cpu touching an active dma mapped cacheline\n", "0000:00:07.0"},
		{"[1.0] ------------[ cut here ]------------\n[1.1] WARNING: CPU: 0 PID: 14451 at net/core/foo.c:1 foo+0x37/0x1cc\n[1.2] Modules linked in: mlx5_core(OE+) mlxfw(OE) tls\n", ""},
		{"node7: [1.0] WARNING: CPU: 0 PID: 1 at drivers/infiniband/core/cma.c:1 x+0x1/0x2\n", ""},
		{"[1.0] WARNING: CPU: 0 PID: 2613 at kernel/dma/mapping.c:188 dma_map_sg_attrs+0x37/0x50\n[1.1] CPU: 0 PID: 2613 Comm: rping Tainted: G W 5.10.0-rc2+ #21\n", ""},
	} {
		lg, _ := ParseLog(strings.NewReader(tc.log))
		if len(lg.Events) != 1 || lg.Events[0].Kind != KernelWarning || lg.Events[0].Device != tc.device {
			t.Errorf("%q: %+v, want one kernel warning on %q", tc.log, lg.Events, tc.device)
		}
	}
	for _, log := range []string{
		"[1.0] WARNING: CPU: 1 PID: 2 at lib/dma-debug.c:601 x+0x1/0x2\n[1.1] e1000e 0000:00:19.0: DMA-API: cpu touching an active dma mapped cacheline\n",
		"[1.0] WARNING: CPU: 0 PID: 1 at fs/ext4/inode.c:1 x+0x1/0x2\n[1.1] Modules linked in: ext4(+) mlx5_core\n",
		"[1.0] WARNING: CPU: 0 PID: 1 at fs/ext4/inode.c:1 x+0x1/0x2\n[1.1] CPU: 0 PID: 1 Comm: ib_core_thread Not tainted\n",
	} {
		if lg, _ := ParseLog(strings.NewReader(log)); len(lg.Events) != 0 {
			t.Errorf("%q: %+v, want no event", log, lg.Events)
		}
	}
}

// Real captures of the failures above: what each line is, read by a
// person, line by line (1-based, counting the two header lines).
func TestCapturedFailureKinds(t *testing.T) {
	t.Parallel()
	for file, want := range map[string]map[int]string{
		// ib_core: the port query failed, so the device did not register.
		"ib_core-syzbot-query-port-failed-19-cache-setup-truncated.txt": {3: QueueFailure, 4: ProbeFailure, 7: KernelWarning},
		// mlx4 has no line here; mlx5's health flow: async error, then reset.
		"mlx5-cx6dx-high-temperature-fatal-health-recovery-aborted-blog.txt": {25: AsyncError, 53: AsyncError, 70: ResetRecovery, 102: ResetRecovery},
		// bnxt_re's command queue timed out, then its QP modifies failed;
		// on the target, qedr polled an error completion (DP_ERR's prefix).
		"bnxt_re-nvmeof-cmdq-timedout-modify-hw-qp-qedr-retry-mail-quoted.txt": {4: CommandTimeout, 5: QPError, 6: CommandError, 17: AsyncError},
	} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "captures", "dmesg", file))
		if err != nil {
			t.Fatal(err)
		}
		lg, _ := ParseLog(bytes.NewReader(b))
		got := map[int]string{}
		for _, ev := range lg.Events {
			got[ev.Line] = ev.Kind
		}
		for line, kind := range want {
			if got[line] != kind {
				t.Errorf("%s:%d: %q, want %q", file, line, got[line], kind)
			}
		}
	}
}

// TestBringUpResetsAreNotResets: in real boots of an Omni-Path hfi1
// adapter, the driver's reset of its registers at load ("Resetting CSRs
// with FLR", init_chip) and the end of its QSFP module's power-up reset
// ("No IntN detected, reset complete", wait_for_qsfp_init) are steps of
// bringing the port up: no event, while the logs' other lines are read as
// before (the firmware versions the driver printed).
func TestBringUpResetsAreNotResets(t *testing.T) {
	t.Parallel()
	for file, firmware := range map[string]int{
		"bnxt_re-mlx5-ib-hfi1-cxgb4-boot-ib_srpt-failed-quoted-printable-bugzilla-truncated.txt":   4,
		"hfi1-opa-boot-grep-hfi-resetting-csrs-qsfp-reset-complete-quoted-printable-truncated.txt": 4,
	} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "captures", "dmesg", file))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte("Resetting CSRs with FLR")) {
			t.Fatalf("%s: no init_chip line", file)
		}
		lg, _ := ParseLog(bytes.NewReader(b))
		n := 0
		for _, ev := range lg.Events {
			if ev.Kind == ResetRecovery {
				t.Errorf("%s:%d: %s read as a reset", file, ev.Line, ev.Text)
			}
			if ev.Kind == Firmware && strings.HasPrefix(ev.Text, "hfi1 ") {
				n++
			}
		}
		if n != firmware {
			t.Errorf("%s: %d hfi1 firmware lines, want %d", file, n, firmware)
		}
	}
}
