package need

import (
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
