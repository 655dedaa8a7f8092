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
		text string // in the device's reason
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
		// The row's step (the distro builds mlx5_ib) and the device's
		// (its id against the base) are two reasons, each on its own
		// entries, so the row's reads the same for every adapter.
		var row, dev *Reason
		for i, r := range v.Reasons {
			switch {
			case strings.HasPrefix(r.Text, "the distro_support row for rhel 1:"):
				row = &v.Reasons[i]
			case strings.Contains(r.Text, tc.text):
				dev = &v.Reasons[i]
			}
		}
		if row == nil || row.Text != "the distro_support row for rhel 1: mlx5 matches upstream" || row.Verdict != Supported || len(row.Matrix) != 1 {
			t.Errorf("driver_base %q: the row's own step is not a supported reason on the row alone: %+v", tc.base, row)
		}
		if dev == nil {
			t.Errorf("driver_base %q: no reason says %q: %v", tc.base, tc.text, v.Reasons)
			continue
		}
		for _, ref := range dev.Matrix {
			if strings.HasPrefix(ref.Entry, "distro_support") {
				t.Errorf("driver_base %q: the device's step rests on the row %s: %+v", tc.base, ref.Entry, dev)
			}
		}
	}
}
