package main

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rocekb/rocekb/internal/cli"
	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/diagnose"
	"github.com/rocekb/rocekb/internal/fleet"
	"github.com/rocekb/rocekb/internal/kb"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/rule"
	"github.com/rocekb/rocekb/internal/treewalk"
	"github.com/rocekb/rocekb/internal/verdict"
)

type checkOptions struct {
	site    siteFlags
	format  string
	color   string
	failOn  string
	explain string
	tree    string
	list    bool
	plan    verdict.Plan
}

func newCheckCmd() *cobra.Command {
	o := &checkOptions{}
	c := &cobra.Command{
		Use:   "check [HOST.toml | FOLDER]...",
		Short: "Diagnose host records, or give a verdict for a planned configuration",
		Long: `Diagnose host records written by kbcollect against the matrix, or judge a
planned configuration.

Hosts: every check runs on each record; findings carry a severity (error,
warning, info), the evidence (record source and line), the matrix entry and
source they rest on, a fix, and links to FAQ pages and trees. Checks whose
evidence is absent from a record are listed as not judged: absent is data,
never a guess. Given several hosts, a fleet summary follows: counts per
adapter model, firmware and finding, and drift (one model on several
firmware, driver or stack versions; mixed RDMA_CM RoCE modes).

Planned configuration: --adapter with --kernel or --distro, --stack and
--firmware gives supported, supported-with-conditions, unsupported or
unknown, each reason tied to its matrix entry, and the nearest supported
combination when the answer is not "supported".

--explain FINDING prints the reasoning behind findings: the facts with their
sources, the matrix rules with theirs, and the conclusion. FINDING is a check
id (all its findings) or check@subject as printed in the text output. For a
check without a finding it says why the check passed or could not judge.

--tree ID walks a troubleshooting tree for each host: nodes that name a check
are answered from the record, and the walk stops at the likely cause, or at
the first question the record cannot answer.

Exit status 1 means findings at or above --fail-on (error by default). For a
verdict, "unsupported" counts as an error, and "unknown" and
"supported-with-conditions" as warnings.

Examples:
  kbgen check records/host1.toml
  kbgen check records/
  kbgen check --format json records/ > report.json
  kbgen check --explain fw-below-min records/host1.toml
  kbgen check --tree no-rdma-traffic records/host1.toml
  kbgen check --adapter connectx-5 --distro rhel-8.2 --stack inbox --firmware 16.35.2000
  kbgen check --adapter connectx-3 --stack mlnx-ofed --stack-version 5.8-1.0.1.1
  kbgen check --list
` + cli.ExitCodesHelp,
		RunE: func(c *cobra.Command, args []string) error { return runCheck(c, o, args) },
	}
	o.site.register(c)
	fl := c.Flags()
	fl.StringVar(&o.format, "format", "text", "output format: text or json")
	fl.StringVar(&o.color, "color", "auto", "colour the text output: auto (only on a terminal, and not when NO_COLOR is set), always or never")
	fl.StringVar(&o.failOn, "fail-on", "error", "exit 1 for findings at or above this severity: error, warning or info")
	fl.StringVar(&o.explain, "explain", "", "print the reasoning behind findings: a check id, or check@subject")
	fl.StringVar(&o.tree, "tree", "", "walk the troubleshooting tree with this id for each host")
	fl.BoolVar(&o.list, "list", false, "list the check ids (the ids trees and FAQ pages name) and the question each answers")
	fl.StringVar(&o.plan.Adapter, "adapter", "", "planned configuration: adapter id, name or PCI id (vvvv:dddd[/ssss:ssss])")
	fl.StringVar(&o.plan.Kernel, "kernel", "", "planned configuration: kernel release (uname -r) or upstream version")
	fl.StringVar(&o.plan.Distro, "distro", "", "planned configuration: matrix distro id, e.g. rhel-9.4")
	fl.StringVar(&o.plan.Stack, "stack", "inbox", "planned configuration: inbox, or a matrix stack id (optionally id@version)")
	fl.StringVar(&o.plan.StackVersion, "stack-version", "", "planned configuration: the vendor stack release")
	fl.StringVar(&o.plan.Firmware, "firmware", "", "planned configuration: adapter firmware version")
	return c
}

func runCheck(c *cobra.Command, o *checkOptions, args []string) error {
	if o.list {
		for _, chk := range diagnose.Checks() {
			fmt.Fprintf(c.OutOrStdout(), "%-20s %s\n", chk.ID, chk.Title)
		}
		return nil
	}
	if o.format != "text" && o.format != "json" {
		return cli.Usagef("unknown --format %q (want text or json)", o.format)
	}
	failOn, ok := diagnose.ParseSeverity(o.failOn)
	if !ok {
		return cli.Usagef("unknown --fail-on %q (want error, warning or info)", o.failOn)
	}
	if o.color != "auto" && o.color != "always" && o.color != "never" {
		return cli.Usagef("unknown --color %q (want auto, always or never)", o.color)
	}
	planned := c.Flags().Changed("adapter")
	for _, f := range []string{"kernel", "distro", "stack", "stack-version", "firmware"} {
		if c.Flags().Changed(f) && !planned {
			return cli.Usagef("--%s describes a planned configuration and needs --adapter", f)
		}
	}
	if planned && (len(args) > 0 || o.explain != "" || o.tree != "") {
		return cli.Usagef("--adapter judges a planned configuration; give host records or --adapter, not both")
	}
	if !planned && len(args) == 0 && !c.Flags().Changed("records") {
		return cli.Usagef("nothing to check: give host records (files or folders) or a planned configuration (--adapter …)")
	}
	cfg, err := o.site.resolve(c)
	if err != nil {
		return err
	}
	k, _, err := loadKB(c, cfg, kb.Options{SkipRecords: true})
	if err != nil {
		return err
	}
	out := c.OutOrStdout()
	p := painter{on: useColor(o.color, out)}
	if planned {
		v := verdict.Judge(k.Matrix, o.plan)
		if o.format == "json" {
			if err := writeJSON(out, struct {
				Verdict verdict.Verdict `json:"verdict"`
			}{v}); err != nil {
				return cli.Fail(err)
			}
		} else {
			writeVerdict(out, p, v)
		}
		return verdictExit(v, failOn)
	}

	if len(args) == 0 {
		args = []string{cfg.Records}
	}
	hosts, probs := loadRecords(args)
	if probs.Errors() > 0 {
		return cli.Usage(probs.Err())
	}
	fmt.Fprint(c.ErrOrStderr(), probs.String())
	if len(hosts) == 0 {
		return cli.Usagef("no host records (*.toml, *.json) in %s", strings.Join(args, ", "))
	}
	reports := make([]*diagnose.Report, len(hosts))
	for i, h := range hosts {
		reports[i] = diagnose.Diagnose(k.Matrix, k.Content, h)
	}

	switch {
	case o.tree != "":
		t := k.Content.Tree(o.tree)
		if t == nil {
			return cli.Usagef("no tree %q in %s (trees: %s)", o.tree, cfg.Content, treeIDs(k.Content))
		}
		walks := make([]treewalk.Walk, len(hosts))
		for i := range hosts {
			walks[i] = treewalk.Tree(t, reports[i])
		}
		if o.format == "json" {
			if err := writeJSON(out, struct {
				Walks []treewalk.Walk `json:"walks"`
			}{walks}); err != nil {
				return cli.Fail(err)
			}
		} else {
			for i, w := range walks {
				if i > 0 {
					fmt.Fprintln(out)
				}
				writeWalk(out, p, t, w)
			}
		}
	case o.explain != "":
		var picked []diagnose.Finding
		for _, r := range reports {
			for _, f := range r.Findings {
				if f.Check == o.explain || f.Key() == o.explain {
					picked = append(picked, f)
				}
			}
		}
		id, subject, _ := strings.Cut(o.explain, "@")
		if _, known := diagnose.Lookup(id); !known {
			return cli.Usagef("--explain %q: no such check (checks: %s)", o.explain, strings.Join(diagnose.CheckIDs(), ", "))
		}
		if len(picked) == 0 {
			// No finding: say why the check passed or could not judge.
			var results []hostResult
			for _, r := range reports {
				res, _ := r.Result(id)
				var notes []diagnose.Note
				for _, n := range res.Notes {
					if subject == "" || n.Subject == subject {
						notes = append(notes, n)
					}
				}
				if len(notes) > 0 || subject == "" {
					res.Notes = notes
					results = append(results, hostResult{Host: r.Host, Result: res})
				}
			}
			if len(results) == 0 {
				return cli.Usagef("--explain %q: no such finding or subject on %s (findings: %s)", o.explain, hostList(reports), findingKeys(reports))
			}
			if o.format == "json" {
				if err := writeJSON(out, struct {
					Results []hostResult `json:"results"`
				}{results}); err != nil {
					return cli.Fail(err)
				}
			} else {
				for i, hr := range results {
					if i > 0 {
						fmt.Fprintln(out)
					}
					writeNotes(out, p, hr)
				}
			}
			break
		}
		if o.format == "json" {
			if err := writeJSON(out, struct {
				Findings []diagnose.Finding `json:"findings"`
			}{picked}); err != nil {
				return cli.Fail(err)
			}
		} else {
			for i, f := range picked {
				if i > 0 {
					fmt.Fprintln(out)
				}
				writeExplain(out, p, f)
			}
		}
	default:
		var sum *fleet.Summary
		if len(reports) > 1 {
			f := fleet.Summarize(k.Matrix, reports)
			sum = &f
		}
		if o.format == "json" {
			if err := writeJSON(out, struct {
				Hosts []*diagnose.Report `json:"hosts"`
				Fleet *fleet.Summary     `json:"fleet,omitempty"`
			}{reports, sum}); err != nil {
				return cli.Fail(err)
			}
		} else {
			for i, r := range reports {
				if i > 0 {
					fmt.Fprintln(out)
				}
				writeReport(out, p, k.Matrix, r)
			}
			if sum != nil {
				fmt.Fprintln(out)
				writeFleet(out, p, sum)
			}
		}
	}
	return findingsExit(reports, failOn)
}

// loadRecords reads host records from files and folders (recursively, in
// name order). A record without a host id is named after its file, so
// every host in the output can be told apart.
func loadRecords(args []string) ([]*record.Host, diag.List) {
	var hosts []*record.Host
	var probs diag.List
	var files []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			probs.Add(a, diag.Pos{}, "%v", unwrapPath(err))
			continue
		}
		if !st.IsDir() {
			files = append(files, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (strings.HasSuffix(p, ".toml") || strings.HasSuffix(p, ".json")) {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			probs.Add(a, diag.Pos{}, "read records: %v", err)
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			probs.Add(f, diag.Pos{}, "%v", unwrapPath(err))
			continue
		}
		name := filepath.ToSlash(f)
		h, ps := record.Decode(name, src)
		probs = append(probs, ps...)
		if h == nil {
			continue
		}
		if h.Host.ID == "" {
			base := filepath.Base(f)
			h.Host.ID = "(" + strings.TrimSuffix(base, filepath.Ext(base)) + ")"
		}
		hosts = append(hosts, h)
	}
	probs.Sort()
	return hosts, probs
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

func findingsExit(reports []*diagnose.Report, failOn diagnose.Severity) error {
	for _, r := range reports {
		for _, f := range r.Findings {
			if f.Severity.Rank() >= failOn.Rank() {
				return cli.Silent(cli.Failure)
			}
		}
	}
	return nil
}

// verdictExit maps a verdict onto the severities: unsupported is an error,
// unknown and supported-with-conditions are warnings.
func verdictExit(v verdict.Verdict, failOn diagnose.Severity) error {
	sev := diagnose.Severity("")
	switch v.Verdict {
	case verdict.Unsupported:
		sev = diagnose.Error
	case verdict.Undecided, verdict.Conditional:
		sev = diagnose.Warning
	}
	if sev != "" && sev.Rank() >= failOn.Rank() {
		return cli.Silent(cli.Failure)
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// useColor decides on colour: never, always, or (auto) only when stdout is
// a terminal, i.e. a character device, and NO_COLOR (no-color.org) is unset.
func useColor(mode string, w io.Writer) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// painter wraps words in ANSI colours when on.
type painter struct{ on bool }

func (p painter) paint(code, s string) string {
	if !p.on {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
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
	byAdapter := map[string][]diagnose.Finding{}
	for _, f := range r.Findings {
		byAdapter[f.Adapter] = append(byAdapter[f.Adapter], f)
	}
	if h := r.Record; h != nil {
		for i := range h.Adapters {
			a := &h.Adapters[i]
			fmt.Fprintln(w, "  adapter "+adapterLine(m, a))
			writeFindings(w, p, byAdapter[a.PCIAddress])
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
		writeFindings(w, p, byAdapter[k])
	}
	if len(r.Unknown) > 0 {
		fmt.Fprintf(w, "  not judged, evidence absent: %s\n", strings.Join(r.Unknown, ", "))
	}
	fmt.Fprintf(w, "  %s, %s, %d info\n", plural(r.Errors, "error"), plural(r.Warnings, "warning"), r.Infos)
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

func writeFindings(w io.Writer, p painter, fs []diagnose.Finding) {
	if len(fs) == 0 {
		fmt.Fprintln(w, "    ok")
		return
	}
	for _, f := range fs {
		fmt.Fprintf(w, "    %s %s  %s\n", p.sev(f.Severity), f.Key(), f.Message)
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

// hostResult is one check's result on one host, for --explain without a finding.
type hostResult struct {
	Host   string          `json:"host"`
	Result diagnose.Result `json:"result"`
}

func writeNotes(w io.Writer, p painter, hr hostResult) {
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
		fmt.Fprintf(w, "    firmware: %s\n", counts(m.Firmware))
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
	} else if v.Plan.Distro != "" {
		parts = append(parts, "distro "+v.Plan.Distro)
	}
	stack := "stack " + v.Stack
	if sv := v.Plan.StackVersion; sv != "" {
		stack += " " + sv
	}
	parts = append(parts, stack)
	if v.Plan.Firmware != "" {
		parts = append(parts, "firmware "+v.Plan.Firmware)
	}
	fmt.Fprintln(w, strings.Join(parts, "  ·  "))
	fmt.Fprintf(w, "verdict: %s\n", p.level(v.Verdict))
	for _, r := range v.Reasons {
		fmt.Fprintf(w, "  %-26s %s\n", r.Verdict, r.Text)
		for _, ref := range r.Matrix {
			fmt.Fprintf(w, "  %-26s   matrix: %s%s\n", "", ref.Entry, atSuffix(ref))
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
			if s.Why != "" {
				fmt.Fprintf(w, "     because: %s\n", s.Why)
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

func treeIDs(c *content.Content) string {
	var ids []string
	for _, t := range c.Trees {
		ids = append(ids, t.ID)
	}
	sort.Strings(ids)
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

func hostList(rs []*diagnose.Report) string {
	var hs []string
	for _, r := range rs {
		hs = append(hs, r.Host)
	}
	return strings.Join(hs, ", ")
}

func findingKeys(rs []*diagnose.Report) string {
	var ks []string
	for _, r := range rs {
		for _, f := range r.Findings {
			if !slices.Contains(ks, f.Key()) {
				ks = append(ks, f.Key())
			}
		}
	}
	if len(ks) == 0 {
		return "none"
	}
	return strings.Join(ks, ", ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
