package page

import (
	"fmt"
	"regexp"
	"strings"
)

// Kind is a kind of page. Its string is the word references use, as in
// "faq/roce-modes".
type Kind string

// The page kinds. What each is (its path, section, navigation, template,
// and search rules) is its row of Table, in kinds.go; what its pages read
// they record as they are made (deps.go).
const (
	Home     Kind = "home"     // index.html
	Adapters Kind = "adapters" // adapter/index.html
	Adapter  Kind = "adapter"  // adapter/<id>.html
	Vendor   Kind = "vendor"   // vendor/<id>.html
	Vendors  Kind = "vendors"  // vendor/index.html
	Drivers  Kind = "drivers"  // driver/index.html
	Distros  Kind = "distros"  // distro/index.html
	Stacks   Kind = "stacks"   // stack/index.html
	Tags     Kind = "tags"     // tag/index.html
	Hosts    Kind = "hosts"    // host/index.html
	Driver   Kind = "driver"   // driver/<id>.html
	Distro   Kind = "distro"   // distro/<id>.html
	Stack    Kind = "stack"    // stack/<id>.html
	FAQ      Kind = "faq"      // faq/<slug>.html
	FAQIndex Kind = "faqs"     // faq/index.html
	Tag      Kind = "tag"      // tag/<id>.html
	Tree     Kind = "tree"     // tree/<id>.html
	Trees    Kind = "trees"    // tree/index.html
	Glossary Kind = "glossary" // glossary.html; a term is an anchor on it
	Sources  Kind = "sources"  // sources.html
	Host     Kind = "host"     // host/<slug>.html
	Fleet    Kind = "fleet"    // fleet.html
	Search   Kind = "search"   // search.html
	NotFound Kind = "404"      // 404.html
)

// HasID reports whether pages of the kind are told apart by an id
// (adapter/<id>.html) rather than being the one page of their kind.
func (k Kind) HasID() bool { return specs[k].Dir != "" }

// Known reports whether k is a kind of this site.
func (k Kind) Known() bool { _, ok := specs[k]; return ok }

// Ref names a page, or a place on it.
type Ref struct {
	Kind   Kind
	ID     string // empty for kinds without ids
	Anchor string // an element id on the page, without '#'; may be empty
}

// safeID reports whether s may be an id or anchor, ^[A-Za-z0-9][A-Za-z0-9._-]*$:
// it becomes a file name or a fragment, so it can never climb out of its
// folder. (Checked by hand: every page's path is checked, on every build.)
func safeID(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case i > 0 && (c == '.' || c == '_' || c == '-'):
		default:
			return false
		}
	}
	return s != ""
}

// Path returns the output path of the page of kind k and id, a slash path
// relative to the site root such as "adapter/connectx-5.html". It panics
// on an unknown kind or an unsafe id: both are programming errors, since
// every id from a person's file goes through Parse or Valid first.
func Path(k Kind, id string) string {
	info, ok := specs[k]
	if !ok {
		panic(fmt.Sprintf("page: unknown kind %q", k))
	}
	if info.Dir == "" {
		return info.File
	}
	if !safeID(id) || strings.Contains(id, "..") {
		panic(fmt.Sprintf("page: unsafe %s id %q", k, id))
	}
	return info.Dir + "/" + id + ".html"
}

// Path returns the output path of the page r names, without the anchor.
func (r Ref) Path() string { return Path(r.Kind, r.ID) }

// URL returns the page's path with "#anchor" when r has one, relative to
// the site root.
func (r Ref) URL() string {
	if r.Anchor == "" {
		return r.Path()
	}
	return r.Path() + "#" + r.Anchor
}

// String gives r in the form Parse reads.
func (r Ref) String() string {
	s := string(r.Kind)
	if r.Kind == Glossary && r.ID == "" && r.Anchor != "" {
		return s + "/" + r.Anchor
	}
	if r.ID != "" {
		s += "/" + r.ID
	}
	if r.Anchor != "" {
		s += "#" + r.Anchor
	}
	return s
}

// Missing says why a link to r, which names no page, is broken: a page
// that Needs an input is only on a site built with it (the fleet's pages
// and host records, which content cannot count on); any other page, or
// anchor, is not there.
func (r Ref) Missing() string {
	if spec := specs[r.Kind]; spec.Optional() && r.Anchor == "" {
		return "only a site built with " + string(spec.Needs) + " has the " + r.Noun() + " page"
	}
	return "no such " + r.Noun()
}

// Valid reports why r cannot name a page, or nil.
func (r Ref) Valid() error {
	info, ok := specs[r.Kind]
	switch {
	case !ok:
		return fmt.Errorf("unknown page kind %q", r.Kind)
	case info.Dir != "" && r.ID == "":
		return fmt.Errorf("%s needs an id", r.Kind)
	case info.Dir == "" && r.ID != "":
		return fmt.Errorf("%s is a single page and takes no id", r.Kind)
	case r.ID != "" && (!safeID(r.ID) || strings.Contains(r.ID, "..")):
		return fmt.Errorf("%s id %q: use letters, digits, '.', '_' and '-'", r.Kind, r.ID)
	case r.Anchor != "" && !safeID(r.Anchor):
		return fmt.Errorf("anchor %q: use letters, digits, '.', '_' and '-'", r.Anchor)
	}
	return nil
}

// Parse reads a page reference as content and the engine write it:
// "kind/id" ("faq/roce-modes", "tree/no-rdma-traffic", "adapter/connectx-5"),
// "kind" for a single page ("fleet"), either with an optional "#anchor".
// A glossary term is "glossary/<term>", which names the term's anchor on
// glossary.html.
func Parse(s string) (Ref, error) {
	rest, anchor, _ := strings.Cut(s, "#")
	k, id, _ := strings.Cut(rest, "/")
	r := Ref{Kind: Kind(k), ID: id, Anchor: anchor}
	if r.Kind == Glossary && id != "" {
		if anchor != "" {
			return Ref{}, fmt.Errorf("page reference %q: a glossary term is already an anchor", s)
		}
		r.ID, r.Anchor = "", id
	}
	if err := r.Valid(); err != nil {
		return Ref{}, fmt.Errorf("page reference %q: %w", s, err)
	}
	return r, nil
}

// Rel returns the link from the page at path from to the site path to
// (with any #anchor), relative, so the site works from file:// and under
// any base URL: it climbs from from's folder to the root, then descends.
// A URL with a scheme is returned as it is.
func Rel(from, to string) string {
	if strings.Contains(to, "://") {
		return to
	}
	return strings.Repeat("../", strings.Count(from, "/")) + to
}

// RelRef is Rel for a reference.
func RelRef(from string, to Ref) string { return Rel(from, to.URL()) }

// Noun names what r points at, for problems: "no such FAQ page".
func (r Ref) Noun() string {
	switch r.Kind {
	case FAQ:
		return "FAQ page"
	case Tree:
		if r.Anchor != "" {
			return "troubleshooting tree node"
		}
		return "troubleshooting tree"
	case Glossary:
		if r.Anchor != "" {
			return "glossary term"
		}
		return "glossary"
	case NotFound:
		return "404 page"
	}
	return string(r.Kind)
}

var (
	slugUnsafe = regexp.MustCompile(`[^a-z0-9._-]+`)
	slugDots   = regexp.MustCompile(`\.{2,}`)
)

// Slug makes an id that Path accepts from any text, such as a host name
// from a record: lower-case letters, digits, '.', '_' and '-', starting
// with a letter or digit, never "..", at most 100 bytes. It returns ""
// when nothing is left, for the caller to name the page otherwise.
func Slug(s string) string {
	s = slugUnsafe.ReplaceAllString(strings.ToLower(s), "-")
	s = slugDots.ReplaceAllString(s, ".")
	if len(s) > 100 {
		s = s[:100]
	}
	return strings.Trim(s, "-._")
}
