package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// settler keeps a timed build from paying for the removal before it.
// ext4 without a journal skips, when it allocates an inode, every inode
// freed less than 60 s ago (300 s while its inode table block is
// unwritten: RECENTCY_MIN and RECENTCY_DIRTY in fs/ext4/ialloc.c), and
// each skip costs a lookup: creating a site's files just after removing
// the last one's (255,000 files at the fleet size) took 42.7 s of system
// CPU against 13.0 s into a fresh folder. So after a removal the harness
// writes the file system out (sync) and waits out the window before it
// times the next build. The wait is the -settle flag; by default it is
// taken on ext2/3/4 only, where the work folder lives.
type settler struct {
	wait time.Duration // 0: never wait
	last time.Time     // the last removal not yet waited out
	out  io.Writer
}

// defaultSettle is the wait for a work folder on file system fs (stat -f's
// %T): 61 s on ext2/3/4, none elsewhere (tmpfs reuses inodes at once).
func defaultSettle(fs string) time.Duration {
	if strings.HasPrefix(fs, "ext") {
		return 61 * time.Second
	}
	return 0
}

// remove removes path, as os.RemoveAll does, and notes the removal when
// there was something to remove.
func (s *settler) remove(path string) {
	if _, err := os.Lstat(path); err != nil {
		return
	}
	os.RemoveAll(path)
	s.removed()
}

// removed notes a removal made elsewhere (a rebuild swapping out the old
// output folder).
func (s *settler) removed() { s.last = time.Now() }

// settle syncs and waits until the window after the last removal has
// passed; it returns at once when there was none since the last wait.
func (s *settler) settle() {
	if s.wait <= 0 || s.last.IsZero() {
		return
	}
	exec.Command("sync").Run()
	if d := time.Until(s.last.Add(s.wait)); d > 0 {
		fmt.Fprintf(s.out, "settle: waiting %.0fs after a removal (-settle)\n", d.Seconds())
		time.Sleep(d)
	}
	s.last = time.Time{}
}
