package render

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

// Marker is written into every output folder. A folder without it is never
// replaced, so a mistyped --out cannot delete someone's files.
const Marker = ".kbgen-output"

const markerText = "written by kbgen build; this folder is replaced on every build\n"

// Stats count what a build wrote.
type Stats struct {
	Outputs int // files, the marker not included
}

// Build runs the producers in order, writing each output as it comes on
// one of GOMAXPROCS writers, into a folder beside dir that is swapped in
// only when every output is written. A stage starts when the previous
// stage's outputs are all written, so a later producer may use what an
// earlier one's outputs left behind (the home page lists the hosts whose
// pages the stage before made). An existing dir is replaced only if it is
// empty or holds the Marker file; two outputs with one path are an error.
func Build(dir string, stages ...Producer) (st Stats, err error) {
	dir = filepath.Clean(dir)
	if err := replaceable(dir); err != nil {
		return st, err
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return st, err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return st, err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return st, err
	}

	p := &pool{tmp: tmp, queue: make(chan Output, 2*runtime.GOMAXPROCS(0)), seen: map[string]bool{Marker: true}}
	var workers sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for o := range p.queue {
				if err := p.write(o); err != nil {
					p.fail(fmt.Errorf("%s: %w", o.Path(), err))
				}
				p.pending.Done()
			}
		}()
	}
	for _, produce := range stages {
		if err = produce(p.emit); err != nil {
			break
		}
		p.pending.Wait()
		if err = p.failed(); err != nil {
			break
		}
	}
	close(p.queue)
	workers.Wait()
	if err == nil {
		err = p.failed()
	}
	if err != nil {
		return st, err
	}
	if err := os.WriteFile(filepath.Join(tmp, Marker), []byte(markerText), 0o644); err != nil {
		return st, err
	}
	st.Outputs = len(p.seen) - 1
	return st, swap(tmp, dir)
}

// pool hands outputs to the writers and keeps the first failure.
type pool struct {
	tmp     string
	queue   chan Output
	pending sync.WaitGroup
	seen    map[string]bool // paths emitted; only the producer goroutine touches it

	mu  sync.Mutex
	err error
}

func (p *pool) emit(o Output) error {
	if err := p.failed(); err != nil {
		return err
	}
	name := o.Path()
	if !fs.ValidPath(name) || name == "." {
		return fmt.Errorf("invalid output path %q", name)
	}
	if p.seen[name] {
		return fmt.Errorf("%s: two outputs have this path", name)
	}
	p.seen[name] = true
	p.pending.Add(1)
	p.queue <- o
	return nil
}

func (p *pool) fail(err error) {
	p.mu.Lock()
	if p.err == nil {
		p.err = err
	}
	p.mu.Unlock()
}

func (p *pool) failed() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

func (p *pool) write(o Output) error {
	if p.failed() != nil {
		return nil
	}
	target := filepath.Join(p.tmp, filepath.FromSlash(o.Path()))
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	bw := writers.Get().(*bufio.Writer)
	bw.Reset(f)
	err = o.Render(bw)
	if err == nil {
		err = bw.Flush()
	}
	bw.Reset(nil)
	writers.Put(bw)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writers are the outputs' write buffers, reused: a fresh 64 KiB buffer
// per page was 3 GB of garbage for 50,000 host pages.
var writers = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 64<<10) }}

// replaceable refuses a dir that exists and was not written by kbgen.
func replaceable(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil
	}
	if !fi.IsDir() {
		return fmt.Errorf("output %s exists and is not a folder", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, Marker)); err != nil {
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			return fmt.Errorf("output %s is not empty and was not written by kbgen (no %s); refusing to replace it", dir, Marker)
		}
	}
	return nil
}

// swap moves the finished tmp into dir's place, keeping the old dir until
// the new one is in.
func swap(tmp, dir string) error {
	old := ""
	if _, err := os.Stat(dir); err == nil {
		old = tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("replace %s: %w", dir, err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			os.Rename(old, dir)
		}
		return fmt.Errorf("replace %s: %w", dir, err)
	}
	if old != "" {
		removeTree(old)
	}
	return nil
}

// removeTree deletes the replaced site, which is no longer in anyone's
// way: its files are unlinked by 4×GOMAXPROCS goroutines, as unlinking
// waits on the file system more than it computes (one os.RemoveAll made a
// rebuild into an existing folder slower than the first build; 10,000
// pages went from about 2.5 to 1.1 s), then the emptied folders go.
// Failures are ignored, as the new site is already in place.
func removeTree(dir string) {
	files := make(chan string, 256)
	var wg sync.WaitGroup
	for range 4 * runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range files {
				os.Remove(f)
			}
		}()
	}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files <- p
		}
		return nil
	})
	close(files)
	wg.Wait()
	os.RemoveAll(dir)
}
