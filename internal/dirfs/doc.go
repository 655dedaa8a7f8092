// Package dirfs provides a folder as an fs.FS that opens a file in one
// system call on Linux: os.DirFS otherwise.
package dirfs
