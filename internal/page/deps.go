package page

import "sort"

// Input is the kind of one thing a page reads while it is made: its
// identities are what the build digests to tell, on kbgen serve's update,
// whether the page must be rendered again (internal/build/keys.go).
type Input string

const (
	// DepSite: the site's configuration (kb.toml: title, base URL, targets)
	// and what every page's header shows (whether there is a glossary,
	// whether there are hosts). Name is "".
	DepSite Input = "site"
	// DepMatrix: the matrix. Name is "", the whole matrix: the verdicts a
	// page shows read across its tables.
	DepMatrix Input = "matrix"
	// DepFile: one content file, whole (front matter and body): an FAQ
	// page's .md, a tree's .toml, the glossary. Name is its path under
	// the content folder, as content reports it.
	DepFile Input = "file"
	// DepFront: another FAQ page's front matter (its title, summary, tags,
	// language and translation key), read to list or link it. Name is
	// the page's content file.
	DepFront Input = "front"
	// DepList: a collection, read whole to choose or list its members: "faq"
	// (every FAQ page's front matter), "trees" (every tree), "links" (what
	// a link in a body may name: the pages, trees, nodes and glossary
	// terms there are), "records" (every host record).
	DepList Input = "list"
	// DepRecord: one host record file. Name is its file name.
	DepRecord Input = "record"
	// DepTemplate: a template the page renders with, and every template it
	// calls. Name is its name under templates/.
	DepTemplate Input = "template"
)

// Dep is one input a page read.
type Dep struct {
	Input Input
	Name  string
}

// Deps records what a page read while it was made. The zero Deps is
// empty and ready; a nil *Deps records nothing.
type Deps struct{ set map[Dep]bool }

// Read records that the page read the input of kind in and name.
func (d *Deps) Read(in Input, name string) {
	if d == nil {
		return
	}
	if d.set == nil {
		d.set = map[Dep]bool{}
	}
	d.set[Dep{in, name}] = true
}

// Has reports whether the page read the input.
func (d *Deps) Has(in Input, name string) bool { return d != nil && d.set[Dep{in, name}] }

// List returns what the page read, sorted by input and name.
func (d *Deps) List() []Dep {
	if d == nil {
		return nil
	}
	out := make([]Dep, 0, len(d.set))
	for dep := range d.set {
		out = append(out, dep)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Input != out[j].Input {
			return out[i].Input < out[j].Input
		}
		return out[i].Name < out[j].Name
	})
	return out
}
