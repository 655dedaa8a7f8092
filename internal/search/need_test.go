package search

import (
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/need"
)

// TestNeedKeepsEveryMatch: no line a template matches is passed over by
// its need, over every template's example and every line of the query set.
func TestNeedKeepsEveryMatch(t *testing.T) {
	ts := Templates()
	// Each line once, with its lower case and ASCII flag: template
	// examples are also lines of the query set.
	type line struct {
		text, lower string
		ascii       bool
	}
	lines := []line{}
	seen := map[string]bool{}
	add := func(l string) {
		if !seen[l] {
			seen[l] = true
			lines = append(lines, line{l, strings.ToLower(l), need.ASCII(l)})
		}
	}
	for _, tp := range ts {
		add(tp.Example)
	}
	for _, q := range loadQueries(t).Query {
		for _, l := range strings.Split(q.Q, "\n") {
			add(l)
		}
	}
	matched, skipped, withNeed := 0, 0, 0
	for _, tp := range ts {
		if tp.need != nil {
			withNeed++
		}
		for _, ln := range lines {
			l := ln.text
			may := tp.need.MayMatch(ln.lower, ln.ascii)
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
		lower, ascii := strings.ToLower(line), need.ASCII(line)
		for _, tp := range Templates() {
			if !tp.need.MayMatch(lower, ascii) && tp.re.MatchString(line) {
				t.Errorf("template %s matches %q, but its need %q passes it over", tp.ID, line, tp.need)
			}
		}
	})
}
