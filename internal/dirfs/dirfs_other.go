//go:build !linux

package dirfs

import (
	"io/fs"
	"os"
)

// New is os.DirFS(dir).
func New(dir string) fs.FS { return os.DirFS(dir) }
