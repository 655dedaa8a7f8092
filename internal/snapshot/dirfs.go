package snapshot

import (
	"io/fs"
	"os"
)

// diskTree is a backend over a folder on disk. os.Root keeps every access
// inside the folder even if the tree changes under us; treeFS has already
// resolved symlinks, so the Root never needs to follow one.
type diskTree struct {
	root *os.Root
}

func (d diskTree) lstat(p string) (fs.FileInfo, error) { return d.root.Lstat(p) }
func (d diskTree) readlink(p string) (string, error)   { return d.root.Readlink(p) }
func (d diskTree) open(p string) (fs.File, error)      { return d.root.Open(p) }
func (d diskTree) readDir(p string) ([]fs.DirEntry, error) {
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
