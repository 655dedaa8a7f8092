//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package render

// lockIsNoop reports that lock does not serialize builds.
const lockIsNoop = true

// lock serializes builds where flock exists; elsewhere builds into one
// output are not serialized.
func lock(path string) (unlock func(), err error) { return func() {}, nil }
