package build

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"sync"

	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/render"
	"github.com/rocekb/rocekb/internal/site"
)

// keys make the outputs' keys (render.Keyed), so kbgen serve's update
// renders only the outputs whose inputs changed. A page's key is a digest
// of its path and of every input it recorded reading while it was made
// (site.Meta.Deps, site.HostJob.Deps): each input is digested once per
// build, here, from what the build loaded, and a page that read an input
// with no digest gets no key and is rendered every time. Exports that
// read only the matrix are keyed on it (fromMatrix); the rest of the
// outputs are rendered on every build and written when their bytes
// change. TestUpdateEqualsBuild edits each kind of input to hold this
// true. The zero keys, for a build no update will follow, key nothing.
type keys struct {
	matrix  string // config and every matrix file: the exports and verdicts
	aliases string // matrix and glossary: the search aliases
	in      *digests
}

// digest is one input's digest: of what it is and what it holds.
type digest = [sha256.Size]byte

// digests are the digests of the inputs the pages read, by page.Input.
// The fixed inputs and the content files are digested when the keys are
// made, a record as the build reads it, a group (and the list of every
// record) when a page first asks.
type digests struct {
	inputs *page.Inputs

	mu      sync.Mutex
	sum     []digest // by page.Input
	known   []bool
	records []page.Input // the records, as the build read them
}

// pageSum is the digests of an FAQ page's front matter and body, made
// once per file's bytes: a rebuild digests only the pages an edit touched.
type pageSum struct{ meta, body digest }

func sumOf(r page.Reuse, p *content.Page) pageSum {
	return page.Reused(r, page.Key{Kind: "build: faq digests", Name: p.File, Sum: p.Sum}, func() pageSum {
		h := sha256.New()
		json.NewEncoder(h).Encode([]any{p.File, p.Slug, p.Meta})
		var s pageSum
		h.Sum(s.meta[:0])
		s.body = sha256.Sum256([]byte(p.Body))
		return s
	})
}

// newKeys makes the keys of the site s; matrix is the digest of the
// matrix's files (kb.KB.MatrixSum); r keeps the FAQ pages' digests.
func newKeys(cfg config.Config, s *site.Site, tpl *render.Templates, c *content.Content, matrix digest, r page.Reuse) keys {
	h := sha256.New()
	fmt.Fprintf(h, "%#v\n%x\n", cfg, matrix)
	k := keys{matrix: hex.EncodeToString(h.Sum(nil))}
	ah := sha256.New()
	fmt.Fprintf(ah, "%s\n", k.matrix)
	json.NewEncoder(ah).Encode(c.Glossary)
	k.aliases = hex.EncodeToString(ah.Sum(nil))

	d := &digests{inputs: s.Inputs}
	k.in = d
	fixed := func(id page.Input, write func(h hash.Hash)) {
		h := sha256.New()
		fmt.Fprintf(h, "fixed %d\n", id)
		write(h)
		d.set(id, h)
	}
	fixed(page.InConfig, func(h hash.Hash) { fmt.Fprintf(h, "%#v\n%#v\n", cfg, *s.Info) })
	fixed(page.InMatrix, func(h hash.Hash) { fmt.Fprintf(h, "%x\n", matrix) })
	fixed(page.InTemplates, func(h hash.Hash) { fmt.Fprintln(h, tpl.Digest) })
	fixed(page.InLinks, func(h hash.Hash) { fmt.Fprintln(h, c.Structure()) })
	fixed(page.InGlossary, func(h hash.Hash) { json.NewEncoder(h).Encode(c.Glossary) })
	// A content file's digest, and its front matter's, are kept only
	// where a page read them; every page's front matter makes the list.
	named := func(kind page.Named, file string, write func(h hash.Hash)) {
		if id, ok := d.inputs.Lookup(kind, file); ok {
			h := sha256.New()
			fmt.Fprintf(h, "%d %q\n", kind, file)
			write(h)
			d.set(id, h)
		}
	}
	list := sha256.New()
	for _, p := range c.Pages {
		ps := sumOf(r, p)
		list.Write(ps.meta[:])
		named(page.InFront, p.File, func(h hash.Hash) { h.Write(ps.meta[:]) })
		named(page.InFile, p.File, func(h hash.Hash) { h.Write(ps.meta[:]); h.Write(ps.body[:]) })
	}
	fixed(page.InFAQList, func(h hash.Hash) { h.Write(list.Sum(nil)) })
	list.Reset()
	for _, t := range c.Trees {
		th := sha256.New()
		json.NewEncoder(th).Encode(t)
		ts := th.Sum(nil)
		list.Write(ts)
		named(page.InFile, t.File, func(h hash.Hash) { h.Write(ts) })
	}
	fixed(page.InTreeList, func(h hash.Hash) { h.Write(list.Sum(nil)) })
	return k
}

// set keeps h's digest as input id's.
func (d *digests) set(id page.Input, h hash.Hash) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.grow(id)
	h.Sum(d.sum[id][:0])
	d.known[id] = true
}

func (d *digests) grow(id page.Input) {
	if int(id) >= len(d.sum) {
		n := max(int(id)+1, d.inputs.Len())
		d.sum = append(d.sum, make([]digest, n-len(d.sum))...)
		d.known = append(d.known, make([]bool, n-len(d.known))...)
	}
}

// of is the digest of input id, or false when the build has none: a
// group's is made from its members' when first asked for.
func (d *digests) of(id page.Input) (digest, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ofLocked(id)
}

func (d *digests) ofLocked(id page.Input) (digest, bool) {
	d.grow(id)
	if d.known[id] {
		return d.sum[id], true
	}
	n, ok := d.inputs.Name(id)
	if !ok || n.Kind != page.InGroup {
		return digest{}, false
	}
	h := sha256.New()
	fmt.Fprintf(h, "group %q\n", n.Name)
	for _, m := range d.inputs.Members(id) {
		s, ok := d.ofLocked(m)
		if !ok {
			return digest{}, false
		}
		h.Write(s[:])
	}
	h.Sum(d.sum[id][:0])
	d.known[id] = true
	return d.sum[id], true
}

// record digests a host record as the build reads it: its file, the
// path of the page it was given and its bytes. Call it in record order.
func (k keys) record(j *site.HostJob, file string, src []byte) {
	if k.in == nil {
		return
	}
	h := sha256.New()
	fmt.Fprintf(h, "record %q %q\n", file, j.Path())
	b := sha256.Sum256(src)
	h.Write(b[:])
	k.in.set(j.Input(), h)
	k.in.mu.Lock()
	k.in.records = append(k.in.records, j.Input())
	k.in.mu.Unlock()
}

// recordsRead digests the list of every record read (page.InRecords),
// for the pages made once the host pages are done.
func (k keys) recordsRead() {
	if k.in == nil {
		return
	}
	k.in.mu.Lock()
	h := sha256.New()
	fmt.Fprintf(h, "fixed %d\n", page.InRecords)
	for _, id := range k.in.records {
		h.Write(k.in.sum[id][:])
	}
	k.in.mu.Unlock()
	k.in.set(page.InRecords, h)
}

// deps is the key of the output at path made from what deps records, or
// "" when an input is one the build has no digest of.
func (k keys) deps(path string, deps *page.Deps) string {
	if k.in == nil || deps.Empty() {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", path)
	ok := true
	deps.Each(func(id page.Input) {
		s, found := k.in.of(id)
		ok = ok && found
		h.Write(s[:])
	})
	if !ok {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// page is the key of a page: its path and what it read.
func (k keys) page(p site.Page) string {
	m := p.PageMeta()
	return k.deps(m.Path(), m.Deps())
}

// pageOutput is the output of page p, keyed where k knows its inputs.
func (k keys) pageOutput(tpl *render.Templates, p site.Page) render.Output {
	o := tpl.Page(p)
	if key := k.page(p); key != "" {
		o = render.Keyed(o, key)
	}
	return o
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
