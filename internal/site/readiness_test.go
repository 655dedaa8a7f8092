package site

import (
	"os"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/readiness"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/verdict"
)

// TestFleetReadiness: each kb.toml target gives the fleet page the
// readiness engine's report of the fixture hosts (the same totals as
// kbgen check records/ with the plan flags), its groups worst first, and
// every host of a group links to that host's page.
func TestFleetReadiness(t *testing.T) {
	t.Parallel()
	m, hosts, s, pages := fixtureFleet(t)
	targets := fixtureTargets
	slugs := map[string]string{} // slug → label
	for _, p := range pages {
		slugs[p.Slug] = p.Label
	}
	var fp *FleetPage
	for _, p := range s.Summaries() {
		if f, ok := p.(*FleetPage); ok {
			fp = f
		}
	}
	if fp == nil || len(fp.Readiness) != len(targets) {
		t.Fatalf("fleet page readiness: %v", fp)
	}
	e := verdict.NewEngine(m)
	for i, tg := range targets {
		v := fp.Readiness[i]
		want := readiness.Judge(e, m, tg, hosts, nil)
		if !maps(v.Report.Totals, want.Totals) || len(v.Report.Hosts) != len(hosts) {
			t.Errorf("%s: totals %v, the engine's %v", tg.Label(), v.Report.Totals, want.Totals)
		}
		if want.Totals[readiness.Unknown] == len(hosts) {
			t.Errorf("%s: every host unknown; the target judges nothing", tg.Label())
		}
		rows := append(append([]ReadinessGroup(nil), v.Groups...), v.Unjudged...)
		if len(v.Groups) == 0 {
			t.Fatalf("%s: no group", tg.Label())
		}
		n := 0
		for j, g := range v.Groups {
			if j > 0 && g.Status.Rank() > v.Groups[j-1].Status.Rank() {
				t.Errorf("%s: group %d (%s) after a better one", tg.Label(), j, g.Status)
			}
		}
		for _, g := range rows {
			if len(g.Links) == 0 {
				t.Errorf("%s: group %+v has no host", tg.Label(), g.Group)
			}
			for _, l := range g.Links {
				if slugs[l.Slug] != l.Label {
					t.Errorf("%s: link %q → %q, which is not that host's page", tg.Label(), l.Label, l.Slug)
				}
			}
			n += len(g.Links)
		}
		if n < len(hosts) {
			t.Errorf("%s: the groups link %d host entries; want every one of %d hosts", tg.Label(), n, len(hosts))
		}
	}
	if strings.Contains(fp.Readiness[0].Report.Target.Label(), "·") {
		t.Errorf("a named target is labelled by its plan: %q", fp.Readiness[0].Report.Target.Label())
	}

	// A target the matrix cannot judge stops the build, naming it.
	cfg := config.Default()
	cfg.Targets = []readiness.Target{{Name: "typo", Distro: "rhel-96x"}}
	if _, err := Build(Input{Config: cfg, Matrix: m, Content: &content.Content{}, Reuse: bundledReuse, MatrixSum: bundledSum}); err == nil || !strings.Contains(err.Error(), `target 1 (typo): unknown distro "rhel-96x"`) {
		t.Errorf("unknown distro in a target: %v", err)
	}
}

// fixtureTargets are the kb.toml targets fixtureFleet judges against.
var fixtureTargets = []readiness.Target{
	{Name: "MLNX_OFED 24.10 LTS", Stack: "mlnx-ofed", StackVersion: "24.10-1.1.4.0"},
	{Kernel: "6.8"},
}

// fixtureFleet is a site of the bundled matrix and the fixture hosts with
// fixtureTargets, and each host's page, made.
func fixtureFleet(t *testing.T) (*matrix.Matrix, []*record.Host, *Site, []*HostPage) {
	t.Helper()
	m, err := bundledMatrix()
	if err != nil {
		t.Fatal(err)
	}
	hosts, probs := record.LoadDir(os.DirFS("../../testdata/hosts"), "testdata/hosts")
	if probs.Errors() > 0 || len(hosts) == 0 {
		t.Fatalf("%d hosts: %v", len(hosts), probs)
	}
	cfg := config.Default()
	cfg.Targets = fixtureTargets
	s, err := Build(Input{Config: cfg, Matrix: m, Content: &content.Content{}, Records: len(hosts), Reuse: bundledReuse, MatrixSum: bundledSum})
	if err != nil {
		t.Fatal(err)
	}
	pages := make([]*HostPage, len(hosts))
	for i, h := range hosts {
		pages[i] = s.Host(h).Page()
	}
	return m, hosts, s, pages
}

func maps(a, b map[readiness.Status]int) bool {
	for _, s := range readiness.Statuses {
		if a[s] != b[s] {
			return false
		}
	}
	return len(a) == len(b)
}
