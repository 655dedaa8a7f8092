package verdict

import (
	"strings"
	"testing"
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
	for _, tc := range []struct{ adapter, rebuild, rhel string }{
		{"connectx-6-dx", "Rocky Linux 9.4", "rhel-9.4"}, // RHEL: supported
		{"alibaba-erdma", "Alma 9.1", "rhel-9.1"},        // RHEL: unsupported
		{"bcm57502", "CentOS 7.9", "rhel-7.9"},           // RHEL: unknown, likely supported
		{"connectx-6-dx", "rocky-10.0", "rhel-10.0"},
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
	}
	// A release the matrix has under two kernels is no verdict either.
	v := Judge(m, Plan{Adapter: "connectx-6-dx", Distro: "Oracle Linux 9.4"})
	if v.Verdict != Undecided || v.Distro != "" || len(v.Reasons) == 0 || !strings.Contains(v.Reasons[0].Text, "oracle-9.4-uek") {
		t.Errorf("Oracle Linux 9.4: %s %q %v, want unknown naming oracle-9.4-uek and -rhck", v.Verdict, v.Distro, v.Reasons)
	}
}
