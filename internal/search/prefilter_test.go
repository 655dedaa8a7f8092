package search

import (
	"slices"
	"strings"
	"testing"
)

func TestNeedOf(t *testing.T) {
	for _, c := range []struct {
		pattern string
		want    need
	}{
		{`(?i)Failed to modify QP`, need{"failed to modify qp"}},
		{`(?i)\bfoo\b|bar\d+`, need{"foo", "bar"}},
		{`(?i)(?:a|b)?\d+ timed ?out`, need{" timed"}},
		{`(?i)x*`, nil},
		{`(?i)\d+|probe`, nil}, // one branch needs no literal
		{`(?i)(?:QP)+ error`, need{" error"}},
		{`(?i)état`, nil}, // not ASCII: lower-casing is no fold
	} {
		if got := needOf(c.pattern); !slices.Equal(got, c.want) {
			t.Errorf("needOf(%q) = %q, want %q", c.pattern, got, c.want)
		}
	}
	// Under (?i) a k matches the Kelvin sign: such a line is always run.
	n := needOf(`(?i)kernel`)
	if !n.mayMatch(strings.ToLower("\u212Aernel"), false) {
		t.Error("a line with the Kelvin sign was passed over")
	}
	if n.mayMatch("oops", true) {
		t.Error("an ASCII line without the literal was run")
	}
}

// TestNeedKeepsEveryMatch: no line a template matches is passed over by
// its need, over every template's example and every line of the query set.
func TestNeedKeepsEveryMatch(t *testing.T) {
	ts := Templates()
	lines := []string{}
	for _, tp := range ts {
		lines = append(lines, tp.Example)
	}
	for _, q := range loadQueries(t).Query {
		lines = append(lines, strings.Split(q.Q, "\n")...)
	}
	matched, skipped, withNeed := 0, 0, 0
	for _, tp := range ts {
		if tp.need != nil {
			withNeed++
		}
		for _, l := range lines {
			may := tp.need.mayMatch(strings.ToLower(l), isASCII(l))
			if !may {
				skipped++
			}
			if tp.re.MatchString(l) {
				matched++
				if !may {
					t.Errorf("template %s matches %q, but its need %q passes it over", tp.ID, l, tp.need)
				}
			}
		}
	}
	// The prefilter is real: most templates have a need, and most lines
	// are passed over without running a pattern.
	if withNeed < len(ts)*9/10 || skipped < len(ts)*len(lines)/2 {
		t.Errorf("%d of %d templates have a need, and %d of %d line checks were passed over", withNeed, len(ts), skipped, len(ts)*len(lines))
	}
	t.Logf("%d lines: %d matches; %d of %d checks passed over", len(lines), matched, skipped, len(ts)*len(lines))
}

func FuzzNeed(f *testing.F) {
	for _, tp := range Templates() {
		f.Add(tp.Example)
	}
	f.Add("mlx5_core 0000:3b:00.0: \u212Aernel ſtate")
	f.Fuzz(func(t *testing.T, line string) {
		lower, ascii := strings.ToLower(line), isASCII(line)
		for _, tp := range Templates() {
			if !tp.need.mayMatch(lower, ascii) && tp.re.MatchString(line) {
				t.Errorf("template %s matches %q, but its need %q passes it over", tp.ID, line, tp.need)
			}
		}
	})
}
