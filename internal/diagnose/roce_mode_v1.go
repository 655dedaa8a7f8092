package diagnose

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/rule"
	"github.com/rocekb/rocekb/internal/source"
)

// isV1Mode recognises the configfs spelling of RoCE v1.
func isV1Mode(s string) bool {
	s = strings.TrimSpace(s)
	return s == "IB/RoCE v1" || s == "RoCE v1"
}

// cmRefs cites the RDMA_CM client/server rows the explanation uses, and
// words the table.
func cmRefs(v view) ([]rule.Ref, string) {
	var refs []rule.Ref
	var rows []string
	for _, c := range v.m.CMModes {
		res := "connects"
		if !c.Connects {
			res = "does not connect"
		}
		rule := fmt.Sprintf("a RoCE %s client with a RoCE %s server %s", c.Client, c.Server, res)
		rows = append(rows, rule)
		refs = append(refs, v.ref(fmt.Sprintf("rdma_cm_mode client %s server %s", c.Client, c.Server), c.Claim, rule))
	}
	return refs, strings.Join(rows, "; ")
}

// checkRoCEMode flags v2-capable ports whose RDMA_CM default mode is v1.
//
// Severity: warning. Connections among v1 peers work, and a v1 client can
// reach a v2 server; but RoCE v2 clients cannot connect to this host as a
// server, and traffic cannot be routed.
func checkRoCEMode(v view) Result {
	var r Result
	// configfs has a mode for InfiniBand ports too: without an
	// Ethernet link layer the mode says nothing about RoCE.
	for rp := range v.rocePorts(&r, "the RDMA_CM mode", nil) {
		d, p, subj, pci := rp.Dev, rp.Port, rp.Subject, rp.Adapter
		if p.DefaultRoCEMode == "" {
			r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Unknown, Text: "the record has no default_roce_mode for " + subj + " (configfs rdma_cm/<dev> shows it only after mkdir)"})
			continue
		}
		if !isV1Mode(p.DefaultRoCEMode) {
			r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Pass, Text: subj + " default_roce_mode is " + p.DefaultRoCEMode})
			continue
		}
		capable, ref, ok := v.v2Capable(d)
		if !ok {
			r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Unknown, Text: "the matrix does not say whether the adapter behind " + d.Name + " can do RoCE v2"})
			continue
		}
		if !capable {
			r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Pass, Text: "the adapter behind " + d.Name + " does RoCE v1 only, so v1 is its only mode", Matrix: []rule.Ref{*ref}})
			continue
		}
		refs, table := cmRefs(v)
		expl := "The RDMA_CM client decides the RoCE mode of a connection."
		if table != "" {
			expl += " The matrix table: " + table + "."
		}
		expl += " With v1 as this port's default, RoCE v2 clients cannot connect to services here, and nothing crosses an IP router."
		if def, dref := v.roceDefault(d); def != "" {
			expl += " " + dref.Rule + ", so v1 here was most likely set by hand or by a script."
			refs = append(refs, dref)
		}
		r.Findings = append(r.Findings, Finding{
			Severity: Warning, Subject: subj, Adapter: pci,
			Message:     subj + " uses RoCE v1 as its RDMA_CM default on a v2-capable adapter",
			Explanation: expl,
			Fix:         fmt.Sprintf("Unless every peer is v1-only, set v2: echo \"RoCE v2\" > /sys/kernel/config/rdma_cm/%s/ports/%d/default_roce_mode (mount configfs and mkdir /sys/kernel/config/rdma_cm/%s first); set both sides to the same mode.", d.Name, p.Number, d.Name),
			Evidence:    []Evidence{v.deviceFact(d, fmt.Sprintf("port.%d.default_roce_mode", p.Number), subj+" default_roce_mode = "+p.DefaultRoCEMode, source.RDMACM)},
			Matrix:      append([]rule.Ref{*ref}, refs...),
		})
	}
	return r
}

// roceDefault finds the matrix RDMA_CM default for the adapter behind a
// device on the host's distro family (or upstream), when it is v2.
func (v view) roceDefault(d *record.RDMADevice) (string, rule.Ref) {
	a := v.adapterOf(d)
	ma := v.match(a)
	if ma == nil {
		return "", rule.Ref{}
	}
	family := strings.ToLower(v.h.Host.OS.ID)
	if dist := v.distro(); dist != nil {
		family = dist.Family
	}
	for _, want := range []string{family, "upstream"} {
		for _, rd := range v.m.RoCEDefaults {
			if rd.Family != want || rd.Mode != "v2" {
				continue
			}
			if len(rd.Adapters) > 0 && !slices.Contains(rd.Adapters, ma.ID) {
				continue
			}
			if rd.Since != "" {
				have := v.h.Host.OS.VersionID
				if want == "upstream" {
					have, _, _ = rule.KernelBase(v.h.Host.KernelRelease)
				}
				if c, ok := rule.Compare(have, rd.Since); !ok || c < 0 {
					continue
				}
			}
			rule := fmt.Sprintf("RDMA_CM defaults to RoCE %s on %s", rd.Mode, rd.Family)
			if rd.Since != "" {
				rule += " since " + rd.Since
			}
			rule += " for " + ma.Name
			return rd.Mode, v.ref("roce_default "+rd.Family, rd.Claim, rule)
		}
	}
	return "", rule.Ref{}
}
