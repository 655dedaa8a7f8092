package fleet

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocekb/rocekb/internal/diagnose"
	"github.com/rocekb/rocekb/internal/hosttest"
	"github.com/rocekb/rocekb/internal/record"
)

func TestSummarizeDrift(t *testing.T) {
	t.Parallel()
	m := hosttest.Matrix(t)
	a := hosttest.Healthy()
	a.Host.ID = "a"
	b := hosttest.With(hosttest.Healthy, func(h *record.Host) {
		h.Host.ID = "b"
		h.Adapters[0].Firmware = record.Firmware{Running: "16.35.4030", Stored: "16.35.4030"}
		h.Devices[0].Ports[0].DefaultRoCEMode = "IB/RoCE v1"
	})()
	c := hosttest.With(hosttest.Healthy, func(h *record.Host) {
		h.Host.ID = "c"
		h.Adapters[0].Firmware.Stored = "16.35.4030"
	})()
	reports := []*diagnose.Report{diagnose.Diagnose(m, nil, a), diagnose.Diagnose(m, nil, b), diagnose.Diagnose(m, nil, c)}
	f := Summarize(m, reports)
	if f.Hosts != 3 || len(f.Models) != 1 {
		t.Fatalf("fleet %+v", f)
	}
	mo := f.Models[0]
	if mo.Adapter != "connectx-5" || mo.Hosts != 3 || mo.Functions != 3 {
		t.Errorf("model %+v", mo)
	}
	wantFW := []Count{{Value: "16.35.2000", N: 2, Hosts: []string{"a", "c"}}, {Value: "16.35.4030", N: 1, Hosts: []string{"b"}}}
	if d := cmp.Diff(wantFW, mo.Firmware); d != "" {
		t.Errorf("firmware counts (-want +got):\n%s", d)
	}
	var drift []string
	for _, d := range f.Drift {
		drift = append(drift, d.Adapter+"/"+d.What)
	}
	if d := cmp.Diff([]string{"/roce-mode", "connectx-5/firmware"}, drift); d != "" {
		t.Errorf("drift (-want +got):\n%s", d)
	}
	wantF := []FindingCount{
		{Check: "fw-update-pending", Severity: diagnose.Warning, N: 1, Hosts: []string{"c"}},
		{Check: "roce-mode-v1", Severity: diagnose.Warning, N: 1, Hosts: []string{"b"}},
	}
	if d := cmp.Diff(wantF, f.Findings); d != "" {
		t.Errorf("finding counts (-want +got):\n%s", d)
	}
}

func TestSummarizeNoDriftOnUniformFleet(t *testing.T) {
	t.Parallel()
	m := hosttest.Matrix(t)
	var reps []*diagnose.Report
	for _, id := range []string{"x", "y"} {
		h := hosttest.Healthy()
		h.Host.ID = id
		reps = append(reps, diagnose.Diagnose(m, nil, h))
	}
	if f := Summarize(m, reps); len(f.Drift) != 0 || len(f.Findings) != 0 {
		t.Errorf("uniform fleet drifts: %+v", f.Drift)
	}
}

func TestSummarizeIgnoresMissingValuesAndUnidentifiedFunctions(t *testing.T) {
	t.Parallel()
	m := hosttest.Matrix(t)
	a := hosttest.Healthy()
	a.Host.ID = "a"
	// A second function of the same card without firmware or driver data.
	a.Adapters = append(a.Adapters, record.Adapter{PCIAddress: "0000:3b:00.1", Vendor: "15b3", Device: "1017"})
	b := hosttest.With(hosttest.Healthy, func(h *record.Host) {
		h.Host.ID = "b"
		h.Adapters[0].Vendor, h.Adapters[0].Device, h.Adapters[0].Name = "", "", ""
		h.Adapters[0].Firmware.Running = "16.35.4030"
	})()
	c := hosttest.With(hosttest.Healthy, func(h *record.Host) {
		h.Host.ID = "c"
		h.Adapters[0].Vendor, h.Adapters[0].Device, h.Adapters[0].Name = "", "", ""
		h.Adapters[0].Driver.Name = "ice"
	})()
	f := Summarize(m, []*diagnose.Report{diagnose.Diagnose(m, nil, a), diagnose.Diagnose(m, nil, b), diagnose.Diagnose(m, nil, c)})
	if len(f.Drift) != 0 {
		t.Errorf("drift from missing values or unidentified functions: %+v", f.Drift)
	}
	var keys []string
	for _, mo := range f.Models {
		keys = append(keys, mo.Adapter)
	}
	if d := cmp.Diff([]string{"connectx-5", "unidentified:ice", "unidentified:mlx5_core"}, keys); d != "" {
		t.Errorf("models (-want +got):\n%s", d)
	}
}

// TestNilMatrix: without a matrix every check still runs (and judges
// nothing), and the summary does not panic.
func TestNilMatrix(t *testing.T) {
	t.Parallel()
	rep := diagnose.Diagnose(nil, nil, hosttest.Healthy())
	if len(rep.Results) != len(diagnose.CheckIDs()) {
		t.Errorf("%d results", len(rep.Results))
	}
	if f := Summarize(nil, []*diagnose.Report{rep}); f.Hosts != 1 {
		t.Errorf("summary of one host: %+v", f)
	}
}

// TestDriftIsRealDrift on real records: the two functions of the
// ConnectX-5 Ex host (ethtool gave a driver version for one, not the
// other) run one driver, and the ConnectX-4 Lx function whose firmware the
// log does not give is no firmware value. The test matrix names neither
// part, so both records get the ConnectX-5 ids it knows (15b3:1017).
func TestDriftIsRealDrift(t *testing.T) {
	t.Parallel()
	m := hosttest.Matrix(t)
	var reps []*diagnose.Report
	for _, name := range []string{"mlx5-cx5ex-net-next", "mlx5-cx4lx-hpe-probe-failed"} {
		h := hosttest.Golden(t, name)()
		h.Host.ID = name // the captures are redacted to no host name
		for i := range h.Adapters {
			h.Adapters[i].Vendor, h.Adapters[i].Device = "15b3", "1017"
		}
		reps = append(reps, diagnose.Diagnose(m, nil, h))
	}
	f := Summarize(m, reps)
	if len(f.Models) != 1 || f.Models[0].Adapter != "connectx-5" {
		t.Fatalf("models = %+v", f.Models)
	}
	mo := f.Models[0]
	want := []Count{{Value: "14.21.1000", N: 1, Hosts: []string{"mlx5-cx4lx-hpe-probe-failed"}}, {Value: "16.23.1020", N: 1, Hosts: []string{"mlx5-cx5ex-net-next"}}}
	if d := cmp.Diff(want, mo.Firmware); d != "" || mo.FirmwareUnknown != 2 {
		t.Errorf("firmware (-want +got):\n%s\nunknown %d, want 2", d, mo.FirmwareUnknown)
	}
	var drift []string
	for _, d := range f.Drift {
		drift = append(drift, d.What+": "+d.Text)
	}
	// Firmware differs between the hosts (real drift); the driver does
	// not: mlx5_core with a version on one host and without on the other.
	if len(drift) != 1 || !strings.HasPrefix(drift[0], "firmware: ") {
		t.Errorf("drift = %q, want firmware only", drift)
	}
	for _, c := range mo.Drivers {
		if c.Value == "mlx5_core (unknown)" && slices.Contains(c.Hosts, "mlx5-cx5ex-net-next") {
			t.Errorf("the versionless function of the ConnectX-5 Ex host is counted apart: %+v", mo.Drivers)
		}
	}
}
