package verdict

import (
	"slices"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/matrix"
)

// TestRebuildIsAHint judges a RHEL rebuild release the matrix has no entry
// for (CentOS Linux; Rocky Linux past its table) as the RHEL release of its
// number, but only as a hint: RHEL's sources decide neither a yes nor a no
// for another distro's kernel.
func TestRebuildIsAHint(t *testing.T) {
	t.Parallel()
	m, err := realMatrix()
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(m)
	for _, tc := range []struct{ adapter, rebuild, rhel string }{
		{"connectx-6-dx", "CentOS Linux 8.5", "rhel-8.5"}, // RHEL: supported
		{"alibaba-erdma", "centos-8.5", "rhel-8.5"},       // RHEL: unsupported
		{"bcm57502", "CentOS 7.9", "rhel-7.9"},            // RHEL: unknown, likely supported
		{"softroce", "CentOS 8.5", "rhel-8.5"},            // a software stack's own way
	} {
		rhel := Judge(m, Plan{Adapter: tc.adapter, Distro: tc.rhel})
		v := Judge(m, Plan{Adapter: tc.adapter, Distro: tc.rebuild})
		want := rhel.Verdict
		if want == Undecided {
			want = rhel.Likely
		}
		if v.Verdict != Undecided || v.Likely != want || v.Distro != tc.rhel {
			t.Errorf("%s on %s: %s (likely %s, distro %s), want unknown, likely %s as %s", tc.adapter, tc.rebuild, v.Verdict, v.Likely, v.Distro, want, tc.rhel)
		}
		if len(v.Reasons) != len(rhel.Reasons)+1 || !strings.Contains(v.Reasons[0].Text, "no entry for \""+tc.rebuild+"\"") {
			t.Errorf("%s on %s: the first reason does not say the rebuild has no entry: %v", tc.adapter, tc.rebuild, v.Reasons)
		}
		// The engine (a fleet's readiness plans) remembers the name and
		// answers alike, twice.
		for range 2 {
			if ev := e.Judge(Plan{Adapter: tc.adapter, Distro: tc.rebuild}); ev.Verdict != v.Verdict || ev.Likely != v.Likely || len(ev.Reasons) != len(v.Reasons) {
				t.Errorf("%s on %s: the engine says %s (likely %s, %d reasons), Judge %s (likely %s, %d reasons)", tc.adapter, tc.rebuild, ev.Verdict, ev.Likely, len(ev.Reasons), v.Verdict, v.Likely, len(v.Reasons))
			}
		}
	}
	// A release the matrix has under two kernels is no verdict either.
	v := Judge(m, Plan{Adapter: "connectx-6-dx", Distro: "Oracle Linux 9.4"})
	if v.Verdict != Undecided || v.Distro != "" || len(v.Reasons) == 0 || !strings.Contains(v.Reasons[0].Text, "oracle-9.4-uek") {
		t.Errorf("Oracle Linux 9.4: %s %q %v, want unknown naming oracle-9.4-uek and -rhck", v.Verdict, v.Distro, v.Reasons)
	}
}

// TestSharedKernel judges a kernel release named without a distro, whose
// dist tag names a RHEL release that a rebuild the matrix holds ships
// under the same version-release with rows of its own (AlmaLinux 10.0
// re-adds PCI ids RHEL 10 disables): where the two differ the kernel alone
// decides neither, and RHEL's verdict is the hint; where they agree it
// stands.
func TestSharedKernel(t *testing.T) {
	t.Parallel()
	m, err := realMatrix()
	if err != nil {
		t.Fatal(err)
	}
	const k = "6.12.0-55.9.1.el10_0.x86_64"
	for _, a := range []string{"connectx-3", "connectx-3-pro", "oneconnect-be3", "connectx-6-dx"} {
		rhel := Judge(m, Plan{Adapter: a, Distro: "rhel-10.0"})
		alma := Judge(m, Plan{Adapter: a, Distro: "almalinux-10.0"})
		v := Judge(m, Plan{Adapter: a, Kernel: k})
		// AlmaLinux judged by RHEL's rows as a hint agrees with RHEL where
		// its likely answer is RHEL's.
		agree := rhel.Verdict == alma.Verdict || alma.Verdict == Undecided && alma.Likely != "" && (alma.Likely == rhel.Verdict || alma.Likely == rhel.Likely)
		switch {
		case agree:
			if v.Verdict != rhel.Verdict {
				t.Errorf("%s on %s: %s, want %s (RHEL 10.0 and AlmaLinux 10.0 agree)", a, k, v.Verdict, rhel.Verdict)
			}
		case v.Verdict != Undecided || v.Likely != rhel.Verdict || !strings.Contains(v.Reasons[0].Text, "AlmaLinux 10.0"):
			t.Errorf("%s on %s: %s (likely %s), want unknown, likely %s, naming AlmaLinux 10.0 (RHEL %s, AlmaLinux %s): %v", a, k, v.Verdict, v.Likely, rhel.Verdict, rhel.Verdict, alma.Verdict, v.Reasons)
		}
	}
	// ConnectX-3 is the case the rows make differ.
	if v := Judge(m, Plan{Adapter: "connectx-3", Kernel: k}); v.Verdict != Undecided {
		t.Errorf("connectx-3 on %s: %s, want unknown", k, v.Verdict)
	}
}

// TestRebuildEntryTakesFamilyRowsAsHints judges a rebuild release the matrix
// holds (its own kernel, from its own project) by its family's
// distro_support rows only as a hint, unless its entry says, with a source,
// that its kernel is the family release's (Oracle Linux 8's RHCK); a row
// of its own decides it.
func TestRebuildEntryTakesFamilyRowsAsHints(t *testing.T) {
	t.Parallel()
	m, err := realMatrix()
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(m)
	for _, tc := range []struct{ adapter, rebuild, id, rhel string }{
		{"connectx-6-dx", "Rocky Linux release 9.3 (Blue Onyx)", "rocky-9.3", "rhel-9.3"}, // RHEL: supported
		{"alibaba-erdma", "alma 9.1", "almalinux-9.1", "rhel-9.1"},                        // RHEL: unsupported
		{"e810-c", "rocky-8.9", "rocky-8.9", "rhel-8.9"},
		{"connectx-6-dx", "Rocky Linux 10.0", "rocky-10.0", "rhel-10.0"},    // was AlmaLinux 10.0, which its own configuration now decides
		{"connectx-6-dx", "oracle-9.2-rhck", "oracle-9.2-rhck", "rhel-9.2"}, // no OL9 statement or 9.2 RHCK configuration read (9.3 to 9.7 have rows of their own)
		{"softroce", "rocky 9.3", "rocky-9.3", "rhel-9.3"},                  // a software stack's own way
	} {
		rhel := Judge(m, Plan{Adapter: tc.adapter, Distro: tc.rhel})
		want := rhel.Verdict
		if want == Undecided {
			want = rhel.Likely
		}
		v := Judge(m, Plan{Adapter: tc.adapter, Distro: tc.rebuild})
		if v.Distro != tc.id || v.Verdict != Undecided || v.Likely != want {
			t.Errorf("%s on %s: %s (likely %s) as %s, want unknown, likely %s, as %s", tc.adapter, tc.rebuild, v.Verdict, v.Likely, v.Distro, want, tc.id)
		}
		if rhel.Verdict != Undecided && !slices.ContainsFunc(v.Reasons, func(r Reason) bool { return strings.Contains(r.Text, "it is a hint, not a verdict") }) {
			t.Errorf("%s on %s: no reason says the family's row is a hint: %v", tc.adapter, tc.rebuild, v.Reasons)
		}
		if ev := e.Judge(Plan{Adapter: tc.adapter, Distro: tc.rebuild}); ev.Verdict != v.Verdict || ev.Likely != v.Likely || len(ev.Reasons) != len(v.Reasons) {
			t.Errorf("%s on %s: the engine says %s (likely %s), Judge %s (likely %s)", tc.adapter, tc.rebuild, ev.Verdict, ev.Likely, v.Verdict, v.Likely)
		}
	}
	// Oracle Linux 8's RHCK: Oracle says it is RHEL's kernel, so RHEL's
	// rows decide it.
	for _, a := range []string{"connectx-6-dx", "alibaba-erdma", "bcm57414"} {
		rhel := Judge(m, Plan{Adapter: a, Distro: "rhel-8.9"})
		if v := Judge(m, Plan{Adapter: a, Distro: "oracle-8.9-rhck"}); v.Verdict != rhel.Verdict || v.Likely != rhel.Likely {
			t.Errorf("%s on oracle-8.9-rhck: %s (likely %s), want RHEL 8.9's %s (likely %s)", a, v.Verdict, v.Likely, rhel.Verdict, rhel.Likely)
		}
	}
	// A vendor stack lists a rebuild by its own id: MLNX_OFED 23.10-2.1.3.1-201
	// names "RHEL/Rocky8.10".
	if v := Judge(m, Plan{Adapter: "connectx-6-dx", Distro: "rocky-8.10", Stack: "mlnx-ofed", StackVersion: "23.10-2.1.3.1-201"}); !v.Yes() {
		t.Errorf("connectx-6-dx on rocky-8.10 with MLNX_OFED 23.10-2.1.3.1-201: %s, want a yes: %v", v.Verdict, v.Reasons)
	}
}

// A distro_support row naming adapters is about them: its drivers say whose
// ids it lists, and another adapter of the same driver is not covered by it
// (AlmaLinux 10's re-added be2net ids of BE3 say nothing of Skyhawk).
func TestRowNamingAdaptersKeepsToThem(t *testing.T) {
	t.Parallel()
	m := &matrix.Matrix{
		Drivers: []matrix.Driver{{ID: "ocrdma", EthDrivers: []string{"be2net"}}},
		DistroRows: []matrix.DistroRow{
			{Family: "rhel", From: "10.0", Adapters: []string{"oneconnect-be3"}, Drivers: []string{"be2net"}, Status: matrix.StatusSupported},
			{Family: "rhel", From: "10.0", Drivers: []string{"ocrdma"}, Status: matrix.StatusUnsupported},
		},
	}
	d := &matrix.Distro{ID: "rhel-10.0", Family: "rhel", Version: "10.0"}
	be3 := &matrix.Adapter{ID: "oneconnect-be3", EthDriver: "be2net", RDMADriver: "ocrdma"}
	sky := &matrix.Adapter{ID: "oneconnect-skyhawk", EthDriver: "be2net", RDMADriver: "ocrdma"}
	if r, by := DistroRow(m, be3, d); r != &m.DistroRows[0] || !by {
		t.Errorf("BE3: row %+v (by adapter %v), want the row naming it", r, by)
	}
	if r, by := DistroRow(m, sky, d); r != &m.DistroRows[1] || by {
		t.Errorf("Skyhawk: row %+v (by adapter %v), want the ocrdma driver row, not BE3's", r, by)
	}
}

// TestRebuildOwnConfigurationDecides judges a rebuild release whose own
// kernel configuration the matrix holds (Rocky Linux 8.10's and 9.0's
// /boot/config, Rocky 9.4's CI configuration, AlmaLinux 9.3's /boot/config,
// AlmaLinux 8.10's and 9.5-10.1's kernel-core packages read by Oracle's kconfigs)
// by its own rows: a verdict, not RHEL's hint, named by the rebuild; the
// software path (Soft-RoCE) chooses the same row as the hardware one.
func TestRebuildOwnConfigurationDecides(t *testing.T) {
	t.Parallel()
	m, err := realMatrix()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		adapter, distro string
		want            Level
		entry           string
	}{
		{"connectx-6-dx", "Rocky Linux release 9.4 (Blue Onyx)", Supported, "distro_support rocky 9.4"},
		{"connectx-5", "rocky 8.10", Supported, "distro_support rocky 8.10"},
		{"bcm57414", "Rocky Linux 8.10", Supported, "distro_support rocky 8.10"},
		{"e810-c", "AlmaLinux 9.3", Conditional, "distro_support almalinux 9.3"},
		{"oneconnect-skyhawk", "rocky 8.10", Unsupported, "distro_support rocky 8.10"},
		// RHEL 9.0 to 9.2 do not build rdma_rxe either, but the row that
		// decides Rocky 9.0 is Rocky's own; it is listed after RHEL's.
		{"softroce", "Rocky Linux 9.0", Unsupported, "distro_support rocky 9.0"},
		{"softroce", "AlmaLinux 9.3", Conditional, "distro_support almalinux 9.3"},
		{"connectx-5", "AlmaLinux 8.10", Supported, "distro_support almalinux 8.10"},
		{"connectx-6-dx", "AlmaLinux 9.6", Supported, "distro_support almalinux 9.5 to 9.7"},
		{"connectx-6-dx", "almalinux-10.0", Supported, "distro_support almalinux 10.0 to 10.1"},
		// RHEL 10 builds neither rdma_rxe nor erdma; AlmaLinux 10's own
		// configuration says the same, and it is AlmaLinux's row that decides.
		{"softroce", "AlmaLinux 10.1", Unsupported, "distro_support almalinux 10.0 to 10.1"},
		{"alibaba-erdma", "AlmaLinux 10.0", Unsupported, "distro_support almalinux 10.0 to 10.1"},
		{"oneconnect-skyhawk", "AlmaLinux 10.0", Unsupported, "distro_support almalinux 10.0 to 10.1"},
	} {
		v := Judge(m, Plan{Adapter: tc.adapter, Distro: tc.distro})
		if v.Verdict != tc.want {
			t.Errorf("%s on %s: %s (likely %s), want %s: %v", tc.adapter, tc.distro, v.Verdict, v.Likely, tc.want, v.Reasons)
			continue
		}
		cited := false
		for _, r := range v.Reasons {
			if strings.Contains(r.Text, "it is a hint, not a verdict") {
				t.Errorf("%s on %s: a reason still takes the family's row as a hint: %s", tc.adapter, tc.distro, r.Text)
			}
			for _, ref := range r.Matrix {
				cited = cited || ref.Entry == tc.entry
			}
		}
		if !cited {
			t.Errorf("%s on %s: no reason cites %q: %v", tc.adapter, tc.distro, tc.entry, v.Reasons)
		}
	}
	// A release whose own configuration was not read stays a hint.
	if v := Judge(m, Plan{Adapter: "connectx-6-dx", Distro: "rocky-9.6"}); v.Verdict != Undecided || v.Likely == "" {
		t.Errorf("connectx-6-dx on rocky-9.6: %s (likely %s), want unknown with RHEL's likely answer", v.Verdict, v.Likely)
	}
}

// TestIDRowWithRDMADriverRow judges an adapter whose ids a rebuild's row
// re-adds under its Ethernet driver (AlmaLinux's mlx4_core ids of
// ConnectX-3, be2net ids of BE3) with the rebuild's driver row for its RDMA
// driver: mlx4_ib built makes it supported, ocrdma not built unsupported,
// each citing both rows; without such a row (a release whose configuration
// was not read) it stays unknown, and an ids-only row is never the nearest
// supported combination.
func TestIDRowWithRDMADriverRow(t *testing.T) {
	t.Parallel()
	m, err := realMatrix()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		adapter, distro string
		want            Level
		ids, driver     string
	}{
		{"connectx-3", "almalinux-10.0", Supported, "distro_support almalinux 10.0 and later", "distro_support almalinux 10.0 to 10.1"},
		{"connectx-3-pro", "AlmaLinux 10.1", Supported, "distro_support almalinux 10.0 and later", "distro_support almalinux 10.0 to 10.1"},
		{"oneconnect-be3", "almalinux-9.6", Unsupported, "distro_support almalinux 9.5 to 9.8", "distro_support almalinux 9.5 to 9.7"},
		{"oneconnect-be3", "almalinux-8.10", Unsupported, "distro_support almalinux 8.10", "distro_support almalinux 8.10"},
		{"connectx-3", "almalinux-10.2", Undecided, "distro_support almalinux 10.0 and later", ""},
		{"oneconnect-be3", "almalinux-9.8", Undecided, "distro_support almalinux 9.5 to 9.8", ""},
	} {
		v := Judge(m, Plan{Adapter: tc.adapter, Distro: tc.distro})
		if v.Verdict != tc.want {
			t.Errorf("%s on %s: %s, want %s: %v", tc.adapter, tc.distro, v.Verdict, tc.want, v.Reasons)
			continue
		}
		var entries []string
		for _, r := range v.Reasons {
			for _, ref := range r.Matrix {
				entries = append(entries, ref.Entry)
			}
			if r.Nearest != "" && strings.Contains(r.Nearest, " 10.0 to 10.2") {
				t.Errorf("%s on %s: nearest %q is AlmaLinux's ids-only BE3 row", tc.adapter, tc.distro, r.Nearest)
			}
		}
		if !slices.Contains(entries, tc.ids) {
			t.Errorf("%s on %s: no reason cites the ids row %q: %v", tc.adapter, tc.distro, tc.ids, entries)
		}
		if tc.driver != "" && !slices.Contains(entries, tc.driver) {
			t.Errorf("%s on %s: no reason cites the driver row %q: %v", tc.adapter, tc.distro, tc.driver, entries)
		}
	}
}
