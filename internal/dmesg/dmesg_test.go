package dmesg

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"

	"github.com/google/go-cmp/cmp"
	"github.com/rocekb/rocekb/internal/lines"
)

func capture(t testing.TB, name string) []byte { return capturetest.Read(t, "dmesg", name) }

func errno(n int) *int { return &n }

func TestParseLog(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file string
		want []Event
	}{
		{"enic_rdma-vic-rocev2-enabled.txt", []Event{
			{Kind: DriverInit, Time: "4.025979", Module: "enic_rdma", Text: "enic_rdma: Cisco VIC Ethernet NIC RDMA Driver, ver 1.0.0.6-802.21 init", Line: 2},
			{Kind: RoCEEnabled, Time: "4.052792", Module: "enic_rdma", Device: "0000:62:00.1", Text: "enic 0000:62:00.1 eth1: enic_rdma: IPv4 RoCEv2 enabled", Line: 3},
			{Kind: RoCEEnabled, Time: "4.081032", Module: "enic_rdma", Device: "0000:62:00.2", Text: "enic 0000:62:00.2 eth2: enic_rdma: IPv4 RoCEv2 enabled", Line: 4},
		}},
		{"mlx5-cx4lx-handle_hca_cap-probe-failed-22.txt", []Event{
			{Kind: Firmware, Time: "5.376443", Module: "mlx5_core", Device: "0000:01:00.0", Text: "mlx5_core 0000:01:00.0: firmware version: 14.32.1010", Line: 1},
			// The step that failed, before the errno lines it caused.
			{Kind: ProbeFailure, Time: "5.502207", Module: "mlx5_core", Device: "0000:01:00.0", Text: "mlx5_core 0000:01:00.0: handle_hca_cap failed", Line: 2},
			{Kind: ProbeFailure, Time: "5.662202", Module: "mlx5_core", Device: "0000:01:00.0", Errno: errno(-22), Text: "mlx5_core 0000:01:00.0: mlx5_load_one failed with error code -22", Line: 3},
			{Kind: ProbeFailure, Time: "5.663152", Module: "mlx5_core", Device: "0000:01:00.0", Errno: errno(-22), Text: "mlx5_core: probe of 0000:01:00.0 failed with error -22", Line: 4},
		}},
		{"nv_peer_mem-ofed-kernel-mismatch.txt", []Event{
			{Kind: SymbolMismatch, Time: "76463.688316", Module: "nv_peer_mem", Text: "nv_peer_mem: disagrees about version of symbol ib_register_peer_memory_client", Line: 1},
			{Kind: UnknownSymbol, Time: "76463.688326", Module: "nv_peer_mem", Errno: errno(-22), Text: "nv_peer_mem: Unknown symbol ib_register_peer_memory_client (err -22)", Line: 2},
		}},
		{"mlx4-cx3-mlnxofed-4.9-compat-roce-v1-truncated.txt", []Event{
			{Kind: DriverInit, Time: "13.583341", Module: "mlx_compat", Text: "Compat-mlnx-ofed backport release: 8e3d458", Line: 2},
			{Kind: DriverInit, Time: "13.601477", Module: "mlx4_core", Text: "mlx4_core: Mellanox ConnectX core driver v4.9-7.1.0", Line: 5},
			{Kind: DriverInit, Time: "13.601516", Module: "mlx4_core", Text: "mlx4_core: Initializing 0000:41:00.0", Line: 6},
			{Kind: RoCEEnabled, Time: "18.269525", Module: "mlx4_core", Text: "mlx4_core: device is working in RoCE mode: Roce V1", Line: 7},
			{Kind: DriverInit, Time: "20.138677", Module: "mlx4_en", Text: "mlx4_en: Mellanox ConnectX HCA Ethernet driver v4.9-7.1.0", Line: 11},
		}},
		{"mlx5-cx4lx-systemd-found-device.txt", nil},
	} {
		got, err := ParseLog(bytes.NewReader(capture(t, tc.file)))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(tc.want, got.Events); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, d)
		}
	}
}

// Mail clients wrap long lines; the continuation has no timestamp and is
// joined to its message, so the error code is still found.
func TestWrappedContinuation(t *testing.T) {
	t.Parallel()
	got, _ := ParseLog(bytes.NewReader(capture(t, "mlx5-cx4lx-create-eq-probe-failed-22-wrapped.txt")))
	var kinds []string
	for _, e := range got.Events {
		kinds = append(kinds, fmt.Sprintf("%s:%s:%d", e.Kind, e.Device, e.Line))
	}
	want := []string{"command-error:0000:0b:00.0:1", "queue-failure:0000:0b:00.0:3", "queue-failure:0000:0b:00.0:5", "queue-failure:0000:0b:00.0:7",
		"probe-failure:0000:0b:00.0:8", "probe-failure:0000:0b:00.0:10", "firmware:0000:0b:00.1:12",
		"command-error:0000:0b:00.1:15", "queue-failure:0000:0b:00.1:17", "queue-failure:0000:0b:00.1:19", "queue-failure:0000:0b:00.1:21",
		"probe-failure:0000:0b:00.1:22", "probe-failure:0000:0b:00.1:24"}
	if d := cmp.Diff(want, kinds); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if !strings.HasSuffix(got.Events[4].Text, "mlx5_load_one failed with error code -22") {
		t.Errorf("continuation not joined: %q", got.Events[4].Text)
	}
}

// TestSyslogFacilityMailWrapped: a remote syslog whose lines carry their
// facility and severity first ("kern.err: Aug 15 12:21:39 host kernel:
// [325978.631877] bnxt_en"), quoted in a mail that wrapped each message
// after the driver's name, its device's address starting the next line.
func TestSyslogFacilityMailWrapped(t *testing.T) {
	t.Parallel()
	got, _ := ParseLog(bytes.NewReader(capture(t, "bnxt_en-bcm57416-syslog-facility-prefix-mail-wrapped-tx-timeout-truncated.txt")))
	var kinds []string
	for _, e := range got.Events {
		kinds = append(kinds, fmt.Sprintf("%s:%s:%s:%d", e.Kind, e.Module, e.Device, e.Line))
	}
	want := []string{"reset-recovery:bnxt_en:0000:45:00.0:4", "reset-recovery:bnxt_en:0000:45:00.0:62",
		"command-error:bnxt_en:0000:45:00.0:66", "command-error:bnxt_en:0000:45:00.0:70", "command-error:bnxt_en:0000:45:00.0:74",
		"command-error:bnxt_en:0000:45:00.0:78", "command-error:bnxt_en:0000:45:00.0:82"}
	if d := cmp.Diff(want, kinds); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if len(got.Events) > 0 && (got.Events[0].Time != "Aug 15 12:21:39" || got.Events[0].Text != "bnxt_en 0000:45:00.0 eth0: TX timeout detected, starting reset task!") {
		t.Errorf("first event %+v", got.Events[0])
	}
}

// The same message in each timestamp format a snapshot can hold.
func TestTimestampFormats(t *testing.T) {
	t.Parallel()
	const msg = "mlx5_core: probe of 0000:01:00.0 failed with error -22"
	for stamp, want := range map[string]string{
		"[    5.663152] ":                           "5.663152",
		"[Mon Nov 30 09:00:00 2026] ":               "Mon Nov 30 09:00:00 2026",
		"2026-11-30T09:00:00,123456+00:00 ":         "2026-11-30T09:00:00,123456+00:00",
		"2026-11-30T09:00:00+0000 host1 kernel: ":   "2026-11-30T09:00:00+0000",
		"Nov 30 09:00:00 host1 kernel: ":            "Nov 30 09:00:00",
		"Nov  3 09:00:00 host1 kernel: [5.663152] ": "Nov  3 09:00:00",
		// journalctl -o short-precise, short-iso-precise, short-full.
		"Nov 30 09:00:00.123456 host1 kernel: ":                 "Nov 30 09:00:00.123456",
		"2026-11-30T09:00:00.123456+00:00 host1 kernel: ":       "2026-11-30T09:00:00.123456+00:00",
		"Mon 2026-11-30 09:00:00 UTC host1 kernel: ":            "Mon 2026-11-30 09:00:00 UTC",
		"<3>Nov 30 09:00:00 host1 kernel: ":                     "Nov 30 09:00:00",
		"<3>[    5.663152] ":                                    "5.663152",
		"kern  :err   : [    5.663152] ":                        "5.663152",
		"kern  :err   : [Mon Nov 30 09:00:00 2026] ":            "Mon Nov 30 09:00:00 2026",
		"Nov 30 09:00:00 host1.example.com kernel: [  5.6631] ": "Nov 30 09:00:00",
		"Nov 30 09:00:00  kernel: ":                             "Nov 30 09:00:00", // no host
		"kernel: ":                                              "",                // journalctl -o cat with identifiers
		// journalctl -o short-monotonic, with and without --no-hostname;
		// short-delta, with a delta and without; short-unix.
		"[  123.456789] host1 kernel: ":                 "123.456789",
		"[  123.456789] kernel: ":                       "123.456789",
		"[  123.456789 <    0.000123 >] host1 kernel: ": "123.456789",
		"[  123.456789 <    4.000123*>] host1 kernel: ": "123.456789",
		"[  123.456789                ] host1 kernel: ": "123.456789",
		"1764666000.123456 host1 kernel: ":              "1764666000.123456",
		"kernel: [    5.663152] ":                       "5.663152",
		"":                                              "",
	} {
		got, _ := ParseLog(strings.NewReader(stamp + msg + "\n"))
		if len(got.Events) != 1 || got.Events[0].Time != want || got.Events[0].Text != msg {
			t.Errorf("%q: got %+v", stamp, got.Events)
		}
	}
}

// journalctl -o short-monotonic (sysinfo-snapshot's journal file) puts
// the host and identifier after dmesg's own stamp: the kernel's messages
// are read, a user-space message keeps its identifier, and a dmesg line
// whose speaker is followed by its device is not taken for a journal's.
func TestJournalMonotonic(t *testing.T) {
	t.Parallel()
	lg, _ := ParseLog(bytes.NewReader(capture(t, "journal-short-monotonic-linux-version-libreelec.txt")))
	if lg.KernelRelease != "6.9.5" || lg.KernelReleaseLine != 2 {
		t.Errorf("release %q on line %d, want 6.9.5 on line 2", lg.KernelRelease, lg.KernelReleaseLine)
	}
	in := "[   12.925245] node1 kernel: mlx5_core 0000:03:00.0: firmware version: 14.32.1010\n" +
		"[   13.100000] node1 app[812]: libibverbs: Warning: couldn't load driver 'libbnxt_re-rdmav34.so': libbnxt_re-rdmav34.so: cannot open shared object file: No such file or directory\n" +
		"[   14.059582] mlx5_core 0000:03:00.0: mlx5_load_one failed with error code -22\n"
	want := []string{"firmware:mlx5_core:0000:03:00.0:1", "userspace-provider:app::2", "probe-failure:mlx5_core:0000:03:00.0:3"}
	if d := cmp.Diff(want, eventKeys(in)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// eventKeys parses a log and names each event kind:module:device:line.
func eventKeys(log string) []string {
	lg, _ := ParseLog(strings.NewReader(log))
	var keys []string
	for _, e := range lg.Events {
		keys = append(keys, fmt.Sprintf("%s:%s:%s:%d", e.Kind, e.Module, e.Device, e.Line))
	}
	return keys
}

// A journal or syslog file holds user-space messages too: only
// libibverbs' provider failures are kept, as user space, never joined to
// the kernel's lines.
func TestUserSpaceLines(t *testing.T) {
	t.Parallel()
	in := "Nov 30 09:00:00 host1 kernel: mlx5_core 0000:01:00.0: firmware version: 16.35.2000\n" +
		"Nov 30 09:00:01 host1 gpud[1441796]: {\"level\":\"info\",\"msg\":\"checking infiniband\"}\n" +
		"Nov 30 09:00:02 host1 app[812]: libibverbs: Warning: Driver mlx5 does not support the kernel ABI of 1 (supports 2 to 2) for device /sys/class/infiniband/mlx5_0\n" +
		"Nov 30 09:00:03 host1 app[812]: libibverbs: Warning: couldn't load driver 'libbnxt_re-rdmav34.so': libbnxt_re-rdmav34.so: cannot open shared object file: No such file or directory\n"
	want := []string{"firmware:mlx5_core:0000:01:00.0:1", "userspace-provider:app:mlx5_0:3", "userspace-provider:app::4"}
	if d := cmp.Diff(want, eventKeys(in)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestBounded(t *testing.T) {
	t.Parallel()
	line := "[    5.663152] mlx5_core: probe of 0000:01:00.0 failed with error -22\n"
	got, _ := ParseLog(strings.NewReader(strings.Repeat(line, MaxEvents+10)))
	if len(got.Events) != MaxEvents || got.Dropped != 10 || got.Lines != MaxEvents+10 {
		t.Errorf("events %d dropped %d lines %d", len(got.Events), got.Dropped, got.Lines)
	}
	long := "[ 1.0] mlx5_core: firmware version: " + strings.Repeat("9", 5*lines.Max) + "\n"
	got, _ = ParseLog(strings.NewReader(long))
	if len(got.Events) != 1 || len(got.Events[0].Text) > maxText {
		t.Errorf("long line: %d events", len(got.Events))
	}
}

// What each message is, whoever prints it: a missing firmware file of a
// driver speaking about its function, and a NULL dereference whose block
// names RDMA code.
func TestKindsOfOtherSpeakers(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"bnx2x-firmware-file-missing-error-2.txt":   "firmware-problem:0001:0c:00.2:2",
		"qedr-null-deref-rdma-res-show-qp-oops.txt": "kernel-warning::1",
	} {
		got, _ := ParseLog(bytes.NewReader(capture(t, name)))
		var kinds []string
		for _, e := range got.Events {
			kinds = append(kinds, fmt.Sprintf("%s:%s:%d", e.Kind, e.Device, e.Line))
		}
		if d := cmp.Diff([]string{want}, kinds); d != "" {
			t.Errorf("%s (-want +got):\n%s", name, d)
		}
	}
}
