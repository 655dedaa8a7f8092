package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/diagnose"
	"github.com/rocekb/rocekb/internal/hosttest"
	"github.com/rocekb/rocekb/internal/record"
)

// TestExplain asserts on the typed output first, then on its text and
// JSON: both views read the same Output.
func TestExplain(t *testing.T) {
	t.Parallel()
	m := hosttest.Matrix(t)
	down := hosttest.With(hosttest.Healthy, func(h *record.Host) { h.Devices[0].Ports[0].State = "DOWN" })()
	reports := []*diagnose.Report{diagnose.Diagnose(m, nil, down), diagnose.Diagnose(m, nil, hosttest.Healthy())}

	o, err := Explain(reports, "no-active-port")
	if err != nil || len(o.Findings) != 1 || o.Findings[0].Key() != "no-active-port@mlx5_0" || o.Results != nil {
		t.Fatalf("Explain = %+v, %v", o, err)
	}
	if Worst(reports) != diagnose.Error {
		t.Errorf("worst = %q", Worst(reports))
	}
	var text, js bytes.Buffer
	Text(&text, o, false)
	if !strings.HasPrefix(text.String(), "no-active-port@mlx5_0 on host cx5: error") {
		t.Errorf("text:\n%s", text.String())
	}
	if err := JSON(&js, o); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Findings []diagnose.Finding `json:"findings"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Findings) != 1 || back.Findings[0].Check != "no-active-port" {
		t.Errorf("json %s: %v", js.String(), err)
	}

	// A check without a finding explains its notes instead.
	o, err = Explain(reports[1:], "fw-below-min")
	if err != nil || o.Findings != nil || len(o.Results) != 1 || o.Results[0].Result.Status != diagnose.Unknown {
		t.Fatalf("Explain without a finding = %+v, %v", o, err)
	}
	if _, err := Explain(reports, "no-such-check"); err == nil || !strings.Contains(err.Error(), "no such check") {
		t.Errorf("unknown check: %v", err)
	}
	if _, err := Explain(reports, "no-active-port@mlx5_9"); err == nil || !strings.Contains(err.Error(), "findings: no-active-port@mlx5_0") {
		t.Errorf("unknown subject: %v", err)
	}
}

// TestHostsFleet: a fleet summary comes with two hosts or more only.
func TestHostsFleet(t *testing.T) {
	t.Parallel()
	m := hosttest.Matrix(t)
	one := []*diagnose.Report{diagnose.Diagnose(m, nil, hosttest.Healthy())}
	if o := Hosts(m, one); o.Fleet != nil || len(o.Hosts) != 1 {
		t.Errorf("one host: %+v", o)
	}
	two := append(one, diagnose.Diagnose(m, nil, hosttest.Cisco()))
	o := Hosts(m, two)
	if o.Fleet == nil || o.Fleet.Hosts != 2 {
		t.Fatalf("two hosts: %+v", o.Fleet)
	}
	var text bytes.Buffer
	Text(&text, o, false)
	if !strings.Contains(text.String(), "\nfleet: 2 hosts\n") {
		t.Errorf("text:\n%s", text.String())
	}
}

// TestHostTextQuieter: on the real probe-failure record the finding both
// functions of the card share is printed once, the not-judged checks are a
// count that --explain not-judged expands, the snapshot's gaps are named,
// and FAQ links keep one language.
func TestHostTextQuieter(t *testing.T) {
	t.Parallel()
	m := hosttest.Matrix(t)
	h := hosttest.Golden(t, "mlx5-cx4lx-hpe-probe-failed")()
	rep := diagnose.Diagnose(m, nil, h)
	for i := range rep.Findings {
		rep.Findings[i].FAQ = []string{"faq/verify-adapter-driver", "faq/verify-adapter-driver.zh"}
	}
	var text bytes.Buffer
	Text(&text, WithLang(Hosts(m, []*diagnose.Report{rep}), "", "en"), false)
	s := text.String()
	if n := strings.Count(s, "driver-probe-failed@"); n != 1 {
		t.Errorf("driver-probe-failed printed %d times, want once:\n%s", n, s)
	}
	for _, want := range []string{"also on: 0000:0b:00.1", "not judged, evidence absent: ", "--explain not-judged", "snapshot lacks: lsmod", "see: faq/verify-adapter-driver\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("text lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, ".zh") {
		t.Errorf("links in two languages:\n%s", s)
	}
	var zh bytes.Buffer
	Text(&zh, WithLang(Hosts(m, []*diagnose.Report{rep}), "zh", "en"), false)
	if !strings.Contains(zh.String(), "see: faq/verify-adapter-driver.zh") {
		t.Errorf("--lang zh:\n%s", zh.String())
	}
	o, err := Explain([]*diagnose.Report{rep}, NotJudged)
	if err != nil || len(o.Results) != len(rep.Unknown) || len(o.Results) == 0 {
		t.Fatalf("not-judged = %+v, %v", o, err)
	}
	for _, hr := range o.Results {
		for _, n := range hr.Result.Notes {
			if n.Status != diagnose.Unknown {
				t.Errorf("%s: note %+v is not unknown", hr.Result.Check, n)
			}
		}
	}
	if len(rep.Snapshot.Absent) == 0 || rep.Snapshot.Absent[0].Package == "" {
		t.Errorf("snapshot = %+v", rep.Snapshot)
	}
}
