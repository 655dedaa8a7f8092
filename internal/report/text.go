package report

import (
	"fmt"
	"github.com/rocekb/rocekb/internal/visible"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/diagnose"
	"github.com/rocekb/rocekb/internal/fleet"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/rule"
	"github.com/rocekb/rocekb/internal/treewalk"
	"github.com/rocekb/rocekb/internal/verdict"
)

// Text writes o for a person; with color, severities and answers are in
// ANSI colours. What records, the matrix and the content say is written
// with their control, bidi and zero-width characters escaped (see
// package visible): only the report's own colours reach the terminal.
func Text(w io.Writer, o Output, color bool) {
	p := painter{}
	if color {
		p.c = visible.NewColour()
	}
	w = visible.Writer(w, p.c)
	switch {
	case o.Readiness != nil:
		writeReadiness(w, p, *o.Readiness)
	case o.Verdict != nil:
		writeVerdict(w, p, *o.Verdict)
	case o.Walks != nil:
		for i, wk := range o.Walks {
			if i > 0 {
				fmt.Fprintln(w)
			}
			writeWalk(w, p, o.Tree, wk)
		}
	case o.Results != nil:
		for i, hr := range o.Results {
			if i > 0 {
				fmt.Fprintln(w)
			}
			writeNotes(w, p, hr)
		}
	case o.Findings != nil:
		for i, f := range o.Findings {
			if i > 0 {
				fmt.Fprintln(w)
			}
			writeExplain(w, p, f)
		}
	default:
		for i, r := range o.Hosts {
			if i > 0 {
				fmt.Fprintln(w)
			}
			writeReport(w, p, o.Matrix, r)
		}
		if o.Fleet != nil {
			fmt.Fprintln(w)
			writeFleet(w, p, o.Fleet)
		}
	}
}

// painter wraps words in ANSI colours when it has a colour mark, which
// the writer Text writes through turns into escape sequences.
type painter struct{ c visible.Colour }

func (p painter) paint(code, s string) string {
	if p.c == (visible.Colour{}) {
		return s
	}
	return p.c.SGR(code) + s + p.c.SGR("0")
}

func (p painter) sev(s diagnose.Severity) string {
	word := fmt.Sprintf("%-7s", s)
	switch s {
	case diagnose.Error:
		return p.paint("1;31", word)
	case diagnose.Warning:
		return p.paint("33", word)
	}
	return p.paint("36", word)
}

func (p painter) level(l verdict.Level) string {
	switch l {
	case verdict.Supported:
		return p.paint("32", string(l))
	case verdict.Conditional:
		return p.paint("33", string(l))
	case verdict.Unsupported:
		return p.paint("1;31", string(l))
	}
	return p.paint("35", string(l))
}

func (p painter) bold(s string) string { return p.paint("1", s) }

func writeReport(w io.Writer, p painter, m *matrix.Matrix, r *diagnose.Report) {
	head := "host " + p.bold(r.Host)
	if r.Kernel != "" {
		head += "  kernel " + r.Kernel
	}
	if r.OS != "" {
		head += "  (" + r.OS + ")"
	}
	fmt.Fprintln(w, head)
	groups := groupFindings(r.Findings)
	byAdapter := map[string][]findingGroup{}
	for _, g := range groups {
		byAdapter[g.First().Adapter] = append(byAdapter[g.First().Adapter], g)
	}
	if h := r.Record; h != nil {
		for i := range h.Adapters {
			a := &h.Adapters[i]
			fmt.Fprintln(w, "  adapter "+adapterLine(m, a))
			writeFindings(w, p, byAdapter[a.PCIAddress], grouped(groups, a.PCIAddress))
			delete(byAdapter, a.PCIAddress)
		}
	}
	var rest []string
	for k := range byAdapter {
		rest = append(rest, k)
	}
	sort.Strings(rest)
	for _, k := range rest {
		if k == "" {
			fmt.Fprintln(w, "  host (and RDMA devices without a recorded adapter)")
		} else {
			fmt.Fprintln(w, "  adapter "+k)
		}
		writeFindings(w, p, byAdapter[k], "")
	}
	writeSnapshot(w, r.Snapshot)
	if n := len(r.Unknown); n > 0 {
		fmt.Fprintf(w, "  not judged, evidence absent: %s (list them: --explain %s)\n", plural(n, "check"), NotJudged)
	}
	fmt.Fprintf(w, "  %s, %s, %d info\n", plural(r.Errors, "error"), plural(r.Warnings, "warning"), r.Infos)
}

// writeSnapshot says what the snapshot lacked: the collector's problems,
// and the tools it holds no output of with the packages that install them.
func writeSnapshot(w io.Writer, s diagnose.Snapshot) {
	for _, pr := range s.Problems {
		fmt.Fprintf(w, "  snapshot problem: %s: %s\n", pr.Source, pr.Msg)
	}
	if len(s.Absent) == 0 {
		return
	}
	var tools, pkgs []string
	for _, a := range s.Absent {
		tools = append(tools, a.Tool)
		if a.Package != "" && !slices.Contains(pkgs, a.Package) {
			pkgs = append(pkgs, a.Package)
		}
	}
	line := "  snapshot lacks: " + strings.Join(tools, ", ")
	if len(pkgs) > 0 {
		line += " (installed by " + strings.Join(pkgs, ", ") + ")"
	}
	fmt.Fprintln(w, line)
}

// grouped is a note for an adapter whose findings are printed with
// another function of its card.
func grouped(groups []findingGroup, pci string) string {
	for _, g := range groups {
		for _, f := range g.Findings[1:] {
			if f.Adapter == pci && g.First().Adapter != pci {
				return "see " + g.First().Adapter + " for the findings this function shares with it"
			}
		}
	}
	return ""
}

func adapterLine(m *matrix.Matrix, a *record.Adapter) string {
	s := a.PCIAddress + "  "
	if ma := m.Identify(a.Vendor, a.Device, a.SubsystemVendor, a.SubsystemDevice, a.Name); ma != nil {
		s += ma.Name + " [" + ma.ID + "]"
	} else if a.Vendor == "" || a.Device == "" {
		s += "PCI id not recorded"
	} else {
		s += a.Vendor + ":" + a.Device + " (not in the matrix)"
	}
	if a.Driver.Name != "" {
		s += "  " + a.Driver.Name
		if a.Driver.Origin != "" {
			s += " " + a.Driver.Origin
		}
	}
	if a.Firmware.Running != "" {
		s += "  fw " + a.Firmware.Running
	}
	return s
}

func writeFindings(w io.Writer, p painter, gs []findingGroup, note string) {
	if len(gs) == 0 {
		if note != "" {
			fmt.Fprintln(w, "    "+note)
		} else {
			fmt.Fprintln(w, "    ok")
		}
		return
	}
	for _, g := range gs {
		f := g.First()
		fmt.Fprintf(w, "    %s %s  %s\n", p.sev(f.Severity), f.Key(), f.Message)
		if len(g.Findings) > 1 {
			var also []string
			for _, o := range g.Findings[1:] {
				also = append(also, o.Subject)
			}
			fmt.Fprintf(w, "            also on: %s (the same finding on each function of this card)\n", strings.Join(also, ", "))
		}
		for _, e := range f.Evidence {
			fmt.Fprintf(w, "            evidence: %s\n", e)
		}
		for _, r := range f.Matrix {
			fmt.Fprintf(w, "            matrix: %s%s\n", r.Rule, atSuffix(r))
		}
		fmt.Fprintf(w, "            fix: %s\n", f.Fix)
		if links := append(append([]string(nil), f.FAQ...), f.Trees...); len(links) > 0 {
			fmt.Fprintf(w, "            see: %s\n", strings.Join(links, ", "))
		}
	}
}

func atSuffix(r rule.Ref) string {
	var parts []string
	if r.At != "" {
		parts = append(parts, r.At)
	}
	for _, s := range r.Sources {
		parts = append(parts, s.ID)
	}
	if len(parts) == 0 {
		return ""
	}
	return " [" + strings.Join(parts, "; ") + "]"
}

func writeExplain(w io.Writer, p painter, f diagnose.Finding) {
	fmt.Fprintf(w, "%s on host %s: %s\n", p.bold(f.Key()), f.Host, p.sev(f.Severity))
	n := 1
	fmt.Fprintln(w, "  facts (from the host record):")
	for _, e := range f.Evidence {
		src := "source not recorded"
		if e.Source != "" {
			src = "source " + e.Source
			if e.Line > 0 {
				src += fmt.Sprintf(", line %d", e.Line)
			}
		}
		fmt.Fprintf(w, "    %d. %s  (%s)\n", n, e.Fact, src)
		n++
	}
	fmt.Fprintln(w, "  rules (from the matrix):")
	if len(f.Matrix) == 0 {
		fmt.Fprintln(w, "    none: the conclusion follows from the facts and the check itself ("+f.Check+")")
	}
	for _, r := range f.Matrix {
		fmt.Fprintf(w, "    %d. %s\n", n, r.Rule)
		n++
		at := r.Entry
		if r.At != "" {
			at += " at " + r.At
		}
		if r.Confidence != "" {
			at += ", " + r.Confidence
		}
		fmt.Fprintf(w, "       entry: %s\n", at)
		if r.Note != "" {
			fmt.Fprintf(w, "       note: %s\n", r.Note)
		}
		for _, s := range r.Sources {
			line := "       source: " + s.ID
			if s.Title != "" {
				line += ", " + s.Title
			}
			if s.URL != "" {
				line += " <" + s.URL + ">"
			}
			fmt.Fprintln(w, line)
		}
	}
	fmt.Fprintln(w, "  conclusion:")
	fmt.Fprintf(w, "    %s\n", f.Message)
	fmt.Fprintf(w, "    why: %s\n", f.Explanation)
	fmt.Fprintf(w, "    fix: %s\n", f.Fix)
	if links := append(append([]string(nil), f.FAQ...), f.Trees...); len(links) > 0 {
		fmt.Fprintf(w, "    see: %s\n", strings.Join(links, ", "))
	}
}

func writeNotes(w io.Writer, p painter, hr HostResult) {
	fmt.Fprintf(w, "%s on host %s: %s, no finding\n", p.bold(hr.Result.Check), hr.Host, hr.Result.Status)
	if len(hr.Result.Notes) == 0 {
		fmt.Fprintln(w, "  nothing on this host for the check to judge")
	}
	for _, n := range hr.Result.Notes {
		fmt.Fprintf(w, "  %s %s: %s\n", n.Status, n.Subject, n.Text)
		for _, e := range n.Evidence {
			fmt.Fprintf(w, "      evidence: %s\n", e)
		}
		for _, r := range n.Matrix {
			fmt.Fprintf(w, "      matrix: %s%s\n", r.Rule, atSuffix(r))
		}
	}
}

func writeFleet(w io.Writer, p painter, f *fleet.Summary) {
	fmt.Fprintf(w, "%s: %s\n", p.bold("fleet"), plural(f.Hosts, "host"))
	for _, m := range f.Models {
		fmt.Fprintf(w, "  %s (%s): %s on %s\n", m.Name, m.Adapter, plural(m.Functions, "function"), plural(m.Hosts, "host"))
		fw := counts(m.Firmware)
		if m.FirmwareUnknown > 0 {
			fw = strings.TrimPrefix(fw+fmt.Sprintf(", not recorded on %s", plural(m.FirmwareUnknown, "function")), ", ")
		}
		fmt.Fprintf(w, "    firmware: %s\n", fw)
		fmt.Fprintf(w, "    drivers:  %s\n", counts(m.Drivers))
		fmt.Fprintf(w, "    stacks:   %s\n", counts(m.Stacks))
	}
	if len(f.RoCEModes) > 0 {
		fmt.Fprintf(w, "  RDMA_CM default RoCE mode: %s\n", counts(f.RoCEModes))
	}
	if len(f.Drift) == 0 {
		fmt.Fprintln(w, "  drift: none")
	}
	for _, d := range f.Drift {
		fmt.Fprintf(w, "  %s %s\n", p.paint("33", "drift:"), d.Text)
	}
	for _, c := range f.Findings {
		fmt.Fprintf(w, "  %s %s: %d on %s (%s)\n", p.sev(c.Severity), c.Check, c.N, plural(len(c.Hosts), "host"), strings.Join(c.Hosts, ", "))
	}
}

func counts(cs []fleet.Count) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%s ×%d", c.Value, c.N))
	}
	return strings.Join(parts, ", ")
}

func writeVerdict(w io.Writer, p painter, v verdict.Verdict) {
	name := v.Plan.Adapter
	if v.AdapterName != "" {
		name = v.AdapterName + " [" + v.Adapter + "]"
	}
	parts := []string{name}
	if v.Kernel != "" {
		k := "kernel " + v.Kernel
		if v.KernelBase != "" && v.KernelBase != v.Kernel {
			k += " (upstream " + v.KernelBase + ")"
		}
		parts = append(parts, k)
	} else if v.Distro != "" {
		parts = append(parts, "distro "+v.Distro)
	} else if v.Plan.Distro != "" {
		parts = append(parts, "distro "+v.Plan.Distro)
	}
	stack := "stack " + v.Stack
	if sv := v.StackVersion; sv != "" {
		stack += " " + sv
	}
	parts = append(parts, stack)
	if v.Plan.Firmware != "" {
		parts = append(parts, "firmware "+v.Plan.Firmware)
	}
	fmt.Fprintln(w, strings.Join(parts, "  ·  "))
	fmt.Fprintf(w, "verdict: %s\n", p.level(v.Verdict))
	if v.Likely != "" {
		fmt.Fprintf(w, "likely: %s (a hint, not a verdict)\n", v.Likely)
	}
	for _, r := range v.Reasons {
		fmt.Fprintf(w, "  %-26s %s\n", r.Verdict, r.Text)
		for _, ref := range r.Matrix {
			fmt.Fprintf(w, "  %-26s   matrix: %s%s\n", "", ref.Entry, atSuffix(ref))
			if ref.Confidence != "" {
				fmt.Fprintf(w, "  %-26s     confidence: %s\n", "", ref.Confidence)
			}
			if ref.Quote != "" {
				fmt.Fprintf(w, "  %-26s     quote: %q\n", "", ref.Quote)
			}
		}
	}
	if len(v.Nearest) > 0 {
		fmt.Fprintln(w, "nearest supported combination:")
		for _, n := range v.Nearest {
			fmt.Fprintf(w, "  - %s\n", n)
		}
	}
}

func writeWalk(w io.Writer, p painter, t *content.Tree, wk treewalk.Walk) {
	fmt.Fprintf(w, "tree %s (%s) for host %s\n", p.bold(t.ID), t.Title, wk.Host)
	if wk.NotApplicable {
		fmt.Fprintf(w, "  does not apply: %s\n", wk.Why)
		return
	}
	for i, s := range wk.Path {
		n := t.Node(s.Node)
		switch {
		case s.Answer == treewalk.LeafReach:
			fmt.Fprintf(w, "  %d. %s: likely cause: %s\n", i+1, s.Node, wk.Cause)
			if wk.Fix != "" {
				fmt.Fprintf(w, "     fix: %s\n", wk.Fix)
			}
			if len(wk.Links) > 0 {
				fmt.Fprintf(w, "     see: %s\n", strings.Join(wk.Links, ", "))
			}
		default:
			q := s.Question
			if q == "" && n != nil {
				q = n.Question
			}
			check := ""
			if s.Check != "" {
				check = " [" + s.Check + "]"
			}
			fmt.Fprintf(w, "  %d. %s: %s%s → %s\n", i+1, s.Node, q, check, answerWord(p, s.Answer))
			if s.Why != "" && len(s.Subjects) == 0 {
				fmt.Fprintf(w, "     because: %s\n", s.Why)
			}
			for _, sa := range s.Subjects {
				fmt.Fprintf(w, "     %s → %s: %s\n", sa.Subject, answerWord(p, sa.Answer), sa.Why)
			}
		}
	}
	if !wk.Complete {
		fmt.Fprintf(w, "  stopped at %s: the record cannot answer it", wk.Stop)
		if n := t.Node(wk.Stop); n != nil && n.How != "" {
			fmt.Fprintf(w, "; answer it by hand with: %s", n.How)
			if n.LookFor != "" {
				fmt.Fprintf(w, " (look for: %s)", n.LookFor)
			}
		}
		fmt.Fprintln(w)
	}
}

func answerWord(p painter, a treewalk.Answer) string {
	switch a {
	case treewalk.Yes:
		return p.paint("32", "yes")
	case treewalk.No:
		return p.paint("31", "no")
	}
	return p.paint("35", "unknown")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
