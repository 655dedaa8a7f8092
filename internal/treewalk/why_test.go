package treewalk

import (
	"testing"

	"github.com/rocekb/rocekb/internal/diagnose"
)

// TestResultWhySaysEachMessageOnce: a check that finds the same problem on
// several subjects is one reason, not "because: X; X".
func TestResultWhySaysEachMessageOnce(t *testing.T) {
	r := diagnose.Result{Status: diagnose.Found, Findings: []diagnose.Finding{
		{Subject: "mlx5_0/1", Message: "the port is down"},
		{Subject: "mlx5_1/1", Message: "the port is down"},
		{Subject: "mlx5_2/1", Message: "no GID"},
	}}
	if got, want := resultWhy(r), "the port is down; no GID"; got != want {
		t.Errorf("resultWhy = %q, want %q", got, want)
	}
}
