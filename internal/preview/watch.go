package preview

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// debounce is how long the watcher waits after the last change before it
// rebuilds: an editor's save is several events within a few milliseconds,
// a git checkout hundreds. It is part of every reload's time; a checkout
// that pauses longer gets a second update, which costs what it changed.
const debounce = 50 * time.Millisecond

// watcher watches the inputs of a build with fsnotify (inotify, kqueue,
// ReadDirectoryChangesW; no polling), folders recursively.
type watcher struct {
	w       *fsnotify.Watcher
	inputs  []string // absolute paths of the inputs: folders or files
	out     string   // the output folder: its changes are the build's own
	tmp     string   // the prefix of the build's temporary folders
	watched map[string]bool
	quiet   time.Duration // how long the inputs stay quiet before a rebuild: debounce
}

// newWatcher watches inputs; out is the output folder, whose changes (and
// those of the build's temporary folders beside it) are the build's own.
func newWatcher(out string, inputs []string) (*watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	wt := &watcher{w: fw, watched: map[string]bool{}, quiet: debounce}
	out, _ = filepath.Abs(out)
	wt.out, wt.tmp = out, filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".tmp-")
	for _, p := range inputs {
		if p == "" {
			continue
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		wt.inputs = append(wt.inputs, abs)
		if err := wt.add(abs); err != nil {
			fw.Close()
			return nil, err
		}
	}
	return wt, nil
}

func (wt *watcher) close() { wt.w.Close() }

func (wt *watcher) roots() []string {
	var out []string
	wd, _ := os.Getwd()
	for _, p := range wt.inputs {
		if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
			p = rel
		}
		out = append(out, p)
	}
	return out
}

// add watches p: a folder and every folder below it, or the folder of a
// file, or the nearest existing parent of a path that does not exist yet
// (a records folder made later).
func (wt *watcher) add(p string) error {
	fi, err := os.Stat(p)
	switch {
	case err != nil:
		for dir := filepath.Dir(p); ; dir = filepath.Dir(dir) {
			if _, err := os.Stat(dir); err == nil {
				return wt.watch(dir)
			}
			if dir == filepath.Dir(dir) {
				return nil
			}
		}
	case !fi.IsDir():
		return wt.watch(filepath.Dir(p))
	}
	return filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // a folder that went away meanwhile
		}
		if !d.IsDir() {
			return nil
		}
		if q != p && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || wt.ignored(q)) {
			return filepath.SkipDir
		}
		return wt.watch(q)
	})
}

func (wt *watcher) watch(dir string) error {
	if wt.watched[dir] {
		return nil
	}
	if err := wt.w.Add(dir); err != nil {
		return fmt.Errorf("watch %s: %w", dir, err)
	}
	wt.watched[dir] = true
	return nil
}

func (wt *watcher) ignored(p string) bool {
	return p == wt.out || strings.HasPrefix(p, wt.out+string(filepath.Separator)) || strings.HasPrefix(p, wt.tmp)
}

// relevant reports whether a change to p can change the site: it is an
// input or under one, and not an editor's temporary file.
func (wt *watcher) relevant(p string) bool {
	if wt.ignored(p) {
		return false
	}
	base := filepath.Base(p)
	if strings.HasPrefix(base, ".") || strings.HasSuffix(base, "~") || strings.HasSuffix(base, ".swp") || base == "4913" {
		return false
	}
	for _, in := range wt.inputs {
		if p == in || strings.HasPrefix(p, in+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// run calls rebuild once the inputs have been quiet for debounce after a
// change, with the time of the change's first event, until ctx ends.
func (wt *watcher) run(ctx context.Context, rebuild func(first time.Time)) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var first time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-wt.w.Events:
			if !ok {
				return
			}
			if ev.Has(fsnotify.Create) {
				// A new folder (or an input that did not exist) is watched too.
				for _, in := range wt.inputs {
					if ev.Name == in || strings.HasPrefix(ev.Name, in+string(filepath.Separator)) {
						wt.add(ev.Name)
					}
				}
			}
			if !wt.relevant(ev.Name) || ev.Op == fsnotify.Chmod {
				continue
			}
			if first.IsZero() {
				first = time.Now()
			}
			timer.Reset(wt.quiet)
		case _, ok := <-wt.w.Errors:
			if !ok {
				return
			}
		case <-timer.C:
			rebuild(first)
			first = time.Time{}
		}
	}
}
