package verdict

import (
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/matrix"
)

// TestRebuildIsAHint judges a RHEL rebuild the matrix has no entry for
// (Rocky Linux, AlmaLinux, CentOS) as the RHEL release of its number,
// but only as a hint: RHEL's sources decide neither a yes nor a no for
// another distro's kernel.
func TestRebuildIsAHint(t *testing.T) {
	t.Parallel()
	m, err := realMatrix()
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(m)
	for _, tc := range []struct{ adapter, rebuild, rhel string }{
		{"connectx-6-dx", "Rocky Linux 9.4", "rhel-9.4"}, // RHEL: supported
		{"alibaba-erdma", "Alma 9.1", "rhel-9.1"},        // RHEL: unsupported
		{"bcm57502", "CentOS 7.9", "rhel-7.9"},           // RHEL: unknown, likely supported
		{"connectx-6-dx", "rocky-10.0", "rhel-10.0"},
		{"softroce", "Rocky 9.4", "rhel-9.4"}, // a software stack's own way
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
		switch {
		case rhel.Verdict == alma.Verdict:
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
