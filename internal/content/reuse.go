package content

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"time"

	"github.com/rocekb/rocekb/internal/bufpool"
	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/page"
)

// loaded is one FAQ file's parse, as a load keeps it for the next.
type loaded struct {
	page  *Page
	probs diag.List
}

// Kinds of the work a load keeps (page.Key.Kind).
const (
	kindStamp = "content: faq file by stamp" // Name the file, Sum its stamp
	kindParse = "content: faq file by bytes" // Name the file, Sum its bytes
	kindLinks = "content: faq body links"    // Name the file, Sum its bytes and linksKey
)

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

// readPage reads and parses the FAQ page at f, reusing the page an earlier
// load parsed when the file's stamp is unchanged (kbgen serve's rebuild
// then reads only the files an edit touched) or its bytes are. keep is
// whether a page read without r holds its markdown (LoadLate); one read
// through r does.
func readPage(fsys fs.FS, f, display string, r page.Reuse, keep bool) (loaded, error) {
	// The file is read into a lent buffer: the page keeps none of its
	// bytes (ParsePage), and 8,000 files' bytes were as many allocations.
	buf := bufpool.Get()
	defer bufpool.Put(buf)
	if r == nil {
		if err := readFile(fsys, f, buf); err != nil {
			return loaded{}, err
		}
		p, probs := parsePage(display, buf.Bytes(), keep)
		if p != nil {
			p.reread = func(buf *bytes.Buffer) error { return readFile(fsys, f, buf) }
		}
		return loaded{page: p, probs: probs}, nil
	}
	var st stamp
	if fi, err := fs.Stat(fsys, f); err == nil {
		st = stampOf(fi)
	}
	stampKey := page.Key{Kind: kindStamp, Name: display, Sum: st.sum()}
	if st != (stamp{}) {
		// The parse by bytes is not marked used here: that would double
		// an update's look-ups, and a file touched without a change after
		// it was dropped is only parsed again.
		if v, ok := r.Load(stampKey); ok {
			return v.(loaded), nil
		}
	}
	if err := readFile(fsys, f, buf); err != nil {
		return loaded{}, err
	}
	src := buf.Bytes()
	l := page.Reused(r, page.Key{Kind: kindParse, Name: display, Sum: sha256.Sum256(src)}, func() loaded {
		p, probs := ParsePage(display, src)
		return loaded{p, probs}
	})
	now := time.Now().UnixNano()
	if l.page != nil && st != (stamp{}) && now-st.mtime > int64(racy) && now-st.ctime > int64(racy) {
		r.Store(stampKey, l)
	}
	return l, nil
}

// readFile reads the file name of fsys into buf, emptied first. Unlike
// fs.ReadFile it asks no size of the file: a lent buffer is most often
// large enough already.
func readFile(fsys fs.FS, name string, buf *bytes.Buffer) error {
	f, err := fsys.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	buf.Reset()
	_, err = buf.ReadFrom(f)
	return err
}

// sum is the stamp's fields, which fill a digest's bytes exactly.
func (st stamp) sum() [sha256.Size]byte {
	var s [sha256.Size]byte
	for i, v := range []uint64{uint64(st.size), uint64(st.mtime), uint64(st.ctime), st.ino} {
		binary.LittleEndian.PutUint64(s[8*i:], v)
	}
	return s
}

// LoadReusing is Load, reusing through r the pages an earlier load
// parsed from files whose stamps or bytes are unchanged.
func LoadReusing(fsys fs.FS, name string, r page.Reuse) (*Content, diag.List) {
	return load(fsys, name, r, true)
}

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
		json.NewEncoder(h).Encode(l.opts.Refs) // the ids links resolve against; map keys encode sorted
	} else {
		fmt.Fprintln(h, "no matrix")
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}
