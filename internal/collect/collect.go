package collect

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
	"github.com/rocekb/rocekb/internal/lspci"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
)

// Collect reads a snapshot into the finished host record: every source it
// consulted and every command the snapshot ran or recorded, the snapshot's
// own problems and the collector's, sorted, with when the snapshot was
// taken. It never fails on bad input: unreadable or unparsable sources are
// recorded as failed, and a parser panic is recovered and recorded against
// the input that caused it. A panic outside a parser is a collector bug,
// returned as an error.
func Collect(s *snapshot.Snapshot) (h *record.Host, err error) {
	defer func() {
		if p := recover(); p != nil {
			h, err = nil, fmt.Errorf("collector bug: panic reading %s: %v", s.Name, p)
		}
	}()
	c := &collector{
		s:        s,
		h:        &record.Host{Schema: record.Schema, Host: record.HostInfo{SourceKind: recordKind(s.Kind)}},
		sources:  map[string]record.Source{},
		adapters: map[string]*record.Adapter{},
		devices:  map[string]*record.RDMADevice{},
		modules:  map[string]*modState{},
		nets:     map[string]*record.Netdev{},
		seen:     map[string]*record.ModuleSeen{},
	}
	for _, st := range steps {
		st.run(c)
	}
	if t, ok := s.CollectedAt(); ok {
		c.h.Host.CollectedAt = &t
	}
	c.finish()
	return c.h, nil
}

// steps are the collector's reads in order: one per row of source.Tools,
// which names what each reads (tool is the row's name), and between them
// the steps that reconcile what was read. Where two sources give the same
// field the earlier wins, so the order is part of the record.
var steps = []struct {
	tool string // the source.Tools row the step reads and parses; "" when it reads nothing
	run  func(*collector)
}{
	{"hostname", (*collector).hostname},
	{"uname", (*collector).kernelRelease},
	{"os-release", (*collector).osRelease},
	{"lsmod", (*collector).loadModules},
	{"ofed_info", (*collector).stack},
	{"sysfs-pci", (*collector).sysfsPCI},
	{"sysfs-net", (*collector).sysfsNet},
	{"lspci", (*collector).lspci},
	{"devlink", (*collector).devlink},
	{"sysfs-infiniband", (*collector).sysfsInfiniBand},
	{"", (*collector).sysfsInfiniBandListing}, // the same row's listing, when the folder is not there
	{"dev-infiniband", (*collector).devInfiniBand},
	{"rdma_cm", (*collector).rdmaCM},
	{"ibv_devinfo", (*collector).ibvDevinfo},
	{"ibstat", (*collector).ibstat},
	{"ibstatus", (*collector).ibstatus},
	{"rdma", (*collector).rdmaTool},
	{"ibdev2netdev", (*collector).ibdev2netdev},
	{"show_gids", (*collector).showGIDs},
	{"ibv_devices", (*collector).ibvDevices},
	{"rxe_cfg", (*collector).rxeCfg},
	{"ethtool", (*collector).ethtool},           // after every step that finds netdevs
	{"lshw", (*collector).lshw},                 // after ethtool, whose fields win
	{"ip", (*collector).ipLink},                 // after ethtool and lshw, whose fields win
	{"mlxfwmanager", (*collector).mlxfwmanager}, // after the better sources of firmware
	{"flint", (*collector).flint},               // likewise
	{"mlxconfig", (*collector).mlxconfig},
	{"mst", (*collector).mst},                    // after sysfs, which it only completes
	{"", (*collector).placeMstNodes},             // after mst, which ties each node to its function
	{"device-plugin", (*collector).devicePlugin}, // names functions only: after every tool that reads them
	{"kernel-log", (*collector).kernelLog},
	{"interrupts", (*collector).interrupts}, // after every step that finds adapters
	{"", (*collector).linkDevices},          // needs the netdevs ethtool tied to adapters
	{"", (*collector).applyMstIDs},          // after linkDevices, whose ibv_devinfo ids win
	{"", (*collector).treeNames},            // after every step that finds adapters
	{"", (*collector).applyLogFirmware},     // after every better source of firmware
	{"modinfo", (*collector).modinfo},       // needs the providers linkDevices named
	{"modprobe", (*collector).modprobe},
	{"kconfig", (*collector).kconfig}, // needs the kernel release, which the log and modinfo may give
	{"", (*collector).origins},
}

type collector struct {
	s        *snapshot.Snapshot
	h        *record.Host
	sources  map[string]record.Source
	problems []record.Problem

	adapters map[string]*record.Adapter    // by PCI address
	devices  map[string]*record.RDMADevice // by name
	modules  map[string]*modState          // by name
	nets     map[string]*record.Netdev     // every netdev seen, by name
	logFW    []logFirmware                 // firmware the kernel log printed, applied after linkDevices
	seen     map[string]*record.ModuleSeen // modules named but not known to be loaded, by name
	tree     []lspci.Device                // lspci -tv's functions, named in treeNames
	mstIDs   [][3]string                   // PCI address, PCI id and source of each mst status -v row with an id, applied in applyMstIDs
	mstNodes map[string]string             // the PCI address of each MST node mst status lists, by node (mstNode)
	treeID   string                        // the source they came from
}

// note records one consulted source. The first status recorded for an id
// wins, except that a later ok replaces an absent.
func (c *collector) note(id string, r snapshot.Result) {
	src := record.Source{ID: id, Path: r.Path, Status: recordStatus(r.Status), Reason: r.Reason}
	if old, ok := c.sources[id]; ok && !(old.Status == record.StatusAbsent && src.Status == record.StatusOK) {
		return
	}
	c.sources[id] = src
	if r.Truncated {
		c.problem(id, "truncated: %s", nonEmpty(r.Reason, "the per-file cap was hit"))
	}
}

func (c *collector) noteStatus(id, p, status, reason string) {
	c.note(id, snapshot.Result{Path: p, Status: status, Reason: reason})
}

func (c *collector) problem(source, format string, args ...any) {
	c.problems = append(c.problems, record.Problem{Source: source, Msg: fmt.Sprintf(format, args...)})
}

// fail marks a consulted source as failed, keeping its path.
func (c *collector) fail(id, reason string) {
	src := c.sources[id]
	src.ID, src.Status, src.Reason = id, record.StatusFailed, reason
	c.sources[id] = src
}

// file reads a snapshot file and records it under its path.
func (c *collector) file(p string) snapshot.Result {
	r := c.s.File(p)
	c.note(p, r)
	return r
}

// command reads a command's output and records it as "cmd/<cmdline>".
func (c *collector) command(cmdline string) (snapshot.Result, string) {
	id := "cmd/" + cmdline
	r := c.s.Command(cmdline)
	c.note(id, r)
	return r, id
}

// firstCommand tries command lines in order and returns the first that
// succeeded; each one tried is recorded.
func (c *collector) firstCommand(cmdlines ...string) (snapshot.Result, string, bool) {
	var last snapshot.Result
	var lastID string
	for _, cl := range cmdlines {
		r, id := c.command(cl)
		if r.OK() {
			return r, id, true
		}
		last, lastID = r, id
	}
	return last, lastID, false
}

// read is one source a step read.
type read struct {
	res snapshot.Result
	id  string
}

// everyCommand reads each command line that the snapshot holds, in
// order, for outputs collectors keep under several names (rdma_link and
// rdma_link_show): an sosreport may hold more than one, and each may add
// what the other lacks. A live run, and a capture of one, stop at the
// first that answers. Each one tried is recorded.
func (c *collector) everyCommand(cmdlines ...string) []read {
	var out []read
	for _, cl := range cmdlines {
		r, id := c.command(cl)
		if !r.OK() {
			continue
		}
		out = append(out, read{r, id})
		if c.s.Kind == snapshot.KindLive || c.s.Kind == snapshot.KindCapture {
			break
		}
	}
	return out
}

// firstFile tries files in order.
func (c *collector) firstFile(paths ...string) (snapshot.Result, string, bool) {
	var last snapshot.Result
	var lastID string
	for _, p := range paths {
		r := c.file(p)
		if r.OK() {
			return r, p, true
		}
		last, lastID = r, p
	}
	return last, lastID, false
}

// parse runs a parser over data. A parser error or panic marks the source
// failed and adds a problem naming it; the collector carries on.
func (c *collector) parse(id string, fn func() error) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			c.fail(id, fmt.Sprintf("parser panic: %v", p))
			c.problem(id, "parser panic (a kbcollect bug; please report it with this input): %v", p)
			ok = false
		}
	}()
	if err := fn(); err != nil {
		c.fail(id, "parse: "+err.Error())
		return false
	}
	return true
}

// reader is a file or command output as its parser reads it: UTF-8, from a
// UTF-16 file with a byte order mark too (a capture saved on Windows).
func reader(r snapshot.Result) io.Reader { return lines.UTF8(bytes.NewReader(r.Data)) }

func nonEmpty(s, dflt string) string {
	if s != "" {
		return s
	}
	return dflt
}

// finish moves the maps into sorted slices: the same snapshot always
// gives byte-identical output.
func (c *collector) finish() {
	h := c.h
	for _, a := range c.adapters {
		if a.PCIe != nil && *a.PCIe == (record.PCIeLink{}) {
			a.PCIe = nil
		}
		sort.Strings(a.Netdevs)
		sort.Strings(a.RDMADevices)
		a.Netdevs = dedupe(a.Netdevs)
		a.RDMADevices = dedupe(a.RDMADevices)
		if len(a.From) == 0 {
			a.From = nil
		}
		h.Adapters = append(h.Adapters, *a)
	}
	sort.Slice(h.Adapters, func(i, j int) bool { return h.Adapters[i].PCIAddress < h.Adapters[j].PCIAddress })
	for _, d := range c.devices {
		sort.Slice(d.Ports, func(i, j int) bool { return d.Ports[i].Number < d.Ports[j].Number })
		for i := range d.Ports {
			p := &d.Ports[i]
			sort.Slice(p.GIDs, func(a, b int) bool { return p.GIDs[a].Index < p.GIDs[b].Index })
		}
		if len(d.From) == 0 {
			d.From = nil
		}
		h.Devices = append(h.Devices, *d)
	}
	sort.Slice(h.Devices, func(i, j int) bool { return h.Devices[i].Name < h.Devices[j].Name })
	for _, m := range c.modules {
		if !m.loaded {
			continue
		}
		sort.Strings(m.rec.UsedBy)
		h.Modules = append(h.Modules, m.rec)
	}
	sort.Slice(h.Modules, func(i, j int) bool { return h.Modules[i].Name < h.Modules[j].Name })
	for _, s := range c.seen {
		if m, ok := c.modules[s.Name]; ok && m.loaded {
			continue
		}
		h.ModulesSeen = append(h.ModulesSeen, *s)
	}
	sort.Slice(h.ModulesSeen, func(i, j int) bool { return h.ModulesSeen[i].Name < h.ModulesSeen[j].Name })
	// By name; a device queried by two tools keeps their reading order.
	sort.SliceStable(h.FirmwareDevices, func(i, j int) bool { return h.FirmwareDevices[i].Name < h.FirmwareDevices[j].Name })
	sort.SliceStable(h.ToolMessages, func(i, j int) bool {
		a, b := h.ToolMessages[i], h.ToolMessages[j]
		if a.Source != b.Source {
			return a.Source < b.Source
		}
		return a.Line < b.Line
	})
	c.finishNetdevs()
	sort.SliceStable(h.KernelLog, func(i, j int) bool {
		a, b := h.KernelLog[i], h.KernelLog[j]
		if a.Source != b.Source {
			return a.Source < b.Source
		}
		return a.Line < b.Line
	})
	for _, s := range c.sources {
		h.Sources = append(h.Sources, s)
	}
	// Commands the collector did not ask for (a live run's or a capture's
	// others) are sources too.
	for _, s := range commandSources(c.s) {
		if _, ok := c.sources[s.ID]; !ok {
			h.Sources = append(h.Sources, s)
		}
	}
	sort.Slice(h.Sources, func(i, j int) bool {
		if h.Sources[i].ID != h.Sources[j].ID {
			return h.Sources[i].ID < h.Sources[j].ID
		}
		return h.Sources[i].Path < h.Sources[j].Path
	})
	h.Problems = append(h.Problems, c.problems...)
	h.Problems = append(h.Problems, snapshotProblems(c.s)...)
	sort.Slice(h.Problems, func(i, j int) bool {
		if h.Problems[i].Source != h.Problems[j].Source {
			return h.Problems[i].Source < h.Problems[j].Source
		}
		return h.Problems[i].Msg < h.Problems[j].Msg
	})
	h.Problems = dedupeProblems(h.Problems)
	h.Host.HasRDMA = len(h.Devices) > 0
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func dedupeProblems(ps []record.Problem) []record.Problem {
	var out []record.Problem
	for i, p := range ps {
		if i == 0 || p != ps[i-1] {
			out = append(out, p)
		}
	}
	return out
}

// setFrom records where a field came from.
func setFrom(m *map[string]string, field, source string) {
	if *m == nil {
		*m = map[string]string{}
	}
	(*m)[field] = source
}

// fill sets *dst to v when *dst is empty and v is not, recording the source.
func fill(dst *string, v string, from *map[string]string, field, source string) {
	v = strings.TrimSpace(v)
	if *dst != "" || v == "" {
		return
	}
	*dst = v
	setFrom(from, field, source)
}
