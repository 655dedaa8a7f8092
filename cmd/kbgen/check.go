package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"testing/fstest"

	"github.com/spf13/cobra"

	"github.com/rocekb/rocekb/internal/cli"
	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/diagnose"
	"github.com/rocekb/rocekb/internal/kb"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/report"
	"github.com/rocekb/rocekb/internal/verdict"
)

// checkOptions are kbgen check's flags and arguments; newCheckCmd fills
// them and runCheck does the work.
type checkOptions struct {
	site    siteFlags
	format  string
	color   string
	failOn  string
	explain string
	tree    string
	list    string // "", checks, adapters, distros or stacks
	lang    string // language of the FAQ links (--lang)
	plan    verdict.Plan

	paths       []string  // host records: files or folders
	planned     bool      // --adapter was given
	planFlags   []string  // the other planned-configuration flags given
	recordsSet  bool      // --records was given
	in          io.Reader // a record given as "-"
	out, errOut io.Writer

	cfg config.Config
	kb  *kb.KB
}

// newCheckCmd only parses flags; runCheck does the work.
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

Fleet readiness: host records with --distro, --kernel, --stack,
--stack-version or --firmware (and no --adapter) judge every host's adapters
and firmware against that target with the same engine, and say per host and
in total: ready, needs action (a stack to install, firmware to update),
unknown (what the matrix lacks) or blocked (a source excludes the target for
an adapter). What the target does not name stays as each host has it. Exit
status 1 when any host is blocked.

Planned configuration: --adapter with --kernel or --distro, --stack and
--firmware gives supported, supported-with-conditions, unsupported or
unknown, each reason tied to its matrix entry, and the nearest supported
combination when the answer is not "supported".

--explain FINDING prints the reasoning behind findings: the facts with their
sources, the matrix rules with theirs, and the conclusion. FINDING is a check
id (all its findings) or check@subject as printed in the text output. For a
check without a finding it says why the check passed or could not judge;
--explain not-judged lists the checks each host's evidence could not judge.

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
  kbcollect paste ticket.txt | kbgen check -      # a record on standard input
  kbgen check --adapter connectx-5 --distro rhel-8.2 --stack inbox --firmware 16.35.2000
  kbgen check --adapter connectx-3 --stack mlnx-ofed --stack-version 5.8-1.0.1.1
  kbgen check --adapter cx5 --distro "RHEL 9.4" --stack mofed --stack-version 23.10-2.1.3.1
  kbgen check --adapter "MT2892 Family [ConnectX-6 Dx]" --distro "$(grep PRETTY_NAME /etc/os-release)" --stack "$(ofed_info -s)"
  kbgen check records/ --distro rhel-9.6 --stack doca-ofed --stack-version 3.0.0
  kbgen check records/ --stack mlnx-ofed --stack-version 24.10-1.1.4.0 --format json
  kbgen check --list
  kbgen check --list adapters
` + cli.ExitCodesHelp,
		RunE: func(c *cobra.Command, args []string) error {
			o.paths, o.in, o.out, o.errOut = args, c.InOrStdin(), c.OutOrStdout(), c.ErrOrStderr()
			o.planned, o.recordsSet = c.Flags().Changed("adapter"), c.Flags().Changed("records")
			for _, f := range []string{"kernel", "distro", "stack", "stack-version", "firmware"} {
				if c.Flags().Changed(f) {
					o.planFlags = append(o.planFlags, f)
				}
			}
			if o.list == "checks" && len(args) == 1 && slices.Contains(listKinds, args[0]) {
				o.list, o.paths = args[0], nil // --list adapters: pflag leaves the value as an argument
			}
			if o.list == "checks" {
				for _, chk := range diagnose.Checks() {
					fmt.Fprintf(o.out, "%-20s %s\n", chk.ID, chk.Title)
				}
				return nil
			}
			if o.list != "" && !slices.Contains(listKinds, o.list) {
				return cli.Usagef("unknown --list %q (want %s)", o.list, strings.Join(listKinds, ", "))
			}
			if err := o.validate(); err != nil {
				return err
			}
			cfg, err := o.site.resolve(c)
			if err != nil {
				return err
			}
			// Only host checks link FAQ pages and walk trees: a verdict,
			// a listing and readiness read the matrix alone.
			matrixOnly := o.planned || o.list != "" || len(o.planFlags) > 0
			if o.kb, _, err = loadKB(c, cfg, kb.Options{SkipRecords: true, SkipGridLint: true, SkipBodyLinks: true, SkipContent: matrixOnly}); err != nil {
				return err
			}
			o.cfg = cfg
			return runCheck(o)
		},
	}
	o.site.register(c)
	fl := c.Flags()
	fl.StringVar(&o.format, "format", "text", "output format: text or json")
	fl.StringVar(&o.color, "color", "auto", "colour the text output: auto (only on a terminal, and not when NO_COLOR is set), always or never")
	fl.StringVar(&o.failOn, "fail-on", "error", "exit 1 for findings at or above this severity: error, warning or info")
	fl.StringVar(&o.explain, "explain", "", "print the reasoning behind findings: a check id, or check@subject")
	fl.StringVar(&o.tree, "tree", "", "walk the troubleshooting tree with this id for each host")
	fl.StringVar(&o.lang, "lang", "", "language of the FAQ links in findings (default en): the page in that language where one exists")
	fl.StringVar(&o.list, "list", "", "list ids: checks (the default: the check ids trees and FAQ pages name, and the question each answers), adapters, distros or stacks")
	fl.Lookup("list").NoOptDefVal = "checks"
	fl.StringVar(&o.plan.Adapter, "adapter", "", "planned configuration: adapter id, name, alias (cx5), chip name (MT27800), part number (MCX516A-CCAT) or Broadcom board name (P2100G), PCI id (vvvv:dddd[/ssss:ssss]), or a line of lspci or a product name that names it; a driver's name (qedr, mlx5_core) lists the adapters it drives")
	fl.StringVar(&o.plan.Kernel, "kernel", "", "planned configuration: kernel release (uname -r; a uname -a line or a package name such as kernel-5.14.0-427.el9 works too), or an upstream version judged as released")
	fl.StringVar(&o.plan.Distro, "distro", "", "planned configuration: matrix distro id or name, e.g. rhel-9.4, rhel9.4, \"RHEL 9.4\", or as os-release or /etc/redhat-release names it (\"Rocky Linux 9.2 (Blue Onyx)\")")
	fl.StringVar(&o.plan.Stack, "stack", "inbox", "planned configuration: inbox, or a matrix stack id or alias (mofed, doca), optionally with its release: id@version, as ofed_info -s prints it (MLNX_OFED_LINUX-5.8-3.0.7.0), or as a package is named (MLNX_OFED_LINUX-23.10-1.1.9.0-rhel9.2-x86_64.tgz, doca-host-2.9.1-010000-24.10-ubuntu2204; an LTS mark is dropped)")
	fl.StringVar(&o.plan.StackVersion, "stack-version", "", "planned configuration: the vendor stack release")
	fl.StringVar(&o.plan.Firmware, "firmware", "", "planned configuration: adapter firmware version, e.g. 16.35.2000, or as ethtool -i prints it (firmware-version: 16.35.2000 (MT_0000000012))")
	profileFlags(c)
	return c
}

// validate rejects bad flag values and combinations (exit 2).
func (o *checkOptions) validate() error {
	if o.format != "text" && o.format != "json" {
		return cli.Usagef("unknown --format %q (want text or json)", o.format)
	}
	if _, ok := diagnose.ParseSeverity(o.failOn); !ok {
		return cli.Usagef("unknown --fail-on %q (want error, warning or info)", o.failOn)
	}
	if o.color != "auto" && o.color != "always" && o.color != "never" {
		return cli.Usagef("unknown --color %q (want auto, always or never)", o.color)
	}
	if len(o.planFlags) > 0 && !o.planned && len(o.paths) == 0 && !o.recordsSet {
		return cli.Usagef("--%s describes a planned configuration: give --adapter to judge one adapter, or host records to judge a fleet against it", o.planFlags[0])
	}
	if len(o.planFlags) > 0 && !o.planned && (o.explain != "" || o.tree != "") {
		return cli.Usagef("--%s judges the fleet against a target; --explain and --tree diagnose hosts as they are", o.planFlags[0])
	}
	if o.planned && (len(o.paths) > 0 || o.explain != "" || o.tree != "") {
		return cli.Usagef("--adapter judges a planned configuration; give host records or --adapter, not both")
	}
	if !o.planned && len(o.paths) == 0 && !o.recordsSet && o.list == "" {
		return cli.Usagef("nothing to check: give host records (files or folders) or a planned configuration (--adapter …)")
	}
	return nil
}

// runCheck builds the output once, writes it as text or JSON, and maps
// the worst finding (or the verdict) onto the exit status.
func runCheck(o *checkOptions) error {
	if o.list != "" {
		return listIDs(o.out, o.kb.Matrix, o.list)
	}
	out, worst, err := o.build()
	if err != nil {
		return err
	}
	out = report.WithLang(out, o.lang, content.DefaultLang)
	if o.format == "json" {
		if err := report.JSON(o.out, out); err != nil {
			return cli.Fail(err)
		}
	} else {
		report.Text(o.out, out, report.UseColor(o.color, o.out))
	}
	failOn, _ := diagnose.ParseSeverity(o.failOn)
	if worst != "" && worst.Rank() >= failOn.Rank() {
		return cli.Silent(cli.Failure)
	}
	return nil
}

// build gives the output and the severity the exit status follows.
func (o *checkOptions) build() (report.Output, diagnose.Severity, error) {
	m := o.kb.Matrix
	if o.planned {
		if err := validatePlan(m, o.plan); err != nil {
			return report.Output{}, "", err
		}
		v := verdict.Judge(m, o.plan)
		return report.Verdict(v), report.VerdictSeverity(v), nil
	}
	paths := o.paths
	if len(paths) == 0 {
		paths = []string{o.cfg.Records}
	}
	hosts, probs := loadRecords(paths, o.in, record.Limits{MaxFile: o.cfg.MaxRecordBytes, MaxTotal: o.cfg.MaxRecordsBytes})
	if probs.Errors() > 0 {
		return report.Output{}, "", cli.Usage(probs.Err())
	}
	fmt.Fprint(o.errOut, probs.String())
	if len(hosts) == 0 {
		return report.Output{}, "", cli.Usagef("no host records (*.toml, *.json) in %s", strings.Join(paths, ", "))
	}
	if len(o.planFlags) > 0 {
		return o.readiness(hosts)
	}
	reports := make([]*diagnose.Report, len(hosts))
	for i, h := range hosts {
		reports[i] = diagnose.Diagnose(m, o.kb.Content, h)
	}
	worst := report.Worst(reports)
	switch {
	case o.tree != "":
		t := o.kb.Content.Tree(o.tree)
		if t == nil {
			return report.Output{}, "", cli.Usagef("no tree %q in %s (trees: %s)", o.tree, o.cfg.Content, treeIDs(o.kb.Content))
		}
		return report.Walks(t, reports), worst, nil
	case o.explain != "":
		out, err := report.Explain(reports, o.explain)
		if err != nil {
			return out, "", cli.Usage(err)
		}
		return out, worst, nil
	}
	return report.Hosts(m, reports), worst, nil
}

// loadRecords reads host records from files and folders, in argument
// order (a folder in name order), with record.Load: the loader kbgen build
// uses too. A missing path is a problem, hence exit 2.
func loadRecords(paths []string, stdin io.Reader, lim record.Limits) ([]*record.Host, diag.List) {
	var hosts []*record.Host
	var probs diag.List
	for _, p := range paths {
		if p == "-" {
			// A record piped in: kbcollect paste ticket.txt | kbgen check -
			max := lim.MaxFile
			if max <= 0 {
				max = record.DefaultMaxFile
			}
			b, err := io.ReadAll(io.LimitReader(stdin, max+1))
			if err != nil {
				probs.Add("standard input", diag.Pos{}, "%v", err)
				continue
			}
			if int64(len(b)) > max {
				probs.Add("standard input", diag.Pos{}, "not read: over the cap of %d bytes on one record (--max-record-size)", max)
				continue
			}
			name := "standard-input.toml"
			if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '{' {
				name = "standard-input.json"
			}
			hs, ps := record.LoadDir(fstest.MapFS{name: {Data: b}}, "")
			hosts, probs = append(hosts, hs...), append(probs, ps...)
			continue
		}
		hs, ps, err := record.LoadLimits(p, lim)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			probs.Add(p, diag.Pos{}, "%v", err)
			continue
		}
		hosts = append(hosts, hs...)
		probs = append(probs, ps...)
	}
	probs.Sort()
	return hosts, probs
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
