package collect

import (
	"slices"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/record"
)

// What the real kernel logs of testdata/captures/kernellog state, read by
// a person from each capture: the adapters (PCI functions a driver speaks
// for), the RDMA devices, and the problems (kind@device; the device as the
// line names it, "" when it names none). The record of each log-* host
// must hold them; the test reports how much of all of them it holds, and
// fails below what it holds today. A problem a person reads that the
// classifier misses is listed in missed, so the count stays honest.
func TestRealLogsStateWhatTheyHold(t *testing.T) {
	t.Parallel()
	type want struct {
		adapters, devices []string
		problems          []string
		missed            []string // stated, not yet raised
	}
	logs := map[string]want{
		"bnxt_re-bcm57416-fw-stall-qp1-warning-journal": {
			adapters: []string{"0000:12:00.0", "0000:12:00.1", "0000:d8:00.0", "0000:d8:00.1"}, devices: []string{"bnxt_re0"},
			problems: []string{"command-timeout@0000:12:00.0", "qp-error@0000:12:00.0", "qp-error@bnxt_re0", "queue-failure@bnxt_re0",
				"kernel-warning@", "command-error@0000:12:00.0"}},
		"bnxt_re-bcm57417-roce-not-supported-dmesg-wrapped-truncated":     {adapters: []string{"0000:18:00.0", "0000:18:00.1"}},
		"bnxt_re-bcm57417-roce-not-supported-messages-wrapped":            {adapters: []string{"0000:18:00.0", "0000:18:00.1"}},
		"cxgb4-t6-link-flaps-nvme-tcp-timeouts-dmesg-H-wrapped-truncated": {adapters: []string{"0000:02:00.4"}},
		"cxgb4-t6-nvme-connect-dmesg-H-wrapped-truncated":                 {adapters: []string{"0000:02:00.4", "0000:03:00.0"}},
		"efa-i4g-ib-device-registered-boot":                               {adapters: []string{"0000:00:1b.0"}, devices: []string{"efa_0"}},
		"efa-trn-dereg-mr-command-failed-22-indented": {adapters: []string{"0000:a0:1a.0"}, devices: []string{"rdmap160s26"},
			problems: []string{"command-error@0000:a0:1a.0"}},
		"hns-hip08-create-rc-qp-failed-22-sq-size": {adapters: []string{"0000:7d:00.0"}, devices: []string{"hns_0"},
			problems: []string{"qp-error@0000:7d:00.0"}},
		"hns-imp-reset-cmd-queue-init-failed-global-reset": {adapters: []string{"0000:fd:00.1"},
			problems: []string{"command-error@0000:fd:00.1", "queue-failure@0000:fd:00.1", "reset-recovery@0000:fd:00.1"}},
		"hns-reset-workqueue-flush-warning-truncated": {adapters: []string{"0000:bd:00.1"},
			problems: []string{"reset-recovery@0000:bd:00.1", "kernel-warning@"}}, // the WARNING's RDMA module is named on the line before it
		"hns-roce-async-invalid-request-local-wq-error": {adapters: []string{"0000:7d:00.0"},
			problems: []string{"async-error@0000:7d:00.0"}},
		"hns-roce-cmdq-mailbox-timeout-set-gid-failed-mail-quoted-truncated": {adapters: []string{"0000:bd:00.2"}, devices: []string{"hns_2"},
			problems: []string{"reset-recovery@0000:bd:00.2", "gid-error@0000:bd:00.2", "command-timeout@0000:bd:00.2"}},
		"irdma-ceq-vector-cpumask-warning-kernel-prefix-truncated": {problems: []string{"kernel-warning@"}},
		"irdma-e810-hw-init-failed-110-after-resume-kernel-prefix": {adapters: []string{"0000:60:00.0", "0000:60:00.1"},
			problems: []string{"queue-failure@0000:60:00.0", "queue-failure@0000:60:00.1", "probe-failure@ice.roce.1", "probe-failure@ice.roce.2"}},
		"mana-hwc-failed-destroy-wq-object-71-indented": {adapters: []string{"7870:00:00.0"},
			problems: []string{"command-error@7870:00:00.0", "queue-failure@7870:00:00.0"}},
		"mlx4-cx2-mad-ifc-module-info-i2c-failed-mail-quoted": {adapters: []string{"0000:01:00.0"},
			problems: []string{"command-error@0000:01:00.0"}},
		"mlx4-cx3-limited-x4-link-grep":           {adapters: []string{"0000:c3:00.0"}, problems: []string{"pcie-limited@0000:c3:00.0"}},
		"mlx4-sriov-create-special-qp1-failed-16": {adapters: []string{"0000:05:00.0"}, problems: []string{"qp-error@"}},
		"mlx5-cx4-cmd-entry-reg-mr-failed-journal-boot": {adapters: []string{"0000:01:00.0"}, devices: []string{"mlx5_0"},
			problems: []string{"resource-exhausted@0000:01:00.0", "command-error@mlx5_0"}},
		"mlx5-cx4-ipoib-alloc-td-failed-journal-previous-boot": {adapters: []string{"0000:01:00.0"}, devices: []string{"mlx5_0"},
			problems: []string{"resource-exhausted@0000:01:00.0", "command-error@mlx5_0", "queue-failure@0000:01:00.0", "ulp-failure@mlx5_0"}},
		"mlx5-cx4lx-caller-id-stamps-mail-quoted-truncated":       {adapters: []string{"0000:0b:00.0", "0000:0b:00.1"}},
		"mlx5-nvme-rdma-responder-error-cqe-syndrome-truncated":   {devices: []string{"rocep33s0f0"}},
		"mlx5-responder-error-cqe-repeated-truncated":             {devices: []string{"rocep33s0f0"}, problems: []string{"async-error@rocep33s0f0"}},
		"mlx5-selinux-couldnt-open-port-agents-kernel-prefix":     {devices: []string{"mlx5_0", "mlx5_2"}, problems: []string{"queue-failure@mlx5_0", "queue-failure@mlx5_2"}},
		"nvme-rdma-failover-null-deref-mlx5-link-down-dmesg-T":    {adapters: []string{"0000:02:00.0"}, problems: []string{"kernel-warning@"}},
		"qede-ql41000-probe-failed-11-grep-excerpt":               {adapters: []string{"0000:02:00.0"}, problems: []string{"probe-failure@0000:02:00.0"}},
		"rxe-dma-map-sg-warning-modules-syslog-wrapped-truncated": {problems: []string{"kernel-warning@"}}, // a WARNING in DMA code under rping
		"rxe-no-qp-matches-qpn-syslog-no-host":                    {problems: []string{"qp-error@"}},
		"rxe-reg-user-mr-umem-err-12-syslog-wrapped-tail":         {problems: []string{"resource-exhausted@"}},
		// ULP lines name no RDMA device; node-name prefixes, a device-less
		// mlx5 prefix, warnings whose RDMA part is on another line.
		"mlx5-create-dct-no-done-completion-pdsh-host-prefix-truncated":   {adapters: []string{"0000:61:00.0"}, problems: []string{"command-timeout@0000:61:00.0"}},
		"mlx5-create-mkey-bad-parameter-nvme-pi-mr-pool-no-device":        {problems: []string{"command-error@", "ulp-failure@"}},
		"nvme-rdma-connect-rejected-invalid-service-id-truncated":         {problems: []string{"ulp-failure@"}},
		"nvme-rdma-resolve-addr-failed-then-connected-broadcom-target":    {problems: []string{"ulp-failure@"}},
		"smb-direct-cifs-ib-post-send-failed-x722-iwarp-truncated":        {problems: []string{"ulp-failure@"}},
		"iser-conn-terminate-post-beacon-failed-null-deref-rxe-truncated": {problems: []string{"ulp-failure@", "kernel-warning@"}},
		"mlx5-ofed-devlink-alloc-warning-module-loading-azure-truncated":  {adapters: []string{"36fd:00:02.0"}, problems: []string{"kernel-warning@"}},
		"rxe-dma-api-warning-mlx4-cacheline-ucmatose-truncated":           {adapters: []string{"0000:00:07.0"}, problems: []string{"kernel-warning@0000:00:07.0"}},
		"ntrdma-warn-on-rqp-send-work-out-of-tree-path-truncated":         {problems: []string{"kernel-warning@"}},
		"mana-hwc-verify-version-71-then-gdma-fails":                      {adapters: []string{"7870:00:00.0"}, problems: []string{"command-error@7870:00:00.0", "probe-failure@7870:00:00.0"}},
		"rxe-failed-to-allocate-crc-algorithm":                            {problems: []string{"probe-failure@"}},
		"rpcrdma-recv-local-length-error-connectx2":                       {problems: []string{"ulp-failure@"}},
		"mlx5-cx6-health-compromised-irisc-not-responding":                {adapters: []string{"0000:5e:00.0"}, problems: []string{"async-error@0000:5e:00.0", "command-timeout@0000:5e:00.0"}},
		// i40e says the NVM is newer than it expects: a message Intel made a
		// debug one, since the driver works (fw-driver-mismatch passes it).
		"i40e-x722-newer-nvm-than-expected-mail":           {adapters: []string{"0000:3d:00.0"}, problems: []string{"firmware-mismatch@0000:3d:00.0"}},
		"i40e-newer-nvm-v1.15-than-v1.9-journal-truncated": {adapters: []string{"0000:44:00.1"}, problems: []string{"firmware-mismatch@0000:44:00.1"}},
	}
	var stated, held, statedProblems, raised int
	for _, name := range hostNames(t) {
		base, ok := strings.CutPrefix(name, "log-")
		if !ok {
			continue
		}
		w, ok := logs[base]
		if !ok {
			t.Errorf("%s: no expectations for this real log", name)
			continue
		}
		h, err := Collect(loadHost(t, name))
		if err != nil {
			t.Fatal(err)
		}
		var adapters, devices, problems []string
		for _, a := range h.Adapters {
			adapters = append(adapters, a.PCIAddress)
		}
		for _, d := range h.Devices {
			devices = append(devices, d.Name)
		}
		for _, e := range h.KernelLog {
			if failureKinds[e.Kind] {
				problems = append(problems, e.Kind+"@"+e.Device)
			}
		}
		for _, f := range append(slices.Clone(w.adapters), w.devices...) {
			stated++
			if slices.Contains(adapters, f) || slices.Contains(devices, f) {
				held++
			} else {
				t.Errorf("%s: the record lacks %s", name, f)
			}
		}
		for _, p := range w.problems {
			statedProblems++
			if slices.Contains(problems, p) {
				raised++
			} else {
				t.Errorf("%s: problem %s not raised (record has %v)", name, p, problems)
			}
		}
		statedProblems += len(w.missed)
		for _, p := range problems {
			if !slices.Contains(w.problems, p) {
				t.Errorf("%s: raised %s, which the text does not state", name, p)
			}
		}
	}
	t.Logf("real logs: %d of %d facts held, %d of %d problems raised on their device", held, stated, raised, statedProblems)
	if len(logs) < 44 {
		t.Errorf("%d real logs, want at least 44", len(logs))
	}
}

// failureKinds are the kernel log kinds that are problems.
var failureKinds = map[string]bool{
	record.LogProbeFailure: true, record.LogFirmwareProblem: true, record.LogQPError: true, record.LogAsyncError: true,
	record.LogCommandError: true, record.LogFlashFailure: true, record.LogULPFailure: true, record.LogKernelWarning: true,
	record.LogPCIeLimited: true, record.LogBARUnassigned: true, record.LogCommandTimeout: true, record.LogQueueFailure: true,
	record.LogGIDError: true, record.LogRoCEDisabled: true, record.LogResourceExhausted: true, record.LogResetRecovery: true,
	record.LogUserspaceProvider: true, record.LogSymbolMismatch: true, record.LogUnknownSymbol: true, record.LogFirmwareMismatch: true,
}
