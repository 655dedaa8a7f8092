// Package snapshot provides a read-only view of one host, live or copied,
// as an fs.FS plus captured command output. It is the only package that
// touches the real host.
package snapshot
