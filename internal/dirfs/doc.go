// Package dirfs opens files without the runtime's poller on Linux: a
// folder as an fs.FS whose files open in one system call, and a new file
// created for writing in one (os.DirFS and os.OpenFile elsewhere).
package dirfs
