package verdict

import (
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/hosttest"
	"github.com/rocekb/rocekb/internal/matrix"
)

// TestDriverBase reads a driver row against the upstream release its
// drivers match (driver_base) when the row gives one, and against the
// release's kernel base otherwise: ConnectX-5's 15b3:1017 entered
// mlx5_core in 4.6, after oldrpm-1's 3.10 base.
func TestDriverBase(t *testing.T) {
	t.Parallel()
	m := hosttest.Matrix(t)
	tests := []struct {
		base string
		want Level
		text string // in the distro row's reason
	}{
		{"", Undecided, "is after the distro's kernel base 3.10"},
		{"4.5", Undecided, "is after the row's driver base 4.5"},
		{"4.6", Supported, "ConnectX-5's first upstream kernel, 4.6, is at or before the row's driver base 4.6"},
	}
	for _, tc := range tests {
		m2 := *m
		m2.DistroRows = append([]matrix.DistroRow{{Family: "rhel", From: "1", Until: "1", Drivers: []string{"mlx5_ib"}, DriverBase: tc.base,
			Status: matrix.StatusSupported, Text: "mlx5 matches upstream", Claim: matrix.Claim{Confidence: matrix.VendorDocumented}}}, m.DistroRows...)
		v := Judge(&m2, Plan{Adapter: "connectx-5", Distro: "oldrpm-1", Stack: matrix.Inbox})
		if v.Verdict != tc.want {
			t.Errorf("driver_base %q: verdict %s, want %s: %v", tc.base, v.Verdict, tc.want, v.Reasons)
		}
		found := false
		for _, r := range v.Reasons {
			found = found || strings.Contains(r.Text, tc.text)
		}
		if !found {
			t.Errorf("driver_base %q: no reason says %q: %v", tc.base, tc.text, v.Reasons)
		}
	}
}
