package treewalk

import (
	"slices"
	"testing"

	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/diagnose"
	"github.com/rocekb/rocekb/internal/hosttest"
	"github.com/rocekb/rocekb/internal/record"
)

func TestWalkTree(t *testing.T) {
	t.Parallel()
	tree := hosttest.Content(t).Tree("no-traffic")
	cases := []struct {
		name     string
		host     func() *record.Host
		path     []string // node:answer
		stop     string
		complete bool
	}{
		{"port down", hosttest.With(hosttest.Healthy, func(h *record.Host) { h.Devices[0].Ports[0].State = "DOWN" }),
			[]string{"adapter:yes", "port:no", "fix-port:leaf"}, "fix-port", true},
		{"v1 mode (yes_when finding)", hosttest.With(hosttest.Healthy, func(h *record.Host) { h.Devices[0].Ports[0].DefaultRoCEMode = "IB/RoCE v1" }),
			[]string{"adapter:yes", "port:yes", "mode:yes", "fix-mode:leaf"}, "fix-mode", true},
		{"hosttest.Healthy stops at a manual question", hosttest.Healthy,
			[]string{"adapter:yes", "port:yes", "mode:no", "cable:unknown"}, "cable", false},
		{"unknown evidence stops", hosttest.With(hosttest.Healthy, func(h *record.Host) { h.Devices = nil }),
			[]string{"adapter:yes", "port:unknown"}, "port", false},
		{"unknown adapter", hosttest.With(hosttest.Healthy, func(h *record.Host) { h.Adapters[0].Device = "9999" }),
			[]string{"adapter:no", "unknown-part:leaf"}, "unknown-part", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := Tree(tree, diag(t, c.host()))
			var got []string
			for _, s := range w.Path {
				got = append(got, s.Node+":"+string(s.Answer))
			}
			if !slices.Equal(got, c.path) || w.Stop != c.stop || w.Complete != c.complete {
				t.Errorf("path %v stop %s complete %v; want %v %s %v", got, w.Stop, w.Complete, c.path, c.stop, c.complete)
			}
		})
	}
}

func TestWalkTreeLoopAndMissingNode(t *testing.T) {
	t.Parallel()
	loop := &content.Tree{ID: "loop", Start: "a", Nodes: []content.Node{
		{ID: "a", Check: "no-active-port", Yes: "b", No: "b"},
		{ID: "b", Check: "adapter-unknown", Yes: "a", No: "gone"},
	}}
	w := Tree(loop, diag(t, hosttest.Healthy()))
	if w.Stop != "a" || w.Complete || w.Path[len(w.Path)-1].Answer != NoAnswer {
		t.Errorf("loop: %+v", w)
	}
	w = Tree(loop, diag(t, hosttest.With(hosttest.Healthy, func(h *record.Host) { h.Adapters[0].Device = "9999" })()))
	if w.Stop != "gone" || w.Complete {
		t.Errorf("missing node: %+v", w)
	}
	bad := &content.Tree{ID: "bad", Start: "a", Nodes: []content.Node{{ID: "a", Check: "no-such-check", Yes: "a"}}}
	if w := Tree(bad, diag(t, hosttest.Healthy())); w.Path[0].Answer != NoAnswer {
		t.Errorf("unknown check: %+v", w)
	}
}

func TestWalkTrees(t *testing.T) {
	t.Parallel()
	ws := Trees(hosttest.Content(t), diag(t, hosttest.Healthy()))
	if len(ws) != 1 || ws[0].Tree != "no-traffic" || ws[0].Stop != "cable" {
		t.Errorf("walks = %+v", ws)
	}
	if Trees(nil, diag(t, hosttest.Healthy())) != nil {
		t.Error("nil content gives walks")
	}
}

// diag diagnoses a host with the test matrix, as site and kbgen check do
// before walking.
func diag(t *testing.T, h *record.Host) *diagnose.Report {
	t.Helper()
	return diagnose.Diagnose(hosttest.Matrix(t), nil, h)
}
