package record

import (
	"errors"
	"fmt"
	"github.com/rocekb/rocekb/internal/visible"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/rocekb/rocekb/internal/diag"
)

// MaxDepth is how many folders below the one named LoadDir descends.
const MaxDepth = 8

// skipDirs are folders that never hold host records.
var skipDirs = map[string]bool{".git": true, "node_modules": true}

// Load reads host records from a file or a folder on disk, as kbgen build
// and check name them. A missing path is an error (errors.Is
// fs.ErrNotExist); problems in what it reads come back as a list.
func Load(name string) ([]*Host, diag.List, error) { return LoadLimits(name, Limits{}) }

// LoadLimits is Load with limits.
func LoadLimits(name string, lim Limits) ([]*Host, diag.List, error) {
	set, probs, err := ListLimits(name, lim)
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
	root  *os.Root // the records folder on disk, when it is one: fsys is its FS
	named bool     // the one file the user named: read whatever it is (a pipe from <(…) too)
	name  string   // prefixes file names in problems
	lim   Limits
	Files []string // slash paths in fsys, sorted
	sizes []int64  // the listed size of each file, for the read-ahead budget
	// skipped are the entries with a record's name that are not read, one
	// error each saying why; Each returns them with the records' problems.
	skipped diag.List
}

// Limits bound what the records loader reads, whatever a records folder
// holds: people and scripts the site's owner does not control fill it.
type Limits struct {
	MaxFile  int64 // bytes of one record file; 0 is DefaultMaxFile
	MaxTotal int64 // bytes of all the record files of one build; 0 is DefaultMaxTotal
}

const (
	// DefaultMaxFile is kbcollect's own cap on a file it reads: a record
	// is a summary, and a valid 200 MB record took 3.67 GB to build.
	DefaultMaxFile = 16 << 20
	// DefaultMaxTotal leaves room for a fleet of 100,000 records of tens
	// of kilobytes each.
	DefaultMaxTotal = 8 << 30
	// readAhead bounds the bytes of records read ahead of the one in use.
	readAhead = 32 << 20
)

func (l Limits) withDefaults() Limits {
	if l.MaxFile <= 0 {
		l.MaxFile = DefaultMaxFile
	}
	if l.MaxTotal <= 0 {
		l.MaxTotal = DefaultMaxTotal
	}
	return l
}

// List lists the records a file or a folder on disk holds, as Load reads
// them, with the default limits. A missing path is an error (errors.Is
// fs.ErrNotExist).
func List(name string) (*Set, diag.List, error) { return ListLimits(name, Limits{}) }

// ListLimits is List with limits. A folder is read through an os.Root: a
// symbolic link in it may point inside it, never out.
func ListLimits(name string, lim Limits) (*Set, diag.List, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, nil, err
	}
	if st.IsDir() {
		root, err := os.OpenRoot(name)
		if err != nil {
			return nil, nil, err
		}
		set, probs := listDir(root.FS(), name, lim)
		set.root = root
		return set, probs, nil
	}
	dir, file := filepath.Split(name)
	dir = strings.TrimSuffix(filepath.ToSlash(dir), "/")
	if dir == "" {
		dir = "."
	}
	return &Set{fsys: os.DirFS(dir), name: dir, named: true, lim: lim.withDefaults(), Files: []string{file}, sizes: []int64{st.Size()}}, nil, nil
}

// ListDir lists the records of fsys as LoadDir reads them.
func ListDir(fsys fs.FS, name string) (*Set, diag.List) { return listDir(fsys, name, Limits{}) }

func listDir(fsys fs.FS, name string, lim Limits) (*Set, diag.List) {
	lim = lim.withDefaults()
	set := &Set{fsys: fsys, name: name, lim: lim}
	var probs diag.List
	var snapshots []string
	var total int64
	skip := func(p, format string, args ...any) {
		set.skipped.Add(path.Join(name, p), diag.Pos{}, "not read: "+format, args...)
	}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				if errors.Is(err, fs.ErrNotExist) {
					return fs.SkipAll
				}
				return err
			}
			// A folder that cannot be opened is one folder left out,
			// not a failed build.
			skip(p, "%v", unwrapPath(err))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
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
			// Listed by its directory entry, never opened: a named pipe
			// would block the build and a device never end.
			size, why := entrySize(fsys, p, d)
			switch {
			case why != "":
				skip(p, "%s", why)
			case size > lim.MaxFile:
				skip(p, "%s, over the cap of %s on one record (--max-record-size)", bytesText(size), bytesText(lim.MaxFile))
			case total+size > lim.MaxTotal:
				skip(p, "the records before it reach the cap of %s on the records of one build", bytesText(lim.MaxTotal))
			default:
				total += size
				set.Files = append(set.Files, p)
				set.sizes = append(set.sizes, size)
			}
		case isSnapshot(p):
			snapshots = append(snapshots, p)
		}
		return nil
	})
	if err != nil {
		probs.Add(name, diag.Pos{}, "read records: %v", err)
		return set, probs
	}
	sort.Sort(bySize{set})
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
	set.skipped.Sort()
	return set, probs
}

// bySize sorts a set's files by name, with their sizes.
type bySize struct{ s *Set }

func (b bySize) Len() int           { return len(b.s.Files) }
func (b bySize) Less(i, j int) bool { return b.s.Files[i] < b.s.Files[j] }
func (b bySize) Swap(i, j int) {
	b.s.Files[i], b.s.Files[j] = b.s.Files[j], b.s.Files[i]
	b.s.sizes[i], b.s.sizes[j] = b.s.sizes[j], b.s.sizes[i]
}

// entrySize is the size of the regular file a directory entry names, or
// why it is not read: not a regular file, or a symbolic link that leaves
// the folder (an os.Root's FS refuses to follow it) or leads nowhere.
// A link inside the folder is followed: its target is one more record.
func entrySize(fsys fs.FS, p string, d fs.DirEntry) (int64, string) {
	var info fs.FileInfo
	var err error
	if d.Type()&fs.ModeSymlink != 0 {
		// fs.Stat follows the link as the loader's reads will: inside
		// an os.Root, only to a file in the folder.
		info, err = fs.Stat(fsys, p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return 0, "a symbolic link to nothing"
		case err != nil && strings.Contains(err.Error(), "escapes"):
			// os.Root's error, "path escapes from parent", has no
			// sentinel to test.
			return 0, "a symbolic link out of the records folder"
		case err != nil:
			return 0, "a symbolic link: " + unwrapPath(err).Error()
		}
	} else if info, err = d.Info(); err != nil {
		return 0, unwrapPath(err).Error()
	}
	if why := notRegular(info.Mode()); why != "" {
		return 0, why
	}
	return info.Size(), ""
}

// notRegular says what a file that is not a regular file is.
func notRegular(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return ""
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe, not a regular file"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device, not a regular file"
	case m&fs.ModeSocket != 0:
		return "a socket, not a regular file"
	case m.IsDir():
		return "a folder, not a regular file"
	}
	return "not a regular file (" + m.Type().String() + ")"
}

// bytesText writes a size for a message: "16 MiB", "200.5 MiB", "512 bytes".
func bytesText(n int64) string {
	unit := func(d float64, name string) string {
		return strings.TrimSuffix(strconv.FormatFloat(float64(n)/d, 'f', 1, 64), ".0") + " " + name
	}
	switch {
	case n >= 1<<30:
		return unit(1<<30, "GiB")
	case n >= 1<<20:
		return unit(1<<20, "MiB")
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// Len is the number of record files.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.Files)
}

// Loaded is one record as EachLoaded reads it: the host it decodes to,
// its file (a slash path in the set) and the file's bytes as they are.
type Loaded struct {
	Host *Host
	File string
	Src  []byte
}

// Each reads the records in file order and calls fn with each one that
// decodes and is valid (see Validate); a record that is not is skipped,
// its problems returned. It returns the problems of every record, sorted,
// and the first error fn returned, which stops it.
func (s *Set) Each(fn func(h *Host) error) (diag.List, error) {
	return s.EachLoaded(func(l Loaded) error { return fn(l.Host) })
}

// EachLoaded is Each with each record's file and bytes, for a build that
// publishes the record as it came rather than encoding it again.
func (s *Set) EachLoaded(fn func(Loaded) error) (diag.List, error) {
	if s == nil {
		return nil, nil
	}
	// Records are read and decoded ahead on GOMAXPROCS goroutines
	// (decoding was most of a fleet build's work), a bounded window of
	// them at a time; fn still sees them one by one, in file order, on the
	// caller's goroutine.
	type loaded struct {
		Loaded
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
	// The window is bounded in bytes too: a few records near the cap
	// are not read ahead together.
	budget := newBudget(readAhead)
	defer func() { close(done); budget.give(0) }()
	weight := func(i int) int64 {
		if i < len(s.sizes) {
			return min(max(s.sizes[i], 1), readAhead)
		}
		return 1
	}
	go func() {
		defer close(tasks)
		defer close(ahead)
		for i, f := range s.Files {
			if !budget.take(weight(i), done) {
				return
			}
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
			var r reader
			defer r.close()
			for t := range tasks {
				h, src, ps := loadFile(func(f string) ([]byte, error) { return s.read(&r, f) }, t.f, path.Join(s.name, t.f))
				t.out <- loaded{Loaded{h, t.f, src}, ps}
			}
		}()
	}
	probs := append(diag.List(nil), s.skipped...)
	i := 0
	for c := range ahead {
		l := <-c
		probs = append(probs, l.probs...)
		if l.Host != nil {
			if err := fn(l.Loaded); err != nil {
				probs.Sort()
				return probs, err
			}
		}
		l.Loaded = Loaded{}
		budget.give(weight(i))
		i++
	}
	probs.Sort()
	return probs, nil
}

// reader is one reading goroutine's folder of the records folder: the
// folder of the record it read last, open as an os.Root of its own.
// Records are read in file order, so the next one is most often in the
// same folder, and opening it by its name alone takes one system call
// where a path from the records folder took three (the folder opened,
// the file, the folder closed): 800,000 of a 100k fleet's 1.1 million
// calls to read its records.
type reader struct {
	dir  string
	root *os.Root // nil: the records folder itself
}

// open opens f of s's records folder. A file the folder's own root
// refuses (a link out of that folder) is opened again from the records
// folder's, which decides as before: a link inside the records folder is
// followed, one out of it refused.
func (r *reader) open(s *Set, f string) (*os.File, error) {
	// O_NONBLOCK: opening a named pipe for reading would wait for a
	// writer; it is refused after, unopened for reading.
	const flag = os.O_RDONLY | syscall.O_NONBLOCK
	dir, name := path.Split(f)
	if dir != r.dir {
		r.close()
		r.dir = dir
		if dir != "" {
			r.root, _ = s.root.OpenRoot(filepath.FromSlash(dir))
		}
	}
	if r.root != nil {
		if fh, err := r.root.OpenFile(name, flag, 0); err == nil {
			return fh, nil
		}
	}
	return s.root.OpenFile(filepath.FromSlash(f), flag, 0)
}

func (r *reader) close() {
	if r.root != nil {
		r.root.Close()
	}
	*r = reader{}
}

// read reads one record file of the set, refusing what is not a regular
// file (a named pipe, a device: the set was listed, and it may have
// changed since) unless the user named it, and at most the cap on one
// record.
func (s *Set) read(r *reader, f string) ([]byte, error) {
	var fh fs.File
	var err error
	if s.root != nil {
		fh, err = r.open(s, f)
	} else {
		fh, err = s.fsys.Open(f)
	}
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	if why := notRegular(st.Mode()); why != "" && !s.named {
		return nil, errors.New(why)
	}
	max := s.lim.withDefaults().MaxFile
	if st.Mode().IsRegular() && st.Size() > max {
		return nil, fmt.Errorf("%s, over the cap of %s on one record (--max-record-size)", bytesText(st.Size()), bytesText(max))
	}
	var hint int64
	if st.Mode().IsRegular() {
		hint = st.Size()
	}
	src, err := readAll(io.LimitReader(fh, max+1), hint)
	if err != nil {
		return nil, err
	}
	if int64(len(src)) > max {
		return nil, fmt.Errorf("over the cap of %s on one record (--max-record-size)", bytesText(max))
	}
	return src, nil
}

// readAll is io.ReadAll into a buffer sized for the file (hint, its
// listed size) plus one byte to see its end: a record is read in one
// allocation instead of a doubling series of them. A file that gave its
// listed size is read: the record is the file as it was listed, and the
// read that would only find its end (one system call a record) is not
// made.
func readAll(r io.Reader, hint int64) ([]byte, error) {
	b := make([]byte, 0, hint+1)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF || (err == nil && hint > 0 && int64(len(b)) == hint) {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// budget is a count of bytes that read-ahead takes and gives back.
type budget struct {
	mu   sync.Mutex
	cond *sync.Cond
	left int64
}

func newBudget(n int64) *budget {
	b := &budget{left: n}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// take waits for n bytes, or for done to be closed (false).
func (b *budget) take(n int64, done <-chan struct{}) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.left < n {
		select {
		case <-done:
			return false
		default:
		}
		b.cond.Wait()
	}
	b.left -= n
	return true
}

func (b *budget) give(n int64) {
	b.mu.Lock()
	b.left += n
	b.mu.Unlock()
	b.cond.Broadcast()
}

// All reads every record of the set.
func (s *Set) All() ([]*Host, diag.List) {
	var hosts []*Host
	probs, _ := s.Each(func(h *Host) error { hosts = append(hosts, h); return nil })
	return hosts, probs
}

// loadFile decodes one record and returns it with the file's bytes. A
// file that is not a record gets a plain problem naming what it looks
// like and the likely fix.
func loadFile(read func(string) ([]byte, error), f, display string) (*Host, []byte, diag.List) {
	var probs diag.List
	if !isRecordName(f) {
		probs.Add(display, diag.Pos{}, "%s", notRecord(f))
		return nil, nil, probs
	}
	src, err := read(f)
	if err != nil {
		probs.Add(display, diag.Pos{}, "not read: %v", unwrapPath(err))
		return nil, nil, probs
	}
	h, ps := Decode(display, src)
	if h == nil && strings.HasSuffix(f, ".json") && looksLikeCheckOutput(src) {
		probs.Add(display, diag.Pos{}, "looks like kbgen check --format json output, not a host record: give the records it was made from")
		return nil, nil, probs
	}
	probs = append(probs, ps...)
	if h != nil {
		// A record whose fields lack their formats is never used: its
		// strings would reach pages, links and exports.
		if bad := Check(display, src, h); len(bad) > 0 {
			return nil, nil, append(probs, bad...)
		}
	}
	if h != nil {
		// A file name is anyone's to choose: what it hides is escaped.
		base := path.Base(f)
		h.File = visible.Escape(strings.TrimSuffix(base, path.Ext(base)))
		if h.Host.ID == "" {
			// A record without a host id (no hostname in the snapshot)
			// is named after its file, in parentheses, so every host in
			// the output can be told apart (Unnamed).
			h.Host.ID = "(" + h.File + ")"
		}
	}
	if h == nil {
		return nil, nil, probs
	}
	return h, src, probs
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
