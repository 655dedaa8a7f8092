package diagnose

import (
	"slices"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/checkid"
	"github.com/rocekb/rocekb/internal/content"
)

// Links maps check ids to the content that explains them.
type Links struct {
	FAQ   map[string][]string // check id → faq/<slug>
	Trees map[string][]string // check id → tree/<id>
	// drivers are the drivers (and "adapter:<id>" matrix adapters) a FAQ
	// page is limited to (its front matter's drivers and adapters, or the
	// registry link's): a vendor's page is linked only from findings
	// about that vendor's hardware.
	drivers map[string][]string // faq/<slug> → drivers
}

// LinksFrom indexes the FAQ pages whose front matter lists a check, the
// pages the check registry (internal/checkid) names for a check when the
// content has them, and the trees with a node naming one. c may be nil.
func LinksFrom(c *content.Content) Links {
	l := Links{FAQ: map[string][]string{}, Trees: map[string][]string{}, drivers: map[string][]string{}}
	if c == nil {
		return l
	}
	pages := map[string]bool{}
	for _, p := range c.Pages {
		pages[p.Slug] = true
		// A page's drivers and adapters limit it alike: either one of
		// the finding's hardware names.
		if len(p.Meta.Drivers)+len(p.Meta.Adapters) > 0 {
			lim := slices.Clone(p.Meta.Drivers)
			for _, a := range p.Meta.Adapters {
				lim = append(lim, "adapter:"+a)
			}
			l.drivers["faq/"+p.Slug] = lim
		}
		for _, id := range p.Meta.Checks {
			l.FAQ[id] = appendUnique(l.FAQ[id], "faq/"+p.Slug)
		}
	}
	for _, chk := range checkid.All() {
		for _, link := range chk.FAQ {
			if !pages[link.Slug] {
				continue // not written yet
			}
			slug := "faq/" + link.Slug
			l.FAQ[chk.ID] = appendUnique(l.FAQ[chk.ID], slug)
			if len(link.Drivers) > 0 && len(l.drivers[slug]) == 0 {
				l.drivers[slug] = link.Drivers
			}
		}
	}
	for _, t := range c.Trees {
		for _, n := range t.Nodes {
			if n.Check != "" {
				l.Trees[n.Check] = appendUnique(l.Trees[n.Check], "tree/"+t.ID)
			}
		}
	}
	for _, m := range []map[string][]string{l.FAQ, l.Trees} {
		for k := range m {
			sort.Strings(m[k])
		}
	}
	return l
}

// attach links a finding to its check's pages and trees. A page limited
// to some drivers is linked only when the finding is about hardware of
// one of them: the drivers of its adapter and the providers of that
// adapter's RDMA devices, or, for a finding about the host, of any of the
// host's adapters and devices.
func (l Links) attach(f *Finding, v view) {
	f.FAQ = nil
	var have []string
	for _, slug := range l.FAQ[f.Check] {
		want := l.drivers[slug]
		if len(want) > 0 {
			if have == nil {
				have = findingDrivers(f, v)
			}
			if !slices.ContainsFunc(want, func(d string) bool { return slices.ContainsFunc(have, func(h string) bool { return sameDriver(h, d) }) }) {
				continue
			}
		}
		f.FAQ = append(f.FAQ, slug)
	}
	f.Trees = slices.Clip(l.Trees[f.Check]) // shared by every host a Diagnoser judges: an append copies
}

// findingDrivers lists the drivers of the hardware a finding is about.
func findingDrivers(f *Finding, v view) []string {
	out := []string{}
	for _, a := range v.h.Adapters {
		if f.Adapter != "" && a.PCIAddress != f.Adapter {
			continue
		}
		out = append(out, a.Driver.Name)
		out = append(out, a.KernelModules...)
		// The matrix's drivers of the model: a Cisco VIC whose enic_rdma
		// is not loaded is still enic_rdma hardware.
		if ma := v.match(&a); ma != nil {
			out = append(out, ma.EthDriver, ma.RDMADriver, "adapter:"+ma.ID)
		}
	}
	for _, d := range v.h.Devices {
		if f.Adapter != "" && d.PCIAddress != f.Adapter && d.Name != f.Subject {
			continue
		}
		out = append(out, d.Provider)
	}
	for _, e := range v.h.KernelLog {
		// The driver that printed a quoted line speaks for the hardware,
		// also when the line names no device.
		quoted := slices.ContainsFunc(f.Evidence, func(ev Evidence) bool { return ev.Source == e.Source && ev.Line == e.Line && e.Line > 0 })
		if f.Adapter != "" && e.Device == f.Adapter || quoted {
			out = append(out, e.Module)
		}
	}
	// A network driver's RDMA provider is the same hardware (mlx5_core
	// and mlx5_ib, bnxt_en and bnxt_re): the matrix pairs them.
	for _, ma := range v.m.Adapters {
		if ma.EthDriver != "" && ma.RDMADriver != "" && slices.Contains(out, ma.EthDriver) && !slices.Contains(out, ma.RDMADriver) {
			out = append(out, ma.RDMADriver)
		}
	}
	return out
}

func appendUnique(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

// sameDriver reports whether a module is the driver a page names: the
// same name, or a module of the driver's family (hns_roce_hw_v2 of the
// matrix driver hns_roce).
func sameDriver(module, driver string) bool {
	return module == driver || driver != "" && strings.HasPrefix(module, driver+"_")
}
