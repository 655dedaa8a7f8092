package site

import (
	"sort"
	"strconv"
	"sync"

	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/diagnose"
	"github.com/rocekb/rocekb/internal/fleet"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/treewalk"
)

// HostPage is the data of host/<slug>.html: one host's diagnosis and the
// troubleshooting trees walked with its record.
type HostPage struct {
	Meta
	Slug   string
	Record *record.Host
	Report *diagnose.Report
	Walks  []treewalk.Walk
	// Adapters pairs each recorded adapter with its matrix entry (nil when unknown).
	Adapters []HostAdapter
}

// HostAdapter is one recorded adapter and what the matrix knows of it.
type HostAdapter struct {
	Record *record.Adapter
	Matrix *matrix.Adapter
}

// HostSummary is one row of the home page's host list and the fleet page.
type HostSummary struct {
	Slug, ID, Kernel, OS string
	Errors, Warnings     int
}

// FleetPage is the data of fleet.html.
type FleetPage struct {
	Meta
	Hosts []HostSummary
	Fleet fleet.Summary
}

// hostState is what the host pages leave behind for the home and fleet
// pages: one small summary per host, by record order, never the record.
type hostState struct {
	mu    sync.Mutex
	used  map[string]int // slug → times used
	sums  []HostSummary
	fleet []*diagnose.Report // slim: see slim
}

// HostJob is one host page, named but not yet made.
type HostJob struct {
	s    *Site
	i    int
	slug string
	h    *record.Host
}

// Host names the page of the next host record. Call it in record order
// (slugs that collide are numbered in that order), from one goroutine;
// the job's Page may then be made on any.
func (s *Site) Host(h *record.Host) *HostJob {
	st := &s.hosts
	slug := page.Slug(h.Host.ID)
	if slug == "" {
		slug = "host"
	}
	if n := st.used[slug]; n > 0 {
		st.used[slug] = n + 1
		slug += "-" + strconv.Itoa(n+1)
	} else {
		st.used[slug] = 1
	}
	st.mu.Lock()
	i := len(st.sums)
	st.sums = append(st.sums, HostSummary{})
	st.fleet = append(st.fleet, nil)
	st.mu.Unlock()
	return &HostJob{s: s, i: i, slug: slug, h: h}
}

// Path is the output path of the job's page.
func (j *HostJob) Path() string { return page.Path(page.Host, j.slug) }

// Page diagnoses the host and returns its page, and keeps the summary the
// home and fleet pages need. Call it once per job.
func (j *HostJob) Page() *HostPage {
	s, h := j.s, j.h
	rep := diagnose.Diagnose(s.m, s.c, h)
	title := h.Host.ID
	if title == "" {
		title = j.slug
	}
	hp := &HostPage{
		Meta: Meta{Ref: page.Ref{Kind: page.Host, ID: j.slug}, Title: "Host " + title, Lang: content.DefaultLang, Site: s.Info},
		Slug: j.slug, Record: h, Report: rep, Walks: treewalk.Trees(s.c, rep),
	}
	for i := range h.Adapters {
		a := &h.Adapters[i]
		hp.Adapters = append(hp.Adapters, HostAdapter{Record: a, Matrix: s.m.Identify(a.Vendor, a.Device, a.SubsystemVendor, a.SubsystemDevice, a.Name)})
	}
	sum := HostSummary{Slug: j.slug, ID: title, Kernel: h.Host.KernelRelease, OS: rep.OS, Errors: rep.Errors, Warnings: rep.Warnings}
	fl := slim(rep)
	s.hosts.mu.Lock()
	s.hosts.sums[j.i], s.hosts.fleet[j.i] = sum, fl
	s.hosts.mu.Unlock()
	return hp
}

// slim keeps of a report what the fleet summary reads, so that 50,000
// hosts do not keep 50,000 records and diagnoses alive.
func slim(rep *diagnose.Report) *diagnose.Report {
	h := rep.Record
	out := &diagnose.Report{Host: rep.Host}
	for _, f := range rep.Findings {
		out.Findings = append(out.Findings, diagnose.Finding{Check: f.Check, Severity: f.Severity})
	}
	if h == nil {
		return out
	}
	r := &record.Host{Host: record.HostInfo{ID: h.Host.ID}, Stack: h.Stack}
	for _, a := range h.Adapters {
		r.Adapters = append(r.Adapters, record.Adapter{Vendor: a.Vendor, Device: a.Device, SubsystemVendor: a.SubsystemVendor,
			SubsystemDevice: a.SubsystemDevice, Name: a.Name, Driver: a.Driver, Firmware: record.Firmware{Running: a.Firmware.Running}})
	}
	for _, d := range h.Devices {
		sd := record.RDMADevice{Name: d.Name}
		for _, p := range d.Ports {
			sd.Ports = append(sd.Ports, record.Port{Number: p.Number, LinkLayer: p.LinkLayer, DefaultRoCEMode: p.DefaultRoCEMode})
		}
		r.Devices = append(r.Devices, sd)
	}
	out.Record = r
	return out
}

// Summaries returns the pages that list hosts: the home page, and the
// fleet page when there are hosts. Call it after every HostJob's Page.
func (s *Site) Summaries() []Page {
	st := &s.hosts
	st.mu.Lock()
	defer st.mu.Unlock()
	sums := append([]HostSummary(nil), st.sums...)
	sort.Slice(sums, func(i, j int) bool { return sums[i].Slug < sums[j].Slug })
	s.home.Hosts = sums
	out := []Page{s.home}
	if len(sums) > 0 {
		out = append(out, &FleetPage{
			Meta:  Meta{Ref: page.Ref{Kind: page.Fleet}, Title: "Fleet", Lang: content.DefaultLang, Site: s.Info},
			Hosts: sums, Fleet: fleet.Summarize(s.m, st.fleet),
		})
	}
	sortPages(out)
	return out
}
