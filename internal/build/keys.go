package build

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"hash"
	"sync"

	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/render"
	"github.com/rocekb/rocekb/internal/search"
	"github.com/rocekb/rocekb/internal/site"
)

// keys make the outputs' keys (render.Keyed), so kbgen serve's update
// renders only the outputs whose inputs changed. A page's key is a digest
// of its path and of every input it recorded reading while it was made
// (page.Deps: site.Meta.Deps, site.HostJob.Deps), each input digested
// here from what the build loaded; an input no digest names leaves the
// page without a key, rendered every time. Outputs that are not pages
// (exports, the search index) are keyed on what they read. The rest are
// rendered on every build and written when their bytes change.
// TestUpdateEqualsBuild edits each kind of input to hold this true. The
// zero keys, for a build no update will follow, key nothing.
type keys struct {
	matrix  string // config and every matrix file: the exports and verdicts
	aliases string // matrix and glossary: the search aliases
	in      *inputs
}

// inputs are the digests of the inputs a page may record, by page.Dep.
type inputs struct {
	site, matrix, templates string
	files                   map[string]string // content file → its digest (page.DepFile)
	fronts                  map[string]string // FAQ file → its front matter's (page.DepFront)

	mu      sync.Mutex
	lists   map[string]string // page.DepList
	records map[string]string // record file → the digest of its bytes
	order   []string          // the records' files, as the build read them
}

// pageDigests are a FAQ page's digests: its front matter's and its file's.
type pageDigests struct{ front, file string }

// newKeys makes the keys from the inputs; matrix is kb.FilesDigest of the
// matrix folder, which the kb cache has already read. kept are the FAQ
// pages' digests the build before made, by page: the content cache gives
// an unchanged file's page again, and its digests are taken from kept and
// kept again in next.
func newKeys(cfg config.Config, info *site.Info, tpl *render.Templates, c *content.Content, matrix string, kept, next map[*content.Page]pageDigests) keys {
	h := sha256.New()
	fmt.Fprintf(h, "%#v\n%s\n", cfg, matrix)
	k := keys{matrix: sum(h)}
	ah := sha256.New()
	fmt.Fprintf(ah, "%s\n", k.matrix)
	json.NewEncoder(ah).Encode(c.Glossary)
	k.aliases = sum(ah)

	in := &inputs{matrix: matrix, templates: tpl.Digest, files: map[string]string{}, fronts: map[string]string{}, lists: map[string]string{}, records: map[string]string{}}
	h = sha256.New()
	fmt.Fprintf(h, "%#v\n%#v\n", cfg, *info)
	in.site = sum(h)
	all := sha256.New()
	for _, p := range c.Pages {
		d, ok := kept[p]
		if !ok {
			h := sha256.New()
			json.NewEncoder(h).Encode([]any{p.File, p.Slug, p.Meta})
			d.front = sum(h)
			fmt.Fprintf(h, "%d\n", p.BodyLine)
			h.Write([]byte(p.Body))
			d.file = sum(h)
		}
		if next != nil {
			next[p] = d
		}
		in.fronts[p.File], in.files[p.File] = d.front, d.file
		fmt.Fprintf(all, "%s\n", d.front)
	}
	in.lists["faq"] = sum(all)
	all = sha256.New()
	for _, t := range c.Trees {
		h := sha256.New()
		json.NewEncoder(h).Encode(t)
		in.files[t.File] = sum(h)
		fmt.Fprintf(all, "%s %s\n", t.File, in.files[t.File])
	}
	in.lists["trees"] = sum(all)
	h = sha256.New()
	json.NewEncoder(h).Encode(c.Glossary)
	in.lists["glossary"] = sum(h)
	in.lists["links"] = c.Structure()
	k.in = in
	return k
}

func sum(h hash.Hash) string { return fmt.Sprintf("%x", h.Sum(nil)) }

// record notes a host record's bytes, read in record order.
func (k keys) record(file string, src []byte) {
	if k.in == nil {
		return
	}
	d := fmt.Sprintf("%x", sha256.Sum256(src))
	k.in.mu.Lock()
	k.in.records[file] = d
	k.in.order = append(k.in.order, file)
	k.in.mu.Unlock()
}

// recordsRead makes the digest of every record read (page.DepList
// "records"), for the pages made after the host pages.
func (k keys) recordsRead() {
	if k.in == nil {
		return
	}
	k.in.mu.Lock()
	defer k.in.mu.Unlock()
	h := sha256.New()
	for _, f := range k.in.order {
		fmt.Fprintf(h, "%q %s\n", f, k.in.records[f])
	}
	k.in.lists["records"] = sum(h)
}

// digest is the digest of one input, or false when the build does not
// know it.
func (in *inputs) digest(d page.Dep) (string, bool) {
	switch d.Input {
	case page.DepSite:
		return in.site, true
	case page.DepMatrix:
		return in.matrix, true
	case page.DepTemplate:
		return in.templates, true
	case page.DepFile:
		s, ok := in.files[d.Name]
		return s, ok
	case page.DepFront:
		s, ok := in.fronts[d.Name]
		return s, ok
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	switch d.Input {
	case page.DepList:
		s, ok := in.lists[d.Name]
		return s, ok
	case page.DepRecord:
		s, ok := in.records[d.Name]
		return s, ok
	}
	return "", false
}

// deps is the key of the output at path made from what deps records, or
// "" when an input is one the build has no digest of.
func (k keys) deps(path string, deps *page.Deps) string {
	if k.in == nil {
		return ""
	}
	list := deps.List()
	if len(list) == 0 {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", path)
	for _, d := range list {
		s, ok := k.in.digest(d)
		if !ok {
			return ""
		}
		fmt.Fprintf(h, "%s %q %s\n", d.Input, d.Name, s)
	}
	return sum(h)
}

// page is the key of a page: its path and what it read.
func (k keys) page(p site.Page) string {
	m := p.PageMeta()
	return k.deps(m.Path(), m.Deps())
}

// keyedPages emits the outputs of pages, keyed on what each read.
func (k keys) keyedPages(tpl *render.Templates, pages []site.Page) render.Producer {
	return func(emit func(render.Output) error) error {
		for _, p := range pages {
			o := tpl.Page(p)
			if key := k.page(p); key != "" {
				o = render.Keyed(o, key)
			}
			if err := emit(o); err != nil {
				return err
			}
		}
		return nil
	}
}

// fromMatrix keys every output of a producer that reads only the matrix
// and the configuration.
func (k keys) fromMatrix(produce render.Producer) render.Producer {
	if k.matrix == "" {
		return produce
	}
	return func(emit func(render.Output) error) error {
		return produce(func(o render.Output) error { return emit(render.Keyed(o, k.matrix)) })
	}
}

// index is the key of the static search index of docs: the documents, the
// aliases (the matrix and the glossary) and the configuration.
func (k keys) index(docs []search.Doc) string {
	if k.in == nil {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "index %s %s\n", k.in.site, k.aliases)
	enc := json.NewEncoder(h)
	for i := range docs {
		if err := enc.Encode(&docs[i]); err != nil {
			return ""
		}
	}
	return sum(h)
}
