package render

import (
	"bufio"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/rocekb/rocekb/internal/bufpool"
	"github.com/rocekb/rocekb/internal/dirfs"
)

// Marker is written into every output folder. A folder without it is never
// replaced, so a mistyped --out cannot delete someone's files.
const Marker = ".kbgen-output"

const markerText = "written by kbgen build; this folder is replaced on every build\n"

// Stats count what a build wrote.
type Stats struct {
	Outputs  int  // files, the marker not included
	Rendered int  // outputs rendered; an update keeps the others by their key
	Changed  int  // files created, rewritten or removed
	InPlace  bool // Update changed the folder in place rather than replacing it
	// Manifest is what the folder now holds, for the next Update.
	Manifest *Manifest
}

// Manifest records, for every file a build or an update left in its
// folder, the output's key (see Keyed) and the digest of its bytes.
type Manifest struct{ files map[string]entry }

type entry struct {
	key string
	sum [sha256.Size]byte
}

// Keyed is o with a key: a digest of everything o's bytes depend on.
// Update keeps the file of an output whose key is the one the previous
// build wrote it with, without rendering it. An output with no key is
// rendered every time and written only when its bytes changed.
func Keyed(o Output, key string) Output { return keyed{o, key} }

type keyed struct {
	Output
	key string
}

func keyOf(o Output) string {
	if k, ok := o.(keyed); ok {
		return k.key
	}
	return ""
}

// Build runs the producers in order, writing each output as it comes on
// one of GOMAXPROCS writers, into a folder beside dir that is swapped in
// only when every output is written. A stage starts when the previous
// stage's outputs are all written, so a later producer may use what an
// earlier one's outputs left behind (the home page lists the hosts whose
// pages the stage before made). An existing dir is replaced only if it is
// empty or holds the Marker file; two outputs with one path are an error.
func Build(dir string, stages ...Producer) (st Stats, err error) {
	return build(dir, nil, false, stages)
}

// BuildOnce is Build for a folder no Update will follow (kbgen build): it
// keeps no manifest (Stats.Manifest is nil), so its outputs' digests, a
// SHA-256 of every byte written, are never computed.
func BuildOnce(dir string, stages ...Producer) (st Stats, err error) {
	return build(dir, nil, true, stages)
}

// Update brings dir, as the build or update that returned prev left it,
// up to date in place: outputs whose key is unchanged are not rendered,
// files whose bytes are unchanged are not written, a changed file is
// replaced by a rename (a reader sees the old file or the new one), and
// files no stage emitted any more are removed. It is kbgen serve's
// rebuild; with a nil prev, or a folder that is gone, it is Build. After
// a failed update the folder is part old, part new: build it again.
func Update(dir string, prev *Manifest, stages ...Producer) (Stats, error) {
	dir = filepath.Clean(dir)
	if prev == nil {
		return Build(dir, stages...)
	}
	if _, err := os.Stat(filepath.Join(dir, Marker)); err != nil {
		return Build(dir, stages...)
	}
	return build(dir, prev, false, stages)
}

func build(dir string, prev *Manifest, once bool, stages []Producer) (st Stats, err error) {
	dir = filepath.Clean(dir)
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return st, err
	}
	// One build at a time into one output: a second waits, then finds
	// the first one's site in place.
	unlock, err := lock(filepath.Join(parent, "."+filepath.Base(dir)+".lock"))
	if err != nil {
		return st, fmt.Errorf("lock %s: %w", dir, err)
	}
	defer unlock()
	removeDebris(dir)
	if prev != nil {
		st, err := run(&pool{dir: dir, prev: prev}, stages)
		st.InPlace = true
		return st, err
	}
	if err := replaceable(dir); err != nil {
		return st, err
	}
	tmp, err := os.MkdirTemp(parent, tmpPrefix(dir))
	if err != nil {
		return st, err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return st, err
	}
	if st, err = run(&pool{dir: tmp, once: once}, stages); err != nil {
		return st, err
	}
	if err := os.WriteFile(filepath.Join(tmp, Marker), []byte(markerText), 0o644); err != nil {
		return st, err
	}
	return st, swap(tmp, dir)
}

// run writes the stages' outputs into p.dir.
func run(p *pool, stages []Producer) (st Stats, err error) {
	p.queue, p.seen, p.next = make(chan Output, 2*runtime.GOMAXPROCS(0)), map[string]bool{Marker: true}, map[string]entry{}
	var workers sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for o := range p.queue {
				if err := p.write(o); err != nil {
					p.fail(fmt.Errorf("%s: %w", o.Path(), err))
				}
				p.pending.Done()
			}
		}()
	}
	for i, produce := range stages {
		// A stage that ran is dropped: what it alone held (the pages
		// and tables its closure reaches) is garbage before the next.
		stages[i] = nil
		if err = produce(p.emit); err != nil {
			break
		}
		p.pending.Wait()
		if err = p.failed(); err != nil {
			break
		}
	}
	close(p.queue)
	workers.Wait()
	if err == nil {
		err = p.failed()
	}
	if err != nil {
		return st, err
	}
	if p.prev != nil {
		for name := range p.prev.files {
			if !p.seen[name] {
				os.Remove(filepath.Join(p.dir, filepath.FromSlash(name)))
				p.changed++
			}
		}
	}
	st.Outputs, st.Rendered, st.Changed = len(p.seen)-1, p.rendered, p.changed
	if !p.once {
		st.Manifest = &Manifest{files: p.next}
	}
	return st, nil
}

// pool hands outputs to the writers and keeps the first failure.
type pool struct {
	dir     string    // where the outputs go
	prev    *Manifest // what dir holds, when updating in place
	once    bool      // no update follows: outputs stream into their files, no manifest, no digests
	queue   chan Output
	pending sync.WaitGroup
	seen    map[string]bool // paths emitted; only the producer goroutine touches it
	dirs    sync.Map        // folder → *sync.Mutex, for folders made (or found) so far: one MkdirAll per folder, not per file
	listed  sync.Map        // folder → *listing, for exists

	mu                sync.Mutex
	err               error
	next              map[string]entry
	rendered, changed int
}

func (p *pool) emit(o Output) error {
	if err := p.failed(); err != nil {
		return err
	}
	name := o.Path()
	if !fs.ValidPath(name) || name == "." {
		return fmt.Errorf("invalid output path %q", name)
	}
	if p.seen[name] {
		return fmt.Errorf("%s: two outputs have this path", name)
	}
	p.seen[name] = true
	p.pending.Add(1)
	p.queue <- o
	return nil
}

func (p *pool) fail(err error) {
	p.mu.Lock()
	if p.err == nil {
		p.err = err
	}
	p.mu.Unlock()
}

func (p *pool) failed() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

func (p *pool) write(o Output) error {
	if p.failed() != nil {
		return nil
	}
	name, key := o.Path(), keyOf(o)
	target := filepath.Join(p.dir, filepath.FromSlash(name))
	if p.once {
		return p.stream(name, target, o)
	}
	old, had := p.prev.entry(name)
	if had && key != "" && old.key == key && p.exists(target) {
		p.record(name, old, false, false)
		return nil
	}
	// An output is held while it is rendered, so its digest is known
	// before it is written: in a lent buffer (a fresh one per page was
	// 3 GB of garbage for 50,000 host pages).
	buf := bufpool.Get()
	defer bufpool.Put(buf)
	if err := o.Render(buf); err != nil {
		return err
	}
	e := entry{key: key, sum: sha256.Sum256(buf.Bytes())}
	if had && old.sum == e.sum && p.exists(target) {
		p.record(name, e, true, false)
		return nil
	}
	dir, err := p.madeDir(filepath.Dir(target))
	if err != nil {
		return err
	}
	write := writeNew
	if p.prev != nil {
		write = replaceFile
	}
	// One writer at a time creates files in a folder: the kernel locks
	// the folder for each creation, and a second writer spins on that
	// lock instead of sleeping (17% of a 10k build's CPU, in
	// rwsem_spin_on_owner under openat), where it parks on a mutex.
	dir.Lock()
	err = write(target, buf.Bytes())
	dir.Unlock()
	if err != nil {
		return err
	}
	p.record(name, e, true, true)
	return nil
}

// stream renders o straight into its new file, for a build no update
// follows: nothing needs its bytes whole (no digest), so a 184 MB export
// is not first grown in memory.
func (p *pool) stream(name, target string, o Output) error {
	dir, err := p.madeDir(filepath.Dir(target))
	if err != nil {
		return err
	}
	dir.Lock() // only the creation: see write
	f, err := dirfs.CreateNew(target)
	dir.Unlock()
	if err != nil {
		return err
	}
	w := writers.Get().(*bufio.Writer)
	defer writers.Put(w)
	w.Reset(f)
	err = o.Render(w)
	if err == nil {
		err = w.Flush()
	}
	w.Reset(nil)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	p.record(name, entry{}, true, true)
	return nil
}

// writers buffer what stream renders, 64 KiB at a time: most pages are
// one write.
var writers = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 64<<10) }}

// exists reports whether the file target, of the folder an update
// brings up to date, is there. Each folder is listed once per update
// (one read of its names instead of a stat per kept file).
func (p *pool) exists(target string) bool {
	dir, name := filepath.Split(target)
	v, _ := p.listed.LoadOrStore(dir, &listing{})
	l := v.(*listing)
	l.once.Do(func() {
		l.names = map[string]bool{}
		if f, err := os.Open(dir); err == nil {
			names, _ := f.Readdirnames(-1)
			f.Close()
			for _, n := range names {
				l.names[n] = true
			}
		}
	})
	return l.names[name]
}

// listing is the names a folder held when an update first looked.
type listing struct {
	once  sync.Once
	names map[string]bool
}

// madeDir makes dir if no writer has yet, and returns the lock its
// writers take to create files in it.
func (p *pool) madeDir(dir string) (*sync.Mutex, error) {
	if v, ok := p.dirs.Load(dir); ok {
		return v.(*sync.Mutex), nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	v, _ := p.dirs.LoadOrStore(dir, new(sync.Mutex))
	return v.(*sync.Mutex), nil
}

func (p *pool) record(name string, e entry, rendered, changed bool) {
	p.mu.Lock()
	if !p.once {
		p.next[name] = e
	}
	if rendered {
		p.rendered++
	}
	if changed {
		p.changed++
	}
	p.mu.Unlock()
}

// Paths lists the files under the folder prefix (e.g. "search/") that
// the manifest holds, sorted.
func (m *Manifest) Paths(prefix string) []string {
	if m == nil {
		return nil
	}
	var out []string
	for name := range m.files {
		if strings.HasPrefix(name, prefix) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// Kept reports whether every one of paths was written with key, so
// emitting them again Keyed with it keeps them without rendering.
func (m *Manifest) Kept(paths []string, key string) bool {
	if m == nil || len(paths) == 0 {
		return false
	}
	for _, p := range paths {
		if m.files[p].key != key {
			return false
		}
	}
	return true
}

func (m *Manifest) entry(name string) (entry, bool) {
	if m == nil {
		return entry{}, false
	}
	e, ok := m.files[name]
	return e, ok
}

// writeNew creates a file that must not exist yet and writes b to it.
func writeNew(target string, b []byte) error {
	f, err := dirfs.CreateNew(target)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// replaceFile writes b beside target and renames it over target.
func replaceFile(target string, b []byte) error {
	tmp := filepath.Join(filepath.Dir(target), ".kbgen-tmp-"+filepath.Base(target))
	if err := writeNew(tmp, b); err != nil {
		os.Remove(tmp)
		if err := writeNew(tmp, b); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, target); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// replaceable refuses a dir that exists and was not written by kbgen.
func replaceable(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil
	}
	if !fi.IsDir() {
		return fmt.Errorf("output %s exists and is not a folder", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, Marker)); err != nil {
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			return fmt.Errorf("output %s is not empty and was not written by kbgen (no %s); refusing to replace it", dir, Marker)
		}
	}
	return nil
}

// tmpPrefix begins the names of the folders a build of dir writes beside
// it: the new site, and the old one on its way out.
func tmpPrefix(dir string) string { return "." + filepath.Base(dir) + ".tmp-" }

// removeDebris removes what builds of dir that were killed (SIGKILL,
// SIGINT, a power cut) left beside it: their unfinished trees and the old
// sites they were removing. The caller holds dir's lock, so no build is
// still writing them.
func removeDebris(dir string) {
	parent, prefix := filepath.Dir(dir), tmpPrefix(dir)
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			removeTree(filepath.Join(parent, e.Name()))
		}
	}
}

// errNoExchange: the system cannot swap two folders in one step.
var errNoExchange = errors.New("no atomic exchange")

// swap moves the finished tmp into dir's place. Where the system can, the
// two folders are exchanged in one step, so dir always names a whole
// site (a server never finds it missing); otherwise the old dir is
// renamed aside, then tmp into its place.
func swap(tmp, dir string) error {
	if fi, err := os.Lstat(dir); err == nil && fi.IsDir() {
		switch err := exchange(tmp, dir); {
		case err == nil:
			removeTree(tmp) // the old site
			return nil
		case !errors.Is(err, errNoExchange):
			return fmt.Errorf("replace %s: %w", dir, err)
		}
	}
	old := ""
	if _, err := os.Stat(dir); err == nil {
		old = tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("replace %s: %w", dir, err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			os.Rename(old, dir)
		}
		return fmt.Errorf("replace %s: %w", dir, err)
	}
	if old != "" {
		removeTree(old)
	}
	return nil
}

// removeTree deletes the replaced site, which is no longer in anyone's
// way: its files are unlinked by 4×GOMAXPROCS goroutines, as unlinking
// waits on the file system more than it computes (one os.RemoveAll made a
// rebuild into an existing folder slower than the first build; 10,000
// pages went from about 2.5 to 1.1 s), then the emptied folders go.
// Failures are ignored, as the new site is already in place.
func removeTree(dir string) {
	files := make(chan string, 256)
	var wg sync.WaitGroup
	for range 4 * runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range files {
				os.Remove(f)
			}
		}()
	}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files <- p
		}
		return nil
	})
	close(files)
	wg.Wait()
	os.RemoveAll(dir)
}
