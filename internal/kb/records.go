package kb

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/record"
)

// Records are the host record files of a knowledge base, listed but not
// read, so a build can read, use and drop one record at a time: 50,000
// records never sit in memory together.
type Records struct {
	fsys  fs.FS
	name  string
	Files []string // slash paths in the folder, sorted
}

// listRecords finds every *.toml and *.json record under fsys, as
// record.LoadDir reads them. A missing folder holds no records.
func listRecords(fsys fs.FS, name string) (*Records, diag.List) {
	r := &Records{fsys: fsys, name: name}
	var probs diag.List
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == "." {
				return fs.SkipAll
			}
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".toml") || strings.HasSuffix(p, ".json")) {
			r.Files = append(r.Files, p)
		}
		return nil
	})
	if err != nil {
		probs.Add(name, diag.Pos{}, "read records: %v", err)
		return nil, probs
	}
	sort.Strings(r.Files)
	return r, nil
}

// Each reads the records in file order and calls fn with each one that
// decodes. It returns the problems of every record, sorted, and the first
// error fn returned, which stops it.
func (r *Records) Each(fn func(h *record.Host) error) (diag.List, error) {
	var probs diag.List
	if r == nil {
		return nil, nil
	}
	for _, f := range r.Files {
		display := path.Join(r.name, f)
		src, err := fs.ReadFile(r.fsys, f)
		if err != nil {
			probs.Add(display, diag.Pos{}, "read: %v", err)
			continue
		}
		h, ps := record.Decode(display, src)
		probs = append(probs, ps...)
		if h == nil {
			continue
		}
		if h.Host.ID == "" {
			// A record without a host id (no hostname in the snapshot) is
			// named after its file, in parentheses, as kbgen check does.
			base := path.Base(f)
			h.Host.ID = "(" + strings.TrimSuffix(base, path.Ext(base)) + ")"
		}
		if err := fn(h); err != nil {
			probs.Sort()
			return probs, err
		}
	}
	probs.Sort()
	return probs, nil
}
