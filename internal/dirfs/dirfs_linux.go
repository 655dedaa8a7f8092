package dirfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// New is os.DirFS(dir) whose Open makes one system call, openat, where
// os.Open makes six: it offers every file it opens to the runtime's
// poller (four fcntl calls and an epoll_ctl that fails for a regular
// file). A build opens each FAQ file twice, 16,000 opens for the 10k
// corpus. Reading and closing are one system call each too; the
// other methods are os.DirFS's.
func New(dir string) fs.FS { return dirFS{dir, os.DirFS(dir)} }

type dirFS struct {
	dir string
	os  fs.FS // os.DirFS(dir)
}

func (d dirFS) Open(name string) (fs.File, error) {
	// What os.DirFS refuses, it refuses: a path that is not valid or
	// holds a NUL byte, a folder with no name.
	if !fs.ValidPath(name) || strings.IndexByte(name, 0) >= 0 || d.dir == "" {
		return d.os.Open(name)
	}
	full := d.dir + "/" + name
	fd, err := retry(func() (int, error) { return unix.Open(full, unix.O_RDONLY|unix.O_CLOEXEC, 0) })
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return &file{fd: fd, name: full}, nil
}

func (d dirFS) ReadFile(name string) ([]byte, error)       { return fs.ReadFile(d.os, name) }
func (d dirFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(d.os, name) }
func (d dirFS) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(d.os, name) }

// file is an open file's descriptor, read with read(2); Stat and ReadDir
// hand it to an os.File (os.NewFile, one fcntl call and no poller).
type file struct {
	fd   int
	name string // the folder's path and the file's, as an os.DirFS file's errors and listing use it
	os   *os.File
}

func (f *file) Read(b []byte) (int, error) {
	if f.os != nil {
		return f.os.Read(b)
	}
	if f.fd < 0 {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: fs.ErrClosed}
	}
	if len(b) == 0 {
		return 0, nil
	}
	n, err := retry(func() (int, error) { return unix.Read(f.fd, b) })
	switch {
	case err != nil:
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: err}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// File is the descriptor as an os.File, which then owns it.
func (f *file) file() (*os.File, error) {
	if f.os == nil {
		if f.fd < 0 {
			return nil, fs.ErrClosed
		}
		f.os = os.NewFile(uintptr(f.fd), f.name)
	}
	return f.os, nil
}

func (f *file) Stat() (fs.FileInfo, error) {
	o, err := f.file()
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: f.name, Err: err}
	}
	return o.Stat()
}

func (f *file) ReadDir(n int) ([]fs.DirEntry, error) {
	o, err := f.file()
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: f.name, Err: err}
	}
	return o.ReadDir(n)
}

func (f *file) Close() error {
	if f.os != nil {
		return f.os.Close()
	}
	if f.fd < 0 {
		return &fs.PathError{Op: "close", Path: f.name, Err: fs.ErrClosed}
	}
	fd := f.fd
	f.fd = -1
	// close(2) is not retried on EINTR: Linux frees the descriptor
	// first, as package os knows.
	if err := unix.Close(fd); err != nil && !errors.Is(err, unix.EINTR) {
		return &fs.PathError{Op: "close", Path: f.name, Err: err}
	}
	return nil
}

// CreateNew creates a file that must not exist yet, for writing: with
// write and close, three system calls. os.OpenFile makes eight, as it
// offers every file it opens to the runtime's poller (four fcntl calls and
// an epoll_ctl that fails for a regular file), and a fleet build creates
// two files per host.
func CreateNew(target string) (io.WriteCloser, error) {
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
