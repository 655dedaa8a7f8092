package render

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps the folders a and b in one step (renameat2
// RENAME_EXCHANGE, Linux 3.15): at every moment the path b names one
// complete tree, the old or the new. errNoExchange when the kernel or the
// file system cannot (ENOSYS, EINVAL: some network and overlay file
// systems).
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EOPNOTSUPP) {
		return errNoExchange
	}
	return err
}
