// Package suggest provides "did you mean" suggestions: the known names
// closest to a misspelled one, by edit distance.
package suggest

import (
	"sort"
	"strings"
)

// Closest returns up to n of candidates nearest to got (case-insensitive),
// nearest first; none when nothing is within about a third of got's length.
// A candidate that got is a prefix of, or that is a prefix of got, counts
// as one edit away.
func Closest(got string, candidates []string, n int) []string {
	g := strings.ToLower(got)
	if g == "" {
		return nil
	}
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := Distance(g, lc)
		if strings.HasPrefix(lc, g) || strings.HasPrefix(g, lc) {
			d = min(d, 1)
		}
		if d <= max(2, len(g)/3) {
			cs = append(cs, cand{c, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d || cs[i].d == cs[j].d && cs[i].name < cs[j].name })
	var out []string
	for _, c := range cs {
		if len(out) == n {
			break
		}
		out = append(out, c.name)
	}
	return out
}

// Distance is the Levenshtein edit distance between a and b, in bytes.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
