package verdict

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rocekb/rocekb/internal/hosttest"
	"github.com/rocekb/rocekb/internal/matrix"
)

func TestLintShipped(t *testing.T) {
	t.Parallel()
	m, err := realMatrix()
	if err != nil {
		t.Fatal(err)
	}
	if probs := Lint(m); len(probs) > 0 {
		t.Errorf("shipped matrix:\n%s", probs)
	}
}

// TestLintCatches breaks the engine on purpose: a judge that calls
// everything supported must be reported where the kernel predates the
// device and no distro row is behind it, and only there.
func TestLintCatches(t *testing.T) {
	t.Parallel()
	m := hosttest.Matrix(t)
	if probs := Lint(m); len(probs) > 0 {
		t.Fatalf("test matrix: %s", probs)
	}
	always := func(m *matrix.Matrix, p Plan) Verdict { return Verdict{Plan: p, Verdict: Supported} }
	probs := lint(NewEngine(m), always)
	want := []string{
		"adapter connectx-5: supported on oldrpm-1 from kernel 3.10, older than the device's first kernel 4.6",
		"adapter connectx-5: supported on upstream 3.10, older than the device's first kernel 4.6",
		"adapter e810: supported on debian-11.3 from kernel 5.10, older than the device's first kernel 5.14",
	}
	got := probs.String()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("lint lacks %q:\n%s", w, got)
		}
	}
	if !strings.Contains(got, "testdata/matrix/engine.toml:") {
		t.Errorf("problems carry no position:\n%s", got)
	}
	// A yes resting on an unconfirmed entry (ConnectX-3's RoCE claim is
	// unconfirmed in the test matrix) is reported.
	cited := func(m *matrix.Matrix, p Plan) Verdict {
		v := Judge(m, p)
		if p.Adapter == "connectx-3" {
			v.Verdict = Supported
		}
		return v
	}
	if got := lint(NewEngine(m), cited).String(); !strings.Contains(got, "adapter connectx-3: debian-11.3 with inbox: a yes whose chain has an unconfirmed step") {
		t.Errorf("lint lacks the unconfirmed step:\n%s", got)
	}
	// A distro_support row behind the verdict keeps it quiet.
	m2 := *m
	m2.DistroRows = append([]matrix.DistroRow{{Family: "rhel", From: "1", Adapters: []string{"connectx-5"}, Status: matrix.StatusSupported, Text: "test row",
		Claim: matrix.Claim{Confidence: matrix.VendorDocumented}}}, m.DistroRows...)
	if strings.Contains(lint(NewEngine(&m2), always).String(), "connectx-5: supported on oldrpm-1") {
		t.Errorf("a distro row behind the verdict was reported")
	}
}

// TestLintPeers: a peer (matrix.Peers) is linted when its group's first
// has a problem, so a broken engine is reported on every one of them.
func TestLintPeers(t *testing.T) {
	t.Parallel()
	base, err := os.ReadFile(filepath.Join(hosttest.Root, "testdata", "matrix", "engine.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var peers strings.Builder
	for _, n := range []string{"1", "2", "3"} {
		fmt.Fprintf(&peers, "\n[[adapter]]\nid = \"peer-%s\"\nname = \"Peer %s\"\nvendor = \"nvidia\"\npci = [{ id = \"ffff:b00%s\" }]\nroce = [\"v2\"]\neth_driver = \"mlx5_core\"\nrdma_driver = \"mlx5_ib\"\nsources = [\"pciids\"]\nconfidence = \"unconfirmed\"\n", n, n, n)
	}
	m, probs := matrix.Load(fstest.MapFS{
		"engine.toml": {Data: base},
		"peers.toml":  {Data: []byte("schema = 1\n" + peers.String())},
	}, "testdata/matrix")
	if probs.Errors() > 0 {
		t.Fatal(probs)
	}
	if p := m.Peers(); p["peer-2"] != "peer-1" || p["peer-3"] != "peer-1" {
		t.Fatalf("peers: %v", p)
	}
	if probs := Lint(m); len(probs) > 0 {
		t.Fatalf("lint: %s", probs)
	}
	always := func(m *matrix.Matrix, p Plan) Verdict { return Verdict{Plan: p, Verdict: Supported} }
	got := lint(NewEngine(m), always).String()
	for _, id := range []string{"peer-1", "peer-2", "peer-3"} {
		if !strings.Contains(got, "adapter "+id+": supported on upstream") {
			t.Errorf("lint lacks %s:\n%s", id, got)
		}
	}
}
