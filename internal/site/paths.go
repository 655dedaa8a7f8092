package site

import (
	"sort"

	"github.com/rocekb/rocekb/internal/page"
)

// Paths lists the path of every page of the site, for the sitemap: the
// matrix and content pages, the home page, and the host and fleet pages
// of the hosts made so far; not the kinds page.Table marks Unlisted (the
// 404 page).
func (s *Site) Paths() []string {
	var out []string
	for _, p := range s.Pages {
		if !page.SpecOf(p.PageMeta().Ref.Kind).Unlisted {
			out = append(out, p.PageMeta().Path())
		}
	}
	out = append(out, page.Path(page.Home, ""))
	sums := s.HostSummaries()
	// The pages Late makes: adapter pages and folder indexes.
	for _, ap := range s.adapterPages {
		out = append(out, ap.Path())
	}
	for _, p := range s.folders(sums) {
		out = append(out, p.PageMeta().Path())
	}
	if len(sums) > 0 {
		out = append(out, page.Path(page.Fleet, ""))
	}
	for _, h := range sums {
		out = append(out, page.Path(page.Host, h.Slug))
	}
	sort.Strings(out)
	return dedupe(out)
}

func dedupe(sorted []string) []string {
	out := sorted[:0]
	for i, p := range sorted {
		if i == 0 || p != sorted[i-1] {
			out = append(out, p)
		}
	}
	return out
}
