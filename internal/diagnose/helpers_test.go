package diagnose

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/checkid"
	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/hosttest"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/osinfo"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/rule"
	"github.com/rocekb/rocekb/internal/verdict"
)

// The fixtures are shared with the fleet, treewalk and verdict tests.
var (
	testMatrix  = hosttest.LoadMatrix
	healthy     = hosttest.Healthy
	cisco       = hosttest.Cisco
	with        = hosttest.With
	golden      = hosttest.Golden
	testContent = hosttest.Content
	fuzzTree    = hosttest.Tree
)

func tm(t *testing.T) *matrix.Matrix { t.Helper(); return hosttest.Matrix(t) }

func ptr[T any](v T) *T { return &v }

type checkCase struct {
	name    string
	host    func() *record.Host
	status  Status
	sev     Severity // worst severity when status is Found
	subject string   // subject of the first finding, when status is Found
}

func runCases(t *testing.T, id string, cases []checkCase) {
	t.Helper()
	runCasesWith(t, tm(t), id, cases)
}

// runCasesWith runs the cases against a given matrix.
func runCasesWith(t *testing.T, m *matrix.Matrix, id string, cases []checkCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r, ok := Evaluate(m, c.host(), id)
			if !ok {
				t.Fatalf("no check %q", id)
			}
			if r.Status != c.status {
				t.Fatalf("status = %s, want %s; findings %+v notes %+v", r.Status, c.status, r.Findings, r.Notes)
			}
			if c.status != Found {
				return
			}
			f := r.Findings[0]
			if f.Severity != c.sev || f.Subject != c.subject {
				t.Errorf("finding %s %s, want %s %s: %s", f.Severity, f.Subject, c.sev, c.subject, f.Message)
			}
			if f.Check != id || f.Message == "" || f.Explanation == "" || f.Fix == "" || len(f.Evidence) == 0 {
				t.Errorf("finding is missing parts: %+v", f)
			}
		})
	}
}

// A check's FAQ pages come from the registry once the content has them,
// and a vendor's page explains only its vendor's findings: the Cisco VIC
// page names module-not-loaded, but a ConnectX-5 finding does not link it;
// a bnxt_en command timeout links Broadcom's page and the generic one,
// an mlx5 timeout the generic one and the mlx5 pre-init page.
func TestLinksStayWithTheirVendor(t *testing.T) {
	t.Parallel()
	c := &content.Content{Pages: []*content.Page{
		{Slug: "cisco-vic-rocev2", Meta: content.Front{Checks: []string{"module-not-loaded"}, Drivers: []string{"enic_rdma", "usnic_verbs"}}},
		{Slug: "kernel-modules", Meta: content.Front{Checks: []string{"module-not-loaded"}}},
		{Slug: "firmware-command-timeout"}, {Slug: "bnxt-re-known-issues"}, {Slug: "firmware-pre-init"},
	}}
	l := LinksFrom(c)
	h := &record.Host{
		Adapters: []record.Adapter{
			{PCIAddress: "0000:3b:00.0", Vendor: "15b3", Device: "1017", Driver: record.Driver{Name: "mlx5_core"}},
			{PCIAddress: "0000:5e:00.0", Vendor: "14e4", Device: "16d7", Driver: record.Driver{Name: "bnxt_en"}},
		},
	}
	hw := newHardware(newView(h, tm(t)))
	for _, tc := range []struct {
		f    Finding
		want []string
	}{
		{Finding{Check: "module-not-loaded", Adapter: "0000:3b:00.0"}, []string{"faq/kernel-modules"}},
		{Finding{Check: "fw-command-timeout", Adapter: "0000:5e:00.0"}, []string{"faq/bnxt-re-known-issues", "faq/firmware-command-timeout"}},
		{Finding{Check: "fw-command-timeout", Adapter: "0000:3b:00.0"}, []string{"faq/firmware-command-timeout", "faq/firmware-pre-init"}},
		{Finding{Check: "gid-table-error", Adapter: "0000:3b:00.0"}, nil}, // its page is not written yet
	} {
		f := tc.f
		l.attach(&f, hw)
		if !slices.Equal(f.FAQ, tc.want) {
			t.Errorf("%s@%s links %v, want %v", f.Check, f.Adapter, f.FAQ, tc.want)
		}
	}
}

// ibv_devinfo's "transport: iWARP (1)" makes the device iWARP: the RoCE
// GID checks leave it alone, while its ConnectX-5 neighbour is judged.
func TestIWARPDeviceIsNotRoCE(t *testing.T) {
	t.Parallel()
	h := golden(t, "verbs-cx5-roce-cxgb4-iwarp-transport")()
	for _, id := range []string{"gid-table-empty", "gid-no-roce-v2"} {
		r, _ := Evaluate(tm(t), h, id)
		for _, f := range r.Findings {
			if strings.HasPrefix(f.Subject, "cxgb4_0") {
				t.Errorf("%s judges the iWARP device: %s", id, f.Message)
			}
		}
	}
}

// With the project's own content, the findings of real kernel logs link
// the pages written for them, and never another vendor's: the Broadcom
// firmware stall links the generic timeout page and Broadcom's, the
// ConnectX-4 command failure NVIDIA's command page.
func TestRealLogFindingsLinkTheirPages(t *testing.T) {
	t.Parallel()
	c, probs := content.Load(os.DirFS("../../content"), "content")
	if probs.Errors() > 0 {
		t.Fatal(probs)
	}
	links := func(host, check string) []string {
		rep := Diagnose(tm(t), c, golden(t, host)())
		var out []string
		for _, f := range rep.Findings {
			if f.Check == check {
				out = append(out, f.FAQ...)
			}
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	for _, tc := range []struct {
		host, check string
		want, not   []string
	}{
		{"log-bnxt_re-bcm57416-fw-stall-qp1-warning-journal", "fw-command-timeout",
			[]string{"faq/bnxt-re-known-issues", "faq/firmware-command-timeout"}, []string{"faq/firmware-pre-init", "faq/mlx5-command-failures"}},
		{"log-mlx5-cx4-cmd-entry-reg-mr-failed-journal-boot", "fw-command-failed",
			[]string{"faq/mlx5-command-failures"}, []string{"faq/bnxt-re-known-issues"}},
		{"log-hns-roce-cmdq-mailbox-timeout-set-gid-failed-mail-quoted-truncated", "gid-table-error",
			[]string{"faq/gid-table-errors"}, nil},
	} {
		got := links(tc.host, tc.check)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s %s: links %v, want %s", tc.host, tc.check, got, w)
			}
		}
		for _, n := range tc.not {
			if slices.Contains(got, n) {
				t.Errorf("%s %s: links %v, must not link %s", tc.host, tc.check, got, n)
			}
		}
	}
}

// stack-release says what the verdict engine says of the same plan: a
// finding exactly when `kbgen check --adapter … --distro … --stack …`
// would answer unsupported, a pass when it answers supported, unknown
// otherwise. MLNX_OFED 5.0-2.1.8 (a real ofed_info -s) on a ConnectX-4 Lx,
// put on several distributions.
func TestStackReleaseAgreesWithVerdict(t *testing.T) {
	t.Parallel()
	m, probs := matrix.Load(os.DirFS("../../matrix"), "matrix")
	if probs.Errors() > 0 {
		t.Fatal(probs.Err())
	}
	levels := map[verdict.Level]int{}
	for _, d := range []struct{ id, version string }{{"rhel", "8.6"}, {"rhel", "8.2"}, {"rhel", "7.9"}, {"ubuntu", "20.04"}, {"ubuntu", "24.04"}} {
		h := with(golden(t, "mlx5-cx4lx-mlnxofed-pod"), func(h *record.Host) {
			h.Host.OS = record.OSRelease{ID: d.id, VersionID: d.version}
			h.Adapters = append(h.Adapters, record.Adapter{PCIAddress: "0000:5e:00.0", Vendor: "15b3", Device: "1015"})
		})()
		r, _ := Evaluate(m, h, "stack-release")
		v := newView(h, m)
		stack, version := v.hostStack()
		ma := v.match(&h.Adapters[len(h.Adapters)-1])
		if ma == nil {
			t.Fatal("ConnectX-4 Lx 15b3:1015 is not in the matrix")
		}
		vd := verdict.Judge(m, verdict.Plan{Adapter: ma.ID, Distro: d.id + "-" + d.version, Stack: stack, StackVersion: version})
		levels[vd.Verdict]++
		sev := Severity("")
		for _, f := range r.Findings {
			if f.Adapter == "0000:5e:00.0" {
				sev = f.Severity
			}
		}
		want := map[verdict.Level]Severity{verdict.Unsupported: Error, verdict.Conditional: Info}[vd.Verdict]
		if sev != want {
			t.Errorf("%s-%s: verdict %s, finding %q, want %q", d.id, d.version, vd.Verdict, sev, want)
		}
	}
	t.Logf("verdicts: %v", levels)
}

// Every finding the real kernel logs (testdata/hosts/log-*) raise from a
// failure line links the FAQ page or tree that explains it, and is about
// a device or the host, never the ULP or driver that printed the line.
func TestRealLogFindingsNameADeviceAndLinkAnExplanation(t *testing.T) {
	t.Parallel()
	c, probs := content.Load(os.DirFS("../../content"), "content")
	if probs.Errors() > 0 {
		t.Fatal(probs)
	}
	speakers := map[string]bool{}
	findings := 0
	for _, p := range hosttest.GoldenPaths() {
		name := strings.TrimSuffix(filepath.Base(p), ".golden.toml")
		if !strings.HasPrefix(name, "log-") {
			continue
		}
		h := golden(t, name)()
		for _, e := range h.KernelLog {
			if e.Module != "" {
				speakers[e.Module] = true
			}
		}
		for _, f := range Diagnose(tm(t), c, h).Findings {
			if !logCheckIDs[f.Check] {
				continue
			}
			findings++
			if len(f.FAQ)+len(f.Trees) == 0 {
				t.Errorf("%s: %s on %s links no FAQ page or tree", name, f.Check, f.Subject)
			}
			if speakers[f.Subject] {
				t.Errorf("%s: %s is about %q, the module that printed the line", name, f.Check, f.Subject)
			}
		}
	}
	t.Logf("%d findings from real kernel logs", findings)
	if findings < 40 {
		t.Errorf("%d findings, want at least 40", findings)
	}
}

// logCheckIDs are the checks that report kernel log failure lines.
var logCheckIDs = map[string]bool{
	checkid.FWCommandTimeout: true, checkid.FWCommandFailed: true, checkid.HWQueueFailed: true, checkid.GIDTableError: true,
	checkid.RoCEDisabled: true, checkid.QPCreateFailed: true, checkid.ResourceExhausted: true, checkid.DeviceReset: true,
	checkid.ULPFailure: true, checkid.KernelWarning: true, checkid.RDMALogError: true, checkid.DriverProbeFailed: true,
}

// A ULP line that names no RDMA device is put on the host's one RDMA
// device, saying so, and on the host when there are several.
func TestULPFailureWithoutDeviceTakesTheOnlyDevice(t *testing.T) {
	t.Parallel()
	base := golden(t, "log-nvme-rdma-connect-rejected-invalid-service-id-truncated")
	one := with(base, func(h *record.Host) {
		h.Devices = []record.RDMADevice{{Name: "mlx5_0", PCIAddress: "0000:3b:00.0"}}
	})
	two := with(base, func(h *record.Host) {
		h.Devices = []record.RDMADevice{{Name: "mlx5_0", PCIAddress: "0000:3b:00.0"}, {Name: "mlx5_1", PCIAddress: "0000:3b:00.1"}}
	})
	for _, tc := range []struct {
		host    func() *record.Host
		subject string
	}{{base, "host"}, {one, "mlx5_0"}, {two, "host"}} {
		r, _ := Evaluate(tm(t), tc.host(), checkid.ULPFailure)
		if len(r.Findings) != 1 || r.Findings[0].Subject != tc.subject {
			t.Fatalf("findings %+v, want one on %s", r.Findings, tc.subject)
		}
		f := r.Findings[0]
		said := slices.ContainsFunc(f.Evidence, func(e Evidence) bool { return strings.Contains(e.Fact, "only one") })
		if said != (tc.subject == "mlx5_0") {
			t.Errorf("%s: evidence %+v", tc.subject, f.Evidence)
		}
	}
}

// TestInboxStackAgreesWithVerdict: a host on the inbox stack of a
// distribution the matrix knows is judged as kbgen check judges the plan
// (adapter, distro, inbox): Debian 12's kernel does not build bnxt_re, so
// a BCM57416 there is an error, as the planned configuration is
// unsupported; a ConnectX-4 Lx on RHEL 9.4 raises nothing.
func TestInboxStackAgreesWithVerdict(t *testing.T) {
	t.Parallel()
	m, probs := matrix.Load(os.DirFS("../../matrix"), "matrix")
	if probs.Errors() > 0 {
		t.Fatal(probs.Err())
	}
	for _, c := range []struct {
		os, version, vendor, device string
		want                        verdict.Level
	}{
		{"debian", "12", "14e4", "16d8", verdict.Unsupported},
		{"rhel", "9.4", "15b3", "1015", verdict.Supported},
		// RHEL 9.2 does not build erdma, but Rocky Linux 9.2's kernel is
		// another build no source says is RHEL's: neither a no nor a
		// "does not build" fix.
		{"rocky", "9.2", "1ded", "107f", verdict.Undecided},
	} {
		h := with(golden(t, "mlx5-six-ports-two-down"), func(h *record.Host) {
			h.Host.OS = record.OSRelease{ID: c.os, VersionID: c.version}
			h.Host.KernelRelease = ""
			h.Adapters = []record.Adapter{{PCIAddress: "0000:5e:00.0", Vendor: c.vendor, Device: c.device}}
		})()
		v := newView(h, m)
		if stack, _ := v.hostStack(); stack != "inbox" {
			t.Fatalf("the fixture runs %s, not the inbox stack", stack)
		}
		ma := v.match(&h.Adapters[0])
		d := rule.HostDistro(m, h)
		if ma == nil || d == nil {
			t.Fatalf("%s:%s on %s %s is not in the matrix", c.vendor, c.device, c.os, c.version)
		}
		vd := verdict.Judge(m, verdict.Plan{Adapter: ma.ID, Distro: d.ID, Stack: "inbox"})
		if vd.Verdict != c.want {
			t.Fatalf("%s on %s: the engine says %s, want %s", ma.ID, d.ID, vd.Verdict, c.want)
		}
		r, _ := Evaluate(m, h, "stack-release")
		errs := 0
		for _, f := range r.Findings {
			if f.Severity == Error {
				errs++
			}
		}
		if (c.want == verdict.Unsupported) != (errs == 1) {
			t.Errorf("%s on %s (%s): %d errors from stack-release: %+v", ma.ID, d.ID, vd.Verdict, errs, r)
		}
		// Nor does module-not-loaded offer modprobe for a module the
		// distribution's kernel does not build.
		mr, _ := Evaluate(m, h, "module-not-loaded")
		for _, f := range mr.Findings {
			if unsup := c.want == verdict.Unsupported; unsup != strings.Contains(f.Fix, "does not build "+ma.RDMADriver) {
				t.Errorf("%s on %s: module-not-loaded fix %q", ma.ID, d.ID, f.Fix)
			}
		}
		if c.want == verdict.Unsupported && len(mr.Findings) == 0 {
			t.Errorf("%s on %s: no module-not-loaded finding", ma.ID, d.ID)
		}
	}
}

// stack-release reads the stack as ofed_info printed it on real hosts,
// DOCA-OFED's drivers version included, and says what kbgen check says of
// the same plan. OFED-internal-24.10-1.1.4.0.200 (a doca-ofed install,
// testdata/captures/ofed_info) is MLNX_OFED 24.10-1.1.4.0's and DOCA
// 2.9.1's drivers: on an upstream kernel ConnectX-6 Dx waits only on the
// OS (DOCA 2.9.1 has no OS list in the matrix), BlueField-3 on which of the
// two stacks it is. MLNX_OFED_LINUX-25.10-2.4.1.0, past MLNX_OFED's last
// line, is DOCA 3.2.2's drivers.
func TestStackReleaseReadsDriversVersions(t *testing.T) {
	t.Parallel()
	m, probs := matrix.Load(os.DirFS("../../matrix"), "matrix")
	if probs.Errors() > 0 {
		t.Fatal(probs.Err())
	}
	f, err := os.Open("../../testdata/captures/ofed_info/doca-ofed-24.10-internal-s-list-item-indented.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	o, ok, err := osinfo.ParseOFEDInfo(f)
	if err != nil || !ok {
		t.Fatalf("ofed_info capture: ok %v, err %v", ok, err)
	}
	internal := record.Stack{Name: o.Name, Version: o.Version, Raw: o.Raw, From: "cmd/ofed_info -s"}
	for _, tc := range []struct {
		stack       record.Stack
		dev         string
		wantRelease string // the release the verdict judged
		noteWords   string
	}{
		{internal, "101d", "2.9.1", "--distro would decide it"},
		{internal, "a2dc", "24.10-1.1.4.0.200", "dpkg -l doca-ofed"},
		{record.Stack{Name: "MLNX_OFED", Version: "25.10-2.4.1.0", Raw: "MLNX_OFED_LINUX-25.10-2.4.1.0:", From: "cmd/ofed_info -s"}, "1021", "3.2.2", "--distro would decide it"},
	} {
		const pci = "0000:5e:00.0"
		h := with(golden(t, "mlx5-cx4lx-mlnxofed-pod"), func(h *record.Host) {
			h.Stack = &tc.stack
			h.Host.KernelRelease = "6.8.0" // an upstream build: no distro's lists come into it
			h.Adapters = append(h.Adapters, record.Adapter{PCIAddress: pci, Vendor: "15b3", Device: tc.dev})
		})()
		v := newView(h, m)
		stack, ver := v.hostStack()
		ma := v.match(&h.Adapters[len(h.Adapters)-1])
		if ma == nil {
			t.Fatalf("15b3:%s is not in the matrix", tc.dev)
		}
		vd := verdict.Judge(m, verdict.Plan{Adapter: ma.ID, Kernel: h.Host.KernelRelease, Stack: stack, StackVersion: ver})
		if vd.Verdict != verdict.Undecided || vd.StackVersion != tc.wantRelease {
			t.Errorf("%s %s on %s: %s as %s %s, want unknown as release %s", tc.stack.Name, tc.stack.Version, ma.ID, vd.Verdict, vd.Stack, vd.StackVersion, tc.wantRelease)
		}
		r, _ := Evaluate(m, h, "stack-release")
		note := ""
		for _, n := range r.Notes {
			if n.Adapter == pci && n.Status == Unknown {
				note = n.Text
			}
		}
		if !strings.Contains(note, tc.noteWords) {
			t.Errorf("%s %s on %s: note %q, want one saying %q", tc.stack.Name, tc.stack.Version, ma.ID, note, tc.noteWords)
		}
	}
}
