package diagnose

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/modprobe"
	"github.com/rocekb/rocekb/internal/record"
)

// blockedCore are the modules every RoCE adapter needs besides its
// provider: the RDMA core, verbs from user space, and the RDMA CM.
var blockedCore = []string{"ib_core", "ib_uverbs", "rdma_cm"}

// checkModuleBlocked reports the host's rules (modprobe.d lines, kernel
// command-line words) that keep a module a RoCE adapter needs from
// loading: its provider, ib_core, ib_uverbs and rdma_cm.
//
// Severity: warning when the module is not loaded, for the rule is then
// the likely cause; info when it is loaded now (it was loaded by hand or
// before the rule was written, and will not load at the next boot); info
// too for a blacklist line of ib_core, which loads anyway as every
// provider's dependency (modprobe.d(5): a blacklist only ignores the
// module's own aliases).
func checkModuleBlocked(v view) Result {
	var r Result
	if !v.configRead() {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "no modprobe.d file and no kernel command line was read"})
		return r
	}
	done := map[string]bool{} // module → reported
	for a, p := range v.roceFunctions() {
		mods := slices.Clone(blockedCore)
		if p.Driver != "" {
			mods = append([]string{p.Driver}, mods...)
		}
		for _, mod := range mods {
			blocks := v.blocksOf(mod)
			if len(blocks) == 0 || done[mod] {
				continue
			}
			done[mod] = true
			v.report(&r, a, blockedFinding(v, a, p.Name, mod, blocks))
		}
	}
	if len(r.Findings) == 0 && len(r.Notes) == 0 {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "no modprobe.d line or kernel command-line word blocks ib_core, ib_uverbs, rdma_cm or a RoCE adapter's provider"})
	}
	return r
}

// configRead reports whether a source of the modprobe row was read.
func (v view) configRead() bool {
	return v.readOf("modprobe") != nil
}

// blocksOf returns the record's rules for a module, allowing for a
// provider named without its hardware suffix (hns_roce → hns_roce_hw_v2).
func (v view) blocksOf(mod string) []record.ModuleBlock {
	var out []record.ModuleBlock
	for _, b := range v.h.ModuleBlocks {
		if b.Module == mod || strings.HasPrefix(b.Module, mod+"_") && !slices.Contains(blockedCore, mod) {
			out = append(out, b)
		}
	}
	return out
}

func blockedFinding(v view, a *record.Adapter, name, mod string, blocks []record.ModuleBlock) Finding {
	loaded := v.providerLoaded(mod) != nil
	always := slices.ContainsFunc(blocks, func(b record.ModuleBlock) bool {
		return modprobe.Rule{Directive: b.Directive}.Always()
	})
	var ev []Evidence
	var lines, words []string
	for _, b := range blocks {
		where := b.Source
		if b.File != "" {
			where = b.File + " (" + b.Source + ")"
		}
		ev = append(ev, Evidence{Fact: fmt.Sprintf("%s: %s", where, b.Text), Source: b.Source, Line: b.Line})
		if strings.HasPrefix(b.Source, "proc/") {
			words = append(words, b.Text)
		} else {
			lines = append(lines, blockPlace(b))
		}
	}
	f := Finding{Subject: a.PCIAddress, Adapter: a.PCIAddress, Evidence: ev}
	how := "a blacklist keeps udev from loading it for its device"
	if always {
		how = "an install command that never loads it, or the kernel's module_blacklist=, stops every load of it"
	}
	f.Explanation = fmt.Sprintf("%s needs %s for RDMA. The host's configuration blocks it: %s. Without it no RDMA device appears on the adapter and only plain Ethernet works.", name, mod, how)
	switch {
	case mod == "ib_core" && !always:
		// Every provider depends on ib_core, and modprobe loads a
		// dependency by name: a blacklist line does not stop it.
		f.Severity = Info
		f.Message = fmt.Sprintf("ib_core is blacklisted on this host, but it still loads as %s's dependency", rulesOr(v.providerName(a), "the provider"))
		f.Explanation = "modprobe.d(5): a blacklist line only makes modprobe ignore the module's own aliases; ib_core is loaded by name as a dependency of every RDMA provider, so this line does not stop it. It does show the host was meant to have no RDMA: check the rest of the rules."
		f.Fix = "Remove " + strings.Join(lines, ", ") + " if this host should run RDMA."
		return f
	case loaded:
		f.Severity = Info
		f.Message = fmt.Sprintf("%s is loaded now, but the host's configuration blocks it: it will not load at the next boot", mod)
	case v.moduleAbsent(mod):
		f.Severity = Warning
		f.Message = fmt.Sprintf("%s is not loaded, and the host's configuration blocks it", mod)
	default:
		f.Severity = Warning
		f.Message = fmt.Sprintf("the host's configuration blocks %s (whether it is loaded now is not known)", mod)
	}
	var fix []string
	if len(lines) > 0 {
		fix = append(fix, "remove "+strings.Join(lines, ", ")+" and rebuild the initramfs (dracut -f, or update-initramfs -u), which holds a copy of modprobe.d")
	}
	if len(words) > 0 {
		fix = append(fix, "remove "+strings.Join(words, ", ")+" from the kernel command line (GRUB_CMDLINE_LINUX in /etc/default/grub, or grubby --remove-args) and reboot")
	}
	f.Fix = strings.ToUpper(fix[0][:1]) + fix[0][1:]
	if len(fix) > 1 {
		f.Fix += "; " + fix[1]
	}
	f.Fix += "; then modprobe " + mod + "."
	return f
}

// blockPlace names where a rule is: the file and line.
func blockPlace(b record.ModuleBlock) string {
	file := b.Source
	if b.File != "" {
		file = b.File
	}
	if !strings.HasPrefix(file, "/") && !strings.HasPrefix(file, "cmd/") && !strings.HasPrefix(file, "sos_commands/") {
		file = "/" + file
	}
	if b.Line > 0 {
		return fmt.Sprintf("%q (%s:%d)", b.Text, file, b.Line)
	}
	return fmt.Sprintf("%q (%s)", b.Text, file)
}

// blockingFix is the fix module-not-loaded gives when the host's
// configuration blocks the missing modules: which lines to remove.
func (v view) blockingFix(mods []string) string {
	var places []string
	for _, mod := range mods {
		for _, b := range v.blocksOf(mod) {
			if mod == "ib_core" && !(modprobe.Rule{Directive: b.Directive}).Always() {
				continue
			}
			if strings.HasPrefix(b.Source, "proc/") {
				places = append(places, b.Text+" (kernel command line)")
			} else {
				places = append(places, blockPlace(b))
			}
		}
	}
	if len(places) == 0 {
		return ""
	}
	return "The host's configuration blocks it: remove " + strings.Join(places, ", ") + ", rebuild the initramfs (dracut -f, or update-initramfs -u) or edit the kernel command line, then modprobe " + strings.Join(mods, " ") + " (see module-blocked)."
}

// providerName is the provider driver the matrix names for an adapter.
func (v view) providerName(a *record.Adapter) string {
	drv, _, _, _ := v.providerFor(a)
	return drv
}
