package kb

import (
	"errors"
	"io/fs"
	"path"
	"runtime"
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
//
// Records are read and decoded ahead on GOMAXPROCS goroutines (decoding
// is most of a fleet build's work), a bounded window of them at a time;
// fn still sees them one by one, in file order, on the caller's goroutine.
func (r *Records) Each(fn func(h *record.Host) error) (diag.List, error) {
	var probs diag.List
	if r == nil {
		return nil, nil
	}
	workers := runtime.GOMAXPROCS(0)
	type task struct {
		f   string
		out chan<- decoded
	}
	tasks := make(chan task)
	ahead := make(chan chan decoded, 4*workers) // in file order
	done := make(chan struct{})
	defer close(done)
	go func() {
		defer close(tasks)
		defer close(ahead)
		for _, f := range r.Files {
			c := make(chan decoded, 1)
			select {
			case ahead <- c:
			case <-done:
				return
			}
			tasks <- task{f, c}
		}
	}()
	for range workers {
		go func() {
			for t := range tasks {
				t.out <- r.decode(t.f)
			}
		}()
	}
	for c := range ahead {
		d := <-c
		probs = append(probs, d.probs...)
		if d.h == nil {
			continue
		}
		if err := fn(d.h); err != nil {
			probs.Sort()
			return probs, err
		}
	}
	probs.Sort()
	return probs, nil
}

// decoded is one record file, read and decoded.
type decoded struct {
	h     *record.Host
	probs diag.List
}

// decode reads and decodes file f; h is nil when it does not decode.
func (r *Records) decode(f string) decoded {
	display := path.Join(r.name, f)
	src, err := fs.ReadFile(r.fsys, f)
	if err != nil {
		var probs diag.List
		probs.Add(display, diag.Pos{}, "read: %v", err)
		return decoded{probs: probs}
	}
	h, probs := record.Decode(display, src)
	if h != nil && h.Host.ID == "" {
		// A record without a host id (no hostname in the snapshot) is
		// named after its file, in parentheses, as kbgen check does.
		base := path.Base(f)
		h.Host.ID = "(" + strings.TrimSuffix(base, path.Ext(base)) + ")"
	}
	return decoded{h: h, probs: probs}
}
