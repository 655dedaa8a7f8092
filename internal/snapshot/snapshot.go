package snapshot

import (
	"io/fs"
	"os"
)

// Snapshot is one host's files, rooted like / (sys/, proc/, etc/ …).
type Snapshot struct {
	FS   fs.FS
	Kind string // record.KindLive, KindRoot, …
	Name string // what the user named: a folder, a tarball, or "/" for live
}

// Root opens a copied tree.
func Root(dir string) (*Snapshot, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: fs.ErrInvalid}
	}
	return &Snapshot{FS: os.DirFS(dir), Kind: "root", Name: dir}, nil
}

// Live opens the running host.
func Live() *Snapshot { return &Snapshot{FS: os.DirFS("/"), Kind: "live", Name: "/"} }
