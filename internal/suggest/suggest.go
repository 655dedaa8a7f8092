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
	limit := max(2, len(g)/3)
	for _, c := range candidates {
		lc := strings.ToLower(c)
		prefix := strings.HasPrefix(lc, g) || strings.HasPrefix(g, lc)
		if !prefix && abs(len(lc)-len(g)) > limit {
			continue // the distance is at least the difference in length
		}
		d := Distance(g, lc)
		if prefix {
			d = min(d, 1)
		}
		if d <= limit {
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

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
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

// Transposed is the optimal string alignment distance between a and b, in
// bytes: Distance with the swap of two neighbours (bnxt_er, bnxt_re) as
// one edit, the commonest typo.
func Transposed(a, b string) int {
	rows := make([][]int, len(a)+1)
	for i := range rows {
		rows[i] = make([]int, len(b)+1)
		rows[i][0] = i
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(rows[i-1][j]+1, rows[i][j-1]+1, rows[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, rows[i-2][j-2]+1)
			}
			rows[i][j] = d
		}
	}
	return rows[len(a)][len(b)]
}
