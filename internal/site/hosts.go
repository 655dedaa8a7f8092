package site

import (
	"fmt"
	"html/template"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/rocekb/rocekb/internal/checkid"
	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/diagnose"
	"github.com/rocekb/rocekb/internal/fleet"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/readiness"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/rule"
	"github.com/rocekb/rocekb/internal/treewalk"
	"github.com/rocekb/rocekb/internal/verdict"
)

// HostPage is the data of host/<slug>.html: one host's diagnosis and the
// troubleshooting trees walked with its record.
type HostPage struct {
	Meta
	Slug   string
	Label  string // what the site calls the host: its name, or a neutral label naming its file
	Record *record.Host
	Report *diagnose.Report
	Walks  []treewalk.Walk
	// Adapters pairs each recorded adapter with its matrix entry (nil when unknown).
	Adapters []HostAdapter
	// Groups are the findings by severity, most severe first, each finding
	// with the question its check answers.
	Groups []FindingGroup
	Counts string // "0 errors, 1 warning, 0 info"
	// CheckTitles maps each check id to the question it answers, for the
	// walks and the unknown checks.
	CheckTitles map[string]string
	Tiers       []Tier // the confidence legend
	RecordFile  string // the record's file name beside the page: <slug>.toml, or .json for a JSON record
	Unnamed     bool   // the record names no host: Label is its file's name

	views *[2][]WalkView // walkViews
}

// CheckRef is a check as a page names it: its id and the question it
// answers.
type CheckRef struct{ ID, Title string }

// UnknownChecks are the checks the report could not judge, each with its
// question: the page's "not judged" list.
func (p *HostPage) UnknownChecks() []CheckRef {
	out := make([]CheckRef, len(p.Report.Unknown))
	for i, id := range p.Report.Unknown {
		out[i] = CheckRef{ID: id, Title: p.CheckTitles[id]}
	}
	return out
}

// Reached lists the walks that answered at least one of their tree's
// questions from the record; Unreached the ones that stopped at their
// first question, which the report lists apart instead of as answered.
func (p *HostPage) Reached() []WalkView { return p.walkViews()[1] }

// Unreached: see Reached.
func (p *HostPage) Unreached() []WalkView { return p.walkViews()[0] }

// walkViews is the page's walks split into the unreached [0] and the
// reached [1], made on the first call: the template reads each list more
// than once.
func (p *HostPage) walkViews() *[2][]WalkView {
	if p.views == nil {
		p.views = &[2][]WalkView{p.walks(false), p.walks(true)}
	}
	return p.views
}

// WalkView is a walk as the host page shows it: its links and its checks'
// questions resolved.
type WalkView struct {
	Tree, Title, Stop string
	Complete          bool
	Cause, Fix        string
	Href, StopHref    string // the links to the tree and to the node it stopped at
	Path              []StepView
}

// StepView is a step of a walk with the question its check answers.
type StepView struct {
	treewalk.Step
	CheckTitle string
}

func (p *HostPage) walks(reached bool) []WalkView {
	var out []WalkView
	from := p.Path()
	for _, w := range p.Walks {
		answered := w.Complete
		for _, st := range w.Path {
			if st.Answer == treewalk.Yes || st.Answer == treewalk.No {
				answered = true
			}
		}
		if answered != reached {
			continue
		}
		v := WalkView{Tree: w.Tree, Title: w.Title, Stop: w.Stop, Complete: w.Complete, Cause: w.Cause, Fix: w.Fix,
			Href:     page.RelRef(from, page.Ref{Kind: page.Tree, ID: w.Tree}),
			StopHref: page.RelRef(from, page.Ref{Kind: page.Tree, ID: w.Tree, Anchor: w.Stop})}
		for _, st := range w.Path {
			v.Path = append(v.Path, StepView{Step: st, CheckTitle: p.CheckTitles[st.Check]})
		}
		out = append(out, v)
	}
	return out
}

// FindingGroup is the findings of one severity.
type FindingGroup struct {
	Severity diagnose.Severity
	Heading  string // "2 errors", "1 warning"
	Findings []FindingView
}

// FindingView is a finding with the question its check answers.
type FindingView struct {
	diagnose.Finding
	Title string
	See   []SeeLink // the finding's FAQ pages and trees, by title
	// Also are the other functions of the same card with the same finding
	// (diagnose.SameOnCard), shown once as kbgen check shows it.
	Also []string
}

// SeeLink is a link to a page by its title.
type SeeLink struct {
	Ref   string // a page reference: faq/<slug>, tree/<id>
	Title string
	Href  string // the link to it from the host page (the same from every host page)
}

// Tier is a confidence tier as the legend explains it.
type Tier struct {
	ID, Label, Text string
}

// hostTiers explain matrix.Tiers in words, strongest first.
var hostTiers = []Tier{
	{matrix.VendorDocumented, "vendor-documented", "the vendor's own documentation says so"},
	{matrix.UpstreamSource, "upstream source", "kernel or rdma-core source, ABI documents or commits say so"},
	{matrix.FieldObserved, "field-observed", "seen in real host captures, not documented"},
	{matrix.Unconfirmed, "unconfirmed", "plausible, but no source confirms it: verify before relying on it"},
}

// HostAdapter is one recorded adapter and what the matrix knows of it.
type HostAdapter struct {
	Record *record.Adapter
	Matrix *matrix.Adapter
}

// MSIX is what the record says of the function's MSI-X, in words: whether
// lspci saw it disabled, its table size, the vectors allocated (sysfs
// msi_irqs) and those with a handler (/proc/interrupts); "" when nothing
// was recorded.
func (h HostAdapter) MSIX() string {
	m := h.Record.MSIX
	if m == nil {
		return ""
	}
	var parts []string
	if m.Enabled != nil && !*m.Enabled {
		parts = append(parts, "disabled")
	}
	if m.Count != nil {
		parts = append(parts, fmt.Sprintf("table of %d", *m.Count))
	}
	if m.Vectors != nil {
		parts = append(parts, fmt.Sprintf("%d allocated", *m.Vectors))
	}
	if m.Used != nil {
		parts = append(parts, fmt.Sprintf("%d in use", *m.Used))
	}
	return strings.Join(parts, ", ")
}

// HostSummary is one row of the home page's host list, the fleet page and
// hosts.csv: what is kept of a host once its page is made.
type HostSummary struct {
	Slug                    string
	ID                      string // the label pages show: the host name, or a neutral label for an unnamed record
	Name                    string // the host name as recorded; empty when the record has none
	Kernel, OS              string
	SourceKind              string
	Redacted                bool
	Adapters                []string // matrix adapter ids (or "pci:vvvv:dddd", "-" without ids), one per function
	Firmware                []string // running firmware, one per function, "-" when not recorded
	Errors, Warnings, Infos int
	Worst                   diagnose.Severity
	Unknown                 int // checks that could not be judged

	rid string // the record's host id as the fleet summary names it
}

// FindingRow is one finding as findings.json lists it.
type FindingRow struct {
	Host     string            `json:"host"` // the host's label
	Page     string            `json:"page"` // host/<slug>.html
	Check    string            `json:"check"`
	Title    string            `json:"title"` // the question the check answers
	Severity diagnose.Severity `json:"severity"`
	Subject  string            `json:"subject"`
	Adapter  string            `json:"adapter,omitempty"`
	Message  string            `json:"message"`
}

// FleetPage is the data of fleet.html.
type FleetPage struct {
	Meta
	Hosts []HostSummary
	Fleet fleet.Summary
	// Chart is the firmware chart, drawn at build time.
	Chart       template.HTML
	CheckTitles map[string]string
	Drift       []DriftRow
	// Readiness is the fleet against each target plan of kb.toml, as the
	// readiness engine judged it (kbgen check records/ with plan flags).
	Readiness []ReadinessView
}

// fleetHosts is how many rows the fleet page's hosts table has at most:
// 100,000 rows were 23 MB of a 34 MB page. The hosts index lists every
// host, and hosts.csv has every host's counts.
const fleetHosts = 1000

// ListedHosts are the rows of the hosts table: the first fleetHosts of
// Hosts, which is worst first.
func (p *FleetPage) ListedHosts() []HostSummary { return p.Hosts[:min(len(p.Hosts), fleetHosts)] }

// ReadinessStatuses lists the readiness statuses worst first, for the totals.
func (p *FleetPage) ReadinessStatuses() []readiness.Status { return readiness.Statuses }

// ReadinessView is the fleet against one target: the engine's report and
// its groups, each host a link.
type ReadinessView struct {
	Report   readiness.Report
	Groups   []ReadinessGroup
	Unjudged []ReadinessGroup // hosts with no adapter to judge, by reason
}

// ReadinessGroup is a readiness.Group with its hosts' pages.
type ReadinessGroup struct {
	readiness.Group
	Reason string // for an unjudged group: why its hosts have no adapter to judge
	Links  []HostLink
}

// groupHosts is how many hosts a readiness group lists at most: a group
// of 43,127 hosts was 2 MB of the fleet page. readiness.csv has every
// host's readiness.
const groupHosts = 100

// ListedLinks are the hosts the fleet page lists for the group: the
// first groupHosts.
func (g ReadinessGroup) ListedLinks() []HostLink { return g.Links[:min(len(g.Links), groupHosts)] }

// MoreLinks is how many of the group's hosts ListedLinks leaves out.
func (g ReadinessGroup) MoreLinks() int { return len(g.Links) - len(g.ListedLinks()) }

// HostLink is a host's label and page.
type HostLink struct {
	Label, Slug string
}

// DriftRow is one value of one drift, as the fleet's drift table lists it.
type DriftRow struct {
	Model, Adapter, What, Value string
	N                           int
	Hosts                       []HostLink // a host the fleet summary names without a page has no Slug
}

// driftHosts is how many hosts a drift row lists at most; drift.csv has
// every host of every row.
const driftHosts = 100

// ListedHosts are the hosts the fleet page lists for the row: the first
// driftHosts.
func (r DriftRow) ListedHosts() []HostLink { return r.Hosts[:min(len(r.Hosts), driftHosts)] }

// MoreHosts is how many of the row's hosts ListedHosts leaves out.
func (r DriftRow) MoreHosts() int { return len(r.Hosts) - len(r.ListedHosts()) }

// hostState is what the host pages leave behind for the home and fleet
// pages and the host exports: one small summary per host, by record order,
// never the record.
type hostState struct {
	mu       sync.Mutex
	names    hostNames
	sums     []HostSummary
	fleet    []*diagnose.Report // slim: see slim
	findings [][]FindingRow
	ready    [][]readiness.Host // per host, one per target
	inputs   []page.Input       // per host, its record (page.InRecord)
	common   common
	// summary is the fleet summary of the first summaryN hosts: the fleet
	// page and drift.csv read it, and the hosts are only ever appended.
	summary  fleet.Summary
	summaryN int
}

// common holds one copy of what the hosts' summaries, slim reports and
// finding rows have in common: a fleet repeats its kernels, firmware,
// finding messages, adapter lists and finding lists across thousands of
// hosts, and 100,000 hosts kept a copy each (most of the build's live
// memory at the end of the host pages, which every collection walks).
// What is shared is never written to after.
type common struct {
	mu       sync.Mutex
	strs     map[string]string
	findings map[string][]diagnose.Finding
	adapters map[string][]record.Adapter
	devices  map[string][]record.RDMADevice
	stacks   map[string]*record.Stack
	records  map[string]*record.Host // a slim report's record: its stack, adapters and devices
}

// str returns s, or the copy of it already kept: never a string that
// shares a record file's bytes (see Page).
func (c *common) str(s string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.strs[s]; ok {
		return v
	}
	if c.strs == nil {
		c.strs = map[string]string{}
	}
	v := strings.Clone(s)
	c.strs[v] = v
	return v
}

// shared returns the value kept under key, or keeps and returns make's.
func shared[V any](c *common, m *map[string]V, key string, make func() V) V {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := (*m)[key]; ok {
		return v
	}
	if *m == nil {
		*m = map[string]V{}
	}
	v := make()
	(*m)[strings.Clone(key)] = v
	return v
}

// keyOf joins strings into a map key.
func keyOf(parts ...string) string { return strings.Join(parts, "\x00") }

// HostJob is one host page, named but not yet made.
type HostJob struct {
	s    *Site
	i    int
	slug string
	h    *record.Host
	src  []byte // the record's own bytes (Source), or nil
	ext  string // ".toml" or ".json": the record download's format
	in   page.Input
	deps page.Deps
}

// Host names the page of the next host record. Call it in record order
// (slugs that collide are numbered in that order), from one goroutine;
// the job's Page may then be made on any.
func (s *Site) Host(h *record.Host) *HostJob {
	st := &s.hosts
	slug := st.names.name(h.Host.ID)
	st.mu.Lock()
	i := len(st.sums)
	st.sums = append(st.sums, HostSummary{})
	st.fleet = append(st.fleet, nil)
	st.findings = append(st.findings, nil)
	st.ready = append(st.ready, nil)
	// The record is an input of its own, read by its page and by the
	// pages that list hosts; it is never looked up by name.
	in := s.Inputs.Add(page.InRecord, h.File)
	st.inputs = append(st.inputs, in)
	st.mu.Unlock()
	j := &HostJob{s: s, i: i, slug: slug, h: h, ext: ".toml", in: in}
	// The page diagnoses the record against the matrix and the content:
	// the checks name FAQ pages and trees by title, the walks read the
	// trees.
	j.deps = s.meta(page.Host, slug, "").deps
	j.deps.Read(page.InFAQList)
	j.deps.Read(page.InTreeList)
	j.deps.Read(in)
	return j
}

// Input is the job's record as an input (page.InRecord): the build
// digests it from the record's bytes and the page's path.
func (j *HostJob) Input() page.Input { return j.in }

// Deps is what the job's page and record download read, known before the
// page is made: an update keeps both when none of it changed.
func (j *HostJob) Deps() *page.Deps { return &j.deps }

// Source gives the job the record's own bytes and file name: the record
// download beside the page is then those bytes, in the file's format
// (host/<slug>.json for a JSON record), not the record encoded again.
// Call it before RecordPath.
func (j *HostJob) Source(file string, src []byte) {
	j.src = src
	if path.Ext(file) == ".json" {
		j.ext = ".json"
	}
}

// hostNames gives each host page a file name no other host page has,
// whatever ids arrive: a slug already given, numbered or not, is never given
// again ("web", "web", "web-2" are named web, web-2 and web-2-2), and names
// the host folder holds for itself are never given.
type hostNames struct {
	taken map[string]bool
	next  map[string]int // slug → the number its next collision tries
}

// hostReserved are the host folder's own pages (page.Hosts is host/index.html).
var hostReserved = map[string]bool{"index": true}

func (n *hostNames) name(id string) string {
	if n.taken == nil {
		n.taken, n.next = map[string]bool{}, map[string]int{}
	}
	base := page.Slug(id)
	if base == "" {
		base = "host"
	}
	slug, i := base, n.next[base]
	if i == 0 {
		i = 1
	} else {
		slug = base + "-" + strconv.Itoa(i)
	}
	for n.taken[slug] || hostReserved[slug] {
		i++
		slug = base + "-" + strconv.Itoa(i)
	}
	n.next[base] = i + 1
	n.taken[slug] = true
	return slug
}

// Path is the output path of the job's page.
func (j *HostJob) Path() string { return page.Path(page.Host, j.slug) }

// RecordPath is the output path of the job's record, beside its page.
func (j *HostJob) RecordPath() string { return "host/" + j.slug + j.ext }

// WriteRecord writes the host's record: its own bytes (Source), or else
// the record as TOML, as kbcollect wrote it, where an unnamed host keeps
// its empty id. It does not change the record, so it may run beside Page.
func (j *HostJob) WriteRecord(w io.Writer) error {
	if j.src != nil {
		_, err := w.Write(j.src)
		return err
	}
	c := *j.h
	c.Host.ID, _ = hostName(j.h)
	return record.Encode(w, &c, "toml")
}

// hostName gives a record's host name as recorded and the label pages
// show: a record that names no host is called by the file it was loaded
// from (record.Host.File).
func hostName(h *record.Host) (name, label string) {
	switch {
	case !h.Unnamed():
		return h.Host.ID, h.Host.ID
	case h.File != "":
		return "", h.File
	}
	return "", "Unnamed host"
}

// checkTitles maps every check id to its question; built once, since
// every host page reads it.
var checkTitles = func() map[string]string {
	out := map[string]string{}
	for _, c := range checkid.All() {
		out[c.ID] = c.Title
	}
	return out
}()

// plural counts a noun: "1 warning", "2 warnings", "0 info".
func plural(n int, noun string) string {
	if n != 1 && noun != "info" {
		noun += "s"
	}
	return strconv.Itoa(n) + " " + noun
}

// Page diagnoses the host and returns its page, and keeps the summary the
// home and fleet pages need. Call it once per job.
func (j *HostJob) Page() *HostPage {
	s, h := j.s, j.h
	rep := s.diagnoser.Diagnose(h)
	name, label := hostName(h)
	title := "Host " + label
	if name == "" {
		title = "Host record " + label
	}
	hp := &HostPage{
		Meta: Meta{Ref: page.Ref{Kind: page.Host, ID: j.slug}, Title: title, Lang: content.DefaultLang, Site: s.Info, deps: j.deps},
		Slug: j.slug, Label: label, Record: h, Report: rep, Walks: treewalk.Trees(s.c, rep),
		Counts:      plural(rep.Errors, "error") + ", " + plural(rep.Warnings, "warning") + ", " + plural(rep.Infos, "info"),
		CheckTitles: checkTitles, Tiers: hostTiers, RecordFile: path.Base(j.RecordPath()), Unnamed: name == "",
	}
	// What is kept of the host past its page is copied out of the
	// record: a string decoded from a record file shares the file's
	// bytes, and one kept string would keep the whole file alive for the
	// rest of the build (100,000 of them at fleet scale).
	k, c := strings.Clone, s.hosts.common.str
	sum := HostSummary{Slug: j.slug, ID: k(label), Name: k(name), Kernel: c(h.Host.KernelRelease), OS: c(rep.OS),
		SourceKind: c(h.Host.SourceKind), Redacted: h.Host.Redacted,
		Errors: rep.Errors, Warnings: rep.Warnings, Infos: rep.Infos, Worst: rep.Worst(), Unknown: len(rep.Unknown), rid: k(h.Host.ID)}
	for i := range h.Adapters {
		a := &h.Adapters[i]
		ma := s.m.Identify(a.Vendor, a.Device, a.SubsystemVendor, a.SubsystemDevice, a.Name)
		hp.Adapters = append(hp.Adapters, HostAdapter{Record: a, Matrix: ma})
		id := "-"
		switch {
		case ma != nil:
			id = ma.ID
		case a.Vendor != "" && a.Device != "":
			id = "pci:" + a.Vendor + ":" + a.Device
		}
		sum.Adapters = append(sum.Adapters, id)
		sum.Firmware = append(sum.Firmware, c(rule.OrDash(a.Firmware.Running)))
	}
	var rows []FindingRow
	for _, sev := range []diagnose.Severity{diagnose.Error, diagnose.Warning, diagnose.Info} {
		g := FindingGroup{Severity: sev}
		var of []diagnose.Finding
		for _, f := range rep.Findings {
			if f.Severity == sev {
				of = append(of, f)
			}
		}
		for _, same := range diagnose.SameOnCard(of) {
			f := same[0]
			v := FindingView{Finding: f, Title: checkTitles[f.Check], See: s.see(f, j.Path())}
			for _, o := range same[1:] {
				v.Also = append(v.Also, o.Subject)
			}
			g.Findings = append(g.Findings, v)
		}
		if len(of) > 0 {
			g.Heading = plural(len(of), string(sev))
			hp.Groups = append(hp.Groups, g)
		}
	}
	for _, f := range rep.Findings {
		rows = append(rows, FindingRow{Host: sum.ID, Page: j.Path(), Check: f.Check, Title: checkTitles[f.Check], Severity: f.Severity,
			Subject: c(f.Subject), Adapter: c(f.Adapter), Message: c(f.Message)})
	}
	fl := slim(rep, &s.hosts.common)
	var ready []readiness.Host
	for _, t := range s.targets {
		r := readiness.JudgeHost(s.readyEngine, s.m, t, h)
		r.Host, r.File = label, j.slug
		ready = append(ready, keepReady(r, c))
	}
	s.hosts.mu.Lock()
	s.hosts.sums[j.i], s.hosts.fleet[j.i], s.hosts.findings[j.i], s.hosts.ready[j.i] = sum, fl, rows, ready
	s.hosts.mu.Unlock()
	return hp
}

// keepReady copies a host's readiness out of its record, as Page copies
// the rest of what it keeps: the adapters' addresses, names and firmware,
// and their verdicts' plans, come from the record file.
func keepReady(r readiness.Host, c func(string) string) readiness.Host {
	all := func(ss []string) []string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = c(s)
		}
		return out
	}
	r.Host, r.File, r.Reason = c(r.Host), c(r.File), c(r.Reason)
	as := make([]readiness.Adapter, len(r.Adapters))
	for i, a := range r.Adapters {
		a.PCI, a.Adapter, a.Name, a.Firmware, a.CurrentStack = c(a.PCI), c(a.Adapter), c(a.Name), c(a.Firmware), c(a.CurrentStack)
		a.Actions, a.Reasons, a.OtherPCI = all(a.Actions), all(a.Reasons), all(a.OtherPCI)
		v := &a.Verdict
		p := &v.Plan
		p.Adapter, p.Kernel, p.Distro, p.Stack, p.StackVersion, p.Firmware = c(p.Adapter), c(p.Kernel), c(p.Distro), c(p.Stack), c(p.StackVersion), c(p.Firmware)
		v.Adapter, v.AdapterName, v.Distro, v.Kernel, v.KernelBase, v.Stack, v.StackVersion = c(v.Adapter), c(v.AdapterName), c(v.Distro), c(v.Kernel), c(v.KernelBase), c(v.Stack), c(v.StackVersion)
		v.Nearest = all(v.Nearest)
		rs := make([]verdict.Reason, len(v.Reasons))
		for k, rr := range v.Reasons {
			rr.Text, rr.Nearest = c(rr.Text), c(rr.Nearest)
			rs[k] = rr
		}
		v.Reasons = rs
		as[i] = a
	}
	if r.Adapters != nil {
		r.Adapters = as
	}
	return r
}

// HostState is what a host page leaves behind for the pages that list
// the hosts (its summary, slim report and finding rows).
type HostState struct {
	sum      HostSummary
	fleet    *diagnose.Report
	findings []FindingRow
	ready    []readiness.Host
}

// State returns what the job's Page left behind.
func (j *HostJob) State() HostState {
	st := &j.s.hosts
	st.mu.Lock()
	defer st.mu.Unlock()
	return HostState{st.sums[j.i], st.fleet[j.i], st.findings[j.i], st.ready[j.i]}
}

// Restore puts back what Page left behind in an earlier build of the same
// record, for a rebuild that keeps the host's page instead of making it.
func (j *HostJob) Restore(hs HostState) {
	st := &j.s.hosts
	st.mu.Lock()
	st.sums[j.i], st.fleet[j.i], st.findings[j.i], st.ready[j.i] = hs.sum, hs.fleet, hs.findings, hs.ready
	st.mu.Unlock()
}

// slim keeps of a report what the fleet summary reads, so that 50,000
// hosts do not keep 50,000 records and diagnoses alive: its strings are
// copies (see Page), not parts of the record file, and its finding,
// adapter and device lists, its stack and its record (which holds only
// those) are kept once per distinct value (common), shared by the hosts
// that have it.
func slim(rep *diagnose.Report, cm *common) *diagnose.Report {
	k := strings.Clone
	h := rep.Record
	out := &diagnose.Report{Host: k(rep.Host)}
	var key []string
	for _, f := range rep.Findings {
		key = append(key, f.Check, string(f.Severity))
	}
	out.Findings = shared(cm, &cm.findings, keyOf(key...), func() []diagnose.Finding {
		var fs []diagnose.Finding
		for _, f := range rep.Findings {
			fs = append(fs, diagnose.Finding{Check: k(f.Check), Severity: diagnose.Severity(k(string(f.Severity)))})
		}
		return fs
	})
	if h == nil {
		return out
	}
	var stack *record.Stack
	stackKey := "" // no [stack] table; a table's key has three separators
	if st := h.Stack; st != nil {
		stackKey = keyOf(st.Name, st.Version, st.Raw, st.From)
		stack = shared(cm, &cm.stacks, stackKey, func() *record.Stack {
			return &record.Stack{Name: k(st.Name), Version: k(st.Version), Raw: k(st.Raw), From: k(st.From)}
		})
	}
	key = key[:0]
	for _, a := range h.Adapters {
		d := a.Driver
		key = append(key, a.Vendor, a.Device, a.SubsystemVendor, a.SubsystemDevice, a.Name,
			d.Name, d.Version, d.SrcVersion, d.Origin, d.OriginWhy, a.Firmware.Running)
	}
	adaptersKey := keyOf(key...)
	adapters := shared(cm, &cm.adapters, adaptersKey, func() []record.Adapter {
		var as []record.Adapter
		for _, a := range h.Adapters {
			d := a.Driver
			as = append(as, record.Adapter{Vendor: k(a.Vendor), Device: k(a.Device), SubsystemVendor: k(a.SubsystemVendor),
				SubsystemDevice: k(a.SubsystemDevice), Name: k(a.Name),
				Driver:   record.Driver{Name: k(d.Name), Version: k(d.Version), SrcVersion: k(d.SrcVersion), Origin: k(d.Origin), OriginWhy: k(d.OriginWhy)},
				Firmware: record.Firmware{Running: k(a.Firmware.Running)}})
		}
		return as
	})
	key = key[:0]
	for _, d := range h.Devices {
		key = append(key, d.Name, strconv.Itoa(len(d.Ports)))
		for _, p := range d.Ports {
			key = append(key, strconv.Itoa(p.Number), p.LinkLayer, p.DefaultRoCEMode)
		}
	}
	devicesKey := keyOf(key...)
	devices := shared(cm, &cm.devices, devicesKey, func() []record.RDMADevice {
		var ds []record.RDMADevice
		for _, d := range h.Devices {
			sd := record.RDMADevice{Name: k(d.Name)}
			for _, p := range d.Ports {
				sd.Ports = append(sd.Ports, record.Port{Number: p.Number, LinkLayer: k(p.LinkLayer), DefaultRoCEMode: k(p.DefaultRoCEMode)})
			}
			ds = append(ds, sd)
		}
		return ds
	})
	// The slim record holds only those three and names no host (nothing
	// reads it): hosts that run the same stack, adapters and devices
	// share one.
	out.Record = shared(cm, &cm.records, strconv.Itoa(len(stackKey))+":"+stackKey+strconv.Itoa(len(adaptersKey))+":"+adaptersKey+devicesKey, func() *record.Host {
		return &record.Host{Stack: stack, Adapters: adapters, Devices: devices}
	})
	return out
}

// Summaries returns the pages that list hosts: the home page, and the
// fleet page when there are hosts. Call it after every HostJob's Page.
func (s *Site) Summaries() []Page {
	sums := s.HostSummaries()
	sum := s.fleetSummary()
	s.home.Hosts = sums
	s.home.deps.Read(page.InRecords)
	out := []Page{s.home}
	if len(sums) > 0 {
		fp := &FleetPage{
			Meta:  s.meta(page.Fleet, "", "Fleet"),
			Hosts: sums, Fleet: sum, CheckTitles: checkTitles,
			Drift: driftRows(sum, sums),
		}
		fp.deps.Read(page.InRecords)
		fp.Chart = firmwareChart(sum.Models)
		fp.Hosts = worstFirst(sums)
		for _, r := range s.ReadinessReports() {
			fp.Readiness = append(fp.Readiness, readinessView(r))
		}
		out = append(out, fp)
	}
	sortPages(out)
	return out
}

// fleetSummary is the fleet summary of the hosts made so far, made again
// only when hosts were added since.
func (s *Site) fleetSummary() fleet.Summary {
	st := &s.hosts
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.summaryN != len(st.fleet) || st.summaryN == 0 {
		st.summary, st.summaryN = fleet.Summarize(s.m, st.fleet), len(st.fleet)
	}
	return st.summary
}

// DriftRows are the fleet's drift, a row per value, as the fleet page
// judges the hosts made so far. Call it after every HostJob's Page.
func (s *Site) DriftRows() []DriftRow { return driftRows(s.fleetSummary(), s.HostSummaries()) }

// driftRows lists sum's drift a row per value, each host a link to its
// page: the fleet summary names a host by record id, which for an
// unnamed record is the loader's "(<file>)", and sums map it back.
func driftRows(sum fleet.Summary, sums []HostSummary) []DriftRow {
	if len(sum.Drift) == 0 {
		return nil
	}
	byID := map[string]HostSummary{}
	for _, h := range sums {
		if _, dup := byID[h.rid]; !dup {
			byID[h.rid] = h
		}
	}
	var out []DriftRow
	for _, d := range sum.Drift {
		model := "whole fleet"
		for _, mo := range sum.Models {
			if mo.Adapter == d.Adapter {
				model = mo.Name
			}
		}
		for _, v := range d.Values {
			links := make([]HostLink, len(v.Hosts))
			for i, id := range v.Hosts {
				links[i] = HostLink{Label: id}
				if h, ok := byID[id]; ok {
					links[i] = HostLink{Label: h.ID, Slug: h.Slug}
				}
			}
			out = append(out, DriftRow{Model: model, Adapter: d.Adapter, What: d.What, Value: v.Value, N: v.N, Hosts: links})
		}
	}
	return out
}

// ReadinessReports are the fleet against each target plan of kb.toml, as
// the readiness engine judged the hosts made so far; a host's File is its
// page's slug.
func (s *Site) ReadinessReports() []readiness.Report {
	st := &s.hosts
	st.mu.Lock()
	judged := make([][]readiness.Host, len(s.targets))
	for _, hs := range st.ready {
		for i := range hs {
			judged[i] = append(judged[i], hs[i])
		}
	}
	st.mu.Unlock()
	out := make([]readiness.Report, len(s.targets))
	for i, t := range s.targets {
		out[i] = readiness.Collect(t, judged[i])
	}
	return out
}

// HostSummaries returns one row per host made so far, sorted by slug.
func (s *Site) HostSummaries() []HostSummary {
	st := &s.hosts
	st.mu.Lock()
	defer st.mu.Unlock()
	sums := append([]HostSummary(nil), st.sums...)
	sort.Slice(sums, func(i, j int) bool { return sums[i].Slug < sums[j].Slug })
	return sums
}

// FindingRows returns every finding of the hosts made so far, by host slug,
// most severe first within a host.
func (s *Site) FindingRows() []FindingRow {
	st := &s.hosts
	st.mu.Lock()
	defer st.mu.Unlock()
	idx := make([]int, len(st.sums))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return st.sums[idx[a]].Slug < st.sums[idx[b]].Slug })
	out := []FindingRow{}
	for _, i := range idx {
		out = append(out, st.findings[i]...)
	}
	return out
}

// see lists a finding's FAQ pages and trees by title, linked from the
// page at path from. Translations are left out: the English page links to
// them.
func (s *Site) see(f diagnose.Finding, from string) []SeeLink {
	var out []SeeLink
	for _, ref := range f.FAQ {
		slug := strings.TrimPrefix(ref, "faq/")
		if p := s.c.Page(slug); p != nil && (p.Meta.Lang == "" || p.Meta.Lang == content.DefaultLang) {
			out = append(out, SeeLink{Ref: ref, Title: p.Meta.Title, Href: seeHref(from, ref)})
		}
	}
	for _, ref := range f.Trees {
		id := strings.TrimPrefix(ref, "tree/")
		if t := s.c.Tree(id); t != nil {
			out = append(out, SeeLink{Ref: ref, Title: t.Title, Href: seeHref(from, ref)})
		}
	}
	return out
}

// seeHref is the link from the page at path from to a page reference of
// a page the content has (see), as the templates' link writes it.
func seeHref(from, ref string) string {
	r, err := page.Parse(ref)
	if err != nil {
		return "" // not reached: see names pages the content has
	}
	return page.RelRef(from, r)
}

// worstFirst orders host rows as the fleet page lists them: most errors,
// then most warnings, then by label.
func worstFirst(sums []HostSummary) []HostSummary {
	out := append([]HostSummary(nil), sums...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Errors != b.Errors {
			return a.Errors > b.Errors
		}
		if a.Warnings != b.Warnings {
			return a.Warnings > b.Warnings
		}
		return a.ID < b.ID
	})
	return out
}

// readinessView links the report's groups to the host pages (a judged
// host's File is its page's slug).
func readinessView(r readiness.Report) ReadinessView {
	v := ReadinessView{Report: r}
	links := func(hosts, files []string) []HostLink {
		out := make([]HostLink, len(hosts))
		for i, h := range hosts {
			out[i] = HostLink{Label: h, Slug: files[i]}
		}
		return out
	}
	for _, g := range r.Groups() {
		v.Groups = append(v.Groups, ReadinessGroup{Group: g, Links: links(g.Hosts, g.Files)})
	}
	idx := map[string]int{}
	for _, h := range r.Hosts {
		if len(h.Adapters) > 0 {
			continue
		}
		j, ok := idx[h.Reason]
		if !ok {
			j = len(v.Unjudged)
			idx[h.Reason] = j
			v.Unjudged = append(v.Unjudged, ReadinessGroup{Group: readiness.Group{Status: h.Status}, Reason: h.Reason})
		}
		v.Unjudged[j].Links = append(v.Unjudged[j].Links, HostLink{Label: h.Host, Slug: h.File})
	}
	return v
}
