package main

import (
	"slices"

	"github.com/rocekb/rocekb/internal/diagnose"
	"github.com/rocekb/rocekb/internal/readiness"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/report"
	"github.com/rocekb/rocekb/internal/verdict"
)

// target is the fleet target the plan flags name; a flag not given keeps
// what each host has.
func (o *checkOptions) target() readiness.Target {
	given := func(f string) bool { return slices.Contains(o.planFlags, f) }
	t := readiness.Target{Distro: o.plan.Distro, Kernel: o.plan.Kernel,
		StackVersion: o.plan.StackVersion, Firmware: o.plan.Firmware}
	if given("stack") {
		t.Stack = o.plan.Stack
	}
	return t
}

// readiness judges the hosts against the target the flags name.
func (o *checkOptions) readiness(hosts []*record.Host) (report.Output, diagnose.Severity, error) {
	m := o.kb.Matrix
	t := o.target().Split(m)
	if err := validatePlan(m, verdict.Plan{Distro: t.Distro, Kernel: t.Kernel, Stack: t.Stack,
		StackVersion: t.StackVersion, Firmware: t.Firmware}); err != nil {
		return report.Output{}, "", err
	}
	r := readiness.Judge(verdict.NewEngine(m), m, t, hosts, nil)
	return report.Output{Readiness: &r}, report.ReadinessSeverity(r), nil
}
