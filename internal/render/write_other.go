//go:build !linux

package render

import (
	"io"
	"os"
)

// writeNew creates a file that must not exist yet.
func writeNew(target string, b []byte) error { return writeNewFile(target, b) }

// createNew creates a file that must not exist yet, for writing.
func createNew(target string) (io.WriteCloser, error) {
	return os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
}
