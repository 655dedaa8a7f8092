package need

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestOf(t *testing.T) {
	for _, c := range []struct {
		pattern string
		want    Set
	}{
		{`(?i)Failed to modify QP`, Set{"failed to modify qp"}},
		{`(?i)\bfoo\b|bar\d+`, Set{"foo", "bar"}},
		{`(?i)(?:a|b)?\d+ timed ?out`, Set{" timed"}},
		{`(?i)x*`, nil},
		{`(?i)\d+|probe`, nil}, // one branch needs no literal
		{`(?i)(?:QP)+ error`, Set{" error"}},
		{`(?i)état`, nil}, // not ASCII: lower-casing is no fold
	} {
		if got := Of(c.pattern); !slices.Equal(got, c.want) {
			t.Errorf("Of(%q) = %q, want %q", c.pattern, got, c.want)
		}
	}
	// Under (?i) a k matches the Kelvin sign: such a line is always run.
	n := Of(`(?i)kernel`)
	if !n.MayMatch(strings.ToLower("\u212Aernel"), false) {
		t.Error("a line with the Kelvin sign was passed over")
	}
	if n.MayMatch("oops", true) {
		t.Error("an ASCII line without the literal was run")
	}
}

// agreeing are patterns of the shapes classifiers use: alternations of
// case-folded concatenations with word boundaries, bounded gaps, classes
// and optional parts.
var agreeing = []string{
	`(?i)\b(?:cmd|command|fw)\b.{0,80}?(?:\btime ?out\b|\bnot ready\b)|\b[A-Z][A-Z0-9_]{2,}\(0x[0-9a-fA-F]+\).{0,40}(?:timeout|No done completion)|Error \(timeout: \d+\) msg`,
	`(?i)\bfailed[.,]? status -?\d+|\b(?:firmware|fw)\b.{0,30}\b(?:query|command|cmd)\b.{0,10}\bfailed\b|\bMLX[45]_CMD_\w+\b.{0,160}\bstatus\b`,
	`(?i)\berr(?:or|no)?\s*[=:(]?\s*-12\b|\bout of memory\b|\bENOMEM\b|x*`,
	`\[[\w ]+ Error\]\[op_code=\d+\] status=(-?\d+)`,
	`(?i)(create|modify)[_ ]?qp|^qp$|état`,
	// Branches tried only where their first literals begin: after a word
	// boundary, without one, with a literal that is also inside a word,
	// and with other assertions after it.
	`(?i)\b(?:fail(?:ed|ure)?|unable|error|err)\b[^.;]{0,40}?\b(?:to )?(?:create|alloc(?:ate)?)\b[^.;]{0,30}?\b(?:eqs?|cqs?|port \d+)\b|err_detected\b|unable to add gid`,
	`\b(?:create|alloc|init)_?\w*?[ _](?:eqs?|cqs?)\w*\b[^.;]{0,40}?\b(?:fail(?:ed|ure)?|error|err)\b|Firmware over \d+ ?MS`,
}

// TestMatchLowerAgrees: MatchLower answers as MatchString does.
func TestMatchLowerAgrees(t *testing.T) {
	lines := []string{
		"mlx5_core 0000:3b:00.0: wait_func:1190:(pid 7): CREATE_EQ(0x301) timeout. Will cause a leak",
		"mlx5_cmd_check: MLX5_CMD_OP_CREATE_QP(0x500) op_mod(0x0) failed, status bad parameter(0x3)",
		"bnxt_en 0000:45:00.0: hwrm_ring_free type 1 failed. rc:fff0 err:0",
		"cmd timed out", "FW command Query failed", "Error (timeout: 500015) msg {0x23 0x1}",
		"failed status -5", "ERROR=-12", "out of MEMORY", "[Create QP Error][op_code=8] status=-110 waiting=1",
		"modify_qp", "\u212Aernel out of memory", "ÉTAT", "", "qp",
		"interr to create eq", "interr, error to create eq", "Failed to create EQs", "failed to alloc port 1 now", "xerr_detected",
		"pci err_detected", "CREATE_EQ(0x301) op_mod(0x0) failed", "create_cq err", "xcreate_cq err", "init__cqs; failed",
		"Unable to add GID", "FIRMWARE OVER 20MS", "firmware over 20 MSx", "error error to create cq", "to create cq: error",
		"create cq failed to", "cq create failed", "eq failed to create eq", "\u0130\u0130 failed to create eq", "\u212a\u212a\u212a error to create eq", "fa\u0130led to create eq",
	}
	for _, p := range agreeing {
		r, std := MustCompile(p), regexp.MustCompile(p)
		for _, l := range lines {
			if got, want := r.MatchLower(l, strings.ToLower(l)), std.MatchString(l); got != want {
				t.Errorf("%q on %q: MatchLower %v, MatchString %v", p, l, got, want)
			}
		}
	}
}

func FuzzMatchLower(f *testing.F) {
	f.Add("mlx5_cmd_check: MLX5_CMD_OP_CREATE_QP(0x500) op_mod(0x0) failed, status bad parameter(0x3)")
	f.Add("\u212Aernel ſtate ENOMEM")
	f.Add("mlx5_load:1053:(pid 13): Failed to create EQs")
	f.Add("interr, error to create eq")
	f.Add("\u0130 failed to create eq")
	rs := make([]*Regexp, len(agreeing))
	for i, p := range agreeing {
		rs[i] = MustCompile(p)
	}
	f.Fuzz(func(t *testing.T, line string) {
		for _, r := range rs {
			if got, want := r.MatchLower(line, strings.ToLower(line)), r.MatchString(line); got != want {
				t.Errorf("%q on %q: MatchLower %v, MatchString %v", r, line, got, want)
			}
		}
	})
}

// TestBranchesSplit: a branch that begins with an alternation of words is
// compiled once per word, each tried only where its word begins.
func TestBranchesSplit(t *testing.T) {
	r := MustCompile(`(?i)\b(?:fail(?:ed)?|unable|err)\b.{0,9}\bqueue\b|(xa|yb)z|w`).make()
	var starts []string
	for _, b := range r.alts {
		if b.starts == nil {
			t.Errorf("branch %s is run at every byte", b.alt)
			continue
		}
		starts = append(starts, strings.Join(b.starts, ","))
	}
	if want := []string{"fail", "unable", "err", "xa", "yb", "w"}; !slices.Equal(starts, want) {
		t.Errorf("branches start with %q, want %q", starts, want)
	}
}

// TestMustCompilePanics: a pattern is made when first used, but one that
// does not parse still panics where it is declared.
func TestMustCompilePanics(t *testing.T) {
	for _, p := range []string{`(unclosed`, `a{1001}`, `[z-a]`} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("MustCompile(%q) did not panic", p)
				}
			}()
			MustCompile(p)
		}()
	}
}
