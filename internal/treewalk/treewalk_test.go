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
	// A translated tree is the same tree in another language: it is not
	// walked a second time (its nodes carry no checks).
	c := *hosttest.Content(t)
	zh := *c.Trees[0]
	zh.ID, zh.Lang = zh.ID+".zh", "zh"
	c.Trees = append(append([]*content.Tree(nil), c.Trees...), &zh)
	if ws := Trees(&c, diag(t, hosttest.Healthy())); len(ws) != 1 {
		t.Errorf("with a Chinese translation: %d walks, want 1", len(ws))
	}
}

// diag diagnoses a host with the test matrix, as site and kbgen check do
// before walking.
func diag(t *testing.T, h *record.Host) *diagnose.Report {
	t.Helper()
	return diagnose.Diagnose(hosttest.Matrix(t), nil, h)
}

// TestTreeAppliesByVendor: a tree tagged with a matrix vendor is walked
// only on hosts with that vendor's hardware, and on records that name no
// vendor at all.
func TestTreeAppliesByVendor(t *testing.T) {
	t.Parallel()
	vic := &content.Tree{ID: "vic", Start: "a", Tags: []string{"cisco", "vic"}, Nodes: []content.Node{
		{ID: "a", Check: "msix-disabled", Yes: "done", No: "done"}, {ID: "done", Cause: "c", Fix: "f"},
	}}
	cases := []struct {
		name  string
		host  *record.Host
		walks bool
	}{
		{"cisco host", hosttest.Cisco(), true},
		{"connectx-5 host", hosttest.Healthy(), false},
		{"golden mlx5-cx7-devlink", hosttest.Golden(t, "mlx5-cx7-devlink")(), false},
		{"golden cisco-vic-enic-rdma", hosttest.Golden(t, "cisco-vic-enic-rdma")(), true},
		{"golden verbs-no-config-directory: no vendor named", hosttest.Golden(t, "verbs-no-config-directory")(), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rep := diag(t, c.host)
			w := Tree(vic, rep)
			if w.NotApplicable == c.walks {
				t.Errorf("not applicable = %v (%s), want %v", w.NotApplicable, w.Why, !c.walks)
			}
			c2 := &content.Content{Trees: []*content.Tree{vic}}
			if got := len(Trees(c2, rep)); got != map[bool]int{true: 1, false: 0}[c.walks] {
				t.Errorf("Trees gives %d walks", got)
			}
		})
	}
}

// TestPerDeviceAnswers: on a host where one device has the problem and
// another not, the step answers per device.
func TestPerDeviceAnswers(t *testing.T) {
	t.Parallel()
	tree := &content.Tree{ID: "ports", Start: "port", Nodes: []content.Node{
		{ID: "port", Question: "Is a port ACTIVE?", Check: "no-active-port", Yes: "done", No: "done"}, {ID: "done", Cause: "c", Fix: "f"},
	}}
	w := Tree(tree, diag(t, hosttest.Golden(t, "mlx5-ibdev2netdev-v-mixed")()))
	var port *Step
	for i := range w.Path {
		if w.Path[i].Node == "port" {
			port = &w.Path[i]
		}
	}
	if port == nil || port.Answer != No {
		t.Fatalf("path = %+v", w.Path)
	}
	got := map[string]Answer{}
	for _, s := range port.Subjects {
		got[s.Subject] = s.Answer
	}
	if got["mlx5_0"] != No || got["mlx5_2"] != Yes {
		t.Errorf("per-device answers = %v, want mlx5_0 no and mlx5_2 yes", got)
	}
}
