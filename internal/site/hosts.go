package site

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/diagnose"
	"github.com/rocekb/rocekb/internal/fleet"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/treewalk"
)

// HostPage is the data of host/<slug>.html: one host's diagnosis and the
// troubleshooting trees walked with its record.
type HostPage struct {
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
	Hosts []HostSummary
	Fleet fleet.Summary
}

var slugUnsafe = regexp.MustCompile(`[^a-z0-9._-]+`)

// hostPages diagnoses every host and returns its pages, the fleet page and
// the summaries, in a stable order.
func hostPages(m *matrix.Matrix, c *content.Content, hosts []*record.Host) ([]Page, []HostSummary) {
	if len(hosts) == 0 {
		return nil, nil
	}
	var pages []Page
	var sums []HostSummary
	var reports []*diagnose.Report
	used := map[string]int{}
	for _, h := range hosts {
		slug := strings.Trim(slugUnsafe.ReplaceAllString(strings.ToLower(h.Host.ID), "-"), "-.")
		if slug == "" {
			slug = "host"
		}
		if n := used[slug]; n > 0 {
			used[slug] = n + 1
			slug += "-" + strconv.Itoa(n+1)
		} else {
			used[slug] = 1
		}
		rep := diagnose.Diagnose(m, c, h)
		reports = append(reports, rep)
		hp := &HostPage{Slug: slug, Record: h, Report: rep, Walks: treewalk.Trees(c, rep)}
		for i := range h.Adapters {
			a := &h.Adapters[i]
			hp.Adapters = append(hp.Adapters, HostAdapter{Record: a, Matrix: m.Identify(a.Vendor, a.Device, a.SubsystemVendor, a.SubsystemDevice, a.Name)})
		}
		title := h.Host.ID
		if title == "" {
			title = slug
		}
		pages = append(pages, Page{Path: "host/" + slug + ".html", Template: "host", Title: "Host " + title, Data: hp})
		sums = append(sums, HostSummary{Slug: slug, ID: title, Kernel: h.Host.KernelRelease, OS: rep.OS, Errors: rep.Errors, Warnings: rep.Warnings})
	}
	sort.Slice(sums, func(i, j int) bool { return sums[i].Slug < sums[j].Slug })
	pages = append(pages, Page{Path: "fleet.html", Template: "fleet", Title: "Fleet", Data: &FleetPage{Hosts: sums, Fleet: fleet.Summarize(m, reports)}})
	return pages, sums
}
