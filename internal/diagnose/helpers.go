package diagnose

import (
	"fmt"
	"github.com/rocekb/rocekb/internal/grepfilter"
	"iter"
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/rule"
	"github.com/rocekb/rocekb/internal/source"
)

// view answers the questions every check asks of a host record. Diagnose
// gives every check of a host the same view, so what the view derives
// (its lookups, the matrix adapter of each function, the tool of each
// source read, the host's distro) is derived once per host.
type view struct {
	h  *record.Host
	m  *matrix.Matrix
	ix *lookup // made on the first question that needs it
}

func newView(h *record.Host, m *matrix.Matrix) view {
	if m == nil {
		m = &matrix.Matrix{}
	}
	return view{h: h, m: m, ix: &lookup{}}
}

// lookup finds a record's adapters and RDMA devices by name and address,
// the first in record order as a scan would: a check asks per device,
// and a record of 30,000 devices took minutes when each question read
// them all.
type lookup struct {
	made      bool
	adapterAt map[string]int          // PCI address → adapter
	adapterOf map[string]int          // RDMA device name → the adapter listing it
	device    map[string]int          // name → RDMA device
	active    map[string][]activePort // card (cardOf) → its devices with an ACTIVE port (siblingActive)

	matched             map[*record.Adapter]*matrix.Adapter // a record adapter → its matrix adapter (match)
	toolsOK             []string                            // per source, the tool of a source read, else "" (readTools)
	distro              *matrix.Distro                      // the host's distro (distro), once distroOK
	toolsMade, distroOK bool
}

func (v view) lookup() *lookup {
	ix := v.ix
	if ix == nil {
		ix = &lookup{}
	}
	if ix.made {
		return ix
	}
	ix.made = true
	ix.adapterAt, ix.adapterOf, ix.device = map[string]int{}, map[string]int{}, map[string]int{}
	first := func(m map[string]int, k string, i int) {
		if _, ok := m[k]; !ok {
			m[k] = i
		}
	}
	for i, a := range v.h.Adapters {
		first(ix.adapterAt, a.PCIAddress, i)
		for _, d := range a.RDMADevices {
			first(ix.adapterOf, d, i)
		}
	}
	for i, d := range v.h.Devices {
		first(ix.device, d.Name, i)
	}
	return ix
}

// adapter returns the record adapter at a PCI address, or nil.
func (v view) adapter(pci string) *record.Adapter {
	if pci == "" {
		return nil
	}
	if i, ok := v.lookup().adapterAt[pci]; ok {
		return &v.h.Adapters[i]
	}
	return nil
}

// match finds the matrix adapter of a record adapter, or nil. Checks ask
// it of the same adapters again and again: the answer is kept.
func (v view) match(a *record.Adapter) *matrix.Adapter {
	if a == nil {
		return nil
	}
	ix := v.lookup()
	if ma, ok := ix.matched[a]; ok {
		return ma
	}
	ma := v.m.Identify(a.Vendor, a.Device, a.SubsystemVendor, a.SubsystemDevice, a.Name)
	if ix.matched == nil {
		ix.matched = map[*record.Adapter]*matrix.Adapter{}
	}
	ix.matched[a] = ma
	return ma
}

// distro is the matrix distro the host runs (rule.HostDistro), or nil.
func (v view) distro() *matrix.Distro {
	ix := v.lookup()
	if !ix.distroOK {
		ix.distro, ix.distroOK = rule.HostDistro(v.m, v.h), true
	}
	return ix.distro
}

// readTools is, per source of the record, the tool (the source table's
// row) of a source that was read, or "" for one absent, failed or of no
// row.
func (v view) readTools() []string {
	ix := v.lookup()
	if !ix.toolsMade {
		ix.toolsMade = true
		ix.toolsOK = make([]string, len(v.h.Sources))
		for i := range v.h.Sources {
			s := &v.h.Sources[i]
			if s.Status != record.StatusOK {
				continue
			}
			if t, ok := source.Of(source.ID(s.ID)); ok {
				ix.toolsOK[i] = t.Name
			}
		}
	}
	return ix.toolsOK
}

// module returns the loaded module with the given name, or nil.
func (v view) module(name string) *record.Module {
	for i := range v.h.Modules {
		if v.h.Modules[i].Name == name {
			return &v.h.Modules[i]
		}
	}
	return nil
}

// moduleListRead reports whether the record lists loaded modules: it
// lists some, or a module source was read and found none.
func (v view) moduleListRead() bool {
	return len(v.h.Modules) > 0 || v.moduleSource() != ""
}

// modulesKnown reports whether the record says which modules are loaded,
// all of them: a module list was read, and no filter (lsmod | grep mlx)
// left some out.
func (v view) modulesKnown() bool {
	return v.moduleListRead() && v.moduleFilter() == ""
}

// moduleFilter is the filter the module list was pasted through ("grep
// mlx"), or "" when a module source was read whole.
func (v view) moduleFilter() string {
	filter := ""
	for i, tool := range v.readTools() {
		s := &v.h.Sources[i]
		if tool == "lsmod" {
			if s.Filter == "" {
				return ""
			}
			if filter == "" {
				filter = s.Filter
			}
		}
	}
	return filter
}

// moduleAbsent reports whether the record says module name is not loaded:
// a whole module list lacks it, or one pasted through a filter that would
// have let its line through lacks it ("lsmod | grep mlx" says mlx5_ib is
// not loaded, not ib_core).
func (v view) moduleAbsent(name string) bool {
	if v.module(name) != nil || !v.moduleListRead() {
		return false
	}
	f := v.moduleFilter()
	return f == "" || grepfilter.Passes(f, name)
}

// moduleSource names the source the module list came from: the first read
// source of the lsmod row of the source table (lsmod, /proc/modules,
// /sys/module).
func (v view) moduleSource() string {
	if s := v.readOf("lsmod"); s != nil {
		return s.ID
	}
	return ""
}

// source returns the record source with the given id, or nil.
func (v view) source(id source.ID) *record.Source {
	for i := range v.h.Sources {
		if v.h.Sources[i].ID == string(id) {
			return &v.h.Sources[i]
		}
	}
	return nil
}

// readOf returns the first source that was read of any of the named tools
// (rows of the source table), in record order, or nil.
func (v view) readOf(tools ...string) *record.Source {
	for i, tool := range v.readTools() {
		if tool != "" && slices.Contains(tools, tool) {
			return &v.h.Sources[i]
		}
	}
	return nil
}

// adapterFact is evidence about a field of an adapter, citing the source
// its from map names.
func adapterFact(a *record.Adapter, field, value string) Evidence {
	return Evidence{Fact: fmt.Sprintf("%s %s = %s", a.PCIAddress, field, value), Source: fromSource(a.From, field)}
}

// fromSource finds the source of a field in a from map, trying the field
// and then its parents ("firmware.running", then "firmware").
func fromSource(from map[string]string, field string) string {
	for f := field; f != ""; {
		if s, ok := from[f]; ok {
			return s
		}
		i := strings.LastIndexByte(f, '.')
		if i < 0 {
			break
		}
		f = f[:i]
	}
	return ""
}

// deviceFact is evidence about an RDMA device or one of its ports. When
// the device's from map does not name the field's source, the first read
// source among fallbacks is cited (sys/class/infiniband by default).
func (v view) deviceFact(d *record.RDMADevice, field, fact string, fallbacks ...source.ID) Evidence {
	src := fromSource(d.From, field)
	if len(fallbacks) == 0 {
		fallbacks = []source.ID{source.SysInfiniBand}
	}
	for _, fb := range fallbacks {
		if src != "" {
			break
		}
		if s := v.source(fb); s != nil && s.Status == record.StatusOK {
			src = s.ID
		}
	}
	return Evidence{Fact: fact, Source: src}
}

// adapterOf returns the record adapter behind an RDMA device, or nil.
func (v view) adapterOf(d *record.RDMADevice) *record.Adapter {
	if a := v.adapter(d.PCIAddress); a != nil {
		return a
	}
	if i, ok := v.lookup().adapterOf[d.Name]; ok {
		return &v.h.Adapters[i]
	}
	return nil
}

// rdmaDevicesOf lists the RDMA devices of an adapter (record.Host.RDMADevicesOf).
func (v view) rdmaDevicesOf(a *record.Adapter) []string { return v.h.RDMADevicesOf(a) }

// rdmaLike reports whether a function the matrix does not match may be an
// RDMA part: it has an RDMA device, its driver is the Ethernet side of a
// matrix RDMA driver, lspci's "Kernel modules" line names one (a function
// handed to vfio-pci keeps that line, and lspci without -nn gives no ids),
// its PCI vendor makes parts the matrix lists, or the record has neither
// its PCI ids nor its driver.
func (v view) rdmaLike(a *record.Adapter) bool {
	if a.Vendor == "" && a.Driver.Name == "" {
		return true // nothing identifies it, so nothing rules RDMA out
	}
	return len(v.rdmaDevicesOf(a)) > 0 ||
		a.Driver.Name != "" && ethDriverKnown(v.m, a.Driver.Name) ||
		v.rdmaModules(a) ||
		a.Vendor != "" && vendorKnown(v.m, a.Vendor)
}

// unjudged notes the functions a per-adapter check skipped although they
// may be RDMA parts: the matrix does not identify them, so the check
// cannot say (adapter-unknown reports them). It also makes a check on a
// record without adapters unknown, and says so when nothing applied.
func (v view) unjudged(r *Result, judged func(a *record.Adapter) bool, what string) {
	if len(v.h.Adapters) == 0 {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "the record lists no adapter"})
		return
	}
	for a := range v.adapters() {
		if !judged(a) && v.match(a) == nil && v.rdmaLike(a) {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the matrix does not identify this function, so " + what + " cannot be judged"})
		}
	}
	if len(r.Notes) == 0 && len(r.Findings) == 0 {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "no adapter here is one " + what + " applies to"})
	}
}

// v2Capable says whether an RDMA device can do RoCE v2, from the matrix
// adapter behind it or, for software devices, its provider driver. ok is
// false when the matrix does not say.
func (v view) v2Capable(d *record.RDMADevice) (capable bool, ref *rule.Ref, ok bool) {
	if a := v.adapterOf(d); a != nil {
		ma := v.match(a)
		if ma == nil || len(ma.RoCE) == 0 {
			return false, nil, false
		}
		r := v.ref("adapter "+ma.ID, ma.Claim, fmt.Sprintf("%s does RoCE %s", ma.Name, strings.Join(ma.RoCE, " and ")))
		return slices.Contains(ma.RoCE, "v2"), &r, true
	}
	// Software devices, and hardware devices whose PCI function the record
	// does not show, are judged by their provider driver: what it can
	// advertise (for mlx5 the firmware decides within that).
	if drv := v.m.Driver(d.Provider); drv != nil && len(drv.RoCE) > 0 {
		rule := fmt.Sprintf("%s does RoCE %s", drv.ID, strings.Join(drv.RoCE, " and "))
		if d.PCIAddress != "" || drv.Kind == matrix.KindHardware {
			rule = fmt.Sprintf("%s can advertise RoCE %s (the record does not show the adapter behind %s)", drv.ID, strings.Join(drv.RoCE, " and "), d.Name)
		}
		r := v.ref("driver "+drv.ID, drv.Claim, rule)
		return slices.Contains(drv.RoCE, "v2"), &r, true
	}
	return false, nil, false
}

// ref describes a matrix entry and the sources of its claim.
func (v view) ref(entry string, c matrix.Claim, text string) rule.Ref {
	return rule.Cite(v.m, entry, c, text)
}

// hostStack is the matrix stack id of the vendor stack the record found,
// "inbox" when none was found, or the record's own name when the matrix
// does not know it.
func (v view) hostStack() (id, version string) { return rule.HostStack(v.m, v.h.Stack) }

// isEthernetPort reports whether a port's link layer is Ethernet (RoCE).
func isEthernetPort(p record.Port) bool { return strings.EqualFold(p.LinkLayer, "Ethernet") }

func portSubject(d *record.RDMADevice, p record.Port) string {
	return fmt.Sprintf("%s/%d", d.Name, p.Number)
}

// noDevices is the note for checks about RDMA devices on a host without any.
func (v view) noDevices(what string) Note {
	n := Note{Subject: "host", Status: Unknown, Text: "the record lists no RDMA device, so " + what + " cannot be judged"}
	if s := v.source(source.SysInfiniBand); s != nil {
		n.Evidence = []Evidence{{Fact: "sys/class/infiniband status " + s.Status + reasonSuffix(s.Reason), Source: s.ID}}
	}
	return n
}

func reasonSuffix(r string) string {
	if r == "" {
		return ""
	}
	return " (" + r + ")"
}

func ethDriverKnown(m *matrix.Matrix, name string) bool {
	for _, d := range m.Drivers {
		if slices.Contains(d.EthDrivers, name) {
			return true
		}
	}
	for _, a := range m.Adapters {
		if a.EthDriver == name {
			return true
		}
	}
	return false
}

func vendorKnown(m *matrix.Matrix, pciVendor string) bool {
	for _, v := range m.Vendors {
		if v.Kind == matrix.KindHardware && slices.Contains(v.PCIVendors, pciVendor) {
			return true
		}
	}
	return false
}

// featureSeverity is the severity of missing a feature's minimum: a
// warning for optional features, an error otherwise.
func featureSeverity(feature string) Severity {
	if rule.OptionalFeature(feature) {
		return Warning
	}
	return Error
}

// The loops every check writes over adapters, devices and ports, written
// once. Each yields in record order, so notes and findings keep theirs.

// adapters yields every record adapter.
func (v view) adapters() iter.Seq[*record.Adapter] {
	return func(yield func(*record.Adapter) bool) {
		for i := range v.h.Adapters {
			if !yield(&v.h.Adapters[i]) {
				return
			}
		}
	}
}

// identified yields the adapters the matrix identifies, with their entries.
func (v view) identified() iter.Seq2[*record.Adapter, *matrix.Adapter] {
	return func(yield func(*record.Adapter, *matrix.Adapter) bool) {
		for a := range v.adapters() {
			if ma := v.match(a); ma != nil && !yield(a, ma) {
				return
			}
		}
	}
}

// provider is the RDMA provider providerFor names for an adapter.
type provider struct {
	Driver string   // the provider module, e.g. mlx5_ib; empty when the matrix names none
	Name   string   // the adapter's name, or "<eth driver> function <pci>" when guessed
	Ref    rule.Ref // the matrix entry naming the provider
}

// roceFunctions yields the adapters providerFor names a provider for: RoCE
// parts the matrix identifies, and functions whose Ethernet driver alone
// points at one (see guessed).
func (v view) roceFunctions() iter.Seq2[*record.Adapter, provider] {
	return func(yield func(*record.Adapter, provider) bool) {
		for a := range v.adapters() {
			drv, name, ref, ok := v.providerFor(a)
			if ok && !yield(a, provider{Driver: drv, Name: name, Ref: ref}) {
				return
			}
		}
	}
}

// isIdentified and hasProvider say which adapters identified and
// roceFunctions yield, for unjudged.
func (v view) isIdentified(a *record.Adapter) bool { return v.match(a) != nil }

func (v view) hasProvider(a *record.Adapter) bool {
	_, _, _, ok := v.providerFor(a)
	return ok
}

// devices yields every RDMA device with the PCI address of the adapter
// behind it. On a record without devices it notes in r that what cannot be
// judged.
func (v view) devices(r *Result, what string) iter.Seq2[*record.RDMADevice, string] {
	return func(yield func(*record.RDMADevice, string) bool) {
		if len(v.h.Devices) == 0 {
			r.Notes = append(r.Notes, v.noDevices(what))
			return
		}
		for i := range v.h.Devices {
			d := &v.h.Devices[i]
			if !yield(d, adapterPCI(v, d)) {
				return
			}
		}
	}
}

// rocePort is an Ethernet (RoCE) port of an RDMA device.
type rocePort struct {
	Dev     *record.RDMADevice
	Port    record.Port
	Subject string // device/port
	Adapter string // PCI address of the adapter behind the device
}

// rocePorts yields the Ethernet ports of every RDMA device. It notes in r
// why the other subjects are left out: no device (what cannot be judged),
// a device without ports (noPorts decides when given, else noPortNote), a
// port without a link layer or with another one (see roCEPort).
func (v view) rocePorts(r *Result, what string, noPorts func(d *record.RDMADevice, pci string)) iter.Seq[rocePort] {
	return v.ethernetPorts(r, what, noPorts, false)
}

// gidPorts is rocePorts, and also the ports with no link layer in the
// record whose GIDs include one of type RoCE v2 (show_gids alone): the
// kernel gives that type only to GIDs of RoCE ports, so such a port is
// Ethernet.
func (v view) gidPorts(r *Result, what string) iter.Seq[rocePort] {
	return v.ethernetPorts(r, what, nil, true)
}

// ethernetPorts is rocePorts; with byGIDType, a port with no link layer
// counts as Ethernet when a GID of it is of type RoCE v2 (gidPorts).
func (v view) ethernetPorts(r *Result, what string, noPorts func(d *record.RDMADevice, pci string), byGIDType bool) iter.Seq[rocePort] {
	return func(yield func(rocePort) bool) {
		for d, pci := range v.devices(r, what) {
			if len(d.Ports) == 0 {
				if noPorts != nil {
					noPorts(d, pci)
				} else {
					r.Notes = append(r.Notes, noPortNote(d, pci))
				}
				continue
			}
			// An iWARP device (qedr or irdma in iWARP mode, cxgb4, siw)
			// has Ethernet ports but no RoCE GIDs to judge.
			if d.Protocol == "iw" {
				r.Notes = append(r.Notes, Note{Subject: d.Name, Adapter: pci, Status: Pass, Text: d.Name + " is an iWARP device, not RoCE: " + what + " does not apply"})
				continue
			}
			for _, p := range d.Ports {
				subj := portSubject(d, p)
				typed := byGIDType && p.LinkLayer == "" && hasRoCEv2GID(p)
				if !typed && !roCEPort(r, subj, pci, p) {
					continue
				}
				if !yield(rocePort{Dev: d, Port: p, Subject: subj, Adapter: pci}) {
					return
				}
			}
		}
	}
}

// report adds a finding about an adapter, or, when providerFor only
// guessed the adapter from its driver, the unknown note unconfirmed makes
// of it.
func (v view) report(r *Result, a *record.Adapter, f Finding) {
	if v.guessed(a) {
		r.Notes = append(r.Notes, unconfirmed(f))
		return
	}
	r.Findings = append(r.Findings, f)
}

func moduleFact(v view, name, origin string) string {
	s := fmt.Sprintf("module %s origin %s", name, origin)
	if mod := v.module(name); mod != nil {
		var extra []string
		if mod.Version != "" {
			extra = append(extra, "version "+mod.Version)
		}
		if mod.Filename != "" {
			extra = append(extra, "filename "+mod.Filename)
		}
		if mod.Taint != "" {
			extra = append(extra, "taint "+mod.Taint)
		}
		if len(extra) > 0 {
			s += " (" + strings.Join(extra, ", ") + ")"
		}
	}
	return s
}

// guessed reports whether providerFor identified the adapter from its
// Ethernet driver only.
func (v view) guessed(a *record.Adapter) bool { return v.match(a) == nil }

// unconfirmed turns a would-be finding about an adapter identified only by
// its driver into an unknown note: absent is data, never a guess.
func unconfirmed(f Finding) Note {
	return Note{Subject: f.Subject, Adapter: f.Adapter, Status: Unknown,
		Text:     f.Message + ", if this function is a RoCE part: the record lacks its PCI ids, and its driver alone does not prove it",
		Evidence: f.Evidence, Matrix: f.Matrix}
}

// providerFor names the RDMA provider a record adapter needs: the matrix
// adapter's rdma_driver, or, when the record lacks the adapter's PCI ids,
// the RoCE driver whose companion Ethernet driver is bound to it (mlx5_core
// → mlx5_ib). ok is false for parts that are not RoCE and for functions
// nothing identifies.
//
// A provider named from the Ethernet driver alone is a strong hint, not
// proof (the matrix lists RDMA parts; a driver may also run parts without
// RDMA), so callers report what they would find as unknown; see guessed.
func (v view) providerFor(a *record.Adapter) (driver, name string, ref rule.Ref, ok bool) {
	if ma := v.match(a); ma != nil {
		if len(ma.RoCE) == 0 {
			return "", "", rule.Ref{}, false
		}
		return ma.RDMADriver, ma.Name, v.ref("adapter "+ma.ID, ma.Claim, fmt.Sprintf("%s uses the RDMA driver %s", ma.Name, rule.OrDash(ma.RDMADriver))), true
	}
	if a.Vendor != "" && a.Device != "" || a.Driver.Name == "" {
		return "", "", rule.Ref{}, false
	}
	// The Ethernet driver alone says "RoCE part" only when every matrix
	// adapter it drives is one: i40e drives X710 (no RDMA) and X722
	// (iWARP only), so an i40e function proves nothing.
	seen := false
	for _, ma := range v.m.Adapters {
		if ma.EthDriver != a.Driver.Name {
			continue
		}
		if len(ma.RoCE) == 0 || ma.NotRoCE != "" {
			return "", "", rule.Ref{}, false
		}
		seen = true
	}
	if !seen {
		return "", "", rule.Ref{}, false
	}
	var ids []string
	for _, d := range v.m.Drivers {
		if slices.Contains(d.EthDrivers, a.Driver.Name) && slices.Contains(d.Transports, "roce") && d.Kind == matrix.KindHardware {
			ids = append(ids, d.ID)
		}
	}
	if len(ids) != 1 {
		return "", "", rule.Ref{}, false // none, or ambiguous: no guess
	}
	d := v.m.Driver(ids[0])
	return d.ID, a.Driver.Name + " function " + a.PCIAddress, v.ref("driver "+d.ID, d.Claim, fmt.Sprintf("%s is the RoCE provider for %s", d.ID, a.Driver.Name)), true
}

func adapterPCI(v view, d *record.RDMADevice) string {
	if a := v.adapterOf(d); a != nil {
		return a.PCIAddress
	}
	return d.PCIAddress
}

func gidTotal(p record.Port) int {
	c := p.GIDCounts
	n := c.RoCEv1 + c.RoCEv2 + c.IB + c.Other
	if len(p.GIDs) > n {
		n = len(p.GIDs)
	}
	return n
}

// noPortNote is the note for a device the record lists without ports.
func noPortNote(d *record.RDMADevice, pci string) Note {
	return Note{Subject: d.Name, Adapter: pci, Status: Unknown, Text: "the record lists no port for " + d.Name}
}

// roCEPort reports whether p is an Ethernet (RoCE) port. For any other port
// it notes why the port is left out: unknown without a link layer, passed
// when the link layer is not Ethernet.
func roCEPort(r *Result, subj, pci string, p record.Port) bool {
	switch {
	case p.LinkLayer == "":
		r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Unknown, Text: "the record has no link layer for " + subj})
		return false
	case !isEthernetPort(p):
		r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Pass, Text: subj + " is " + p.LinkLayer + ", not RoCE"})
		return false
	}
	return true
}

// portState is a port's verbs state, or, when no source gave it, DOWN
// from ibdev2netdev's "(Down)": the netdev under a RoCE port has no link,
// so the port cannot be ACTIVE. how says which it is.
func portState(p record.Port) (state, how string) {
	if p.State != "" {
		return p.State, "state " + p.State
	}
	if strings.EqualFold(p.NetdevLink, "Down") {
		return "DOWN", "netdev " + nonEmptyStr(p.Netdev, "link") + " (Down) per ibdev2netdev"
	}
	return "", ""
}

func nonEmptyStr(s, dflt string) string {
	if s != "" {
		return s
	}
	return dflt
}
