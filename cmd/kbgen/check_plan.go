package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/cli"
	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/rule"
	"github.com/rocekb/rocekb/internal/verdict"
	"github.com/rocekb/rocekb/internal/version"
)

// listKinds are what `kbgen check --list KIND` lists.
var listKinds = []string{"checks", "adapters", "distros", "stacks"}

// validatePlan rejects a planned configuration (or a fleet target, which
// names no adapter) whose names match nothing
// in the matrix or whose versions do not parse (exit 2), saying what the
// name was closest to and how to list the valid ids. A PCI id several
// adapters share is not an error: the verdict explains it.
func validatePlan(m *matrix.Matrix, p verdict.Plan) error {
	if p.Adapter != "" && m.Adapter(p.Adapter) == nil && verdict.SoftwareDevice(m, p.Adapter) == nil && verdict.NotRoCESoftware(m, p.Adapter) == nil {
		if r := m.ResolveAdapter(p.Adapter); r.Value == nil && len(r.Candidates) == 0 {
			if r.How == "family" {
				return cli.Usagef("--adapter %s names a family of %d adapters the matrix judges apart%s; name one", diag.Quote(p.Adapter), len(r.Suggest), matrix.DidYouMean(r.Suggest))
			}
			if ids := m.ModuleDrives(p.Adapter); len(ids) > 0 {
				return cli.Usagef("--adapter %s names a driver, not an adapter; the adapters it drives: %s; name one", diag.Quote(p.Adapter), strings.Join(ids, ", "))
			}
			return cli.Usagef("unknown --adapter %s%s; list the adapters with: kbgen check --list adapters", diag.Quote(p.Adapter), matrix.DidYouMean(r.Suggest))
		}
	}
	if p.Distro != "" && m.Distro(p.Distro) == nil {
		if r := m.ResolveDistro(p.Distro); len(r.Candidates) > 0 {
			if verdict.KernelPicks(m, r.Candidates, p.Kernel) != nil {
				return nil // the kernel names the release; the verdict says so
			}
			if len(r.Candidates) == 1 {
				return cli.Usagef("--distro %s stops short of a release the matrix has%s", diag.Quote(p.Distro), matrix.DidYouMean(r.Suggest))
			}
			return cli.Usagef("--distro %q names %d distros the matrix judges apart%s; name one", p.Distro, len(r.Candidates), matrix.DidYouMean(r.Suggest))
		} else if r.Value == nil {
			return cli.Usagef("unknown --distro %s%s; list the distros with: kbgen check --list distros, or judge the host by its kernel with --kernel (uname -r)", diag.Quote(p.Distro), matrix.DidYouMean(r.Suggest))
		}
	}
	stack, ver := m.SplitStack(p.Stack)
	if stack != "" && !verdict.InternalBuild(stack) {
		if id, r := m.ResolveStack(stack); id == "" {
			return cli.Usagef("unknown --stack %s%s; list the stacks with: kbgen check --list stacks", diag.Quote(stack), matrix.DidYouMean(r.Suggest))
		}
	}
	if p.Kernel != "" {
		if _, _, ok := rule.KernelBase(rule.TrimKernel(p.Kernel)); !ok {
			return cli.Usagef("invalid --kernel %s: want an upstream release (6.8) or a kernel release as uname -r prints it (5.14.0-427.13.1.el9_4.x86_64)", diag.Quote(p.Kernel))
		}
	}
	for _, f := range []struct{ flag, val, example string }{
		{"--stack-version", p.StackVersion, "5.8-1.0.1.1, 2.9.2 or 4.0.0.6-802-21"},
		{"--stack-version", ver, "mlnx-ofed@5.8-1.0.1.1"},
		{"--firmware", version.TrimFirmware(p.Firmware), "16.35.2000 or 5.1(1b)"},
	} {
		if f.val == "" {
			continue
		}
		if _, err := version.Parse(f.val); err != nil {
			return cli.Usagef("invalid %s %q: %v (want e.g. %s)", f.flag, f.val, err, f.example)
		}
	}
	return nil
}

// listIDs prints the ids a planned configuration may name, with what else
// resolves to them.
func listIDs(w io.Writer, m *matrix.Matrix, kind string) error {
	switch kind {
	case "adapters":
		// By id, whichever file and order the matrix holds them in.
		as := make([]*matrix.Adapter, len(m.Adapters))
		for i := range m.Adapters {
			as[i] = &m.Adapters[i]
		}
		sort.SliceStable(as, func(i, j int) bool { return as[i].ID < as[j].ID })
		for _, a := range as {
			var also []string
			also = append(also, a.Aliases...)
			for _, pn := range m.PartsOf(a.ID) {
				also = append(also, pn.Number)
			}
			for _, p := range a.PCI {
				if p.Subsystem == "" && !contains(also, p.ID) {
					also = append(also, p.ID)
				}
			}
			line := fmt.Sprintf("%-22s %s", a.ID, a.Name)
			if a.NotRoCE != "" {
				line += " (not RoCE)"
			}
			if len(also) > 0 {
				line += "  [" + strings.Join(also, ", ") + "]"
			}
			fmt.Fprintln(w, line)
		}
	case "distros":
		for _, d := range m.Distros {
			fmt.Fprintf(w, "%-22s %s (kernel %s)\n", d.ID, d.Name, rule.OrDash(d.KernelBase))
		}
	case "stacks":
		fmt.Fprintf(w, "%-22s %s\n", matrix.Inbox, "the distribution's or kernel's own drivers")
		for _, s := range m.Stacks {
			fmt.Fprintf(w, "%-22s %s\n", s.ID, s.Name)
		}
	}
	return nil
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
