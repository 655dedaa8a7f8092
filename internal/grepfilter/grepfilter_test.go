package grepfilter

import "testing"

// TestPasses: the filters are those of real pastes
// (testdata/captures: lsmod | grep qede, grep "rdma", grep -i uverb …).
func TestPasses(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		filter, name string
		want         bool
	}{
		{"grep qede", "qede", true},
		{"grep qede", "qedr", false},
		{`grep "rdma"`, "rdma_cm", true},
		{`grep "mlx"`, "ib_core", false},
		{"grep -i uverb", "ib_uverbs", true},
		{"grep -i IB", "ib_core", true},
		{"grep rxe", "rdma_rxe", true},
		{`grep -E "mlx|ib_"`, "ib_core", true},
		{"egrep 'mlx|rdma'", "rdma_ucm", true},
		{`grep 'mlx\|ib_'`, "ib_core", true},
		{"grep -E 'mlx|ib_'", "irdma", false},
		{"grep -w mlx5_ib", "mlx5_ib", true},
		{"grep -w mlx5", "mlx5_ib", false},
		{"grep -e mlx -i", "MLX5_IB", true},
		{"grep --color=auto mlx", "mlx5_ib", true},
		{"fgrep 'mlx|ib'", "ib_core", false}, // one fixed string, no alternatives
		// What it cannot read surely lets nothing surely through.
		{"grep -v mlx", "ib_core", false},
		{"grep mlx | grep -v ipoib", "mlx5_ib", false},
		{"grep '[m]lx'", "mlx5_ib", false},
		{"head -20", "ib_core", false},
		{"grep", "ib_core", false},
		{"grep mlx file.txt", "mlx5_ib", false},
		// Two pastes of one output: either shows it.
		{"grep qede; grep ib", "ib_core", true},
		{"grep mlx | grep 5", "mlx5_ib", true},
	} {
		if got := Passes(c.filter, c.name); got != c.want {
			t.Errorf("Passes(%q, %q) = %t, want %t", c.filter, c.name, got, c.want)
		}
	}
}
