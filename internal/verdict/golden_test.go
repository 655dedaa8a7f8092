package verdict

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/rocekb/rocekb/internal/hosttest"
)

// goldenCase is one planned configuration of testdata/verdicts/cases.toml,
// with the verdict its sources prove.
type goldenCase struct {
	Name         string   `toml:"name"`
	Adapter      string   `toml:"adapter"`
	Distro       string   `toml:"distro"`
	Kernel       string   `toml:"kernel"`
	Stack        string   `toml:"stack"`
	StackVersion string   `toml:"stack_version"`
	Firmware     string   `toml:"firmware"`
	Want         Level    `toml:"want"`
	Trap         string   `toml:"trap"`
	Sources      []string `toml:"sources"`
	Why          string   `toml:"why"`
	// Gap names what the matrix lacks for the sources' answer (want) to
	// show, e.g. a release's adapter list; until it lands the engine must
	// say unknown, never the opposite of want.
	Gap string `toml:"gap"`
	// Report is the public report (an issue, a pull request, a vendor
	// page) where someone planned or ran this configuration: what made
	// the case worth asking, never what decides it (Sources do).
	Report string `toml:"report"`
}

// realMatrix loads the project's matrix (matrix/), once.
var realMatrix = hosttest.LoadBundled

// TestGolden runs the golden table of planned configurations through
// Judge. A case wanting unsupported or unknown that Judge calls supported
// is a false "supported", reported on its own.
func TestGolden(t *testing.T) {
	t.Parallel()
	m, err := realMatrix()
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Case []goldenCase `toml:"case"`
	}
	md, err := toml.DecodeFile(filepath.Join(hosttest.Root, "testdata", "verdicts", "cases.toml"), &f)
	if err != nil {
		t.Fatal(err)
	}
	if u := md.Undecoded(); len(u) > 0 {
		t.Fatalf("cases.toml: unknown keys %v", u)
	}
	if len(f.Case) < 200 {
		t.Fatalf("%d cases, want at least 200", len(f.Case))
	}
	pass, falseSupported, gaps := 0, 0, 0
	for _, c := range f.Case {
		v := Judge(m, Plan{Adapter: c.Adapter, Distro: c.Distro, Kernel: c.Kernel, Stack: c.Stack, StackVersion: c.StackVersion, Firmware: c.Firmware})
		if c.Report != "" && !strings.HasPrefix(c.Report, "https://") {
			t.Errorf("%s: report %q is not an https URL", c.Name, c.Report)
		}
		for _, s := range c.Sources {
			if m.Source(s) == nil {
				t.Errorf("%s: source %q is not in the matrix", c.Name, s)
			}
		}
		switch {
		case v.Verdict == c.Want:
			pass++
		case c.Gap != "" && v.Verdict == Undecided:
			gaps++
			pass++
		case v.Verdict == Supported && (c.Want == Unsupported || c.Want == Undecided):
			falseSupported++
			t.Errorf("FALSE SUPPORTED %s: want %s\n%s", c.Name, c.Want, explain(v))
		default:
			t.Errorf("%s: got %s, want %s\n%s", c.Name, v.Verdict, c.Want, explain(v))
		}
		if v.Verdict == Undecided && !strings.Contains(explain(v), "decide") && v.Adapter != "" {
			t.Errorf("%s: unknown without saying what would decide it\n%s", c.Name, explain(v))
		}
	}
	t.Logf("golden table: %d of %d pass (%d unknown while the matrix lacks what their sources state), %d false supported", pass, len(f.Case), gaps, falseSupported)
}

func explain(v Verdict) string {
	var b strings.Builder
	for _, r := range v.Reasons {
		b.WriteString("    " + string(r.Verdict) + ": " + r.Text + "\n")
	}
	if len(v.Nearest) > 0 {
		b.WriteString("    nearest: " + strings.Join(v.Nearest, " | ") + "\n")
	}
	return b.String()
}
