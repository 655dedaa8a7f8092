package diagnose

import (
	"fmt"
	"strings"

	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/rule"
)

// checkEnicRDMA checks that Cisco's enic_rdma runs on Cisco's own enic, and
// that both meet the driver versions the matrix names.
//
// Severity: error for enic_rdma on an inbox enic (Cisco: it "will not
// work") and for drivers below the RoCE minimum; warning below the IPv6
// driver minimum only (IPv4 RoCE still works).
func checkEnicRDMA(v view) Result {
	h, m := v.h, v.m
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
		if !v.moduleAbsent("enic_rdma") {
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
		ev = append(ev, Evidence{Fact: fmt.Sprintf("enic origin %s version %s", rule.OrDash(enicOrigin), rule.OrDash(enicVersion)), Source: src})
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
	var refs []rule.Ref
	var below []string
	sev := Severity("")
	unknown := false
	// Only the minimums of the Cisco adapters on this host apply; when none
	// is in the matrix, every Cisco minimum does. The matrix states one
	// entry per model, feature and module, so equal rules are judged once.
	present := map[string]bool{}
	for _, ma := range v.identified() {
		if ma.RDMADriver == "enic_rdma" {
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
		text := fmt.Sprintf("%s needs %s ≥ %s", f.Feature, f.DriverModule, f.DriverMin)
		if len(present) == 0 {
			text += " (stated for " + f.Adapter + "; the record does not show which VIC model this host has)"
		}
		ref := v.ref(fmt.Sprintf("firmware_min %s %s", f.Adapter, f.Feature), f.Claim, text)
		c, ok := rule.Compare(have, f.DriverMin)
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
func ciscoRef(v view) []rule.Ref {
	var refs []rule.Ref
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
