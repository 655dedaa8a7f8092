// Package snapshot provides a read-only view of one host — the running
// host, a copied tree, an sosreport folder or tarball, or a kbcollect
// capture — as an fs.FS whose symlinks resolve inside the snapshot, plus
// command output (run from an allow-list on a live host, looked up in the
// sos layout otherwise). It is the only package that touches the real host.
package snapshot
