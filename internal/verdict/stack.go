package verdict

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/rule"
)

// judgeStack judges a vendor stack: its [[stack_support]] rows for the
// adapter (release ranges, or none supports it), the adapter's
// support_end, the vendor, and the OS list of the release in use.
func judgeStack(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, ms *matrix.Stack, ver string, d *matrix.Distro, k kernel) {
	judgeSupportEnd(m, v, a, ms, ver)
	rows := StackRows(m, ms.ID, a.ID)
	var bounded []*matrix.StackRow
	for _, r := range rows {
		ref := rule.Cite(m, "stack_support "+ms.ID+" "+a.ID, r.Claim, rule.OrDash(r.Text))
		if r.Status == matrix.StatusUnsupported {
			v.add(Reason{Verdict: Unsupported, Text: fmt.Sprintf("no %s release supports %s: %s", ms.Name, a.Name, r.Text), Nearest: otherStacks(m, a, ms.ID), Matrix: []rule.Ref{ref}})
			return
		}
		if r.First != "" || r.Last != "" {
			bounded = append(bounded, r)
		}
	}
	if len(rows) == 0 && !slices.Contains(a.Stacks, ms.ID) {
		if ms.Vendor != "" && a.Vendor != "" && ms.Vendor != a.Vendor {
			v.add(Reason{Verdict: Unsupported, Text: fmt.Sprintf("%s is %s's stack and %s is a %s adapter; the matrix lists no %s release for it", ms.Name, ms.Vendor, a.Name, a.Vendor, ms.Name), Nearest: otherStacks(m, a, ms.ID),
				Matrix: []rule.Ref{rule.Cite(m, "stack "+ms.ID, ms.Claim, ms.Name+" is "+ms.Vendor+"'s stack"), rule.Cite(m, "adapter "+a.ID, a.Claim, a.Name+" is made by "+a.Vendor)}})
			return
		}
		v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("the matrix does not list %s for %s; a stack_support row from its release notes would decide it", ms.Name, a.Name)})
		return
	}
	if len(rows) == 0 {
		v.add(Reason{Verdict: Supported, Text: fmt.Sprintf("%s supports %s", ms.Name, a.Name), Matrix: []rule.Ref{rule.Cite(m, "adapter "+a.ID, a.Claim, fmt.Sprintf("%s is supported by %s", a.Name, strings.Join(a.Stacks, ", ")))}})
	}
	judgeRange(m, v, a, ms, ver, rows, bounded)
	judgeRelease(m, v, a, ms, ver, d, k)
}

// StackRows returns the [[stack_support]] rows for a stack and an adapter.
func StackRows(m *matrix.Matrix, stack, adapter string) []*matrix.StackRow {
	var out []*matrix.StackRow
	for i := range m.StackRows {
		r := &m.StackRows[i]
		if r.Stack == stack && slices.Contains(r.Adapters, adapter) {
			out = append(out, r)
		}
	}
	return out
}

// judgeRange checks the stack version against the rows' first..last: a
// version inside any bounded row's range is supported. Rows without a
// range say the stack supports the adapter in some release.
func judgeRange(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, ms *matrix.Stack, ver string, rows, bounded []*matrix.StackRow) {
	cite := func(r *matrix.StackRow) rule.Ref {
		return rule.Cite(m, "stack_support "+ms.ID+" "+a.ID, r.Claim, rule.OrDash(r.Text))
	}
	for _, r := range rows {
		if r.First == "" && r.Last == "" {
			v.add(Reason{Verdict: Supported, Text: fmt.Sprintf("%s supports %s: %s", ms.Name, a.Name, r.Text), Matrix: []rule.Ref{cite(r)}})
		}
	}
	if len(bounded) == 0 {
		return
	}
	if ver == "" {
		for _, r := range bounded {
			if r.Last != "" {
				v.add(Reason{Verdict: Conditional, Text: fmt.Sprintf("only %s releases up to %s support %s: %s", ms.Name, r.Last, a.Name, r.Text), Nearest: upTo(ms, r.Last), Matrix: []rule.Ref{cite(r)}})
			} else {
				v.note(Reason{Verdict: Supported, Text: fmt.Sprintf("%s supports %s from release %s: %s", ms.Name, a.Name, r.First, r.Text), Matrix: []rule.Ref{cite(r)}})
			}
		}
		return
	}
	var near []string
	var refs []rule.Ref
	for _, r := range bounded {
		refs = append(refs, cite(r))
		lo, hi := r.First == "" || atOrAfter(ver, r.First), r.Last == "" || atOrBefore(ver, r.Last)
		if lo && hi {
			v.add(Reason{Verdict: Supported, Text: fmt.Sprintf("%s %s is within %s..%s, the releases that support %s", ms.Name, ver, rule.OrDash(r.First), rule.OrDash(r.Last), a.Name), Matrix: []rule.Ref{cite(r)}})
			return
		}
		if !hi {
			near = append(near, upTo(ms, r.Last))
		} else {
			near = append(near, fmt.Sprintf("%s %s or later", ms.Name, r.First))
		}
	}
	text := fmt.Sprintf("%s %s is outside the releases that support %s", ms.Name, ver, a.Name)
	for _, r := range bounded {
		text += fmt.Sprintf("; %s..%s: %s", rule.OrDash(r.First), rule.OrDash(r.Last), r.Text)
	}
	for i, n := range near {
		r := Reason{Verdict: Unsupported, Text: text, Nearest: n, Matrix: refs}
		if i > 0 {
			r.Text, r.Matrix = "", nil
			v.Nearest = appendNew(v.Nearest, n)
			continue
		}
		v.add(r)
	}
}

func appendNew(s []string, x string) []string {
	if slices.Contains(s, x) {
		return s
	}
	return append(s, x)
}

// upTo words "MLNX_OFED ≤ 4.9 LTS".
func upTo(ms *matrix.Stack, last string) string {
	s := ms.Name + " ≤ " + last
	if lts(ms, last) {
		s += " LTS"
	}
	return s
}

// atOrAfter and atOrBefore compare a release with a range bound; a bound
// written shorter (4.9, 24.10, 2.9) stands for every release of that line.
func atOrAfter(ver, bound string) bool {
	if sameLine(ver, bound) {
		return true
	}
	c, ok := rule.Compare(ver, bound)
	return ok && c >= 0
}

func atOrBefore(ver, bound string) bool {
	if sameLine(ver, bound) {
		return true
	}
	c, ok := rule.Compare(ver, bound)
	return ok && c <= 0
}

func sameLine(ver, bound string) bool {
	if ver == bound {
		return true
	}
	rest, ok := strings.CutPrefix(ver, bound)
	return ok && rest != "" && strings.ContainsRune(".-", rune(rest[0]))
}

// otherStacks suggests the stacks whose rows or adapter entry support it.
func otherStacks(m *matrix.Matrix, a *matrix.Adapter, not string) string {
	var ids []string
	for _, s := range a.Stacks {
		if s != not {
			ids = appendNew(ids, s)
		}
	}
	for _, r := range m.StackRows {
		if r.Stack != not && r.Status != matrix.StatusUnsupported && slices.Contains(r.Adapters, a.ID) {
			ids = appendNew(ids, r.Stack)
		}
	}
	if drv := m.Driver(a.RDMADriver); drv != nil && drv.InTree {
		ids = append(ids, matrix.Inbox)
	}
	if len(ids) == 0 {
		return ""
	}
	return "--stack " + strings.Join(ids, " or ")
}

func judgeSupportEnd(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, ms *matrix.Stack, ver string) {
	for _, se := range a.SupportEnd {
		if se.Stack != ms.ID {
			continue
		}
		ref := rule.Cite(m, "adapter "+a.ID+" support_end "+ms.ID, se.Claim, se.Text)
		near := ""
		if se.LastRelease != "" {
			near = fmt.Sprintf("%s: %s %s", a.Name, ms.Name, se.LastRelease)
			if lts(ms, se.LastRelease) {
				near += " LTS"
			}
			if se.DroppedIn != "" {
				near += fmt.Sprintf(", since %s dropped it", se.DroppedIn)
			}
		}
		when := ""
		if se.Date != nil {
			when = " (end of support " + se.Date.Format("2006-01-02") + ")"
		}
		if se.DroppedIn == "" {
			if ver != "" && se.LastRelease != "" {
				if atOrBefore(ver, se.LastRelease) {
					v.add(Reason{Verdict: Supported, Text: fmt.Sprintf("%s %s is at or before %s, the last release for %s%s", ms.Name, ver, se.LastRelease, a.Name, when), Matrix: []rule.Ref{ref}})
				} else {
					v.add(Reason{Verdict: Unsupported, Text: fmt.Sprintf("%s %s is after %s, the last release for %s%s: %s", ms.Name, ver, se.LastRelease, a.Name, when, se.Text), Nearest: near, Matrix: []rule.Ref{ref}})
				}
				continue
			}
			v.add(Reason{Verdict: Conditional, Text: se.Text + when, Nearest: near, Matrix: []rule.Ref{ref}})
			continue
		}
		if ver == "" {
			v.add(Reason{Verdict: Conditional, Text: fmt.Sprintf("%s supports %s only before %s%s: %s", ms.Name, a.Name, se.DroppedIn, when, se.Text), Nearest: near, Matrix: []rule.Ref{ref}})
			continue
		}
		c, ok := rule.Compare(ver, se.DroppedIn)
		switch {
		case sameLine(ver, se.DroppedIn) || ok && c >= 0:
			v.add(Reason{Verdict: Unsupported, Text: fmt.Sprintf("%s %s no longer supports %s: %s", ms.Name, ver, a.Name, se.Text), Nearest: near, Matrix: []rule.Ref{ref}})
		case !ok:
			v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("stack version %s cannot be compared with %s", ver, se.DroppedIn), Matrix: []rule.Ref{ref}})
		default:
			v.add(Reason{Verdict: Supported, Text: fmt.Sprintf("%s %s is before %s, which dropped %s", ms.Name, ver, se.DroppedIn, a.Name), Matrix: []rule.Ref{ref}})
		}
	}
}

func lts(ms *matrix.Stack, version string) bool {
	for _, r := range ms.Releases {
		if r.Version == version || strings.HasPrefix(r.Version, version+"-") || strings.HasPrefix(r.Version, version+".") || strings.HasPrefix(version, r.Version) {
			if r.LTS {
				return true
			}
		}
	}
	return false
}

// release finds the stack release a version names: the same release, or
// the latest one at or before it.
func release(ms *matrix.Stack, ver string) *matrix.StackRelease {
	var best *matrix.StackRelease
	for i := range ms.Releases {
		r := &ms.Releases[i]
		if r.Version == ver || sameLine(ver, r.Version) || sameLine(r.Version, ver) {
			return r
		}
		if c, ok := rule.Compare(r.Version, ver); ok && c <= 0 {
			if best == nil {
				best = r
			} else if c2, _ := rule.Compare(r.Version, best.Version); c2 > 0 {
				best = r
			}
		}
	}
	return best
}

// judgeRelease checks the OS list of the release in use against the
// distro. Without a version, releases with OS lists must include it.
func judgeRelease(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, ms *matrix.Stack, ver string, d *matrix.Distro, k kernel) {
	if d == nil {
		d = k.Distro
	}
	var rels []*matrix.StackRelease
	if ver != "" {
		if r := release(ms, ver); r != nil {
			rels = append(rels, r)
		}
	} else {
		for i := range ms.Releases {
			if len(ms.Releases[i].OS) > 0 {
				rels = append(rels, &ms.Releases[i])
			}
		}
	}
	listed := false
	for _, r := range rels {
		listed = listed || len(r.OS) > 0
	}
	if d == nil || !listed {
		if d != nil || k.Base != "" {
			what := "kernel " + v.Kernel
			if d != nil {
				what = d.Name
			}
			v.note(Reason{Verdict: Supported, Text: fmt.Sprintf("the matrix lists no OS for this %s release; check that its release notes list %s", ms.Name, what),
				Matrix: []rule.Ref{rule.Cite(m, "stack "+ms.ID, ms.Claim, ms.Name+" is a vendor stack that replaces the inbox modules")}})
		}
		return
	}
	var ok, not []*matrix.StackRelease
	for _, r := range rels {
		if len(r.OS) == 0 {
			continue
		}
		if slices.ContainsFunc(r.OS, func(e string) bool { return matrix.OSMatches(e, d) }) {
			ok = append(ok, r)
		} else {
			not = append(not, r)
		}
	}
	cite := func(r *matrix.StackRelease) rule.Ref {
		return rule.Cite(m, "stack "+ms.ID+" release "+r.Version, r.Claim, fmt.Sprintf("%s %s supports %s", ms.Name, r.Version, strings.Join(r.OS, ", ")))
	}
	switch {
	case len(not) == 0:
		v.add(Reason{Verdict: Supported, Text: fmt.Sprintf("%s %s lists %s", ms.Name, ok[0].Version, d.Name), Matrix: []rule.Ref{cite(ok[0])}})
	case len(ok) == 0:
		r := not[len(not)-1]
		v.add(Reason{Verdict: Unsupported, Text: fmt.Sprintf("%s %s supports only %s, not %s", ms.Name, r.Version, strings.Join(r.OS, ", "), d.Name), Nearest: "a distro " + ms.Name + " " + r.Version + " lists: " + strings.Join(r.OS, ", "), Matrix: []rule.Ref{cite(r)}})
	default:
		var vs []string
		for _, r := range ok {
			vs = append(vs, r.Version)
		}
		v.add(Reason{Verdict: Conditional, Text: fmt.Sprintf("only %s releases %s list %s", ms.Name, strings.Join(vs, ", "), d.Name), Nearest: ms.Name + " " + ok[len(ok)-1].Version, Matrix: []rule.Ref{cite(ok[len(ok)-1])}})
	}
}
