package compat

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
)

// rdmaCoreModules are the kernel modules an OFED stack replaces as a set.
// NVIDIA's installer "uninstalls any software stacks that are part of the
// standard operating system distribution" (Installing MLNX_OFED), so an
// inbox copy of any of these beside an OFED copy of another is a mix. The
// matrix stacks' own module lists are added to this table at run time.
var rdmaCoreModules = []string{
	"ib_core", "ib_uverbs", "ib_umad", "ib_cm", "iw_cm", "rdma_cm", "rdma_ucm", "ib_ipoib",
	"mlx_compat", "mlx4_core", "mlx4_ib", "mlx4_en", "mlx5_core", "mlx5_ib",
}

// checkStackMixed flags inbox and OFED modules loaded together, and the
// kernel's own complaints about it.
//
// Severity: error. Modules built against another stack's symbols fail to
// load ("disagrees about version of symbol", "Unknown symbol") or load
// against the wrong core, and RDMA breaks in ways that look like anything
// else. Vendor kmods meant to sit on the inbox core (Cisco enic_rdma on
// inbox ib_core) are not a mix; enic-rdma-unmatched covers Cisco.
func checkStackMixed(h *record.Host, m *matrix.Matrix) Result {
	v := newView(h, m)
	var r Result
	var ev []Evidence
	var why []string

	var events []record.LogEvent
	for _, e := range h.KernelLog {
		if e.Kind == record.LogSymbolMismatch || e.Kind == record.LogUnknownSymbol {
			events = append(events, e)
		}
	}
	for _, e := range events {
		ev = append(ev, Evidence{Fact: "kernel log: " + e.Text, Source: e.Source, Line: e.Line})
	}
	if len(events) > 0 {
		why = append(why, fmt.Sprintf("the kernel log has %d symbol version or unknown-symbol error(s): a module was built against a different RDMA core than the one loaded", len(events)))
	}

	known := v.modulesKnown()
	if known {
		set := append([]string(nil), rdmaCoreModules...)
		for _, s := range m.Stacks {
			if s.Kind == "ofed" {
				set = append(set, s.Modules...)
			}
		}
		var ofed, inbox []string
		for _, mod := range h.Modules {
			if !slices.Contains(set, mod.Name) {
				continue
			}
			switch mod.Origin {
			case record.OriginOFED:
				ofed = append(ofed, mod.Name)
			case record.OriginInbox:
				inbox = append(inbox, mod.Name)
			}
		}
		// Adapter drivers carry origins too (from ethtool -i and modinfo).
		for _, a := range h.Adapters {
			if !slices.Contains(set, a.Driver.Name) || v.module(a.Driver.Name) != nil {
				continue
			}
			switch a.Driver.Origin {
			case record.OriginOFED:
				ofed = append(ofed, a.Driver.Name)
			case record.OriginInbox:
				inbox = append(inbox, a.Driver.Name)
			}
		}
		sort.Strings(ofed)
		sort.Strings(inbox)
		ofed, inbox = slices.Compact(ofed), slices.Compact(inbox)
		src := v.moduleSource()
		if len(ofed) > 0 && len(inbox) > 0 {
			why = append(why, fmt.Sprintf("OFED modules (%s) are loaded beside inbox ones (%s)", strings.Join(ofed, ", "), strings.Join(inbox, ", ")))
			for _, n := range ofed {
				ev = append(ev, Evidence{Fact: moduleFact(v, n, record.OriginOFED), Source: src})
			}
			for _, n := range inbox {
				ev = append(ev, Evidence{Fact: moduleFact(v, n, record.OriginInbox), Source: src})
			}
		} else if len(inbox) > 0 && v.h.Stack != nil && strings.Contains(strings.ToUpper(v.h.Stack.Name), "OFED") {
			why = append(why, fmt.Sprintf("%s %s is installed but the RDMA modules loaded are inbox ones (%s)", v.h.Stack.Name, v.h.Stack.Version, strings.Join(inbox, ", ")))
			ev = append(ev, Evidence{Fact: "stack " + v.h.Stack.Name + " " + v.h.Stack.Version, Source: v.h.Stack.From})
			for _, n := range inbox {
				ev = append(ev, Evidence{Fact: moduleFact(v, n, record.OriginInbox), Source: src})
			}
		}
	}
	if len(why) > 0 {
		r.Findings = append(r.Findings, Finding{
			Matrix:   oneStackRefs(v),
			Severity: Error, Subject: "host",
			Message:     "inbox and vendor RDMA stacks are mixed: " + why[0],
			Explanation: "An OFED install replaces the distribution's RDMA modules as a set. When both sets are present, modules built against one core are loaded against the other; " + strings.Join(why, "; ") + ".",
			Fix:         "Use one stack: either reinstall the vendor stack for the running kernel (it must match uname -r exactly) and reboot, or remove it (e.g. ofed_uninstall.sh) and use the distribution's rdma-core and inbox modules. Rebuild out-of-tree modules (nv_peer_mem, ksmbd …) against the stack in use.",
			Evidence:    ev,
		})
		return r
	}
	if !known {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "the record does not list loaded modules (lsmod or /proc/modules), and the kernel log shows no symbol errors"})
		return r
	}
	r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "the RDMA modules loaded come from one stack, and the kernel log has no symbol errors"})
	return r
}

// oneStackRefs cites the matrix constraint that a vendor stack replaces
// the inbox one (constraint id "one-stack"), preferring an adapter on the
// host; it cites one entry, since they all say the same.
func oneStackRefs(v view) []Ref {
	pick := func(a *matrix.Adapter) []Ref {
		for _, c := range a.Constraints {
			if c.ID == "one-stack" {
				return []Ref{v.ref("adapter "+a.ID+" constraint "+c.ID, c.Claim, c.Text)}
			}
		}
		return nil
	}
	for i := range v.h.Adapters {
		if ma := v.match(&v.h.Adapters[i]); ma != nil {
			if refs := pick(ma); refs != nil {
				return refs
			}
		}
	}
	for i := range v.m.Adapters {
		if refs := pick(&v.m.Adapters[i]); refs != nil {
			return refs
		}
	}
	return nil
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

// checkEnicRDMA checks that Cisco's enic_rdma runs on Cisco's own enic, and
// that both meet the driver versions the matrix names.
//
// Severity: error for enic_rdma on an inbox enic (Cisco: it "will not
// work") and for drivers below the RoCE minimum; warning below the IPv6
// driver minimum only (IPv4 RoCE still works).
func checkEnicRDMA(h *record.Host, m *matrix.Matrix) Result {
	v := newView(h, m)
	var r Result
	src := v.moduleSource()
	var ev []Evidence
	rdmaVersion := ""
	loaded := false
	if mod := v.module("enic_rdma"); mod != nil {
		loaded, rdmaVersion = true, mod.Version
		ev = append(ev, Evidence{Fact: moduleFact(v, "enic_rdma", mod.Origin), Source: src})
	}
	// The kernel log proves enic_rdma ran even without a module list: it
	// prints "enic_rdma: Cisco VIC Ethernet NIC RDMA Driver, ver X init".
	for _, e := range h.KernelLog {
		if e.Module != "enic_rdma" || (e.Kind != record.LogDriverInit && e.Kind != record.LogRoCEEnabled) {
			continue
		}
		if !loaded || e.Kind == record.LogDriverInit {
			ev = append(ev, Evidence{Fact: "kernel log: " + e.Text, Source: e.Source, Line: e.Line})
		}
		loaded = true
		if rdmaVersion == "" && e.Kind == record.LogDriverInit {
			rdmaVersion = logVersion(e.Text)
		}
	}
	if !loaded {
		if !v.modulesKnown() {
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "the record does not list loaded modules, and the kernel log shows no enic_rdma"})
		} else {
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "enic_rdma is not loaded"})
		}
		return r
	}
	enicOrigin, enicVersion := "", ""
	if e := v.module("enic"); e != nil {
		enicOrigin, enicVersion = e.Origin, e.Version
	}
	for _, a := range h.Adapters {
		if a.Driver.Name == "enic" {
			if enicOrigin == "" || enicOrigin == record.OriginUnknown {
				enicOrigin = a.Driver.Origin
			}
			if enicVersion == "" {
				enicVersion = a.Driver.Version
			}
		}
	}
	if enicOrigin != "" || enicVersion != "" {
		ev = append(ev, Evidence{Fact: fmt.Sprintf("enic origin %s version %s", orDash(enicOrigin), orDash(enicVersion)), Source: src})
	}
	rdma := &record.Module{Name: "enic_rdma", Version: rdmaVersion}
	cisco := ciscoRef(v)
	if enicOrigin == record.OriginInbox {
		r.Findings = append(r.Findings, Finding{
			Severity: Error, Subject: "host",
			Message:     "enic_rdma is loaded with the inbox enic driver",
			Explanation: "Cisco ships enic and enic_rdma as a matched pair of binary drivers; the enic_rdma from Cisco.com does not work with an inbox enic driver.",
			Fix:         "Install the matched kmod-enic and kmod-enic_rdma packages from the same Cisco driver bundle, then reboot.",
			Evidence:    ev,
			Matrix:      cisco,
		})
		return r
	}
	var refs []Ref
	var below []string
	sev := Severity("")
	unknown := false
	// Only the minimums of the Cisco adapters on this host apply; when none
	// is in the matrix, every Cisco minimum does. The matrix states one
	// entry per model, feature and module, so equal rules are judged once.
	present := map[string]bool{}
	for i := range h.Adapters {
		if ma := v.match(&h.Adapters[i]); ma != nil && ma.RDMADriver == "enic_rdma" {
			present[ma.ID] = true
		}
	}
	seen := map[string]bool{}
	for i := range m.Firmware {
		f := &m.Firmware[i]
		if f.DriverMin == "" || (f.DriverModule != "enic" && f.DriverModule != "enic_rdma") {
			continue
		}
		if len(present) > 0 && !present[f.Adapter] {
			continue
		}
		if k := f.Feature + "|" + f.DriverModule + "|" + f.DriverMin; seen[k] {
			continue
		} else {
			seen[k] = true
		}
		have := rdma.Version
		if f.DriverModule == "enic" {
			have = enicVersion
		}
		if have == "" {
			unknown = true
			continue
		}
		rule := fmt.Sprintf("%s needs %s ≥ %s", f.Feature, f.DriverModule, f.DriverMin)
		if len(present) == 0 {
			rule += " (stated for " + f.Adapter + "; the record does not show which VIC model this host has)"
		}
		ref := v.ref(fmt.Sprintf("firmware_min %s %s", f.Adapter, f.Feature), f.Claim, rule)
		c, ok := compareVersions(have, f.DriverMin)
		if !ok {
			unknown = true
			continue
		}
		if c < 0 {
			refs = append(refs, ref)
			below = append(below, fmt.Sprintf("%s %s < %s for %s", f.DriverModule, have, f.DriverMin, f.Feature))
			if s := featureSeverity(f.Feature); s.Rank() > sev.Rank() {
				sev = s
			}
		}
	}
	switch {
	case len(below) > 0:
		r.Findings = append(r.Findings, Finding{
			Severity: sev, Subject: "host",
			Message:     "Cisco enic/enic_rdma drivers are below the versions the matrix requires: " + strings.Join(below, "; "),
			Explanation: "Cisco names the lowest enic and enic_rdma versions for RoCE v2 and, higher, for IPv6.",
			Fix:         "Install newer matched kmod-enic and kmod-enic_rdma packages from one Cisco driver bundle, then reboot.",
			Evidence:    ev,
			Matrix:      refs,
		})
	case enicOrigin == "" || enicOrigin == record.OriginUnknown:
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "enic_rdma is loaded, but the record does not say where enic comes from", Evidence: ev})
	case unknown:
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "enic_rdma is loaded, but the driver versions cannot be compared with the matrix", Evidence: ev})
	default:
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "enic_rdma runs on a " + enicOrigin + " enic", Evidence: ev})
	}
	return r
}

// ciscoRef cites the matrix entries that state the matched-set rule: the
// constraints of adapters whose RDMA driver is enic_rdma.
func ciscoRef(v view) []Ref {
	var refs []Ref
	for _, a := range v.m.Adapters {
		if a.RDMADriver != "enic_rdma" {
			continue
		}
		for _, c := range a.Constraints {
			if strings.Contains(c.Text, "enic") {
				refs = append(refs, v.ref("adapter "+a.ID+" constraint "+c.ID, c.Claim, c.Text))
			}
		}
		if len(refs) > 0 {
			break
		}
	}
	return refs
}

// logVersion takes the version from a driver's init line ("…, ver X init").
func logVersion(text string) string {
	i := strings.Index(text, " ver ")
	if i < 0 {
		return ""
	}
	f := strings.Fields(text[i+len(" ver "):])
	if len(f) == 0 {
		return ""
	}
	return strings.TrimSuffix(f[0], ",")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// providerLoaded reports whether a provider driver is loaded, allowing for
// modules that carry a hardware suffix (hns_roce → hns_roce_hw_v2).
func (v view) providerLoaded(id string) *record.Module {
	if mod := v.module(id); mod != nil {
		return mod
	}
	for i := range v.h.Modules {
		if strings.HasPrefix(v.h.Modules[i].Name, id+"_") {
			return &v.h.Modules[i]
		}
	}
	return nil
}

// checkModules checks that ib_core and the provider module of each RoCE
// adapter are loaded.
//
// Severity: warning. Without them the adapter still works as a NIC, which
// may be all a host wants; when RDMA is expected this is the cause, and the
// trees ask it first.
func checkModules(h *record.Host, m *matrix.Matrix) Result {
	v := newView(h, m)
	var r Result
	if len(h.Adapters) == 0 {
		if len(h.Devices) > 0 {
			// A device exists only once ib_core and its provider are loaded.
			var names []string
			for _, d := range h.Devices {
				names = append(names, d.Name)
			}
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "the RDMA device(s) " + strings.Join(names, ", ") + " exist, so ib_core and their providers are loaded"})
			return r
		}
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "the record lists no adapter and no RDMA device"})
		return r
	}
	known := v.modulesKnown()
	src := v.moduleSource()
	for i := range h.Adapters {
		a := &h.Adapters[i]
		prov, name, ref, ok := v.providerFor(a)
		if !ok {
			continue // not a RoCE part, or nothing says which provider it needs (adapter-unknown reports it)
		}
		if devs := v.rdmaDevicesOf(a); len(devs) > 0 {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: "the adapter has RDMA device(s) " + strings.Join(devs, ", ") + ", so its provider is loaded"})
			continue
		}
		if prov == "" {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the matrix names no RDMA driver for " + name})
			continue
		}
		if !known {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the record does not list loaded modules"})
			continue
		}
		var missing []string
		if v.module("ib_core") == nil {
			missing = append(missing, "ib_core")
		}
		if v.providerLoaded(prov) == nil {
			missing = append(missing, prov)
		}
		if len(missing) == 0 {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: "ib_core and " + prov + " are loaded"})
			continue
		}
		f := Finding{
			Severity: Warning, Subject: a.PCIAddress, Adapter: a.PCIAddress,
			Message:     fmt.Sprintf("%s is present but %s not loaded", name, strings.Join(missing, " and ")+pluralIs(len(missing))),
			Explanation: "RDMA on this adapter needs the kernel's RDMA core (ib_core) and the adapter's provider module; without them no RDMA device appears and only plain Ethernet works.",
			Fix:         "modprobe " + strings.Join(missing, " ") + " and check dmesg for why it did not load (a missing module, a symbol error from a mixed stack, or a disabled RoCE setting). Make it persistent with the rdma service or /etc/modules-load.d.",
			Evidence:    []Evidence{{Fact: "loaded modules lack " + strings.Join(missing, ", "), Source: src}, adapterFact(a, "driver.name", orDash(a.Driver.Name))},
			Matrix:      []Ref{ref},
		}
		if v.guessed(a) {
			r.Notes = append(r.Notes, unconfirmed(f))
			continue
		}
		r.Findings = append(r.Findings, f)
	}
	if len(r.Notes) == 0 && len(r.Findings) == 0 {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "no adapter here needs an RDMA provider the matrix knows"})
	}
	return r
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
func (v view) providerFor(a *record.Adapter) (driver, name string, ref Ref, ok bool) {
	if ma := v.match(a); ma != nil {
		if len(ma.RoCE) == 0 {
			return "", "", Ref{}, false
		}
		return ma.RDMADriver, ma.Name, v.ref("adapter "+ma.ID, ma.Claim, fmt.Sprintf("%s uses the RDMA driver %s", ma.Name, orDash(ma.RDMADriver))), true
	}
	if a.Vendor != "" && a.Device != "" || a.Driver.Name == "" {
		return "", "", Ref{}, false
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
			return "", "", Ref{}, false
		}
		seen = true
	}
	if !seen {
		return "", "", Ref{}, false
	}
	var ids []string
	for _, d := range v.m.Drivers {
		if slices.Contains(d.EthDrivers, a.Driver.Name) && slices.Contains(d.Transports, "roce") && d.Kind == matrix.KindHardware {
			ids = append(ids, d.ID)
		}
	}
	if len(ids) != 1 {
		return "", "", Ref{}, false // none, or ambiguous: no guess
	}
	d := v.m.Driver(ids[0])
	return d.ID, a.Driver.Name + " function " + a.PCIAddress, v.ref("driver "+d.ID, d.Claim, fmt.Sprintf("%s is the RoCE provider for %s", d.ID, a.Driver.Name)), true
}

func pluralIs(n int) string {
	if n == 1 {
		return " is"
	}
	return " are"
}
