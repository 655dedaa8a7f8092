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
// host's adapters and devices. hw is the host's hardware, indexed once
// for all its findings (newHardware).
func (l Links) attach(f *Finding, hw *hardware) {
	f.FAQ = nil
	var have map[string]bool
	for _, slug := range l.FAQ[f.Check] {
		want := l.drivers[slug]
		if len(want) > 0 {
			if have == nil {
				have = hw.drivers(f)
			}
			if !slices.ContainsFunc(want, func(d string) bool {
				for h := range have {
					if sameDriver(h, d) {
						return true
					}
				}
				return false
			}) {
				continue
			}
		}
		f.FAQ = append(f.FAQ, slug)
	}
	f.Trees = slices.Clip(l.Trees[f.Check]) // shared by every host a Diagnoser judges: an append copies
}

// hardware indexes a host's adapters, RDMA devices and kernel log by what
// a finding names, so linking each finding reads only what it is about: a
// record of 60,000 adapters took minutes when each of its findings read
// every adapter.
type hardware struct {
	v          view
	adaptersAt map[string][]int    // PCI address → adapters
	devicesAt  map[string][]int    // PCI address → RDMA devices
	devicesOf  map[string][]int    // name → RDMA devices
	logAt      map[string][]int    // device → kernel log events
	logLine    map[logLine][]int   // source and line → kernel log events
	at         map[string][]string // PCI address ("": the host) → its drivers (of)
}

type logLine struct {
	source string
	line   int
}

func newHardware(v view) *hardware {
	hw := &hardware{v: v, adaptersAt: map[string][]int{}, devicesAt: map[string][]int{}, devicesOf: map[string][]int{}, logAt: map[string][]int{}, logLine: map[logLine][]int{}, at: map[string][]string{}}
	for i, a := range v.h.Adapters {
		hw.adaptersAt[a.PCIAddress] = append(hw.adaptersAt[a.PCIAddress], i)
	}
	for i, d := range v.h.Devices {
		hw.devicesAt[d.PCIAddress] = append(hw.devicesAt[d.PCIAddress], i)
		hw.devicesOf[d.Name] = append(hw.devicesOf[d.Name], i)
	}
	for i, e := range v.h.KernelLog {
		hw.logAt[e.Device] = append(hw.logAt[e.Device], i)
		if e.Line > 0 {
			k := logLine{e.Source, e.Line}
			hw.logLine[k] = append(hw.logLine[k], i)
		}
	}
	return hw
}

// drivers are the drivers of the hardware a finding is about (and
// "adapter:<id>" for its matrix adapters).
func (hw *hardware) drivers(f *Finding) map[string]bool {
	v, out := hw.v, map[string]bool{}
	for _, n := range hw.of(f.Adapter) {
		out[n] = true
	}
	if f.Adapter != "" {
		for _, i := range hw.devicesOf[f.Subject] {
			out[v.h.Devices[i].Provider] = true
		}
	}
	// The driver that printed a quoted line speaks for the hardware, also
	// when the line names no device.
	for _, ev := range f.Evidence {
		for _, i := range hw.logLine[logLine{ev.Source, ev.Line}] {
			out[v.h.KernelLog[i].Module] = true
		}
	}
	// A network driver's RDMA provider is the same hardware (mlx5_core
	// and mlx5_ib, bnxt_en and bnxt_re): the matrix pairs them.
	for _, ma := range v.m.Adapters {
		if ma.EthDriver != "" && ma.RDMADriver != "" && out[ma.EthDriver] {
			out[ma.RDMADriver] = true
		}
	}
	return out
}

// of lists, once each, the drivers of the adapters and RDMA devices at a
// PCI address and of the kernel log lines about it, or for "" (a finding
// about the host) of every adapter and device; made once per address, as
// a host's findings ask about the same few.
func (hw *hardware) of(pci string) []string {
	if names, ok := hw.at[pci]; ok {
		return names
	}
	v, seen, names := hw.v, map[string]bool{}, []string{}
	add := func(ns ...string) {
		for _, n := range ns {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	if pci == "" {
		for i := range v.h.Adapters {
			add(hw.adapterDrivers(nil, i)...)
		}
		for _, d := range v.h.Devices {
			add(d.Provider)
		}
	} else {
		for _, i := range hw.adaptersAt[pci] {
			add(hw.adapterDrivers(nil, i)...)
		}
		for _, i := range hw.devicesAt[pci] {
			add(v.h.Devices[i].Provider)
		}
		// The driver that printed a line about the adapter speaks for it.
		for _, i := range hw.logAt[pci] {
			add(v.h.KernelLog[i].Module)
		}
	}
	hw.at[pci] = names
	return names
}

// adapterDrivers appends the drivers of adapter i: its driver and
// modules, and the matrix's drivers of its model (a Cisco VIC whose
// enic_rdma is not loaded is still enic_rdma hardware).
func (hw *hardware) adapterDrivers(out []string, i int) []string {
	a := &hw.v.h.Adapters[i]
	out = append(out, a.Driver.Name)
	out = append(out, a.KernelModules...)
	if ma := hw.v.match(a); ma != nil {
		out = append(out, ma.EthDriver, ma.RDMADriver, "adapter:"+ma.ID)
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
