package verdict

import (
	"strings"
	"testing"
)

// TestKnownIssueOfItsStack: a known issue about one stack's releases is
// shown with that stack only. "DOCA 2.9 does not support ConnectX-8"
// says nothing of the inbox driver, which a plan for RHEL 10.0's own
// mlx5 names, so it is not among that plan's reasons; a DOCA-OFED plan
// shows it.
func TestKnownIssueOfItsStack(t *testing.T) {
	t.Parallel()
	m, err := realMatrix()
	if err != nil {
		t.Fatal(err)
	}
	has := func(v Verdict) bool {
		for _, r := range v.Reasons {
			if strings.Contains(r.Text, "DOCA 2.9 does not support ConnectX-8") {
				return true
			}
		}
		return false
	}
	for _, tc := range []struct {
		plan Plan
		want bool
	}{
		{Plan{Adapter: "connectx-8", Distro: "rhel-10.0", Stack: "inbox"}, false},
		{Plan{Adapter: "connectx-8", Distro: "ubuntu-24.04", Stack: "mlnx-ofed"}, false},
		{Plan{Adapter: "connectx-8", Distro: "ubuntu-24.04", Stack: "doca-ofed", StackVersion: "2.9.1"}, true},
	} {
		if got := has(Judge(m, tc.plan)); got != tc.want {
			t.Errorf("%+v: DOCA 2.9 known issue shown %v, want %v", tc.plan, got, tc.want)
		}
	}
}
