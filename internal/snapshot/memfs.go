package snapshot

import (
	"bytes"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
)

// memNode is one member of an in-memory snapshot tree.
type memNode struct {
	mode      fs.FileMode // fs.ModeDir, fs.ModeSymlink or 0 for a regular file
	data      []byte      // regular file content, at most the per-file cap
	size      int64       // the size the member declared (more than len(data) when truncated)
	link      string      // symlink target as stored
	truncated bool
	children  []string // folder entries, sorted once the tree is complete
}

// memTree is a backend holding an archive's members in memory, keyed by
// their path relative to the snapshot root.
type memTree struct {
	nodes map[string]*memNode
}

func newMemTree() *memTree {
	return &memTree{nodes: map[string]*memNode{".": {mode: fs.ModeDir}}}
}

// add stores a node at p (clean, relative), creating parent folders. A
// later member with the same path replaces an earlier one, as tar does.
func (m *memTree) add(p string, n *memNode) {
	if old, ok := m.nodes[p]; ok {
		if old.mode.IsDir() && n.mode.IsDir() {
			return
		}
		if old.mode.IsDir() {
			n.children = old.children
		}
		m.nodes[p] = n
		return
	}
	m.nodes[p] = n
	for p != "." {
		dir := path.Dir(p)
		parent, ok := m.nodes[dir]
		if !ok {
			parent = &memNode{mode: fs.ModeDir}
			m.nodes[dir] = parent
			parent.children = append(parent.children, path.Base(p))
			p = dir
			continue
		}
		if !parent.mode.IsDir() {
			// A file used as a folder: the folder wins so its members stay reachable.
			parent.mode, parent.data, parent.link = fs.ModeDir, nil, ""
		}
		parent.children = append(parent.children, path.Base(p))
		return
	}
}

// finish sorts and de-duplicates folder entries.
func (m *memTree) finish() {
	for _, n := range m.nodes {
		if n.mode.IsDir() {
			slices.Sort(n.children)
			n.children = slices.Compact(n.children)
		}
	}
}

func (m *memTree) lstat(p string) (fs.FileInfo, error) {
	n, ok := m.nodes[p]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return memInfo{name: path.Base(p), n: n}, nil
}

func (m *memTree) readlink(p string) (string, error) {
	n, ok := m.nodes[p]
	if !ok {
		return "", fs.ErrNotExist
	}
	if n.mode&fs.ModeSymlink == 0 {
		return "", fs.ErrInvalid
	}
	return n.link, nil
}

func (m *memTree) open(p string) (fs.File, error) {
	n, ok := m.nodes[p]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return &memFile{info: memInfo{name: path.Base(p), n: n}, r: bytes.NewReader(n.data)}, nil
}

func (m *memTree) readDir(p string) ([]fs.DirEntry, error) {
	n, ok := m.nodes[p]
	if !ok {
		return nil, fs.ErrNotExist
	}
	out := make([]fs.DirEntry, 0, len(n.children))
	for _, c := range n.children {
		cp := c
		if p != "." {
			cp = p + "/" + c
		}
		if cn, ok := m.nodes[cp]; ok {
			out = append(out, fs.FileInfoToDirEntry(memInfo{name: c, n: cn}))
		}
	}
	return out, nil
}

// MemberInfo is what FileInfo.Sys returns for a member of an archive.
type MemberInfo struct {
	Truncated    bool  // the member was larger than the per-file cap
	DeclaredSize int64 // the size the archive declared for it
}

type memInfo struct {
	name string
	n    *memNode
}

func (i memInfo) Name() string { return i.name }
func (i memInfo) Size() int64 {
	if i.n.mode&fs.ModeSymlink != 0 {
		return int64(len(i.n.link))
	}
	return int64(len(i.n.data))
}
func (i memInfo) Mode() fs.FileMode {
	switch {
	case i.n.mode.IsDir():
		return fs.ModeDir | 0o555
	case i.n.mode&fs.ModeSymlink != 0:
		return fs.ModeSymlink | 0o777
	}
	return 0o444
}
func (i memInfo) ModTime() time.Time { return fixedTime }
func (i memInfo) IsDir() bool        { return i.n.mode.IsDir() }
func (i memInfo) Sys() any {
	return &MemberInfo{Truncated: i.n.truncated, DeclaredSize: i.n.size}
}

type memFile struct {
	info memInfo
	r    *bytes.Reader
}

func (f *memFile) Stat() (fs.FileInfo, error)         { return f.info, nil }
func (f *memFile) Read(p []byte) (int, error)         { return f.r.Read(p) }
func (f *memFile) Close() error                       { return nil }
func (f *memFile) Seek(o int64, w int) (int64, error) { return f.r.Seek(o, w) }

// cleanMember turns an archive member name into a path relative to the
// snapshot root, or reports why it cannot be one.
func cleanMember(name string) (string, string) {
	if strings.HasPrefix(name, "/") {
		return "", "absolute member name; skipped"
	}
	for _, c := range strings.Split(name, "/") {
		if c == ".." {
			return "", "member name climbs out of the archive with ..; skipped"
		}
	}
	p := path.Clean(name)
	if p == "." {
		return ".", ""
	}
	if !fs.ValidPath(p) || strings.ContainsRune(p, 0) {
		return "", "invalid member name; skipped"
	}
	return p, ""
}
