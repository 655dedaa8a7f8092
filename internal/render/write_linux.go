package render

import (
	"io"
	"io/fs"

	"golang.org/x/sys/unix"
)

// writeNew creates a file that must not exist yet in three system calls:
// open, write, close. os.OpenFile makes eight, as it offers every file it
// opens to the runtime's poller (four fcntl calls and an epoll_ctl that
// fails for a regular file), and a fleet build creates two files per host.
func writeNew(target string, b []byte) error {
	fd, err := retry(func() (int, error) {
		return unix.Open(target, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC, 0o644)
	})
	if err != nil {
		return &fs.PathError{Op: "open", Path: target, Err: err}
	}
	for len(b) > 0 && err == nil {
		var n int
		n, err = retry(func() (int, error) { return unix.Write(fd, b) })
		switch {
		case err != nil:
		case n <= 0:
			err = io.ErrShortWrite
		default:
			b = b[n:]
		}
	}
	if err != nil {
		unix.Close(fd)
		return &fs.PathError{Op: "write", Path: target, Err: err}
	}
	if err := unix.Close(fd); err != nil {
		return &fs.PathError{Op: "close", Path: target, Err: err}
	}
	return nil
}

// retry calls fn again while a signal interrupts it (EINTR), as package
// os does.
func retry(fn func() (int, error)) (int, error) {
	for {
		n, err := fn()
		if err != unix.EINTR {
			return n, err
		}
	}
}
