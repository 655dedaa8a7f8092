package snapshot

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"time"
)

// maxLinkHops bounds symlink resolution per lookup, as the kernel's
// MAXSYMLINKS (40) does, so a symlink loop ends with an error instead of a hang.
const maxLinkHops = 40

// Errors a lookup can end with besides fs.ErrNotExist and friends.
var (
	ErrEscape  = errors.New("symlink points outside the snapshot; not followed")
	ErrLoop    = errors.New("too many levels of symbolic links (a symlink loop?)")
	ErrSpecial = errors.New("not a regular file or folder; not read")
)

// backend is one storage of a snapshot tree: a folder on disk or an
// in-memory archive index. Paths are slash-separated, relative to the
// snapshot root ("." is the root) and already free of symlinks except,
// possibly, in their last element.
type backend interface {
	lstat(p string) (fs.FileInfo, error)
	readlink(p string) (string, error)
	open(p string) (fs.File, error)
	readDir(p string) ([]fs.DirEntry, error)
}

// treeFS is an fs.FS over a backend that resolves every symlink itself,
// inside the snapshot: an absolute target is taken relative to the snapshot
// root (as chroot would), a target that climbs above the root is refused
// and recorded as a problem, and a loop ends after maxLinkHops.
// Regular files are read through a cap.
type treeFS struct {
	b    backend
	st   *state
	deny []string // path prefixes never opened (live host files that block)

	// A capture's manifest replays, for a tree on disk as for one in memory,
	// the files that could not be read or were cut at the cap on the host.
	failed    map[string]error
	truncated map[string]bool

	// readTimeout, when set (live hosts), bounds each open and read: a
	// sysfs attribute of a wedged device can block forever.
	readTimeout func() time.Duration
}

// ErrReadTimeout is returned when a live file does not answer in time.
var ErrReadTimeout = errors.New("read timed out; the file did not answer")

// withTimeout runs fn, giving up after the live read timeout. fn keeps
// running after a timeout (a blocked read cannot be cancelled), so it must
// not touch the caller's memory.
func (t *treeFS) withTimeout(fn func() error) error {
	if t.readTimeout == nil {
		return fn()
	}
	done := make(chan error, 1)
	go func() { done <- fn() }()
	timer := time.NewTimer(t.readTimeout())
	defer timer.Stop()
	select {
	case err := <-done:
		return err
	case <-timer.C:
		return ErrReadTimeout
	}
}

// state is shared by a snapshot and its file system.
type state struct {
	maxFile func() int64

	mu       sync.Mutex
	problems map[problemKey]struct{}
	rec      *recorder // non-nil while recording accesses for a capture
}

type problemKey struct{ source, msg string }

func newState(maxFile func() int64) *state {
	return &state{maxFile: maxFile, problems: map[problemKey]struct{}{}}
}

func (st *state) problem(source, format string, args ...any) {
	st.mu.Lock()
	st.problems[problemKey{source, fmt.Sprintf(format, args...)}] = struct{}{}
	st.mu.Unlock()
}

func (t *treeFS) denied(p string) bool {
	for _, d := range t.deny {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// resolve turns name into its canonical path in the snapshot. With
// followLast false a symlink in the last element is not followed (Lstat,
// ReadLink). It returns the info of the final element.
func (t *treeFS) resolve(op, name string, followLast bool) (string, fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return "", nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	todo := splitPath(name)
	var cur []string
	var info fs.FileInfo
	hops := 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(cur) == 0 {
				return "", nil, &fs.PathError{Op: op, Path: name, Err: ErrEscape}
			}
			cur = cur[:len(cur)-1]
			info = nil
			continue
		}
		next := joinPath(append(cur, c))
		fi, err := t.b.lstat(next)
		if err != nil {
			return "", nil, &fs.PathError{Op: op, Path: name, Err: underlying(err)}
		}
		if fi.Mode()&fs.ModeSymlink != 0 && (len(todo) > 0 || followLast) {
			hops++
			if hops > maxLinkHops {
				t.st.problem(next, "symlink loop: more than %d links followed; not read", maxLinkHops)
				return "", nil, &fs.PathError{Op: op, Path: name, Err: ErrLoop}
			}
			target, err := t.b.readlink(next)
			if err != nil {
				return "", nil, &fs.PathError{Op: op, Path: name, Err: underlying(err)}
			}
			t.st.recordLink(next, target)
			if strings.HasPrefix(target, "/") {
				cur = cur[:0]
			}
			if escapes(cur, target) {
				t.st.problem(next, "symlink to %q points outside the snapshot; not followed", target)
				return "", nil, &fs.PathError{Op: op, Path: name, Err: ErrEscape}
			}
			todo = append(splitPath(target), todo...)
			info = nil
			continue
		}
		if len(todo) > 0 && !fi.IsDir() {
			return "", nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
		}
		cur = append(cur, c)
		info = fi
	}
	p := joinPath(cur)
	if info == nil {
		fi, err := t.b.lstat(p)
		if err != nil {
			return "", nil, &fs.PathError{Op: op, Path: name, Err: underlying(err)}
		}
		info = fi
	}
	return p, info, nil
}

// escapes reports whether a relative target, taken from folder cur, climbs
// above the snapshot root.
func escapes(cur []string, target string) bool {
	depth := len(cur)
	for _, c := range splitPath(target) {
		switch c {
		case "", ".":
		case "..":
			depth--
			if depth < 0 {
				return true
			}
		default:
			depth++
		}
	}
	return false
}

func splitPath(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" || p == "." {
		return nil
	}
	return strings.Split(p, "/")
}

func joinPath(cs []string) string {
	if len(cs) == 0 {
		return "."
	}
	return strings.Join(cs, "/")
}

// underlying strips a backend's PathError so that the error names the path
// the caller asked for, not a backend path.
func underlying(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Open implements fs.FS.
func (t *treeFS) Open(name string) (fs.File, error) {
	p, info, err := t.resolve("open", name, true)
	if err != nil {
		return nil, err
	}
	switch {
	case info.IsDir():
		entries, err := t.readDirCanon(p)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: underlying(err)}
		}
		t.st.recordDir(p, entries)
		return &dirFile{info: renamed{info, path.Base(name)}, entries: entries}, nil
	case !info.Mode().IsRegular() || t.denied(p):
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrSpecial}
	}
	if err := t.failed[p]; err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	var f fs.File
	err = t.withTimeout(func() error {
		var err error
		f, err = t.b.open(p)
		return err
	})
	if err != nil {
		if errors.Is(err, ErrReadTimeout) {
			t.st.problem(name, "did not answer within %s; not read", t.readTimeout())
		}
		t.st.recordFailed(p, err)
		return nil, &fs.PathError{Op: "open", Path: name, Err: underlying(err)}
	}
	t.st.recordFile(p)
	return &capFile{File: f, name: name, left: t.st.maxFile(), st: t.st, truncated: t.truncated[p], t: t}, nil
}

func (t *treeFS) readDirCanon(p string) ([]fs.DirEntry, error) {
	entries, err := t.b.readDir(p)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

// ReadDir implements fs.ReadDirFS.
func (t *treeFS) ReadDir(name string) ([]fs.DirEntry, error) {
	p, info, err := t.resolve("readdir", name, true)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a folder")}
	}
	entries, err := t.readDirCanon(p)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: underlying(err)}
	}
	t.st.recordDir(p, entries)
	return entries, nil
}

// Stat implements fs.StatFS.
func (t *treeFS) Stat(name string) (fs.FileInfo, error) {
	p, info, err := t.resolve("stat", name, true)
	if err != nil {
		return nil, err
	}
	t.st.recordStat(p, info)
	return renamed{info, path.Base(name)}, nil
}

// Lstat implements fs.ReadLinkFS.
func (t *treeFS) Lstat(name string) (fs.FileInfo, error) {
	p, info, err := t.resolve("lstat", name, false)
	if err != nil {
		return nil, err
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		if target, err := t.b.readlink(p); err == nil {
			t.st.recordLink(p, target)
		}
	} else {
		t.st.recordStat(p, info)
	}
	return info, nil
}

// ReadLink implements fs.ReadLinkFS: the target as stored, which may be
// relative (sysfs links are) or absolute.
func (t *treeFS) ReadLink(name string) (string, error) {
	p, info, err := t.resolve("readlink", name, false)
	if err != nil {
		return "", err
	}
	if info.Mode()&fs.ModeSymlink == 0 {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	target, err := t.b.readlink(p)
	if err != nil {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: underlying(err)}
	}
	t.st.recordLink(p, target)
	return target, nil
}

// ReadFile implements fs.ReadFileFS, up to the cap.
func (t *treeFS) ReadFile(name string) ([]byte, error) {
	f, err := t.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// capFile reads at most left bytes and records a problem when the file holds more.
type capFile struct {
	fs.File
	name      string
	left      int64
	st        *state
	truncated bool
	t         *treeFS
	timedOut  bool
}

// Stat names the file as it was opened, as os.Open does for a symlink.
func (f *capFile) Stat() (fs.FileInfo, error) {
	fi, err := f.File.Stat()
	if err != nil {
		return nil, err
	}
	return renamed{fi, path.Base(f.name)}, nil
}

func (f *capFile) Read(p []byte) (int, error) {
	if f.timedOut {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: ErrReadTimeout}
	}
	if f.left <= 0 {
		var one [1]byte
		if n, _ := f.read(one[:]); n > 0 {
			f.truncated = true
			f.st.problem(f.name, "larger than the per-file cap of %d bytes; only the first %d bytes were read", f.st.maxFile(), f.st.maxFile())
		}
		return 0, io.EOF
	}
	if int64(len(p)) > f.left {
		p = p[:f.left]
	}
	n, err := f.read(p)
	f.left -= int64(n)
	return n, err
}

// read reads through the live read timeout into a buffer of its own, so
// that a read still blocked after a timeout never writes into p.
func (f *capFile) read(p []byte) (int, error) {
	if f.t == nil || f.t.readTimeout == nil {
		return f.File.Read(p)
	}
	buf := make([]byte, len(p))
	var n int
	var rerr error
	err := f.t.withTimeout(func() error {
		n, rerr = f.File.Read(buf)
		return nil
	})
	if err != nil {
		f.timedOut = true
		f.st.problem(f.name, "did not answer within %s; not read", f.t.readTimeout())
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: err}
	}
	copy(p, buf[:n])
	return n, rerr
}

// dirFile is an opened folder.
type dirFile struct {
	info    fs.FileInfo
	entries []fs.DirEntry
	off     int
}

func (d *dirFile) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *dirFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.Name(), Err: errors.New("is a folder")}
}
func (d *dirFile) Close() error { return nil }
func (d *dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.off:]
	if n <= 0 {
		d.off = len(d.entries)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	if n > len(rest) {
		n = len(rest)
	}
	d.off += n
	return rest[:n], nil
}

// renamed reports a FileInfo under the name the caller used.
type renamed struct {
	fs.FileInfo
	name string
}

func (r renamed) Name() string { return r.name }

// fixedTime is the modification time of archive members and capture entries.
var fixedTime = time.Unix(0, 0).UTC()
