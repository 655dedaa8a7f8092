package content

import "strings"

// LinkCitations turns inline citations such as [rhel7-networking-roce] into
// markdown links to the page's source list (#src-<id>), for ids listed in
// sources. Fenced code blocks, code spans, link texts and reference
// definitions are left alone, the same places Lint skips.
func LinkCitations(body string, sources []string) string {
	known := map[string]bool{}
	for _, s := range sources {
		known[s] = true
	}
	lines := strings.Split(body, "\n")
	eachProseLine(lines, func(i int, masked string) {
		line := lines[i]
		var b strings.Builder
		last := 0
		for _, m := range citations(masked) {
			id := masked[m[2]:m[3]]
			if !known[id] {
				continue
			}
			b.WriteString(line[last:m[0]])
			b.WriteString(`[\[` + id + `\]](#src-` + id + `)`)
			last = m[1]
		}
		if last > 0 {
			b.WriteString(line[last:])
			lines[i] = b.String()
		}
	})
	return strings.Join(lines, "\n")
}

// eachProseLine calls fn for every markdown line outside fenced code
// blocks, with code spans blanked out (same length, so offsets into the
// masked line are offsets into the original).
func eachProseLine(lines []string, fn func(i int, masked string)) {
	fence := ""
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		fn(i, codeSpan.ReplaceAllStringFunc(line, func(s string) string { return strings.Repeat(" ", len(s)) }))
	}
}

// citations returns the [id] matches in a masked line that are citations,
// leaving out link texts, reference definitions and reference links.
func citations(masked string) [][]int {
	var out [][]int
	for _, m := range citeRe.FindAllStringSubmatchIndex(masked, -1) {
		if m[1] < len(masked) && (masked[m[1]] == '(' || masked[m[1]] == ':' || masked[m[1]] == '[') {
			continue
		}
		out = append(out, m)
	}
	return out
}
