// Package snapshot provides a read-only view of one host — the running
// host, a copied tree, an sosreport folder or tarball, or a kbcollect
// capture — as an fs.FS whose symlinks resolve inside the snapshot, plus
// command output (run on a live host only when source.Tools lists the
// command, looked up in the sos layout otherwise). It is the only package
// that touches the real host.
package snapshot
