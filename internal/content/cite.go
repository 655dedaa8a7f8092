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
		// Blank out code spans so matches inside them are not rewritten,
		// but rewrite the original line by offsets.
		mask := codeSpan.ReplaceAllStringFunc(line, func(s string) string { return strings.Repeat(" ", len(s)) })
		var b strings.Builder
		last := 0
		for _, m := range citeRe.FindAllStringSubmatchIndex(mask, -1) {
			if m[1] < len(mask) && (mask[m[1]] == '(' || mask[m[1]] == ':' || mask[m[1]] == '[') {
				continue
			}
			id := mask[m[2]:m[3]]
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
	}
	return strings.Join(lines, "\n")
}
