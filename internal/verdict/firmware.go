package verdict

import (
	"fmt"
	"strings"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/rule"
)

// judgeFirmware applies the firmware_min rows in force for the adapter on
// the stack (rule minimum, exact or recommended) and, for a vendor stack
// whose version is its first module's, the driver minimums beside them.
func judgeFirmware(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, ms *matrix.Stack, stack, stackVer, fw string) {
	if ms != nil && stackVer != "" && len(ms.Modules) > 0 {
		judgeDriverMin(m, v, a, ms, stackVer)
	}
	if fw != "" && otherLine(m, v, a, fw) {
		return
	}
	mins := rule.FirmwareMins(m, a.ID, stack, stackVer)
	if ms != nil && stackVer != "" {
		if _, beyond := beyondNumbering(ms, stackVer); beyond {
			// Which release's tested firmware applies is not known.
			mins = rule.FirmwareMins(untied(m, stack), a.ID, stack, "")
		}
	}
	if len(mins) == 0 && fw != "" {
		// Say the firmware went unjudged, without letting the matrix's
		// silence decide the verdict on everything it does know.
		v.note(Reason{Verdict: Undecided, Text: fmt.Sprintf("firmware %s not judged: the matrix states no minimum firmware for %s", fw, a.Name)})
		return
	}
	for _, f := range mins {
		ref := rule.Cite(m, fmt.Sprintf("firmware_min %s %s", a.ID, f.Feature), f.Claim, rule.MinRule(a, f))
		kind := f.Rule
		if kind == "" {
			kind = matrix.RuleMinimum
		}
		what := featureWords(f.Feature)
		if f.Stack != "" && f.StackVersion != "" {
			what = f.Stack + " " + f.StackVersion
		}
		near := fmt.Sprintf("firmware ≥ %s for %s", f.Min, what)
		if kind == matrix.RuleExact {
			near = fmt.Sprintf("firmware %s for %s", f.Min, what)
		}
		if kind == matrix.RuleRecommended && rule.EarlierRelease(f, stackVer) {
			judgeEarlierTested(v, a, f, ref, stack, stackVer, fw, what, near)
			continue
		}
		if fw == "" {
			switch kind {
			case matrix.RuleRecommended:
				v.note(Reason{Verdict: Supported, Text: fmt.Sprintf("%s was tested with firmware %s on %s (recommended)", what, f.Min, a.Name), Matrix: []rule.Ref{ref}})
			default:
				v.add(Reason{Verdict: Conditional, Text: fmt.Sprintf("%s needs firmware %s %s for %s; no firmware was given", a.Name, map[bool]string{true: "exactly", false: "≥"}[kind == matrix.RuleExact], f.Min, what), Nearest: near, Matrix: []rule.Ref{ref}})
			}
			continue
		}
		switch rule.CheckFirmware(f, fw, stackVer) {
		case rule.FirmwareIncomparable:
			v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("firmware %s cannot be compared with %s", fw, f.Min), Matrix: []rule.Ref{ref}})
		case rule.FirmwareNotExact:
			v.add(Reason{Verdict: Unsupported, Text: fmt.Sprintf("firmware %s is not %s, the exact firmware %s needs", fw, f.Min, what), Nearest: near, Matrix: []rule.Ref{ref}})
		case rule.FirmwareMeets:
			v.add(Reason{Verdict: Supported, Text: fmt.Sprintf("firmware %s meets the %s %s %s", fw, what, kind, f.Min), Matrix: []rule.Ref{ref}})
		case rule.FirmwareOlderThanTested:
			v.add(Reason{Verdict: Conditional, Text: fmt.Sprintf("firmware %s is older than %s, the firmware %s was tested with; update it", fw, f.Min, what), Nearest: near, Matrix: []rule.Ref{ref}})
		case rule.FirmwareBelow:
			level := Unsupported
			if rule.OptionalFeature(f.Feature) {
				level = Conditional
			}
			v.add(Reason{Verdict: level, Text: fmt.Sprintf("firmware %s is below %s, needed for %s", fw, f.Min, what), Nearest: near, Matrix: []rule.Ref{ref}})
		}
	}
}

// judgeEarlierTested weighs the planned firmware against the firmware an
// earlier release was tested with, when the matrix lacks the planned
// release's own. Older firmware is still a condition (NVIDIA's bundled
// firmware only grows from release to release); the same or newer is not
// judged, since no source says the planned release was tested with it.
func judgeEarlierTested(v *Verdict, a *matrix.Adapter, f *matrix.FirmwareMin, ref rule.Ref, stack, stackVer, fw, what, near string) {
	lacks := fmt.Sprintf("the matrix lacks the firmware %s %s was tested with on %s", stack, stackVer, a.Name)
	switch {
	case fw == "":
		v.note(Reason{Verdict: Undecided, Text: fmt.Sprintf("%s; %s, an earlier release, was tested with firmware %s", lacks, what, f.Min), Matrix: []rule.Ref{ref}})
	case rule.CheckFirmware(f, fw, stackVer) == rule.FirmwareOlderThanTested:
		v.add(Reason{Verdict: Conditional, Text: fmt.Sprintf("firmware %s is older than %s, the firmware %s (an earlier release) was tested with; update it (%s)", fw, f.Min, what, lacks), Nearest: near, Matrix: []rule.Ref{ref}})
	default:
		v.note(Reason{Verdict: Undecided, Text: fmt.Sprintf("firmware %s not judged: %s (%s, an earlier release, was tested with %s); its release notes' firmware table would decide it", fw, lacks, what, f.Min), Matrix: []rule.Ref{ref}})
	}
}

// judgeDriverMin compares a stack version with the driver minimums of its
// first module (a Cisco enic version against driver_min for enic).
func judgeDriverMin(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, ms *matrix.Stack, ver string) {
	mod := ms.Modules[0]
	seen := map[string]bool{}
	for i := range m.Firmware {
		f := &m.Firmware[i]
		if f.Adapter != a.ID || f.DriverMin == "" || f.DriverModule != mod || f.Stack != "" && f.Stack != ms.ID {
			continue
		}
		key := f.Feature + " " + f.DriverMin
		if seen[key] {
			continue
		}
		seen[key] = true
		text := fmt.Sprintf("%s %s needs %s %s or later", a.Name, featureWords(f.Feature), mod, f.DriverMin)
		ref := rule.Cite(m, fmt.Sprintf("firmware_min %s %s %s", a.ID, f.Feature, mod), f.Claim, text)
		c, ok := rule.Compare(ver, f.DriverMin)
		switch {
		case !ok:
			v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("%s %s cannot be compared with %s", mod, ver, f.DriverMin), Matrix: []rule.Ref{ref}})
		case c >= 0:
			v.add(Reason{Verdict: Supported, Text: fmt.Sprintf("%s %s meets %s", mod, ver, text), Matrix: []rule.Ref{ref}})
		case rule.OptionalFeature(f.Feature):
			v.add(Reason{Verdict: Conditional, Text: fmt.Sprintf("%s %s is below %s: %s", mod, ver, f.DriverMin, text), Nearest: fmt.Sprintf("%s ≥ %s for %s", mod, f.DriverMin, featureWords(f.Feature)), Matrix: []rule.Ref{ref}})
		default:
			v.add(Reason{Verdict: Unsupported, Text: fmt.Sprintf("%s %s is below %s: %s", mod, ver, f.DriverMin, text), Nearest: fmt.Sprintf("%s ≥ %s", mod, f.DriverMin), Matrix: []rule.Ref{ref}})
		}
	}
}

// featureWords turns a feature id into what people say: roce-v2-ipv6 → IPv6.
func featureWords(f string) string {
	switch {
	case strings.HasSuffix(f, "-ipv6"):
		return "IPv6"
	case strings.HasSuffix(f, "-ipv4"):
		return "IPv4"
	}
	return f
}

// otherLine reports (and adds the reason) when firmware fw belongs to
// another device line than the adapter's: its leading number names the
// device, and the adapter runs a [[firmware_line]] with another number.
func otherLine(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, fw string) bool {
	own := firmwareLine(m, a.ID)
	if own == nil {
		return false
	}
	major, rest, ok := strings.Cut(strings.TrimSpace(fw), ".")
	if !ok || rest == "" || strings.TrimLeft(major, "0123456789") != "" || major == "" {
		return false
	}
	major = strings.TrimLeft(major, "0")
	if major == "" {
		major = "0"
	}
	if major == own.Major {
		return false
	}
	refs := []rule.Ref{LineRef(m, a, own, true)}
	text := fmt.Sprintf("firmware %s is not %s firmware: %s runs firmware line %s (%s.x.x)", fw, a.Name, a.Name, own.Major, own.Major)
	for i := range m.FWLines {
		l := &m.FWLines[i]
		if l.Vendor == own.Vendor && l.Major == major {
			text = fmt.Sprintf("firmware %s is %s firmware (line %s), not %s's: %s runs line %s; the adapter is not the one planned, or the version is mistyped", fw, strings.Join(LineNames(m, l), " / "), major, a.Name, a.Name, own.Major)
			refs = append(refs, LineRef(m, a, l, false))
			break
		}
	}
	v.add(Reason{Verdict: Unsupported, Text: text, Nearest: fmt.Sprintf("%s firmware (%s.x.x)", a.Name, own.Major), Matrix: refs})
	return true
}

// FirmwareLineOf is the firmware line an adapter runs, or nil.
func FirmwareLineOf(m *matrix.Matrix, adapter string) *matrix.FirmwareLine {
	return firmwareLine(m, adapter)
}

// LineRef cites a firmware line as a firmware reason does: own is the
// adapter's line (say names the adapter), else the line a firmware of
// another device belongs to.
func LineRef(m *matrix.Matrix, a *matrix.Adapter, l *matrix.FirmwareLine, own bool) rule.Ref {
	if own {
		return rule.Cite(m, "firmware_line "+l.Major, l.Claim, fmt.Sprintf("%s firmware is line %s (%s.x)", a.Name, l.Major, l.Major))
	}
	return rule.Cite(m, "firmware_line "+l.Major, l.Claim, fmt.Sprintf("line %s is %s firmware", l.Major, strings.Join(LineNames(m, l), ", ")))
}

// LineNames are the names of the adapters that run a line.
func LineNames(m *matrix.Matrix, l *matrix.FirmwareLine) []string {
	var names []string
	for _, id := range l.Adapters {
		if o := m.Adapter(id); o != nil {
			names = append(names, o.Name)
		}
	}
	return names
}

// firmwareLine is the firmware line an adapter runs, or nil.
func firmwareLine(m *matrix.Matrix, adapter string) *matrix.FirmwareLine {
	for i := range m.FWLines {
		for _, id := range m.FWLines[i].Adapters {
			if id == adapter {
				return &m.FWLines[i]
			}
		}
	}
	return nil
}

// untied is m's firmware_min rows that no release of stack ties down: for
// a stack release the matrix cannot place among the releases its rows
// name (beyondNumbering), only these apply.
func untied(m *matrix.Matrix, stack string) *matrix.Matrix {
	out := &matrix.Matrix{}
	for _, f := range m.Firmware {
		if f.Stack != stack || f.StackVersion == "" {
			out.Firmware = append(out.Firmware, f)
		}
	}
	return out
}
