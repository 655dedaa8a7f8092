package site

import (
	"path"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/page"
)

// A static host serves 404.html for a missing page at any depth
// (/adapter/missing.html), so the 404 page's links, relative to the site
// root where it lies, must resolve from there: it sets a <base> at the
// site root. RootBase is that root when kb.toml names base_url; without
// it, the page finds the root at run time from its address and
// SiteFolders (file:// needs nothing: the file opened is the root's).

// RootBase is the base_url with one trailing slash, or "".
func (m *Meta) RootBase() string {
	if m.Site == nil || m.Site.BaseURL == "" {
		return ""
	}
	return strings.TrimRight(m.Site.BaseURL, "/") + "/"
}

// SiteFolders lists the site's top-level folders (adapter, faq, search,
// verdicts…): the first of them in a missing page's address ends the
// site root.
func (m *Meta) SiteFolders() []string {
	seen := map[string]bool{"search": true, "verdicts": true}
	for _, k := range page.Kinds() {
		if dir := path.Dir(page.Path(k, "x")); dir != "." {
			seen[strings.Split(dir, "/")[0]] = true
		}
	}
	out := make([]string, 0, len(seen))
	for d := range seen {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}
