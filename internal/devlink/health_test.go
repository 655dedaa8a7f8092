package devlink

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// health prints the reporters as "handle name state errors/recovers".
func health(reps []Reporter) string {
	var b strings.Builder
	n := func(p *int) string {
		if p == nil {
			return "-"
		}
		return fmt.Sprint(*p)
	}
	for _, r := range reps {
		port := n(r.Port)
		fmt.Fprintf(&b, "%s|%s %s %s %s/%s %s\n", r.Handle, port, r.Name, r.State, n(r.Errors), n(r.Recovers), r.PCIAddress())
	}
	return b.String()
}

// devlink health show: device and port reporters, by the handle they are
// printed under; wrapped attributes; mail quotes; monitor events, whose
// later print of a reporter is its state.
func TestParseHealth(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ file, want string }{
		{"mlx5-health-show-port-tx-rx-grace-period-commit-msg.txt",
			"pci/0000:00:0b.0|- fw healthy 0/0 0000:00:0b.0\n" +
				"pci/0000:00:0b.0|- fw_fatal healthy 0/0 0000:00:0b.0\n" +
				"pci/0000:00:0b.0/1|1 tx healthy 0/0 0000:00:0b.0\n" +
				"pci/0000:00:0b.0/1|1 rx healthy 0/0 0000:00:0b.0\n"},
		// "last_dump_time …" wrapped onto its own line, under "> " quotes;
		// then an auxiliary device's port reporters, which name no PCI
		// function.
		{"ice-e810-health-port-reporter-state-error-last-dump-wrapped-mail-quoted.txt",
			"pci/0000:b1:00.3|- fw healthy 0/0 0000:b1:00.3\n" +
				"pci/0000:b1:00.3|- port error 1/0 0000:b1:00.3\n" +
				"auxiliary/mlx5_core.eth.1/131071|131071 tx healthy 0/0 \n" +
				"auxiliary/mlx5_core.eth.1/131071|131071 rx healthy 0/0 \n"},
		// devlink mon's "[health,status]" events (error 1, 2), then
		// devlink health (error 7): the last print is the state.
		{"simple-fw-reporter-mon-health-state-error-error-7-rfc.txt",
			"pci/0000:07:00.0|- fw error 7/0 0000:07:00.0\n"},
		{"octeontx2-health-npa-state-error-mail-quoted-dot-slash.txt",
			"pci/0002:01:00.0|- npa error 1/0 0002:01:00.0\n"},
	} {
		got, err := ParseHealth(bytes.NewReader(capture(t, tc.file)))
		if err != nil {
			t.Fatal(err)
		}
		if g := health(got); g != tc.want {
			t.Errorf("%s:\n%s\nwant\n%s", tc.file, g, tc.want)
		}
	}
	// Three PFs' ports: 2 device reporters' sets and 6 port reporters,
	// each once though the paste prints some three times.
	got, _ := ParseHealth(bytes.NewReader(capture(t, "mlx5-health-all-reporters-vnic-per-port-commit-msg.txt")))
	if len(got) != 12 {
		t.Errorf("%d reporters, want 12:\n%s", len(got), health(got))
	}
	// devlink dev info is no health output.
	if got, _ := ParseHealth(bytes.NewReader(capture(t, "mlx5-cx5-dev-info-kernel-doc-example.txt"))); len(got) != 0 {
		t.Errorf("dev info read as health: %s", health(got))
	}
}
