package paste

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/diagnose"
)

// TestDevlinkHealth: devlink health's output is filed as "devlink health
// show" (bare "devlink health" runs show; "./devlink"; no command line, by
// its reporter and state lines), and each PCI function's reporters are kept
// on its adapter, the last print of each.
func TestDevlinkHealth(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ file, want string }{
		{"ice-e810-health-port-reporter-state-error-last-dump-wrapped-mail-quoted.txt", "0000:b1:00.3: fw - healthy 0/0; port - error 1/0"},
		{"simple-fw-reporter-mon-health-state-error-error-7-rfc.txt", "0000:07:00.0: fw - error 7/0"},
		{"octeontx2-health-npa-state-error-mail-quoted-dot-slash.txt", "0002:01:00.0: npa - error 1/0"},
		{"mlx5-health-show-port-tx-rx-grace-period-commit-msg.txt", "0000:00:0b.0: fw - healthy 0/0; fw_fatal - healthy 0/0; tx 1 healthy 0/0; rx 1 healthy 0/0"},
	} {
		secs, _, err := Split(strings.NewReader(body(t, "devlink", c.file)))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range secs {
			if strings.HasPrefix(s.Command, "devlink health") && (s.Command != "devlink health show" || s.Path != "sos_commands/kbcollect/devlink_health_show") {
				t.Errorf("%s: filed as %q at %q", c.file, s.Command, s.Path)
			}
		}
		h := collectText(t, body(t, "devlink", c.file))
		var got []string
		for _, a := range h.Adapters {
			var reps []string
			for _, r := range a.HealthReporters {
				port := "-"
				if r.Port != nil {
					port = fmt.Sprint(*r.Port)
				}
				reps = append(reps, fmt.Sprintf("%s %s %s %d/%d", r.Name, port, r.State, *r.Errors, *r.Recovers))
			}
			got = append(got, a.PCIAddress+": "+strings.Join(reps, "; "))
		}
		if g := strings.Join(got, " | "); g != c.want {
			t.Errorf("%s: %s, want %s", c.file, g, c.want)
		}
	}
}

// TestDevlinkHealthCheck: a reporter in the error state is a warning of
// devlink-health-error; healthy reporters pass.
func TestDevlinkHealthCheck(t *testing.T) {
	t.Parallel()
	findings(t, "mlx5-cx4lx-tv-tree-vx-dmesg-probe-failed-17-mail-quoted.txt", "devlink-health-error") // loads the matrix
	for _, c := range []struct{ file, want string }{
		{"ice-e810-health-port-reporter-state-error-last-dump-wrapped-mail-quoted.txt", "warning devlink health reporter port is in the error state"},
		{"simple-fw-reporter-mon-health-state-error-error-7-rfc.txt", "warning devlink health reporter fw is in the error state"},
		{"octeontx2-health-npa-state-error-mail-quoted-dot-slash.txt", "warning devlink health reporter npa is in the error state"},
		{"mlx5-health-show-port-tx-rx-grace-period-commit-msg.txt", ""},
	} {
		r, ok := diagnose.Evaluate(brokenMatrix, collectText(t, body(t, "devlink", c.file)), "devlink-health-error")
		if !ok {
			t.Fatal("no check devlink-health-error")
		}
		var got []string
		for _, f := range r.Findings {
			got = append(got, fmt.Sprintf("%s %s", f.Severity, f.Message))
		}
		if g := strings.Join(got, "; "); g != c.want {
			t.Errorf("%s: %q, want %q", c.file, g, c.want)
		}
	}
}
