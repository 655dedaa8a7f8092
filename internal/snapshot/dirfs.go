package snapshot

import (
	"io/fs"
	"os"
	"slices"
	"sync"
)

// diskTree is a backend over a folder on disk. os.Root keeps every access
// inside the folder even if the tree changes under us; treeFS has already
// resolved symlinks, so the Root never needs to follow one.
//
// A snapshot is read as it stood when collection began, so each path is
// looked up, and each folder listed, once: treeFS resolves every element of every path it is asked
// for, and the collector's globs ask for the same folders again and again.
// Through os.Root a lookup costs a system call per path element, and
// without the memo lookups and listings were over a third of a
// collection's CPU time.
type diskTree struct {
	root  *os.Root
	stats *statMemo
}

func newDiskTree(root *os.Root) diskTree {
	return diskTree{root: root, stats: &statMemo{m: map[string]statResult{}, dirs: map[string]dirResult{}}}
}

type statMemo struct {
	mu   sync.Mutex
	m    map[string]statResult
	dirs map[string]dirResult
}

type dirResult struct {
	entries []fs.DirEntry
	err     error
}

type statResult struct {
	fi  fs.FileInfo
	err error
}

func (d diskTree) lstat(p string) (fs.FileInfo, error) {
	d.stats.mu.Lock()
	r, ok := d.stats.m[p]
	d.stats.mu.Unlock()
	if !ok {
		r.fi, r.err = d.root.Lstat(p)
		d.stats.mu.Lock()
		d.stats.m[p] = r
		d.stats.mu.Unlock()
	}
	return r.fi, r.err
}

func (d diskTree) readlink(p string) (string, error) { return d.root.Readlink(p) }
func (d diskTree) open(p string) (fs.File, error)    { return d.root.Open(p) }
func (d diskTree) readDir(p string) ([]fs.DirEntry, error) {
	d.stats.mu.Lock()
	r, ok := d.stats.dirs[p]
	d.stats.mu.Unlock()
	if !ok {
		r.entries, r.err = d.readDirOnce(p)
		d.stats.mu.Lock()
		d.stats.dirs[p] = r
		d.stats.mu.Unlock()
	}
	return slices.Clone(r.entries), r.err
}

func (d diskTree) readDirOnce(p string) ([]fs.DirEntry, error) {
	f, err := d.root.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}

// fsTree is a backend over any fs.FS, such as a testing/fstest.MapFS.
type fsTree struct {
	fsys fs.FS
}

func (f fsTree) lstat(p string) (fs.FileInfo, error) { return fs.Lstat(f.fsys, p) }
func (f fsTree) readlink(p string) (string, error)   { return fs.ReadLink(f.fsys, p) }
func (f fsTree) open(p string) (fs.File, error)      { return f.fsys.Open(p) }
func (f fsTree) readDir(p string) ([]fs.DirEntry, error) {
	return fs.ReadDir(f.fsys, p)
}
