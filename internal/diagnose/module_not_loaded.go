package diagnose

import (
	"fmt"
	"strings"

	"github.com/rocekb/rocekb/internal/kconfig"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/rule"
	"github.com/rocekb/rocekb/internal/verdict"
)

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
func checkModules(v view) Result {
	h := v.h
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
	known := v.moduleListRead() // whole or filtered: moduleAbsent tells which names it shows
	src := v.moduleSource()
	// Parts that are not RoCE, or that nothing says which provider they
	// need, are not yielded (adapter-unknown reports them).
	for a, p := range v.roceFunctions() {
		prov, name, ref := p.Driver, p.Name, p.Ref
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
		var missing, unseen []string
		for _, mod := range []string{"ib_core", prov} {
			switch {
			case mod == prov && v.providerLoaded(prov) != nil, mod != prov && v.module(mod) != nil:
			case v.kernelBuilds(mod).state == kconfig.BuiltIn:
				// Built into the kernel image (=y in its own
				// configuration): always there, never in lsmod.
			case v.moduleAbsent(mod):
				missing = append(missing, mod)
			default:
				unseen = append(unseen, mod)
			}
		}
		if len(missing) == 0 && len(unseen) > 0 {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the module list was pasted through a filter (" + v.moduleFilter() + ") that would not show " + strings.Join(unseen, " or ") + ", so whether it is loaded is not known"})
			continue
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
			Evidence:    []Evidence{{Fact: "loaded modules" + filteredBy(v.moduleFilter()) + " lack " + strings.Join(missing, ", "), Source: src}, adapterFact(a, "driver.name", rule.OrDash(a.Driver.Name))},
			Matrix:      []rule.Ref{ref},
		}
		if fix := v.blockingFix(missing); fix != "" {
			f.Fix = fix
		}
		if off := v.notBuilt(missing); len(off) > 0 {
			// The host's own configuration: modprobe cannot load them.
			f.Fix = fmt.Sprintf("This kernel does not build %s (see module-not-built), so modprobe cannot load it: run a kernel that builds it, or install a vendor stack the matrix supports for this adapter.", strings.Join(off, " or "))
		} else if d, row := unbuilt(v, a, prov); row != nil {
			// modprobe cannot load a module the distribution's kernel
			// does not build: say so, citing the row stack-release judges by.
			f.Fix = fmt.Sprintf("The %s kernel does not build %s, so modprobe cannot load it: run a kernel that provides %s, or install a vendor stack the matrix supports for this adapter.", d.Name, prov, prov)
			f.Matrix = append(f.Matrix, v.ref(row.Entry(), row.Claim, row.Text))
		}
		v.report(&r, a, f)
	}
	if len(r.Notes) == 0 && len(r.Findings) == 0 {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "no adapter here needs an RDMA provider the matrix knows"})
	}
	return r
}

// notBuilt are the modules of mods the host's own kernel configuration
// says it does not build.
func (v view) notBuilt(mods []string) []string {
	var off []string
	for _, mod := range mods {
		if v.kernelBuilds(mod).state == kconfig.Off {
			off = append(off, mod)
		}
	}
	return off
}

// unbuilt returns the host's distribution and its distro_support row when
// the row says the distribution does not build the adapter's provider: the
// record names a distribution the matrix knows, and the row is a source's
// statement, not a field observation.
func unbuilt(v view, a *record.Adapter, prov string) (*matrix.Distro, *matrix.DistroRow) {
	d, ma := v.distro(), v.match(a)
	if d == nil || ma == nil || ma.RDMADriver != prov {
		return nil, nil
	}
	row, _ := verdict.DistroRow(v.m, ma, d)
	if row == nil || row.Status != matrix.StatusUnsupported || row.Weak() {
		return nil, nil
	}
	// A family's row says what the family's kernel builds; a rebuild
	// (Rocky Linux of RHEL) whose kernel no source says is the family's
	// may build more (AlmaLinux re-adds ids), so it is no statement here.
	if row.Rebuild == "" && !d.FamilyRowsDecide() {
		return nil, nil
	}
	return d, row
}

func pluralIs(n int) string {
	if n == 1 {
		return " is"
	}
	return " are"
}
