package preview

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rocekb/rocekb/internal/search"
)

// Options configure a Server.
type Options struct {
	// Dir is the built site folder served; a build writes it.
	Dir string
	// Inputs are the files and folders a build reads (empty ones are
	// skipped); a change under one calls Rebuild. With none, or without
	// Rebuild, nothing is watched.
	Inputs []string
	// Rebuild builds the site into Dir again and returns the documents
	// and aliases the search API answers from, or nil aliases when they
	// are the ones of the build before (the index is kept). A failed
	// rebuild leaves the previous site and index in place.
	Rebuild func() ([]search.Doc, *search.Aliases, error)
	// SearchCache is how many /api/search answers are kept for repeated
	// queries (0: none).
	SearchCache int
	// Stdout gets the index and rebuild times, Stderr failed rebuilds;
	// nil discards them.
	Stdout, Stderr io.Writer
	// Name prefixes the line of a failed rebuild, as the command's
	// errors are ("kbgen").
	Name string
	// Debounce is how long the inputs must be quiet before a rebuild
	// (0: 50 ms, see debounce).
	Debounce time.Duration
}

// Server serves the built folder, the search API and the reload events.
type Server struct {
	opts   Options
	reload *broker
	watch  *watcher     // nil: no watching
	builds atomic.Int64 // builds served, the first included
	busy   sync.Mutex   // one rebuild at a time

	mu sync.RWMutex
	ix *search.Index

	hosts    atomic.Pointer[hosts]  // the Host headers answered; nil: any (before Serve)
	failed   atomic.Pointer[string] // why the last rebuild failed; nil after a good one
	timeouts timeouts
}

// timeouts of the preview server: a slow or stuck client is cut off. The
// reload streams are long-lived and set their own deadlines per event.
type timeouts struct{ readHeader, read, write, idle time.Duration }

var defaultTimeouts = timeouts{readHeader: 10 * time.Second, read: 30 * time.Second, write: 60 * time.Second, idle: 120 * time.Second}

// New makes a Server and, when it has Inputs and Rebuild, starts
// watching them; Serve runs the rebuilds.
func New(o Options) (*Server, error) {
	if o.Stdout == nil {
		o.Stdout = io.Discard
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	s := &Server{opts: o, reload: newBroker(), timeouts: defaultTimeouts}
	if o.Rebuild != nil && len(o.Inputs) > 0 {
		wt, err := newWatcher(o.Dir, o.Inputs)
		if err != nil {
			return nil, err
		}
		if o.Debounce > 0 {
			wt.quiet = o.Debounce
		}
		s.watch = wt
	}
	return s, nil
}

// Watching lists the watched inputs, relative to the working folder when
// under it; nil when nothing is watched.
func (s *Server) Watching() []string {
	if s.watch == nil {
		return nil
	}
	return s.watch.roots()
}

// SetIndex puts ix in place for the search API and closes the one before.
func (s *Server) SetIndex(ix *search.Index) {
	if ix != nil {
		ix.SetCacheSize(s.opts.SearchCache)
	}
	s.mu.Lock()
	old := s.ix
	s.ix = ix
	s.mu.Unlock()
	if old != nil {
		old.Close()
	}
}

// Index builds the bleve index of a build's documents, puts it in place
// and prints how long it took.
func (s *Server) Index(docs []search.Doc, aliases *search.Aliases) error {
	t := time.Now()
	ix, err := search.Build(docs, aliases)
	if err != nil {
		return err
	}
	s.SetIndex(ix)
	fmt.Fprintf(s.opts.Stdout, "search API: %d documents indexed in %s\n", len(docs), seconds(time.Since(t)))
	return nil
}

// Serve serves HTTP on ln and runs the watcher's rebuilds until ctx ends
// (then it returns nil) or the server fails.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	h := allowedHosts(ln.Addr())
	s.hosts.Store(&h)
	to := s.timeouts
	hs := &http.Server{Handler: s, ReadHeaderTimeout: to.readHeader, ReadTimeout: to.read,
		WriteTimeout: to.write, IdleTimeout: to.idle, MaxHeaderBytes: 64 << 10}
	if s.watch != nil {
		go s.watch.run(ctx, s.rebuild)
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case <-ctx.Done():
		hs.Close() // also ends the event streams of open pages
		return nil
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}

// Close stops watching and closes the search index.
func (s *Server) Close() {
	if s.watch != nil {
		s.watch.close()
	}
	s.SetIndex(nil)
}

// rebuild builds the site again after a change first seen at first; on
// success it tells open pages to reload, then reindexes: the pages show
// the change as soon as its files are written, and the search API
// answers from the previous index until the new one is in place.
func (s *Server) rebuild(first time.Time) {
	s.busy.Lock()
	defer s.busy.Unlock()
	docs, aliases, err := s.opts.Rebuild()
	if err != nil {
		fmt.Fprintf(s.opts.Stderr, "%s: rebuild failed, still serving the previous site: %v\n", s.opts.Name, err)
		// Open pages reload to show what is wrong (file:line:col) until
		// an edit fixes it.
		msg := err.Error()
		s.failed.Store(&msg)
		s.reload.publish(strconv.FormatInt(s.builds.Add(1), 10))
		return
	}
	s.failed.Store(nil)
	n := s.reload.publish(strconv.FormatInt(s.builds.Add(1), 10))
	fmt.Fprintf(s.opts.Stdout, "rebuilt: %s from the change to the reload sent to %d open page(s)\n", seconds(time.Since(first)), n)
	if aliases == nil {
		return // the documents did not change
	}
	if err := s.Index(docs, aliases); err != nil {
		fmt.Fprintf(s.opts.Stderr, "%s: search API not reindexed, still answering from the previous index: %v\n", s.opts.Name, err)
	}
}

// ServeHTTP serves the reload events, the search API and the site's files.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	secureHeaders(w.Header())
	if h := s.hosts.Load(); h != nil && !h.allow(r.Host) {
		// DNS rebinding: a page of another site, its name pointed at this
		// address, would read the customer records served here.
		http.Error(w, "unknown host: use the address kbgen serve printed", http.StatusMisdirectedRequest)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "use GET", http.StatusMethodNotAllowed)
		return
	}
	switch r.URL.Path {
	case reloadJSPath:
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		io.WriteString(w, reloadJS)
		return
	case ReloadPath:
		s.reload.ServeHTTP(w, r)
		return
	case "/api/search":
		// Read-locked while it searches: a rebuild swaps the index under
		// the write lock and closes the old one only then.
		s.mu.RLock()
		defer s.mu.RUnlock()
		if s.ix == nil {
			jsonError(w, http.StatusServiceUnavailable, "no search index: the matrix and content did not load")
			return
		}
		search.Handler(s.ix).ServeHTTP(w, r)
		return
	}
	s.serveFile(w, r)
}

func jsonError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	fmt.Fprintf(w, "{\"error\":%q}\n", msg)
}

// seconds is how the rebuild and index times print, as kbgen build's are.
func seconds(d time.Duration) string {
	if d < 10*time.Second {
		return fmt.Sprintf("%.2fs", d.Seconds())
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}
