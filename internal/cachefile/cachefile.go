package cachefile

import (
	"os"
	"path/filepath"
)

// Write writes b to path through a temporary file renamed over it, so
// a reader sees the old file or the new one whole; a failure (no such
// folder, not writable, disk full) leaves no file.
func Write(path string, b []byte) {
	dir := filepath.Dir(path)
	if os.MkdirAll(dir, 0o755) != nil {
		return
	}
	f, err := os.CreateTemp(dir, filepath.Base(path)+".*.tmp")
	if err != nil {
		return
	}
	_, werr := f.Write(b)
	if cerr := f.Close(); werr != nil || cerr != nil || os.Rename(f.Name(), path) != nil {
		os.Remove(f.Name())
	}
}
