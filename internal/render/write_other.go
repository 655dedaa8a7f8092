//go:build !linux

package render

// writeNew creates a file that must not exist yet.
func writeNew(target string, b []byte) error { return writeNewFile(target, b) }
