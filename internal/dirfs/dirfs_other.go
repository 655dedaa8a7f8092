//go:build !linux

package dirfs

import (
	"io"
	"io/fs"
	"os"
)

// New is os.DirFS(dir).
func New(dir string) fs.FS { return os.DirFS(dir) }

// CreateNew creates a file that must not exist yet, for writing.
func CreateNew(target string) (io.WriteCloser, error) {
	return os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
}
