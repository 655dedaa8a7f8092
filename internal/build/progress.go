package build

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rocekb/rocekb/internal/render"
)

// tracker wraps a build's stages: it counts pages and outputs, and shows
// progress on a terminal.
type tracker struct {
	pages   int // only the producer goroutine touches it
	outputs atomic.Int64
	hosts   atomic.Int64
	total   atomic.Int64 // host records listed
	stage   atomic.Int64
	nstages atomic.Int64

	w       io.Writer
	done    chan struct{} // closed by stop
	exited  chan struct{} // closed when progress has cleared its line
	stopped sync.Once
}

// progressAfter is how long a build runs before it shows progress.
const progressAfter = 2 * time.Second

func newTracker(stderr io.Writer) *tracker {
	b := &tracker{done: make(chan struct{}), exited: make(chan struct{})}
	if f, ok := stderr.(*os.File); ok && isTerminal(f) {
		b.w = f
		go b.progress()
	} else {
		close(b.exited)
	}
	return b
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb"
}

func (b *tracker) stages(ps ...render.Producer) []render.Producer {
	b.nstages.Store(int64(len(ps)))
	out := make([]render.Producer, len(ps))
	for i, p := range ps {
		out[i] = func(emit func(render.Output) error) error {
			b.stage.Store(int64(i + 1))
			return p(func(o render.Output) error {
				if strings.HasSuffix(o.Path(), ".html") {
					b.pages++
				}
				b.outputs.Add(1)
				return emit(o)
			})
		}
	}
	return out
}

// progress redraws one line on stderr until the build stops, then
// clears it.
func (b *tracker) progress() {
	defer close(b.exited)
	select {
	case <-b.done:
		return
	case <-time.After(progressAfter):
	}
	start := time.Now().Add(-progressAfter)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		line := "building: loading and linting the inputs"
		if st := b.stage.Load(); st > 0 {
			line = fmt.Sprintf("building: stage %d/%d, %d files", st, b.nstages.Load(), b.outputs.Load())
		}
		if n := b.total.Load(); n > 0 {
			line += fmt.Sprintf(", %d/%d records", b.hosts.Load(), n)
		}
		fmt.Fprintf(b.w, "\r\x1b[K%s, %s", line, seconds(time.Since(start)))
		select {
		case <-b.done:
			fmt.Fprint(b.w, "\r\x1b[K")
			return
		case <-tick.C:
		}
	}
}

// stop ends the progress line and waits until it is cleared.
func (b *tracker) stop() {
	b.stopped.Do(func() { close(b.done) })
	<-b.exited
}
