package record

import (
	"errors"
	"github.com/rocekb/rocekb/internal/visible"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/diag"
)

// MaxDepth is how many folders below the one named LoadDir descends.
const MaxDepth = 8

// skipDirs are folders that never hold host records.
var skipDirs = map[string]bool{".git": true, "node_modules": true}

// Load reads host records from a file or a folder on disk, as kbgen build
// and check name them. A missing path is an error (errors.Is
// fs.ErrNotExist); problems in what it reads come back as a list.
func Load(name string) ([]*Host, diag.List, error) {
	set, probs, err := List(name)
	if err != nil {
		return nil, nil, err
	}
	hosts, ps := set.All()
	probs = append(probs, ps...)
	probs.Sort()
	return hosts, probs, nil
}

// LoadDir reads every *.toml and *.json record in fsys, recursively, in
// name order. It skips .git and node_modules, sosreport folders and
// anything deeper than MaxDepth folders. name prefixes file names in
// problems. A missing folder holds no records. When it finds no record but
// snapshots, it says so and how to turn them into records.
func LoadDir(fsys fs.FS, name string) ([]*Host, diag.List) {
	set, probs := ListDir(fsys, name)
	hosts, ps := set.All()
	probs = append(probs, ps...)
	probs.Sort()
	return hosts, probs
}

// Set is the record files under a path, listed but not read, so that a
// build can read, use and drop one record at a time.
type Set struct {
	fsys  fs.FS
	name  string   // prefixes file names in problems
	Files []string // slash paths in fsys, sorted
}

// List lists the records a file or a folder on disk holds, as Load reads
// them. A missing path is an error (errors.Is fs.ErrNotExist).
func List(name string) (*Set, diag.List, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, nil, err
	}
	if st.IsDir() {
		set, probs := ListDir(os.DirFS(name), name)
		return set, probs, nil
	}
	dir, file := filepath.Split(name)
	dir = strings.TrimSuffix(filepath.ToSlash(dir), "/")
	if dir == "" {
		dir = "."
	}
	return &Set{fsys: os.DirFS(dir), name: dir, Files: []string{file}}, nil, nil
}

// ListDir lists the records of fsys as LoadDir reads them.
func ListDir(fsys fs.FS, name string) (*Set, diag.List) {
	set := &Set{fsys: fsys, name: name}
	var probs diag.List
	var snapshots []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == "." {
				return fs.SkipAll
			}
			return err
		}
		if d.IsDir() {
			switch {
			case p == ".":
				if isSosreport(fsys, p) {
					snapshots = append(snapshots, p)
					return fs.SkipDir
				}
			case skipDirs[d.Name()]:
				return fs.SkipDir
			case strings.Count(p, "/")+1 > MaxDepth:
				probs.Warn(path.Join(name, p), diag.Pos{}, "not read: more than %d folders deep", MaxDepth)
				return fs.SkipDir
			case isSosreport(fsys, p):
				snapshots = append(snapshots, p)
				return fs.SkipDir
			}
			return nil
		}
		switch {
		case isRecordName(p):
			set.Files = append(set.Files, p)
		case isSnapshot(p):
			snapshots = append(snapshots, p)
		}
		return nil
	})
	if err != nil {
		probs.Add(name, diag.Pos{}, "read records: %v", err)
		return set, probs
	}
	sort.Strings(set.Files)
	if len(set.Files) == 0 && len(snapshots) > 0 {
		sort.Strings(snapshots)
		first := snapshots[0]
		what := notRecord(first)
		if first == "." || !isSnapshot(first) {
			what = "looks like a sosreport folder: run kbcollect on it first (kbcollect --root " + path.Join(name, first) + " > host.toml)"
		}
		probs.Warn(path.Join(name, first), diag.Pos{}, "no host record here, only %d snapshot(s); this one %s", len(snapshots), what)
	}
	probs.Sort()
	return set, probs
}

// Len is the number of record files.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.Files)
}

// Each reads the records in file order and calls fn with each one that
// decodes and is valid (see Validate); a record that is not is skipped,
// its problems returned. It returns the problems of every record, sorted,
// and the first error fn returned, which stops it.
func (s *Set) Each(fn func(h *Host) error) (diag.List, error) {
	if s == nil {
		return nil, nil
	}
	// Records are read and decoded ahead on GOMAXPROCS goroutines
	// (decoding was most of a fleet build's work), a bounded window of
	// them at a time; fn still sees them one by one, in file order, on the
	// caller's goroutine.
	type loaded struct {
		h     *Host
		probs diag.List
	}
	type task struct {
		f   string
		out chan<- loaded
	}
	workers := runtime.GOMAXPROCS(0)
	tasks := make(chan task)
	ahead := make(chan chan loaded, 4*workers) // in file order
	done := make(chan struct{})
	defer close(done)
	go func() {
		defer close(tasks)
		defer close(ahead)
		for _, f := range s.Files {
			c := make(chan loaded, 1)
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
				h, ps := loadFile(s.fsys, t.f, path.Join(s.name, t.f))
				t.out <- loaded{h, ps}
			}
		}()
	}
	var probs diag.List
	for c := range ahead {
		l := <-c
		probs = append(probs, l.probs...)
		if l.h == nil {
			continue
		}
		if err := fn(l.h); err != nil {
			probs.Sort()
			return probs, err
		}
	}
	probs.Sort()
	return probs, nil
}

// All reads every record of the set.
func (s *Set) All() ([]*Host, diag.List) {
	var hosts []*Host
	probs, _ := s.Each(func(h *Host) error { hosts = append(hosts, h); return nil })
	return hosts, probs
}

// loadFile decodes one record. A file that is not a record gets a plain
// problem naming what it looks like and the likely fix.
func loadFile(fsys fs.FS, f, display string) (*Host, diag.List) {
	var probs diag.List
	if !isRecordName(f) {
		probs.Add(display, diag.Pos{}, "%s", notRecord(f))
		return nil, probs
	}
	src, err := fs.ReadFile(fsys, f)
	if err != nil {
		probs.Add(display, diag.Pos{}, "read: %v", unwrapPath(err))
		return nil, probs
	}
	h, ps := Decode(display, src)
	if h == nil && strings.HasSuffix(f, ".json") && looksLikeCheckOutput(src) {
		probs.Add(display, diag.Pos{}, "looks like kbgen check --format json output, not a host record: give the records it was made from")
		return nil, probs
	}
	probs = append(probs, ps...)
	if h != nil {
		// A record whose fields lack their formats is never used: its
		// strings would reach pages, links and exports.
		if bad := Check(display, src, h); len(bad) > 0 {
			return nil, append(probs, bad...)
		}
	}
	if h != nil && h.Host.ID == "" {
		// A record without a host id (no hostname in the snapshot) is
		// named after its file, in parentheses, so every host in the
		// output can be told apart.
		base := path.Base(f)
		// A file name is anyone's to choose: what it hides is escaped.
		h.Host.ID = "(" + visible.Escape(strings.TrimSuffix(base, path.Ext(base))) + ")"
	}
	return h, probs
}

func isRecordName(p string) bool {
	return strings.HasSuffix(p, ".toml") || strings.HasSuffix(p, ".json")
}

// isSnapshot reports whether a file is one kbcollect reads rather than
// kbgen: a capture (txtar) or a sosreport or capture archive.
func isSnapshot(p string) bool {
	for _, ext := range []string{".txtar", ".tar", ".tar.gz", ".tgz", ".tar.xz", ".tar.bz2"} {
		if strings.HasSuffix(p, ext) {
			return true
		}
	}
	return false
}

// notRecord says what a file that is not a record looks like, and the fix.
func notRecord(p string) string {
	const records = "host records are the *.toml or *.json files kbcollect writes"
	switch {
	case strings.HasSuffix(p, ".txtar"):
		return "looks like a snapshot: run kbcollect on it first"
	case isSnapshot(p):
		return "looks like a sosreport or capture archive: run kbcollect on it first (kbcollect " + path.Base(p) + " > host.toml)"
	case strings.HasSuffix(p, ".md"):
		return "is Markdown, not a host record: " + records
	}
	return "not a host record: " + records
}

// isSosreport reports whether folder p of fsys is an unpacked sosreport.
func isSosreport(fsys fs.FS, p string) bool {
	st, err := fs.Stat(fsys, path.Join(p, "sos_commands"))
	return err == nil && st.IsDir()
}

// looksLikeCheckOutput spots the top-level keys kbgen check --format json writes.
func looksLikeCheckOutput(src []byte) bool {
	s := strings.TrimSpace(string(src))
	if !strings.HasPrefix(s, "{") {
		return false
	}
	for _, k := range []string{`"hosts"`, `"verdict"`, `"walks"`, `"findings"`, `"results"`} {
		if strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(s, "{")), k) {
			return true
		}
	}
	return false
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
