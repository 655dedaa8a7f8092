package verdict

import (
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/matrix"
)

// A recommended firmware_min row is the firmware the vendor tested one
// release with. A plan naming a later release the matrix has no row for
// must not read it as that release's: firmware at or above it is not
// judged (no source says the later release was tested with it), older
// firmware stays a condition, and the reason says whose test it was.
func TestRecommendedIsItsOwnRelease(t *testing.T) {
	t.Parallel()
	a := &matrix.Adapter{ID: "connectx-7", Name: "ConnectX-7"}
	m := &matrix.Matrix{
		Adapters: []matrix.Adapter{*a},
		Firmware: []matrix.FirmwareMin{{
			Adapter: "connectx-7", Feature: "stack", Min: "28.42.1000", Rule: matrix.RuleRecommended,
			Stack: "mlnx-ofed", StackVersion: "24.07-0.6.1.0", Claim: matrix.Claim{Confidence: "vendor-documented"},
		}},
	}
	for _, c := range []struct {
		ver, fw   string
		level     Level // the worst step firmware adds
		informs   bool
		mentioned string
	}{
		{"24.07-0.6.1.0", "28.42.1000", Supported, false, "meets"},            // its own release
		{"24.07-0.6.1.0", "28.39.1000", Conditional, false, "older than"},     // its own release, older
		{"24.10-1.1.4.0.105", "28.42.1000", Undecided, true, "not judged"},    // a later release: not its test
		{"24.10-1.1.4.0.105", "28.39.1000", Conditional, false, "an earlier"}, // older than an earlier release's
		{"24.10-1.1.4.0.105", "", Undecided, true, "lacks"},                   // no firmware: a note naming whose test, unknown as what it lacks
	} {
		v := Verdict{Verdict: Supported}
		judgeFirmware(m, &v, a, nil, "mlnx-ofed", c.ver, c.fw)
		if len(v.Reasons) != 1 {
			t.Fatalf("%s %s: %d reasons, want 1: %+v", c.ver, c.fw, len(v.Reasons), v.Reasons)
		}
		r := v.Reasons[0]
		if r.Verdict != c.level || r.Informs != c.informs || !strings.Contains(r.Text, c.mentioned) {
			t.Errorf("%s %s: %s (informs %v) %q, want %s (informs %v) saying %q", c.ver, c.fw, r.Verdict, r.Informs, r.Text, c.level, c.informs, c.mentioned)
		}
		if c.ver != "24.07-0.6.1.0" && r.Verdict == Supported && !r.Informs {
			t.Errorf("%s %s: a yes step from another release's test: %q", c.ver, c.fw, r.Text)
		}
	}
}
