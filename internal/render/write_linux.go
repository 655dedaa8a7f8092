package render

import (
	"io"
	"io/fs"

	"golang.org/x/sys/unix"
)

// createNew creates a file that must not exist yet, for writing: with
// write and close, three system calls. os.OpenFile makes eight, as it
// offers every file it opens to the runtime's poller (four fcntl calls and
// an epoll_ctl that fails for a regular file), and a fleet build creates
// two files per host.
func createNew(target string) (io.WriteCloser, error) {
	fd, err := retry(func() (int, error) {
		return unix.Open(target, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC, 0o644)
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: target, Err: err}
	}
	return fdFile{fd, target}, nil
}

// fdFile writes to a file descriptor with write(2) alone.
type fdFile struct {
	fd   int
	name string
}

func (f fdFile) Write(b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := retry(func() (int, error) { return unix.Write(f.fd, b[n:]) })
		switch {
		case err != nil:
			return n, &fs.PathError{Op: "write", Path: f.name, Err: err}
		case m <= 0:
			return n, &fs.PathError{Op: "write", Path: f.name, Err: io.ErrShortWrite}
		}
		n += m
	}
	return n, nil
}

func (f fdFile) Close() error {
	if err := unix.Close(f.fd); err != nil {
		return &fs.PathError{Op: "close", Path: f.name, Err: err}
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
