package diagnose

import (
	"fmt"
	"strings"

	"github.com/rocekb/rocekb/internal/verdict"
)

// checkStackRelease judges the host's installed RDMA stack (a vendor
// stack and its release, or inbox on a distribution the matrix knows:
// its distro_support rows say whether the distribution's kernel builds
// the adapter's driver) on its distribution and kernel for
// each identified adapter, with the verdict engine that answers
// `kbgen check --adapter … --distro … --stack …`, so that diagnosis and
// planning never disagree. What the matrix does not state stays unknown,
// saying why.
//
// Severity: error when unsupported: the vendor does not support this stack
// release on this OS with this adapter, so its modules may not build or
// load, or load without the fixes the adapter needs. Info when supported
// with conditions, quoting them.
func checkStackRelease(v view) Result {
	h, m := v.h, v.m
	var r Result
	stack, version := v.hostStack()
	if stack == "inbox" && v.readOf("ofed_info") == nil && !v.modulesKnown() {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "neither ofed_info nor the loaded modules were read, so which RDMA stack is installed is not known"})
		return r
	}
	distro := ""
	if d := v.distro(); d != nil {
		distro = d.ID
	}
	if stack == "inbox" && distro == "" {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "no vendor stack is installed and the record names no distribution the matrix knows; the inbox stack is judged by kernel-too-old"})
		return r
	}
	if distro == "" && h.Host.KernelRelease == "" {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "the record names neither the OS nor the kernel, so the " + stack + " release cannot be judged on them"})
		return r
	}
	judged := false
	for a, ma := range v.identified() {
		judged = true
		plan := verdict.Plan{Adapter: ma.ID, Distro: distro, Kernel: h.Host.KernelRelease, Stack: stack, StackVersion: version}
		vd := verdict.Judge(m, plan)
		what := fmt.Sprintf("%s on %s with %s", strings.TrimSpace(stack+" "+version), nonEmptyStr(distro, "kernel "+h.Host.KernelRelease), ma.ID)
		switch vd.Verdict {
		case verdict.Unsupported:
			var ev []Evidence
			if h.Stack != nil {
				ev = append(ev, Evidence{Fact: "stack " + h.Stack.Raw, Source: h.Stack.From})
			}
			if h.Host.OS.PrettyName != "" {
				ev = append(ev, Evidence{Fact: "OS " + h.Host.OS.PrettyName, Source: "etc/os-release"})
			}
			var reasons []string
			for _, rs := range vd.Reasons {
				if rs.Verdict == verdict.Unsupported {
					reasons = append(reasons, rs.Text)
					ev = append(ev, Evidence{Fact: "verdict: " + rs.Text})
				}
			}
			fix := "Install a " + stack + " release the matrix supports on this OS"
			if stack == "inbox" {
				fix = "Run a kernel that provides this adapter's RDMA driver, or install a vendor stack the matrix supports for it"
			}
			if len(vd.Nearest) > 0 {
				fix += " (nearest: " + strings.Join(vd.Nearest, "; ") + ")"
			}
			r.Findings = append(r.Findings, Finding{
				Severity: Error, Subject: a.PCIAddress, Adapter: a.PCIAddress,
				Message:     what + " is unsupported: " + clip(strings.Join(reasons, "; "), 160),
				Explanation: "The installed RDMA stack release is not supported on this distribution (or kernel) with this adapter, by the same matrix rules kbgen check uses for a planned configuration.",
				Fix:         fix + inboxOr(stack) + ", then reboot.",
				Evidence:    ev,
			})
		case verdict.Conditional:
			var conds []string
			var ev []Evidence
			for _, rs := range vd.Reasons {
				if rs.Verdict == verdict.Conditional {
					conds = append(conds, rs.Text)
					ev = append(ev, Evidence{Fact: "verdict: " + rs.Text})
				}
			}
			r.Findings = append(r.Findings, Finding{
				Severity: Info, Subject: a.PCIAddress, Adapter: a.PCIAddress,
				Message:     what + " is supported with conditions: " + clip(strings.Join(conds, "; "), 160),
				Explanation: "The matrix supports this stack release on this OS with this adapter only under the conditions quoted (the same answer kbgen check gives for the plan).",
				Fix:         "Check the host meets each condition quoted.",
				Evidence:    ev,
			})
		case verdict.Undecided:
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: what + ": the matrix does not decide (" + firstReason(vd, verdict.Undecided) + ")"})
		default:
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: what + ": " + string(vd.Verdict)})
		}
	}
	if !judged {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "no adapter of the record is identified in the matrix, so the " + stack + " release cannot be judged for it"})
	}
	return r
}

// inboxOr offers the inbox stack as the way out of an unsupported vendor
// stack, and nothing when the inbox stack is the one unsupported.
func inboxOr(stack string) string {
	if stack == "inbox" {
		return ""
	}
	return ", or the inbox stack"
}

// firstReason is the text of the verdict's first reason at a level.
func firstReason(vd verdict.Verdict, l verdict.Level) string {
	for _, rs := range vd.Reasons {
		if rs.Verdict == l {
			return rs.Text
		}
	}
	return "no reason given"
}
