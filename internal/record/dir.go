package record

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/diag"
)

// LoadDir reads every *.toml and *.json record in fsys, recursively. name
// prefixes file names in problems. A missing folder holds no records.
func LoadDir(fsys fs.FS, name string) ([]*Host, diag.List) {
	var hosts []*Host
	var probs diag.List
	var files []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == "." {
				return fs.SkipAll
			}
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".toml") || strings.HasSuffix(p, ".json")) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		probs.Add(name, diag.Pos{}, "read records: %v", err)
		return nil, probs
	}
	sort.Strings(files)
	for _, f := range files {
		display := path.Join(name, f)
		src, err := fs.ReadFile(fsys, f)
		if err != nil {
			probs.Add(display, diag.Pos{}, "read: %v", err)
			continue
		}
		h, ps := Decode(display, src)
		probs = append(probs, ps...)
		if h != nil && h.Host.ID == "" {
			// A record without a host id (no hostname in the snapshot) is
			// named after its file, in parentheses, as kbgen check does.
			base := path.Base(f)
			h.Host.ID = "(" + strings.TrimSuffix(base, path.Ext(base)) + ")"
		}
		if h != nil {
			hosts = append(hosts, h)
		}
	}
	probs.Sort()
	return hosts, probs
}
