package page

// Doc is the search document a page yields (internal/site: a page of a
// kind marked Search in Table gives its documents from the data it
// renders); the search package indexes them as they are.
type Doc struct {
	URL    string // the page's path, an anchor allowed: adapter/connectx-5.html, glossary.html#gid
	Title  string
	Kind   string // facet: the page's kind (adapter, vendor, driver, distro, stack, faq, tree, glossary, host)
	Vendor string // facet: matrix vendor id, or ""
	Lang   string // facet: en, zh …
	// Headings are the page's headings, when its text has any.
	Headings []string
	Body     string // plain text: what a reader sees, no markup
	// IDs are identifiers the page is about: modules, PCI ids, part
	// numbers, firmware and kernel versions, error strings.
	IDs []string
}

// WordEnd moves byte offset i of s back to the end of a word, at most a
// few bytes, else forward to the end of a character: where a text cut
// to about i bytes ends.
func WordEnd(s string, i int) int {
	for k := 0; k < 24 && i-k > 0; k++ {
		if c := s[i-k]; c == ' ' || c == '\n' {
			return i - k
		}
	}
	for i < len(s) && s[i]&0xC0 == 0x80 {
		i++
	}
	return i
}
