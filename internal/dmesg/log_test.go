package dmesg

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func kinds(lg Log) []string {
	var out []string
	for _, e := range lg.Events {
		out = append(out, e.Kind+":"+e.Device)
	}
	return out
}

func TestParseLogBindings(t *testing.T) {
	t.Parallel()
	lg, err := ParseLog(bytes.NewReader(capture(t, "mlx5-cx5-arm-nas-domain-0004-bandwidth-truncated.txt")))
	if err != nil {
		t.Fatal(err)
	}
	want := []Binding{
		{Driver: "mlx5_core", PCIAddress: "0004:01:00.0", Firmware: "16.27.2048", FirmwareLine: 4, Line: 2},
		{Driver: "mlx5_core", PCIAddress: "0004:01:00.1", Firmware: "16.27.2048", FirmwareLine: 12, Line: 10},
	}
	if d := cmp.Diff(want, lg.Bindings); d != "" {
		t.Errorf("bindings (-want +got):\n%s", d)
	}
	wantBW := []Bandwidth{
		{PCIAddress: "0004:01:00.0", AvailableGbps: 63.008, SpeedGTps: 8, Width: 8, Line: 5},
		{PCIAddress: "0004:01:00.1", AvailableGbps: 63.008, SpeedGTps: 8, Width: 8, Line: 13},
	}
	if d := cmp.Diff(wantBW, lg.Bandwidth); d != "" {
		t.Errorf("bandwidth (-want +got):\n%s", d)
	}
	// enic names its netdev after the address.
	en, _ := ParseLog(bytes.NewReader(capture(t, "enic_rdma-vic-rocev2-enabled.txt")))
	if len(en.Bindings) != 2 || en.Bindings[0].PCIAddress != "0000:62:00.1" || !cmp.Equal(en.Bindings[0].Netdevs, []string{"eth1"}) {
		t.Errorf("enic: %+v", en.Bindings)
	}
}

// TestParseLogSpacePrefixed: ib_srpt's lines (its pr_fmt puts a space
// after its name) in a bugzilla mail's quoted-printable boot log are its
// own, and name the RDMA devices it failed on.
func TestParseLogSpacePrefixed(t *testing.T) {
	t.Parallel()
	lg, err := ParseLog(bytes.NewReader(capture(t, "bnxt_re-mlx5-ib-hfi1-cxgb4-boot-ib_srpt-failed-quoted-printable-bugzilla-truncated.txt")))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range lg.Events {
		if e.Module == "ib_srpt" {
			got = append(got, e.Kind+":"+e.Device+":"+e.Text)
		}
	}
	want := []string{
		"ulp-failure::ib_srpt ib_cm_listen() failed: -22 (cm_id state = 0)",
		"ulp-failure:mlx5_0:ib_srpt srpt_add_one(mlx5_0) failed.",
		"ulp-failure::ib_srpt ib_cm_listen() failed: -22 (cm_id state = 0)",
		"ulp-failure:mlx5_1:ib_srpt srpt_add_one(mlx5_1) failed.",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ib_srpt events (-want +got):\n%s", d)
	}
}

func TestParseLogLimitedLink(t *testing.T) {
	t.Parallel()
	lg, _ := ParseLog(bytes.NewReader(capture(t, "pci-nvme-limited-by-capable-of-bandwidth.txt")))
	want := []Bandwidth{{PCIAddress: "0000:01:00.0", AvailableGbps: 31.504, SpeedGTps: 8, Width: 4, LimitedBy: "0000:00:00.0", CapableGbps: 63.012, CapableGTps: 16, CapableWidth: 4, Line: 1}}
	if d := cmp.Diff(want, lg.Bandwidth); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{PCIeLimited + ":0000:01:00.0"}, kinds(lg)); d != "" {
		t.Errorf("kinds (-want +got):\n%s", d)
	}
}

// A probe failure carries the device's earlier lines: the failed firmware
// command with its syndrome, "Failed to create EQs" and so on.
func TestParseLogProbeContext(t *testing.T) {
	t.Parallel()
	lg, _ := ParseLog(bytes.NewReader(capture(t, "mlx5-cx4lx-create-eq-probe-failed-22-wrapped.txt")))
	// The failed CREATE_EQ is a command error, "failed to create async
	// EQ" and "Failed to create EQs" queue failures, then the probe fails.
	want := []string{CommandError + ":0000:0b:00.0", QueueFailure + ":0000:0b:00.0", QueueFailure + ":0000:0b:00.0", QueueFailure + ":0000:0b:00.0",
		ProbeFailure + ":0000:0b:00.0", ProbeFailure + ":0000:0b:00.0",
		Firmware + ":0000:0b:00.1", CommandError + ":0000:0b:00.1", QueueFailure + ":0000:0b:00.1", QueueFailure + ":0000:0b:00.1", QueueFailure + ":0000:0b:00.1",
		ProbeFailure + ":0000:0b:00.1", ProbeFailure + ":0000:0b:00.1"}
	if d := cmp.Diff(want, kinds(lg)); d != "" {
		t.Errorf("kinds (-want +got):\n%s", d)
	}
	ctx := lg.Context[4]
	var joined []string
	for _, c := range ctx {
		joined = append(joined, c.Text)
	}
	all := strings.Join(joined, "\n")
	if !strings.Contains(all, "CREATE_EQ(0x301)") || !strings.Contains(all, "syndrome") || !strings.Contains(all, "Failed to create EQs") {
		t.Errorf("context of the first probe failure:\n%s", all)
	}
	if len(ctx) > maxContext {
		t.Errorf("%d context lines", len(ctx))
	}
	// mlx5's failed probe step is the first probe failure itself, with
	// the device's earlier line as its context.
	h, _ := ParseLog(bytes.NewReader(capture(t, "mlx5-cx4lx-handle_hca_cap-probe-failed-22.txt")))
	if e := h.Events[1]; e.Kind != ProbeFailure || e.Text != "mlx5_core 0000:01:00.0: handle_hca_cap failed" || e.Line != 2 {
		t.Errorf("handle_hca_cap event: %+v", e)
	}
	if c := h.Context[1]; len(c) != 1 || c[0].Line != 1 {
		t.Errorf("handle_hca_cap context: %+v", c)
	}
	in, _ := ParseLog(bytes.NewReader(capture(t, "mlx5-innova2-fw-pre-init-timeout-probe-failed-16.txt")))
	if in.Events[0].Kind != CommandTimeout {
		t.Errorf("innova2: the pre-init stall is %s, want %s", in.Events[0].Kind, CommandTimeout)
	}
	if c := in.Context[1]; len(c) != 1 || !strings.Contains(c[0].Text, "Firmware over 120000 MS in pre-initializing state") {
		t.Errorf("innova2 context: %+v", c)
	}
}

func TestParseLogCommandErrorJournal(t *testing.T) {
	t.Parallel()
	lg, _ := ParseLog(bytes.NewReader(capture(t, "mlx5-cx7-journal-access-reg-cmd-out-err-syndrome.txt")))
	if d := cmp.Diff([]string{CommandError + ":0000:d2:00.0"}, kinds(lg)); d != "" || lg.Events[0].Time != "Dec 02 09:56:04" {
		t.Errorf("(-want +got):\n%s %+v", d, lg.Events)
	}
}

// "Modules linked in:" is read whole, before any length cap, also when a
// mail client wrapped it over several lines; Tainted gives the release.
func TestParseLogModulesAndRelease(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file, release, from, tainted string
		modules                      int
		first, last                  string
		warning                      bool
	}{
		{"mlx5_ib-warning-alloc-cacheable-mr-modules-tainted.txt", "6.14.0-rc4-dirty", "tainted", "G W", 22, "mlx5_ib", "ib_core", true},
		{"mlx5_ib-modules-linked-in-mail-wrapped-aarch64.txt", "5.14.0-rc1", "tainted", "G W", 42, "mlx5_ib", "aes_neon_bs", false},
		// A WARNING in devlink code while mlx5_ib(+) loads is in RDMA driver code.
		{"mlx5-devlink-warning-mail-quoted-not-tainted.txt", "6.2.0-rc6-next-20230202", "tainted", "", 30, "mlx5_ib", "wmi", true},
	} {
		lg, err := ParseLog(bytes.NewReader(capture(t, tc.file)))
		if err != nil {
			t.Fatal(err)
		}
		if lg.KernelRelease != tc.release || lg.KernelReleaseFrom != tc.from || lg.Tainted != tc.tainted {
			t.Errorf("%s: release %q from %q tainted %q", tc.file, lg.KernelRelease, lg.KernelReleaseFrom, lg.Tainted)
		}
		if len(lg.Modules) != tc.modules || lg.Modules[0] != tc.first || lg.Modules[len(lg.Modules)-1] != tc.last {
			t.Errorf("%s: %d modules %v", tc.file, len(lg.Modules), lg.Modules)
		}
		var warned bool
		for _, e := range lg.Events {
			warned = warned || e.Kind == KernelWarning
		}
		if warned != tc.warning {
			t.Errorf("%s: kernel warning %v, want %v (%v)", tc.file, warned, tc.warning, kinds(lg))
		}
	}
	q, _ := ParseLog(bytes.NewReader(capture(t, "mlx5-devlink-warning-mail-quoted-not-tainted.txt")))
	if q.Repairs["mail-quote"] != 6 {
		t.Errorf("repairs %v", q.Repairs)
	}
	oops, _ := ParseLog(bytes.NewReader(capture(t, "qedr-null-deref-rdma-res-show-qp-oops.txt")))
	if len(oops.Events) != 1 || oops.Events[0].Kind != KernelWarning || len(oops.Context[0]) != maxContext {
		t.Errorf("qedr oops: %v %d", kinds(oops), len(oops.Context[0]))
	}
}

// Symbol errors keep their kinds, also from ULPs such as ksmbd.
func TestParseLogSymbols(t *testing.T) {
	t.Parallel()
	lg, _ := ParseLog(bytes.NewReader(capture(t, "nv_peer_mem-ofed-kernel-mismatch.txt")))
	if d := cmp.Diff([]string{SymbolMismatch + ":", UnknownSymbol + ":"}, kinds(lg)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// Paste damage, applied to a real capture: cat -n and grep -n prefixes,
// indentation, and quoted-printable soft breaks and escapes give the same
// events as the clean log.
func TestParseLogPasteDamage(t *testing.T) {
	t.Parallel()
	clean := capture(t, "mlx5-cx4lx-log_max_qp-probe-failed-22.txt")
	base, _ := ParseLog(bytes.NewReader(clean))
	src := strings.Split(strings.TrimRight(string(clean), "\n"), "\n")
	damage := map[string]func(i int, l string) string{
		"cat -n":   func(i int, l string) string { return "     " + itoa(i+1) + "\t" + l },
		"grep -n":  func(i int, l string) string { return itoa(i+1) + ":" + l },
		"viewer":   func(i int, l string) string { return itoa(i+1) + " " + l },
		"glued":    func(i int, l string) string { return itoa(i+1) + l }, // a gutter copied without its separator
		"indented": func(i int, l string) string { return "    " + l },
	}
	for name, f := range damage {
		var b strings.Builder
		for i, l := range src {
			b.WriteString(f(i, l) + "\n")
		}
		got, _ := ParseLog(strings.NewReader(b.String()))
		if d := cmp.Diff(kinds(base), kinds(got)); d != "" || len(got.Bindings) != len(base.Bindings) {
			t.Errorf("%s (-clean +damaged):\n%s", name, d)
		}
	}
	// Quoted-printable: long lines soft-broken at 76 columns, "=" as =3D.
	var b strings.Builder
	for _, l := range src {
		l = strings.ReplaceAll(l, "=", "=3D")
		for len(l) > 75 {
			b.WriteString(l[:75] + "=\n")
			l = l[75:]
		}
		b.WriteString(l + "\n")
	}
	got, _ := ParseLog(strings.NewReader(b.String()))
	if d := cmp.Diff(kinds(base), kinds(got)); d != "" || got.Repairs["quoted-printable"] == 0 {
		t.Errorf("quoted-printable (-clean +damaged):\n%s", d)
	}
	if got.Events[1].Text != base.Events[1].Text {
		t.Errorf("decoded %q, want %q", got.Events[1].Text, base.Events[1].Text)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestPrefiltersKeepEveryMatch: the cheap tests before asyncRE and
// rdmaName never turn away what the patterns match.
func TestPrefiltersKeepEveryMatch(t *testing.T) {
	t.Parallel()
	// A name for each alternative of rdmaName (two for mlx[45]): a new one needs its
	// name here and its head in rdmaPrefixes.
	names := []string{"mlx4_0", "mlx5_12", "mlx5_bond_0", "bnxt_re0", "irdma1", "i40iw0", "rxe0", "rxe_eth0", "enp1s0_rxe", "siw0", "siw_eth0",
		"qedr0", "hns_0", "hrn0_1", "efa_0", "erdma_0", "mana_0", "ionic_0", "rocep1s0f0", "roceo1", "rocex2", "vmw_pvrdma0",
		"ocrdma0", "usnic_0", "hfi1_0", "qib0", "rdmap160s26"}
	if n := strings.Count(rdmaName.String(), "|") + 1; n != len(names)-1 {
		t.Errorf("rdmaName has %d alternatives; give this test a name for each new one", n)
	}
	for _, n := range names {
		if !rdmaName.MatchString(n) || !isRDMAName(n) {
			t.Errorf("%q: rdmaName %v, isRDMAName %v", n, rdmaName.MatchString(n), isRDMAName(n))
		}
	}
	// Function and module names of the providers are not devices.
	for _, n := range []string{"rxe_umem_get", "rxe_mem_init_user", "siw_qp_llp_close", "rdma_rxe", "mlx5_core"} {
		if isRDMAName(n) {
			t.Errorf("%q taken for an RDMA device name", n)
		}
	}
	asyncLines := []string{
		"mlx5_0: async event: port active", "Asynchronous error on the device", "mlx5_0: CQ error on CQN 0x42",
		"dump error cqe", "Work Queue overflow", "wq 3: catastrophic", "CATASTROPHIC ERROR detected",
		"local qp operation error", "local protection error", "Internal Error", "device health compromised",
		"fatal error, resetting", "wq 7 is in error", "ſome async event", "xwq 1 error and a cq error",
	}
	for _, l := range asyncLines {
		if !asyncRE.MatchString(l) {
			t.Errorf("asyncRE no longer matches %q: update this test", l)
		}
		if !isAsync(l, strings.ToLower(l)) {
			t.Errorf("isAsync turns away %q, which asyncRE matches", l)
		}
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "captures", "dmesg", "*.txt"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if asyncRE.MatchString(l) != isAsync(l, strings.ToLower(l)) {
				t.Errorf("%s: isAsync and asyncRE differ on %q", f, l)
			}
			for _, w := range strings.Fields(l) {
				if rdmaName.MatchString(w) && !isRDMAName(w) {
					t.Errorf("%s: isRDMAName turns away %q", f, w)
				}
			}
		}
	}
}
