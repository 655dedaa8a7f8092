package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/diagnose"
	"github.com/rocekb/rocekb/internal/hosttest"
	"github.com/rocekb/rocekb/internal/record"
)

// TestTextEscapesRecordFields gives the report a host whose record
// (validated or not) carries a terminal attack in its problem source and
// a bidi override in its id: the text holds neither raw, with or without
// colour, and with colour it keeps its own SGR colours only.
func TestTextEscapesRecordFields(t *testing.T) {
	t.Parallel()
	m := hosttest.Matrix(t)
	attack := "\u001b]0;PWNED\u0007\u001b[2J\u001b[31mFAKE: all checks passed"
	h := hosttest.With(hosttest.Healthy, func(h *record.Host) {
		h.Host.ID = "host\u202egnp.exe"
		h.Devices[0].Ports[0].State = "DOWN"
		h.Problems = append(h.Problems, record.Problem{Source: attack, Msg: "zero\u200bwidth"})
	})()
	o := Hosts(m, []*diagnose.Report{diagnose.Diagnose(m, nil, h)})
	sgr := regexp.MustCompile(`\x1b\[[0-9;]*m`)
	for _, color := range []bool{false, true} {
		var b bytes.Buffer
		Text(&b, o, color)
		out := b.String()
		if !strings.Contains(out, `\x1b]0;PWNED\x07\x1b[2J\x1b[31mFAKE`) || !strings.Contains(out, `host\u202egnp.exe`) {
			t.Errorf("colour %v: the attack is not shown escaped:\n%s", color, out)
		}
		rest := sgr.ReplaceAllString(out, "")
		if color && rest == out {
			t.Errorf("colour on, but no colour in the output")
		}
		for _, r := range []string{"\x1b", "\x07", "\u202e", "\u200b"} {
			if strings.Contains(rest, r) {
				t.Errorf("colour %v: %q reaches the terminal raw:\n%q", color, r, out)
			}
		}
	}
}
