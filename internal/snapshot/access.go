package snapshot

import (
	"errors"
	"io/fs"
	"sync"
)

// recorder notes every path a collection touched on a live host, so that a
// capture can save exactly those files, folders and symlinks.
type recorder struct {
	mu     sync.Mutex
	links  map[string]string        // symlink path → target
	files  map[string]bool          // regular files opened or stat'ed
	dirs   map[string][]fs.DirEntry // folders listed
	failed map[string]string        // files that could not be opened → why
}

func newRecorder() *recorder {
	return &recorder{links: map[string]string{}, files: map[string]bool{}, dirs: map[string][]fs.DirEntry{}, failed: map[string]string{}}
}

func (st *state) recorder() *recorder {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.rec
}

func (st *state) recordLink(p, target string) {
	if r := st.recorder(); r != nil {
		r.mu.Lock()
		r.links[p] = target
		r.mu.Unlock()
	}
}

func (st *state) recordFile(p string) {
	if r := st.recorder(); r != nil {
		r.mu.Lock()
		r.files[p] = true
		r.mu.Unlock()
	}
}

func (st *state) recordStat(p string, info fs.FileInfo) {
	if info.Mode().IsRegular() {
		st.recordFile(p)
	} else if info.IsDir() {
		if r := st.recorder(); r != nil {
			r.mu.Lock()
			if _, ok := r.dirs[p]; !ok {
				r.dirs[p] = nil
			}
			r.mu.Unlock()
		}
	}
}

func (st *state) recordDir(p string, entries []fs.DirEntry) {
	if r := st.recorder(); r != nil {
		r.mu.Lock()
		r.dirs[p] = entries
		r.mu.Unlock()
	}
}

func (st *state) recordFailed(p string, err error) {
	if r := st.recorder(); r != nil {
		r.mu.Lock()
		r.failed[p] = failKind(err)
		r.mu.Unlock()
	}
}

// failKind reduces an open error to what a capture stores and replays.
func failKind(err error) string {
	if errors.Is(err, fs.ErrPermission) {
		return "permission denied"
	}
	return underlying(err).Error()
}

// replayError turns a stored failure back into an error with the same text.
func replayError(msg string) error {
	if msg == "permission denied" {
		return fs.ErrPermission
	}
	return errors.New(msg)
}
