package content

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"time"

	"github.com/rocekb/rocekb/internal/diag"
)

// Cache keeps, between loads of one content folder (kbgen serve's
// rebuilds), each FAQ page parsed from bytes that did not change (the
// same *Page, so later stages can tell it is unchanged) and the problems
// of each page body's links and citations. A nil *Cache keeps nothing.
type Cache struct {
	pages  map[string]cachedPage // file → its last parse
	bodies map[bodyKey]diag.List // a body's link and citation problems
}

type cachedPage struct {
	sum   [sha256.Size]byte
	page  *Page
	probs diag.List
	stamp stamp // the file's when it was read; zero: read it again
}

// stamp is what a file's metadata says of its bytes: a file whose stamp is
// the one it had when it was read, and was not racy then, holds the same
// bytes (as git's index and make trust them).
type stamp struct {
	size, mtime, ctime int64
	ino                uint64
}

// racy is how recent a file's times may be for its stamp to be trusted:
// a file written again within the file system's clock tick of the read
// could keep its times and size with other bytes.
var racy = 2 * time.Second

// page reads and parses the FAQ page at f, reusing the page an earlier
// load parsed when the file's stamp is unchanged (kbgen serve's rebuild
// then reads only the files an edit touched) or its bytes are.
// It reads c and writes nothing: what the next load may reuse is the
// returned entry, so pages may be read concurrently.
func (c *Cache) page(fsys fs.FS, f, display string) (cachedPage, error) {
	if c == nil {
		src, err := fs.ReadFile(fsys, f)
		if err != nil {
			return cachedPage{}, err
		}
		p, probs := ParsePage(display, src)
		return cachedPage{page: p, probs: probs}, nil
	}
	var st stamp
	if fi, err := fs.Stat(fsys, f); err == nil {
		st = stampOf(fi)
	}
	if old, ok := c.pages[display]; ok && st != (stamp{}) && old.stamp == st {
		return old, nil
	}
	src, err := fs.ReadFile(fsys, f)
	if err != nil {
		return cachedPage{}, err
	}
	e := c.parse(display, src)
	now := time.Now().UnixNano()
	if st != (stamp{}) && now-st.mtime > int64(racy) && now-st.ctime > int64(racy) {
		e.stamp = st
	}
	return e, nil
}

type bodyKey struct {
	page  *Page
	links string // Structure and the matrix references the links resolved against
}

// parse is ParsePage, reusing the page an earlier load parsed from src.
func (c *Cache) parse(file string, src []byte) cachedPage {
	sum := sha256.Sum256(src)
	if old, ok := c.pages[file]; ok && old.sum == sum {
		old.stamp = stamp{}
		return old
	}
	p, probs := ParsePage(file, src)
	return cachedPage{sum: sum, page: p, probs: probs}
}

// Load is the package's Load, reusing unchanged pages.
func (c *Cache) Load(fsys fs.FS, name string) (*Content, diag.List) { return load(fsys, name, c) }

// Structure identifies what links into content can name: the pages'
// slugs, the trees' ids and node ids and the glossary's ids.
func (c *Content) Structure() string {
	h := sha256.New()
	var slugs []string
	for _, p := range c.Pages {
		slugs = append(slugs, p.Slug)
	}
	sort.Strings(slugs)
	fmt.Fprintln(h, slugs)
	for _, t := range c.Trees {
		fmt.Fprint(h, t.ID)
		for _, n := range t.Nodes {
			fmt.Fprint(h, " ", n.ID)
		}
		fmt.Fprintln(h)
	}
	for _, t := range c.Glossary {
		fmt.Fprintln(h, t.ID)
	}
	fmt.Fprintln(h, len(c.Glossary) > 0)
	return fmt.Sprintf("%x", h.Sum(nil))
}

// linksKey identifies everything a body's links are checked against.
func (l *linter) linksKey() string {
	h := sha256.New()
	fmt.Fprintln(h, l.c.Structure())
	if l.opts.Refs != nil {
		json.NewEncoder(h).Encode(l.opts.Refs.Adapters) // map keys encode sorted
	} else {
		fmt.Fprintln(h, "no matrix")
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

func (c *Cache) body(k bodyKey) (diag.List, bool) {
	if c == nil {
		return nil, false
	}
	probs, ok := c.bodies[k]
	return probs, ok
}
