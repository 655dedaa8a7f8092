package compat

import (
	"slices"
	"testing"
	"testing/fstest"

	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/record"
)

const treeTOML = `id = "no-traffic"
title = "No RDMA traffic"
summary = "s"
start = "adapter"

[[node]]
id = "adapter"
question = "Is the adapter in the matrix?"
check = "adapter-unknown"
yes = "port"
no = "unknown-part"

[[node]]
id = "port"
question = "Is a port ACTIVE?"
check = "no-active-port"
yes = "mode"
no = "fix-port"

[[node]]
id = "mode"
question = "Is the RDMA_CM mode v1?"
check = "roce-mode-v1"
yes_when = "finding"
yes = "fix-mode"
no = "cable"

[[node]]
id = "cable"
question = "Does the switch see the link?"
how = "ethtool ens1f0np0"
yes = "fix-mode"
no = "fix-port"

[[node]]
id = "fix-port"
cause = "The port is down."
fix = "Check the cable."
links = ["faq/ports"]

[[node]]
id = "fix-mode"
cause = "The mode is v1."
fix = "Set v2."

[[node]]
id = "unknown-part"
cause = "Unknown part."
fix = "Add it."
`

// fuzzTree is the test tree without a testing.T.
func fuzzTree() *content.Tree {
	c, _ := content.Load(fstest.MapFS{"trees/no-traffic.toml": {Data: []byte(treeTOML)}}, "content")
	return c.Tree("no-traffic")
}

func testContent(t *testing.T) *content.Content {
	t.Helper()
	fsys := fstest.MapFS{
		"trees/no-traffic.toml": {Data: []byte(treeTOML)},
		"faq/ports.md":          {Data: []byte("+++\ntitle = \"Ports\"\nsummary = \"s\"\nsources = [\"pciids\"]\nlang = \"en\"\nchecks = [\"no-active-port\"]\n+++\nbody\n")},
	}
	c, probs := content.Load(fsys, "content")
	if probs.Errors() > 0 {
		t.Fatal(probs)
	}
	return c
}

func TestWalkTree(t *testing.T) {
	t.Parallel()
	tree := testContent(t).Tree("no-traffic")
	cases := []struct {
		name     string
		host     func() *record.Host
		path     []string // node:answer
		stop     string
		complete bool
	}{
		{"port down", with(healthy, func(h *record.Host) { h.Devices[0].Ports[0].State = "DOWN" }),
			[]string{"adapter:yes", "port:no", "fix-port:leaf"}, "fix-port", true},
		{"v1 mode (yes_when finding)", with(healthy, func(h *record.Host) { h.Devices[0].Ports[0].DefaultRoCEMode = "IB/RoCE v1" }),
			[]string{"adapter:yes", "port:yes", "mode:yes", "fix-mode:leaf"}, "fix-mode", true},
		{"healthy stops at a manual question", healthy,
			[]string{"adapter:yes", "port:yes", "mode:no", "cable:unknown"}, "cable", false},
		{"unknown evidence stops", with(healthy, func(h *record.Host) { h.Devices = nil }),
			[]string{"adapter:yes", "port:unknown"}, "port", false},
		{"unknown adapter", with(healthy, func(h *record.Host) { h.Adapters[0].Device = "9999" }),
			[]string{"adapter:no", "unknown-part:leaf"}, "unknown-part", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := WalkTree(tm(t), tree, c.host())
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
	w := WalkTree(tm(t), loop, healthy())
	if w.Stop != "a" || w.Complete || w.Path[len(w.Path)-1].Answer != NoAnswer {
		t.Errorf("loop: %+v", w)
	}
	w = WalkTree(tm(t), loop, with(healthy, func(h *record.Host) { h.Adapters[0].Device = "9999" })())
	if w.Stop != "gone" || w.Complete {
		t.Errorf("missing node: %+v", w)
	}
	bad := &content.Tree{ID: "bad", Start: "a", Nodes: []content.Node{{ID: "a", Check: "no-such-check", Yes: "a"}}}
	if w := WalkTree(tm(t), bad, healthy()); w.Path[0].Answer != NoAnswer {
		t.Errorf("unknown check: %+v", w)
	}
}

func TestWalkTrees(t *testing.T) {
	t.Parallel()
	ws := WalkTrees(tm(t), testContent(t), healthy())
	if len(ws) != 1 || ws[0].Tree != "no-traffic" || ws[0].Stop != "cable" {
		t.Errorf("walks = %+v", ws)
	}
	if WalkTrees(tm(t), nil, healthy()) != nil {
		t.Error("nil content gives walks")
	}
}
