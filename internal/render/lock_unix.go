//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package render

import (
	"os"
	"syscall"
)

// lockIsNoop reports that lock does not serialize builds.
const lockIsNoop = false

// lock takes an exclusive advisory lock on the file at path, creating it,
// waiting while another build holds it. The kernel drops the lock of a
// killed build with its process.
func lock(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
