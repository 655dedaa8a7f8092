package build

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"

	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/render"
	"github.com/rocekb/rocekb/internal/site"
)

// keys make the outputs' keys (render.Keyed) from digests of the inputs,
// so kbgen serve's update renders only the outputs whose inputs changed.
// An output is keyed only where every input it reads is in its key; the
// rest are rendered on every build and written when their bytes change.
// TestUpdateEqualsBuild edits each kind of input to hold this true. The
// zero keys, for a build no update will follow, key nothing.
type keys struct {
	matrix  string // config and every matrix file: the exports and verdicts
	aliases string // matrix and glossary: the search aliases
	pages   string // matrix, templates, content front matter, trees, glossary, whether there are hosts
	sums    pageSums
}

// pageSums are the digests of each FAQ page's front matter and body, made
// once per parsed page: content.Cache gives an unchanged file's page
// again, so a rebuild digests only the pages an edit touched.
type pageSums map[*content.Page]pageSum

type pageSum struct{ meta, body [sha256.Size]byte }

func (ps pageSums) of(p *content.Page) pageSum {
	if s, ok := ps[p]; ok {
		return s
	}
	h := sha256.New()
	json.NewEncoder(h).Encode([]any{p.File, p.Slug, p.Meta})
	var s pageSum
	h.Sum(s.meta[:0])
	s.body = sha256.Sum256([]byte(p.Body))
	ps[p] = s
	return s
}

// newKeys makes the keys from the inputs; matrix is kb.FilesDigest of the
// matrix folder, which the kb cache has already read; prev are the page
// digests of the build before.
func newKeys(cfg config.Config, tpl *render.Templates, c *content.Content, hosts bool, matrix string, prev pageSums) keys {
	h := sha256.New()
	fmt.Fprintf(h, "%#v\n%s\n", cfg, matrix)
	k := keys{matrix: fmt.Sprintf("%x", h.Sum(nil)), sums: make(pageSums, len(c.Pages))}
	ah := sha256.New()
	fmt.Fprintf(ah, "%s\n", k.matrix)
	json.NewEncoder(ah).Encode(c.Glossary)
	k.aliases = fmt.Sprintf("%x", ah.Sum(nil))
	fmt.Fprintf(h, "templates %s hosts %t\n", tpl.Digest, hosts)
	for _, p := range c.Pages {
		s, ok := prev[p]
		if !ok {
			s = k.sums.of(p)
		}
		k.sums[p] = s
		h.Write(s.meta[:])
	}
	enc := json.NewEncoder(h)
	enc.Encode(c.Trees)
	enc.Encode(c.Glossary)
	k.pages = fmt.Sprintf("%x", h.Sum(nil))
	return k
}

// page is the key of a page whose inputs its kind's rule (page.Table's
// Key) names, or "": every page reads the matrix, the content's front
// matter, trees and glossary, the templates and the configuration
// (KeyShared); a FAQ page also its body (KeyBody), an adapter page the
// hosts that run the adapter (KeyFleet). Pages that read every host
// (KeyNone), host pages (keyed by host) and a kind without a rule have
// no key, so an update renders them every time.
func (k keys) page(p site.Page) string {
	if k.pages == "" {
		return ""
	}
	h := sha256.New()
	m := p.PageMeta()
	fmt.Fprintf(h, "%s %s\n", k.pages, m.Path())
	switch page.SpecOf(m.Ref.Kind).Key {
	case page.KeyShared:
	case page.KeyBody:
		f, ok := p.(*site.FAQ)
		if !ok {
			return ""
		}
		b := k.sums.of(f.Page).body
		h.Write(b[:])
	case page.KeyFleet:
		a, ok := p.(*site.AdapterPage)
		if !ok {
			return ""
		}
		json.NewEncoder(h).Encode(a.Fleet)
	default:
		return ""
	}
	return fmt.Sprintf("%x", h.Sum(nil))
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

// host is the key of a host's page and record download: the page key's
// inputs, the page's path and the record's bytes.
func (k keys) host(path string, src []byte) string {
	if k.pages == "" {
		return ""
	}
	hs := sha256.New()
	fmt.Fprintf(hs, "host %s %s\n", k.pages, path)
	hs.Write(src)
	return fmt.Sprintf("%x", hs.Sum(nil))
}
