package render

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/site"
)

// Layers is an ordered set of file systems; a later layer overrides an
// earlier one file by file. A nil layer is skipped.
type Layers []fs.FS

func (l Layers) files(dir string) (map[string]fs.FS, error) {
	out := map[string]fs.FS{}
	for _, fsys := range l {
		if fsys == nil {
			continue
		}
		err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) && p == dir {
					return fs.SkipDir
				}
				return err
			}
			if d.Type()&fs.ModeSymlink != 0 {
				// A --static or --templates folder is read through an
				// os.Root: a link out of it (evil.txt -> /etc/passwd) is
				// never published, and the build says which.
				if _, err := fs.Stat(fsys, p); err != nil {
					return fmt.Errorf("%s: a symbolic link out of its folder, or to nothing; not published: %w", p, err)
				}
			}
			if !d.IsDir() {
				out[strings.TrimPrefix(strings.TrimPrefix(p, dir), "/")] = fsys
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", dir, err)
		}
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Templates are the parsed templates/*.html of the layers. A page renders
// with its kind's template (page.Table), its typed page as dot.
type Templates struct {
	t *template.Template
	// Digest identifies the template files' names and bytes, for the keys
	// of the pages they render (see Keyed).
	Digest string
	frags  fragments // the HTML of "shared" templates, by their data
	// Fresh renders every "shared" template anew instead of reusing the
	// HTML rendered for equal data: a test holds the two to each other.
	Fresh  bool
	values *holder // what "held" keeps for the page's writer (held.go)
	// Inline prints a value given to "held" as a template prints any
	// value, through fmt: a test holds the two to each other.
	Inline bool
}

// LoadTemplates parses templates/*.html from the layers.
func LoadTemplates(layers Layers) (*Templates, error) {
	files, err := layers.files("templates")
	if err != nil {
		return nil, err
	}
	values, err := newHolder()
	if err != nil {
		return nil, err
	}
	tp := &Templates{values: values}
	// shared "name" data: the named template with data as dot, rendered
	// once per distinct value of data in a build (see Templates.shared).
	// held .X: the HTML X written into the page as it is, not copied by
	// fmt first (see held.go).
	base := template.New("").Funcs(funcs).Funcs(template.FuncMap{"shared": tp.shared, "held": tp.held})
	sum := sha256.New()
	for _, n := range sortedKeys(files) {
		if !strings.HasSuffix(n, ".html") {
			continue
		}
		b, err := fs.ReadFile(files[n], path.Join("templates", n))
		if err != nil {
			return nil, err
		}
		if _, err := base.New(n).Parse(string(b)); err != nil {
			return nil, fmt.Errorf("templates/%s: %w", n, err)
		}
		fmt.Fprintf(sum, "%s %d\n", n, len(b))
		sum.Write(b)
	}
	tp.t, tp.Digest = base, fmt.Sprintf("%x", sum.Sum(nil))
	return tp, nil
}

// Execute writes page p.
func (t *Templates) Execute(w io.Writer, p site.Page) error {
	m := p.PageMeta()
	name := page.SpecOf(m.Ref.Kind).Template
	if name == "" || t.t.Lookup(name) == nil {
		return fmt.Errorf("%s: no template %q", m.Path(), name)
	}
	if err := t.run(w, name, p); err != nil {
		return fmt.Errorf("%s: %w", m.Path(), err)
	}
	return nil
}

// run writes the named template with data as dot, held values in place of
// their tokens.
func (t *Templates) run(w io.Writer, name string, data any) error {
	return t.t.ExecuteTemplate(&heldWriter{w, t.values}, name, data)
}

// Page is the output of a page.
func (t *Templates) Page(p site.Page) Output {
	return Func(p.PageMeta().Path(), func(w io.Writer) error { return t.Execute(w, p) })
}

// Deferred is the output of a page made only when it is written, on a
// writer's goroutine: the page data of a host is made, rendered and
// dropped there, not held for the whole build.
func (t *Templates) Deferred(name string, make func() site.Page) Output {
	return Func(name, func(w io.Writer) error { return t.Execute(w, make()) })
}

// Pages emits the outputs of pages.
func (t *Templates) Pages(pages []site.Page) Producer {
	return func(emit func(Output) error) error {
		for _, p := range pages {
			if err := emit(t.Page(p)); err != nil {
				return err
			}
		}
		return nil
	}
}

// funcs link from the page being rendered (always the template's $), so
// every link is relative and the site works from file:// and under any
// sub-path.
var funcs = template.FuncMap{
	// rel $ "adapter" .ID: the link to the page of a kind and id (no id
	// for single pages: rel $ "fleet").
	"rel": func(from site.Page, kind string, id ...string) (string, error) {
		r := page.Ref{Kind: page.Kind(kind)}
		if len(id) > 0 {
			r.ID = id[0]
		}
		if len(id) > 1 {
			r.Anchor = id[1]
		}
		if err := r.Valid(); err != nil {
			return "", err
		}
		return page.RelRef(from.PageMeta().Path(), r), nil
	},
	// link $ "faq/x": the link for a page reference as content and the
	// engine write them ("tree/y", "glossary/z"), or a URL as it is.
	"link": func(from site.Page, target string) (string, error) {
		if strings.Contains(target, "://") {
			return target, nil
		}
		r, err := page.Parse(target)
		if err != nil {
			return "", err
		}
		return page.RelRef(from.PageMeta().Path(), r), nil
	},
	// asset $ "style.css": the link to a static file.
	"asset": func(from site.Page, name string) string { return page.Rel(from.PageMeta().Path(), name) },
	"join":  strings.Join,
	"date":  func(t interface{ Format(string) string }) string { return t.Format("2006-01-02") },
}
