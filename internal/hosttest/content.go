package hosttest

import (
	"testing"
	"testing/fstest"

	"github.com/rocekb/rocekb/internal/content"
)

// TreeTOML is a small tree over three checks: adapter-unknown, no-active-port
// and roce-mode-v1 (yes_when finding), with a manual question.
const TreeTOML = `id = "no-traffic"
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

// Tree is the no-traffic tree of TreeTOML.
func Tree() *content.Tree {
	c, _ := content.Load(fstest.MapFS{"trees/no-traffic.toml": {Data: []byte(TreeTOML)}}, "content")
	return c.Tree("no-traffic")
}

// Content holds the no-traffic tree and a FAQ page, faq/ports, that names
// no-active-port.
func Content(t testing.TB) *content.Content {
	t.Helper()
	fsys := fstest.MapFS{
		"trees/no-traffic.toml": {Data: []byte(TreeTOML)},
		"faq/ports.md":          {Data: []byte("+++\ntitle = \"Ports\"\nsummary = \"s\"\nsources = [\"pciids\"]\nlang = \"en\"\nchecks = [\"no-active-port\"]\n+++\nbody\n")},
	}
	c, probs := content.Load(fsys, "content")
	if probs.Errors() > 0 {
		t.Fatal(probs)
	}
	return c
}
