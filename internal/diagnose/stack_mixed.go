package diagnose

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/rule"
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
func checkStackMixed(v view) Result {
	h, m := v.h, v.m
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
func oneStackRefs(v view) []rule.Ref {
	pick := func(a *matrix.Adapter) []rule.Ref {
		for _, c := range a.Constraints {
			if c.ID == "one-stack" {
				return []rule.Ref{v.ref("adapter "+a.ID+" constraint "+c.ID, c.Claim, c.Text)}
			}
		}
		return nil
	}
	for _, ma := range v.identified() {
		if refs := pick(ma); refs != nil {
			return refs
		}
	}
	for i := range v.m.Adapters {
		if refs := pick(&v.m.Adapters[i]); refs != nil {
			return refs
		}
	}
	return nil
}
