package site

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/record"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// bundled is the site of the repository's matrix and content with the
// fixture hosts of testdata/hosts, made through HostJob as a build does,
// once per test binary: the tests only read it.
func bundled(t *testing.T) (*Site, []*HostPage) {
	t.Helper()
	b := bundledHosts()
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.s, b.pages
}

var bundledHosts = sync.OnceValue(func() (b struct {
	s     *Site
	pages []*HostPage
	err   error
}) {
	m, err := bundledMatrix()
	if err != nil {
		b.err = err
		return b
	}
	c, probs := content.Load(os.DirFS("../../content"), "content")
	if probs.Errors() > 0 {
		b.err = fmt.Errorf("%v", probs)
		return b
	}
	hosts, probs := record.LoadDir(os.DirFS("../../testdata/hosts"), "testdata/hosts")
	if probs.Errors() > 0 || len(hosts) == 0 {
		b.err = fmt.Errorf("%d hosts: %v", len(hosts), probs)
		return b
	}
	if b.s, b.err = Build(Input{Config: config.Default(), Matrix: m, Content: c, Reuse: bundledReuse, MatrixSum: bundledSum}); b.err != nil {
		return b
	}
	var jobs []*HostJob
	for _, h := range hosts {
		jobs = append(jobs, b.s.Host(h))
	}
	b.pages = make([]*HostPage, len(jobs))
	// Made backwards, as a writer pool may: the summaries must not care.
	for i := len(jobs) - 1; i >= 0; i-- {
		b.pages[i] = jobs[i].Page()
	}
	return b
})

// TestHostAndFleetPages pins, for every fixture host, what its page says
// (counts, walks, matrix matches) and what the fleet page sums up.
func TestHostAndFleetPages(t *testing.T) {
	t.Parallel()
	s, pages := bundled(t)
	var b strings.Builder
	for _, hp := range pages {
		r := hp.Report
		fmt.Fprintf(&b, "%s %s: %d errors, %d warnings, %d info; os %q\n", hp.Path(), hp.Title, r.Errors, r.Warnings, r.Infos, r.OS)
		for _, f := range r.Findings {
			fmt.Fprintf(&b, "  finding %s %s @ %s\n", f.Severity, f.Check, f.Subject)
		}
		for _, a := range hp.Adapters {
			id := "-"
			if a.Matrix != nil {
				id = a.Matrix.ID
			}
			fmt.Fprintf(&b, "  adapter %s %s:%s → %s\n", a.Record.PCIAddress, a.Record.Vendor, a.Record.Device, id)
		}
		for _, w := range hp.Walks {
			if w.Complete {
				fmt.Fprintf(&b, "  walk %s → cause found\n", w.Tree)
			}
		}
	}
	sum := s.Summaries()
	if len(sum) != 2 {
		t.Fatalf("want home and fleet pages, got %d", len(sum))
	}
	home, fleet := sum[1].(*Home), sum[0].(*FleetPage)
	if len(home.Hosts) != len(pages) || len(fleet.Hosts) != len(pages) || fleet.Fleet.Hosts != len(pages) {
		t.Errorf("home lists %d hosts, fleet %d (%d summarised); want %d", len(home.Hosts), len(fleet.Hosts), fleet.Fleet.Hosts, len(pages))
	}
	for i := 1; i < len(home.Hosts); i++ {
		if home.Hosts[i-1].Slug >= home.Hosts[i].Slug {
			t.Errorf("home hosts not sorted by unique slug: %q, %q", home.Hosts[i-1].Slug, home.Hosts[i].Slug)
		}
	}
	// The fleet lists the hosts worst first: errors, then warnings.
	for i := 1; i < len(fleet.Hosts); i++ {
		a, b := fleet.Hosts[i-1], fleet.Hosts[i]
		if a.Errors < b.Errors || (a.Errors == b.Errors && (a.Warnings < b.Warnings || (a.Warnings == b.Warnings && a.ID > b.ID))) {
			t.Errorf("fleet hosts not worst first: %q (%d, %d) before %q (%d, %d)", a.ID, a.Errors, a.Warnings, b.ID, b.Errors, b.Warnings)
		}
	}
	if fleet.Hosts[0].Errors == 0 {
		t.Errorf("the fleet's first host has no error: %+v", fleet.Hosts[0])
	}
	fmt.Fprintf(&b, "fleet: %d hosts, %d models\n", fleet.Fleet.Hosts, len(fleet.Fleet.Models))
	for _, d := range fleet.Fleet.Drift {
		fmt.Fprintf(&b, "  drift %s\n", d.Text)
	}
	for _, f := range fleet.Fleet.Findings {
		fmt.Fprintf(&b, "  findings %s %s ×%d on %d hosts\n", f.Check, f.Severity, f.N, len(f.Hosts))
	}
	golden(t, "hosts.golden", b.String())
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/site -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run go test ./internal/site -update and review the diff):\n%s", file, got)
	}
}

// TestWalksReachedApart: on the fixture hosts, a walk is listed as
// answered only when the record answered one of its questions; the host
// with no adapter named (vendor unknown) walks every tree and answers
// some of them, not the Cisco VIC one.
func TestWalksReachedApart(t *testing.T) {
	_, pages := bundled(t)
	var reached, unreached int
	for _, p := range pages {
		for _, w := range p.Reached() {
			reached++
			if !w.Complete && w.Path[0].Answer != "yes" && w.Path[0].Answer != "no" {
				t.Errorf("%s: %s listed as answered, path %+v", p.Slug, w.Tree, w.Path)
			}
		}
		for _, w := range p.Unreached() {
			unreached++
			if w.Complete || len(w.Path) > 1 {
				t.Errorf("%s: %s listed as not reached, path %+v", p.Slug, w.Tree, w.Path)
			}
		}
		if len(p.Reached())+len(p.Unreached()) != len(p.Walks) {
			t.Errorf("%s: %d reached + %d unreached != %d walks", p.Slug, len(p.Reached()), len(p.Unreached()), len(p.Walks))
		}
		if strings.HasPrefix(p.Slug, "azure-renamed-unknown-provider") {
			for _, w := range p.Reached() {
				if w.Tree == "cisco-vic-rocev2" {
					t.Errorf("%s: the Cisco VIC tree is listed as answered on a host with no Cisco adapter", p.Slug)
				}
			}
		}
	}
	if reached == 0 || unreached == 0 {
		t.Errorf("fixtures give %d reached and %d unreached walks; want some of each", reached, unreached)
	}
}

// TestHostFindingsOncePerCard: the same finding on each function of one
// card is shown once, "also on" the others, as kbgen check groups it; the
// counts still count every finding.
func TestHostFindingsOncePerCard(t *testing.T) {
	t.Parallel()
	_, pages := bundled(t)
	grouped := 0
	for _, hp := range pages {
		shown, counted := 0, 0
		for _, g := range hp.Groups {
			for _, v := range g.Findings {
				shown += 1 + len(v.Also)
				if len(v.Also) > 0 {
					grouped++
				}
				for _, o := range v.Also {
					if o == v.Subject {
						t.Errorf("%s: %s also on its own subject %s", hp.Path(), v.Check, o)
					}
				}
			}
		}
		counted = hp.Report.Errors + hp.Report.Warnings + hp.Report.Infos
		if shown != counted {
			t.Errorf("%s: %d findings shown (with also-on), %d counted", hp.Path(), shown, counted)
		}
	}
	if grouped == 0 {
		t.Error("no fixture host shows a finding also on another function of its card")
	}
}

// TestHomeListsBoundedHosts: the home page lists a small fleet whole, and
// of a large one the hosts with the most errors, then warnings, by id
// among equals; the hosts index has them all.
func TestHomeListsBoundedHosts(t *testing.T) {
	t.Parallel()
	small := &Home{Hosts: make([]HostSummary, homeHosts)}
	if got := len(small.ListedHosts()); got != homeHosts {
		t.Errorf("a fleet of %d: %d listed, want all", homeHosts, got)
	}
	var hs []HostSummary
	for i := range 1000 {
		hs = append(hs, HostSummary{ID: fmt.Sprint(i), Errors: i % 7, Warnings: i % 5})
	}
	got := (&Home{Hosts: hs}).ListedHosts()
	if len(got) != homeHosts {
		t.Fatalf("a fleet of 1000: %d listed, want %d", len(got), homeHosts)
	}
	for i := 1; i < len(got); i++ {
		a, b := got[i-1], got[i]
		if a.Errors < b.Errors || a.Errors == b.Errors && a.Warnings < b.Warnings {
			t.Fatalf("listed out of order at %d: %+v before %+v", i, a, b)
		}
	}
	if got[0].Errors != 6 || got[0].Warnings != 4 || got[0].ID != "104" {
		t.Errorf("first listed %+v, want host 104 (6 errors, 4 warnings: the first such by id)", got[0])
	}
	if fp := (&FleetPage{Hosts: worstFirst(hs)}); len(fp.ListedHosts()) != fleetHosts {
		t.Errorf("the fleet page of %d hosts lists %d rows, want all", fleetHosts, len(fp.ListedHosts()))
	}
	more := worstFirst(append(hs, HostSummary{ID: "x", Errors: 9}))
	if got := (&FleetPage{Hosts: more}).ListedHosts(); len(got) != fleetHosts || got[0].ID != "x" {
		t.Errorf("the fleet page of %d hosts lists %d rows, first %q; want %d, the host with 9 errors first", len(more), len(got), got[0].ID, fleetHosts)
	}
}

// TestAdapterFleetBounded: an adapter page lists at most adapterFleet
// rows of the hosts that run it, and counts the hosts (a host with two
// firmware levels is one host in two rows).
func TestAdapterFleetBounded(t *testing.T) {
	t.Parallel()
	p := &AdapterPage{}
	for i := range 150 {
		h := fmt.Sprintf("h%03d", i)
		p.Fleet = append(p.Fleet, FleetUse{Host: h, Firmware: "1"}, FleetUse{Host: h, Firmware: "2"})
	}
	if got := len(p.ListedFleet()); got != adapterFleet {
		t.Errorf("%d rows listed, want %d", got, adapterFleet)
	}
	if got := p.FleetHosts(); got != 150 {
		t.Errorf("%d hosts counted, want 150", got)
	}
	p.Fleet = p.Fleet[:adapterFleet]
	if got := len(p.ListedFleet()); got != adapterFleet {
		t.Errorf("%d rows listed of %d, want all", got, adapterFleet)
	}
}

// TestReadinessGroupBounded: the fleet page lists at most groupHosts hosts
// of a readiness group and says how many more readiness.csv has.
func TestReadinessGroupBounded(t *testing.T) {
	t.Parallel()
	g := ReadinessGroup{Links: make([]HostLink, groupHosts+50)}
	if len(g.ListedLinks()) != groupHosts || g.MoreLinks() != 50 {
		t.Errorf("%d listed, %d more; want %d and 50", len(g.ListedLinks()), g.MoreLinks(), groupHosts)
	}
	g.Links = g.Links[:3]
	if len(g.ListedLinks()) != 3 || g.MoreLinks() != 0 {
		t.Errorf("a group of 3: %d listed, %d more", len(g.ListedLinks()), g.MoreLinks())
	}
}

func TestDriftHostsBounded(t *testing.T) {
	t.Parallel()
	r := DriftRow{Hosts: make([]HostLink, driftHosts+50)}
	if len(r.ListedHosts()) != driftHosts || r.MoreHosts() != 50 {
		t.Errorf("%d listed, %d more; want %d and 50", len(r.ListedHosts()), r.MoreHosts(), driftHosts)
	}
	r.Hosts = r.Hosts[:3]
	if len(r.ListedHosts()) != 3 || r.MoreHosts() != 0 {
		t.Errorf("a row of 3: %d listed, %d more", len(r.ListedHosts()), r.MoreHosts())
	}
}
