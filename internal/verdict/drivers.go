package verdict

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/rule"
)

// docaOFED is the stack whose releases (DOCA's, 2.9.1) and drivers
// (24.10-1.1.4.0) are numbered apart; [[stack_driver]] rows tie them.
const docaOFED = "doca-ofed"

// asDriversRelease reads a stack release given as the version of the
// drivers (what ofed_info, the driver packages and the Network Operator's
// driver containers print) as the release a [[stack_driver]] row ties it
// to, and adds that step, cited. DOCA-OFED's drivers version is read so
// whenever a row names it. MLNX_OFED's is read as a DOCA-OFED release only
// when it is numbered past every MLNX_OFED line the matrix holds (its last
// standalone line is the October 2024 LTS, 24.10): such drivers are
// DOCA-OFED's, while a 24.10 version is a MLNX_OFED release of its own.
// It returns the stack and release to judge, unchanged when no row
// applies.
func asDriversRelease(m *matrix.Matrix, v *Verdict, ms *matrix.Stack, ver string) (*matrix.Stack, string) {
	if ms == nil || ver == "" {
		return ms, ver
	}
	switch ms.ID {
	case docaOFED:
		if findRelease(ms, ver) != nil {
			return ms, ver // already a DOCA release
		}
	case "mlnx-ofed":
		if _, beyond := beyondNumbering(ms, ver); !beyond {
			return ms, ver
		}
	default:
		return ms, ver
	}
	d := m.DriverRelease(docaOFED, ver)
	doca := m.Stack(docaOFED)
	if d == nil || doca == nil {
		return ms, ver
	}
	text := fmt.Sprintf("drivers %s are %s %s's", ver, doca.Name, d.Release)
	if ver != d.Driver {
		text += " (" + d.Driver + ")"
	}
	refs := []rule.Ref{rule.Cite(m, "stack_driver "+d.Stack+" "+d.Driver, d.Claim, fmt.Sprintf("%s %s ships drivers %s", doca.Name, d.Release, d.Driver))}
	if ms.ID != docaOFED {
		text = fmt.Sprintf("%s %s is numbered past MLNX_OFED's last standalone line, and %s", ms.Name, ver, text)
		refs = append(refs, rule.Cite(m, "stack "+ms.ID, ms.Claim, "MLNX_OFED's last standalone release is the October 2024 LTS; from January 2025 new features go to DOCA-OFED only"))
	}
	v.add(Reason{Verdict: Supported, Text: text + ", so the plan is judged as " + doca.Name + " " + d.Release, Matrix: refs})
	v.Stack, v.StackVersion = doca.ID, d.Release
	return doca, d.Release
}

// internalBuild is the name ofed_info -s prints for NVIDIA's driver
// builds that are not a standalone MLNX_OFED installer's
// (OFED-internal-24.10-1.1.4.0.200:): seen on hosts that installed
// DOCA-OFED's packages and in the Network Operator's driver containers.
// No NVIDIA source says which stack prints it, so a record naming it is
// judged as every stack the matrix has those drivers under.
const internalBuild = "OFED-internal"

// internalRelease reports whether a plan names its stack as an
// OFED-internal build, and the drivers version it gives.
func internalRelease(p Plan) (ver string, ok bool) {
	s := strings.TrimRight(strings.TrimSpace(p.Stack), ":")
	if strings.EqualFold(s, internalBuild) {
		return strings.TrimSpace(p.StackVersion), true
	}
	if len(s) > len(internalBuild)+1 && strings.EqualFold(s[:len(internalBuild)+1], internalBuild+"-") {
		return s[len(internalBuild)+1:], true
	}
	return "", false
}

// InternalBuild reports whether a stack name is an OFED-internal build's,
// bare or with its drivers version (OFED-internal-24.10-1.1.4.0.200:):
// a name the verdict engine judges though no matrix stack carries it.
func InternalBuild(stack string) bool {
	_, ok := internalRelease(Plan{Stack: stack})
	return ok
}

// judgeInternal judges a plan on an OFED-internal build: as MLNX_OFED
// when the matrix holds a MLNX_OFED release of those drivers, as
// DOCA-OFED when a [[stack_driver]] row ties them to a DOCA release. One
// reading gives its verdict; two give theirs when they agree, and unknown
// when they do not, saying what on the host would tell them apart.
func judgeInternal(m *matrix.Matrix, e *Engine, p Plan, ver string) Verdict {
	var plans []Plan
	// An internal build's number (.200 of 24.10-1.1.4.0.200) is not
	// MLNX_OFED's: its release is the drivers' own four numbers.
	if mo := m.Stack("mlnx-ofed"); mo != nil && ver != "" {
		core := ver
		if c := driverCore.FindString(ver); c != "" {
			core = c
		}
		if r := findRelease(mo, core); r != nil {
			plans = append(plans, Plan{Adapter: p.Adapter, Kernel: p.Kernel, Distro: p.Distro, Stack: mo.ID, StackVersion: core, Firmware: p.Firmware})
		}
	}
	if ver != "" && m.DriverRelease(docaOFED, ver) != nil && m.Stack(docaOFED) != nil {
		plans = append(plans, Plan{Adapter: p.Adapter, Kernel: p.Kernel, Distro: p.Distro, Stack: docaOFED, StackVersion: ver, Firmware: p.Firmware})
	}
	what := strings.TrimSuffix(internalBuild+"-"+ver, "-")
	decide := "which package installed the drivers (`dpkg -l doca-ofed` or `rpm -q doca-ofed` for DOCA-OFED, `ofed_info` naming MLNX_OFED_LINUX for a MLNX_OFED installer) would decide it"
	if len(plans) == 0 {
		v := Verdict{Plan: p, Verdict: Supported, Stack: internalBuild, StackVersion: ver}
		if a := FindAdapter(m, p.Adapter); a != nil {
			v.Adapter, v.AdapterName = a.ID, a.Name
		}
		v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("%s is how ofed_info names NVIDIA's driver builds (DOCA-OFED's among them); the matrix holds no MLNX_OFED release of drivers %s and no stack_driver row ties them to a DOCA-OFED release; the DOCA release the host installed, or %s", what, orDash(ver), decide)})
		v.finish()
		return v
	}
	vs := make([]Verdict, len(plans))
	for i, q := range plans {
		vs[i] = judge(m, e, q, nil)
	}
	v := vs[len(vs)-1]
	v.Plan = p
	note := fmt.Sprintf("%s is how ofed_info names NVIDIA's driver builds; the matrix has drivers %s only as %s %s, judged so", what, ver, m.Stack(plans[0].Stack).Name, vs[0].StackVersion)
	if len(vs) == 2 {
		a, b := vs[0], vs[1]
		if a.Verdict == b.Verdict {
			note = fmt.Sprintf("%s is how ofed_info names NVIDIA's driver builds; drivers %s are both MLNX_OFED %s and DOCA-OFED %s's, and both give %s", what, ver, a.StackVersion, b.StackVersion, b.Verdict)
		} else {
			v.Reasons = append([]Reason{{Verdict: Undecided, Text: fmt.Sprintf("%s is how ofed_info names NVIDIA's driver builds; drivers %s are both MLNX_OFED %s and DOCA-OFED %s's, and the two differ for %s (MLNX_OFED: %s; DOCA-OFED: %s); %s", what, ver, a.StackVersion, b.StackVersion, v.AdapterName, a.Verdict, b.Verdict, decide)}}, v.Reasons...)
			v.Verdict, v.Likely = Undecided, ""
			v.Stack, v.StackVersion = internalBuild, ver
			return v
		}
	}
	v.Reasons = append([]Reason{{Verdict: Supported, Informs: true, Text: note}}, v.Reasons...)
	return v
}

func orDash(s string) string { return rule.OrDash(s) }

// driverCore is a drivers version's line and first four numbers
// (24.10-1.1.4.0 of 24.10-1.1.4.0.200).
var driverCore = regexp.MustCompile(`^\d+\.\d+-\d+\.\d+\.\d+\.\d+`)
