//go:build !linux

package render

import (
	"io"
	"os"
)

// createNew creates a file that must not exist yet, for writing.
func createNew(target string) (io.WriteCloser, error) {
	return os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
}
