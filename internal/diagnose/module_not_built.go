package diagnose

import (
	"fmt"
	"github.com/rocekb/rocekb/internal/grepfilter"
	"strings"

	"github.com/rocekb/rocekb/internal/kconfig"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/rule"
)

// build is what the host's own kernel configuration says of one module.
type build struct {
	state string // kconfig.BuiltIn, kconfig.Module, kconfig.Off, or "" when not known
	ev    Evidence
	row   *matrix.KernelOption
}

// kernelOptionRow is the matrix's kernel_option row of a module, allowing
// for a hardware suffix (hns_roce → hns_roce_hw_v2) as providerLoaded does.
func (v view) kernelOptionRow(module string) *matrix.KernelOption {
	if r := v.m.KernelOption(module); r != nil {
		return r
	}
	for i := range v.m.KernelOptions {
		if strings.HasPrefix(v.m.KernelOptions[i].Module, module+"_") {
			return &v.m.KernelOptions[i]
		}
	}
	return nil
}

// kernelConfigFilter is the filter the record's kernel configuration was
// pasted through ("grep INFINIBAND"), "" when it was read whole.
func (v view) kernelConfigFilter() string {
	kc := v.h.KernelConfig
	for i := range v.h.Sources {
		if s := &v.h.Sources[i]; s.ID == kc.Source {
			return s.Filter
		}
	}
	return ""
}

// kernelBuilds answers, from the record's kernel configuration and the
// matrix's kernel_option row, whether the running kernel builds a module.
// An option with no line is off when the configuration was read whole
// (scripts/kconfig writes every option its tree knows, leaving out only
// those whose dependencies are off) or through a filter that would have
// shown its line; else it is not known.
func (v view) kernelBuilds(module string) build {
	kc := v.h.KernelConfig
	row := v.kernelOptionRow(module)
	if kc == nil || row == nil {
		return build{}
	}
	filter := v.kernelConfigFilter()
	b := build{row: row}
	for i, name := range append([]string{row.Option}, row.Requires...) {
		var opt *record.KernelOption
		for j := range kc.Options {
			if kc.Options[j].Name == name {
				opt = &kc.Options[j]
			}
		}
		switch {
		case opt != nil && (opt.Value == kconfig.Off || i > 0 && opt.Value != kconfig.BuiltIn):
			return build{state: kconfig.Off, row: row, ev: Evidence{Fact: kconfig.Option{Name: opt.Name, Value: opt.Value}.Text(), Source: kc.Source, Line: opt.Line}}
		case opt != nil && i == 0:
			b.state, b.ev = opt.Value, Evidence{Fact: kconfig.Option{Name: opt.Name, Value: opt.Value}.Text(), Source: kc.Source, Line: opt.Line}
		case opt == nil && kconfig.Relevant(name) && (filter == "" || grepfilter.Passes(filter, name)):
			how := "the kernel configuration has no " + name + " line"
			if filter != "" {
				how += filteredBy(filter)
			}
			return build{state: kconfig.Off, row: row, ev: Evidence{Fact: how, Source: kc.Source}}
		case opt == nil:
			return build{row: row}
		}
	}
	if b.state != kconfig.BuiltIn && b.state != kconfig.Module {
		return build{row: row}
	}
	return b
}

// checkModuleNotBuilt reports a RoCE adapter whose provider, ib_core or
// ib_uverbs the running kernel's own configuration does not build.
//
// Severity: error. modprobe cannot load a module the kernel was built
// without; no setting on this kernel makes RDMA work.
func checkModuleNotBuilt(v view) Result {
	h := v.h
	var r Result
	if h.KernelConfig == nil {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "the record holds no kernel configuration (/boot/config-<release> or /proc/config.gz)"})
		return r
	}
	for a, p := range v.roceFunctions() {
		prov, name := p.Driver, p.Name
		if prov == "" {
			continue
		}
		if devs := v.rdmaDevicesOf(a); len(devs) > 0 {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: "the adapter has RDMA device(s) " + strings.Join(devs, ", ")})
			continue
		}
		var off []string
		var ev []Evidence
		var refs []rule.Ref
		unknown := false
		for _, mod := range []string{"ib_core", "ib_uverbs", prov} {
			loaded := v.module(mod) != nil || mod == prov && v.providerLoaded(prov) != nil
			b := v.kernelBuilds(mod)
			switch {
			case b.state == kconfig.Off && !loaded:
				off = append(off, mod)
				ev = append(ev, b.ev)
				refs = append(refs, v.ref("kernel_option "+b.row.Module, b.row.Claim, b.row.Module+" is built by "+b.row.Option))
			case b.state == "":
				unknown = true
			}
		}
		if len(off) == 0 {
			if unknown {
				r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the kernel configuration does not say whether ib_core, ib_uverbs and " + prov + " are built"})
			} else {
				r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: "the kernel builds ib_core, ib_uverbs and " + prov})
			}
			continue
		}
		f := Finding{
			Severity: Error, Subject: a.PCIAddress, Adapter: a.PCIAddress,
			Message:     fmt.Sprintf("%s needs %s, which this kernel does not build", name, strings.Join(off, " and ")),
			Explanation: "The running kernel's own build configuration leaves the option that builds " + strings.Join(off, " and ") + " unset, so this kernel has no such module: modprobe cannot load it, whatever modprobe.d, the rdma service or udev ask for.",
			Fix:         "Run a kernel that builds " + strings.Join(off, " and ") + " (its option =m or =y: another distribution kernel or flavour, or one you build), or install a vendor RDMA stack the matrix supports for this adapter, which brings its own modules.",
			Evidence:    append(ev, adapterFact(a, "driver.name", rule.OrDash(a.Driver.Name))),
			Matrix:      refs,
		}
		v.report(&r, a, f)
	}
	if len(r.Notes) == 0 && len(r.Findings) == 0 {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "no adapter here needs an RDMA provider the matrix knows"})
	}
	return r
}

// filteredBy says which filter a listing was pasted through, for evidence.
func filteredBy(filter string) string {
	if filter == "" {
		return ""
	}
	return " (listed through " + filter + ")"
}
