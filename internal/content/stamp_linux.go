package content

import (
	"io/fs"
	"syscall"
)

// stampOf is a file's stamp: size, modification and change times, inode.
func stampOf(fi fs.FileInfo) stamp {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return stamp{} // not a file of this system's: always read
	}
	return stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano(), ctime: st.Ctim.Nano(), ino: st.Ino}
}
