package page

import "strings"

// Spec is everything the site knows about a kind of page, in one row of
// Table: adding a kind is one row here and its template (TestTable fails
// until every part is there).
type Spec struct {
	Kind Kind
	// Dir is the folder of a kind whose pages have ids (adapter/<id>.html);
	// File the path of a kind that is one page. One of the two is set.
	Dir, File string
	// Section is the index page the kind sits under: its breadcrumb
	// between home and the page, and the navigation entry marked current.
	Section Kind
	// NavUnder marks this navigation entry current on the kind's pages
	// when it has no Section (the hosts index sits under the fleet).
	NavUnder Kind
	// Label is the interface string key naming the kind's pages as a
	// navigation entry or a breadcrumb; set for every kind that is one.
	Label string
	// Nav puts the kind in the header navigation, in table order (an
	// Optional kind only when the site has its page).
	Nav bool
	// Needs names the input a single page needs: the site has the page
	// only when that input is there (the fleet's host records, the
	// glossary's terms). "" for every other single page, which is on
	// every site (Always).
	Needs Need
	// Template is the file under templates/ the kind renders with.
	Template string
	// Search: the kind's pages are search documents.
	Search bool
	// Langs: the kind's pages have language variants (<id>.<lang>.html).
	Langs bool
	// Unlisted: the kind's pages are not in the sitemap.
	Unlisted bool
}

// Need is an input without which a site has no page of a kind.
type Need string

const (
	NeedRecords  Need = "host records"
	NeedGlossary Need = "glossary terms"
)

// Table is the page kinds, one row each; the header navigation follows
// its order.
var Table = []Spec{
	{Kind: Home, File: "index.html", Template: "home.html"},
	{Kind: Adapters, File: "adapter/index.html", Label: "nav_adapters", Nav: true, Template: "adapters.html"},
	{Kind: Adapter, Dir: "adapter", Section: Adapters, Template: "adapter.html", Search: true},
	{Kind: Vendor, Dir: "vendor", Section: Vendors, Template: "vendor.html", Search: true},
	{Kind: Vendors, File: "vendor/index.html", Label: "nav_vendors", Nav: true, Template: "vendors.html"},
	{Kind: Drivers, File: "driver/index.html", Label: "nav_drivers", Nav: true, Template: "drivers.html"},
	{Kind: Distros, File: "distro/index.html", Label: "nav_distros", Nav: true, Template: "distros.html"},
	{Kind: Stacks, File: "stack/index.html", Label: "nav_stacks", Nav: true, Template: "stacks.html"},
	{Kind: Tags, File: "tag/index.html", Label: "nav_tags", Template: "tags.html"},
	{Kind: Hosts, File: "host/index.html", NavUnder: Fleet, Needs: NeedRecords, Template: "hosts.html"},
	{Kind: Driver, Dir: "driver", Section: Drivers, Template: "driver.html", Search: true},
	{Kind: Distro, Dir: "distro", Section: Distros, Template: "distro.html", Search: true},
	{Kind: Stack, Dir: "stack", Section: Stacks, Template: "stack.html", Search: true},
	{Kind: FAQ, Dir: "faq", Section: FAQIndex, Template: "faq.html", Search: true, Langs: true},
	{Kind: FAQIndex, File: "faq/index.html", Label: "nav_faq", Nav: true, Template: "faqs.html"},
	{Kind: Tag, Dir: "tag", Section: Tags, Template: "tag.html"},
	{Kind: Tree, Dir: "tree", Section: Trees, Template: "tree.html", Search: true, Langs: true},
	{Kind: Trees, File: "tree/index.html", Label: "nav_trees", Nav: true, Template: "trees.html"},
	{Kind: Glossary, File: "glossary.html", Label: "nav_glossary", Nav: true, Needs: NeedGlossary, Template: "glossary.html", Search: true},
	{Kind: Sources, File: "sources.html", Label: "nav_sources", Nav: true, Template: "sources.html"},
	{Kind: Host, Dir: "host", Section: Fleet, Template: "host.html", Search: true},
	{Kind: Fleet, File: "fleet.html", Label: "nav_fleet", Nav: true, Needs: NeedRecords, Template: "fleet.html"},
	{Kind: Search, File: "search.html", Template: "search.html"},
	{Kind: NotFound, File: "404.html", Template: "404.html", Unlisted: true},
}

// Always reports whether every site has the page of this kind: a single
// page that needs no input. A link to it needs no lookup.
func (s Spec) Always() bool { return s.File != "" && s.Needs == "" }

// Optional reports whether the kind is a single page only some sites
// have: those with the input it Needs.
func (s Spec) Optional() bool { return s.Needs != "" }

// specs is Table by kind.
var specs = func() map[Kind]Spec {
	out := make(map[Kind]Spec, len(Table))
	for _, s := range Table {
		out[s.Kind] = s
	}
	return out
}()

// SpecOf returns the row of kind k; the zero Spec for an unknown kind.
func SpecOf(k Kind) Spec { return specs[k] }

// Kinds lists every kind, in table order.
func Kinds() []Kind {
	out := make([]Kind, len(Table))
	for i, s := range Table {
		out[i] = s.Kind
	}
	return out
}

// KindOf returns the kind of the page at site path p (an anchor allowed),
// or false when p is not a page's path.
func KindOf(p string) (Kind, bool) {
	p, _, _ = strings.Cut(p, "#")
	for _, s := range Table {
		if s.File == p {
			return s.Kind, true
		}
	}
	dir, file, ok := strings.Cut(p, "/")
	if !ok || strings.Contains(file, "/") || !strings.HasSuffix(file, ".html") {
		return "", false
	}
	for _, s := range Table {
		if s.Dir == dir {
			return s.Kind, true
		}
	}
	return "", false
}
