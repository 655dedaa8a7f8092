package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/spf13/cobra"

	"github.com/rocekb/rocekb/internal/cli"
	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/kb"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/render"
	"github.com/rocekb/rocekb/internal/search"
)

type serveOptions struct {
	site  siteFlags
	build buildOptions
	addr  string
	dir   string // serve this built folder as it is: no build, no watching
	cache int    // /api/search answers kept for repeated queries
	// ready, when set, is called with the address once the server listens
	// (for tests).
	ready func(addr string)
}

// debounce is how long the watcher waits after the last change before it
// rebuilds: an editor's save is several events, a git checkout hundreds.
const debounce = 150 * time.Millisecond

// reloadPath is the server-sent events endpoint open pages listen on.
const reloadPath = "/__reload"

// reloadScript is injected into every HTML page served, never into the
// built files: on a "reload" event the page reloads itself. The stream
// closes when the page is hidden (navigated away from, or kept in the
// back-forward cache), so open streams never use up the browser's six
// connections to the server.
const reloadScript = `<script>(function(){if(!window.EventSource)return;var es;function open(){es=new EventSource("` + reloadPath + `");es.addEventListener("reload",function(){es.close();location.reload();});}open();addEventListener("pagehide",function(){es.close();});addEventListener("pageshow",function(e){if(e.persisted)open();});})();</script>`

func newServeCmd() *cobra.Command { return newServeCmdWith(&serveOptions{}) }

func newServeCmdWith(o *serveOptions) *cobra.Command {
	c := &cobra.Command{
		Use:   "serve",
		Short: "Build the site, serve it for local preview and rebuild it on every change",
		Long: `Build the site (as 'kbgen build' does, into --out), serve it over HTTP and
watch the inputs: the matrix, the content, the records, the template and
static folders and kb.toml. A change rebuilds the site (the time each
rebuild takes is printed) and open pages reload themselves, through
server-sent events from ` + reloadPath + `; the script that listens is added to
the pages as they are served and never written into the built files.

/api/search?q=…[&kind=…][&vendor=…][&lang=…][&limit=…] answers from a bleve
index of the same pages as the site's static search, as JSON with facets and
highlighted snippets; it is rebuilt with the site.

A folder serves its index.html, never a listing; a missing page serves
404.html with status 404; files whose name starts with a dot (the build's
marker among them) are not served. It listens on 127.0.0.1 by default so
the preview is not exposed to the network.

--dir serves a folder 'kbgen build' wrote as it is, without building or
watching.

Examples:
  kbgen serve
  kbgen serve --records testdata/hosts --addr 127.0.0.1:9000
  kbgen build && kbgen serve --dir public
` + cli.ExitCodesHelp,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			cfg, err := o.site.resolve(c)
			if err != nil {
				return err
			}
			o.build.recordsSet = c.Flags().Changed("records") || cfg.Records != config.Default().Records
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt)
			defer stop()
			return runServe(ctx, c, cfg, o)
		},
	}
	o.site.register(c)
	fl := c.Flags()
	fl.StringVarP(&o.site.cfg.Output, "out", "o", config.Default().Output, "output folder the site is built into")
	fl.StringVar(&o.site.cfg.Templates, "templates", "", "folder of *.html templates that override the built-in ones")
	fl.StringVar(&o.site.cfg.Static, "static", "", "folder of static files that override or add to the built-in ones")
	fl.BoolVar(&o.build.strict, "strict", false, "fail a build on a record that does not validate, instead of leaving it out")
	fl.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on")
	fl.StringVarP(&o.dir, "dir", "d", "", "serve this built folder as it is: no build, no watching")
	fl.IntVar(&o.cache, "search-cache", search.DefaultCacheSize, "/api/search answers kept for repeated queries (0: none)")
	return c
}

func runServe(ctx context.Context, c *cobra.Command, cfg config.Config, o *serveOptions) error {
	stdout, stderr := c.OutOrStdout(), c.ErrOrStderr()
	srv := &server{reload: newBroker(), cache: o.cache}
	var wt *watcher
	if o.dir != "" {
		if _, err := os.Stat(filepath.Join(o.dir, render.Marker)); err != nil {
			return cli.Usagef("%s is not a kbgen site (run 'kbgen build' first)", o.dir)
		}
		srv.dir = o.dir
		// The search API still answers, from the matrix and content when
		// they load; without them it says it is unavailable.
		if k, _ := kb.Load(cfg, kb.Options{SkipRecords: true}); k != nil {
			docs := search.FromKB(k.Matrix, k.Content)
			if ix, err := search.Build(docs, search.AliasesFrom(k.Matrix, k.Content.Glossary)); err == nil {
				srv.setIndex(ix)
			}
		}
	} else {
		res, err := runBuild(c, cfg, o.build)
		if err != nil {
			return err
		}
		srv.dir = cfg.Output
		if err := srv.index(res, stdout); err != nil {
			return cli.Fail(err)
		}
		wt, err = newWatcher(cfg, o.site.config)
		if err != nil {
			return cli.Fail(err)
		}
		defer wt.close()
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return cli.Usage(err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "serving %s on http://%s/ (Ctrl-C to stop)\n", srv.dir, ln.Addr())
	if wt != nil {
		fmt.Fprintf(stdout, "watching %s\n", strings.Join(wt.roots(), ", "))
		go wt.run(ctx, func(first time.Time) {
			srv.rebuild(c, o, first, stdout, stderr)
		})
	}
	if o.ready != nil {
		o.ready(ln.Addr().String())
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
		return cli.Fail(err)
	}
}

// server serves the built folder, the search API and the reload events.
type server struct {
	dir    string
	cache  int
	reload *broker
	builds atomic.Int64 // builds done, the first included
	busy   sync.Mutex   // one rebuild at a time

	mu sync.RWMutex
	ix *search.Index
}

func (s *server) setIndex(ix *search.Index) {
	ix.SetCacheSize(s.cache)
	s.mu.Lock()
	old := s.ix
	s.ix = ix
	s.mu.Unlock()
	if old != nil {
		old.Close()
	}
}

// index builds the bleve index of a build's documents and puts it in place.
func (s *server) index(res *buildResult, out io.Writer) error {
	t := time.Now()
	ix, err := search.Build(res.Docs, res.Aliases)
	if err != nil {
		return err
	}
	s.setIndex(ix)
	s.builds.Add(1)
	fmt.Fprintf(out, "search API: %d documents indexed in %s\n", len(res.Docs), seconds(time.Since(t)))
	return nil
}

// rebuild builds the site again after a change first seen at first; on
// success it reindexes and tells open pages to reload. A failed build
// leaves the previous site and index in place.
func (s *server) rebuild(c *cobra.Command, o *serveOptions, first time.Time, stdout, stderr io.Writer) {
	s.busy.Lock()
	defer s.busy.Unlock()
	cfg, err := o.site.resolve(c)
	if err == nil {
		var res *buildResult
		if res, err = runBuild(c, cfg, o.build); err == nil {
			err = s.index(res, stdout)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "kbgen: rebuild failed, still serving the previous site: %v\n", err)
		return
	}
	n := s.reload.publish(strconv.FormatInt(s.builds.Load(), 10))
	fmt.Fprintf(stdout, "rebuilt: %s from the change to the reload sent to %d open page(s)\n", seconds(time.Since(first)), n)
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case reloadPath:
		s.reload.ServeHTTP(w, r)
		return
	case "/api/search":
		// Read-locked while it searches: a rebuild swaps the index under
		// the write lock and closes the old one only then.
		s.mu.RLock()
		defer s.mu.RUnlock()
		if s.ix == nil {
			httpJSONError(w, http.StatusServiceUnavailable, "no search index: the matrix and content did not load")
			return
		}
		search.Handler(s.ix).ServeHTTP(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "use GET", http.StatusMethodNotAllowed)
		return
	}
	s.serveFile(w, r)
}

// serveFile serves a file of the site: a folder its index.html (never a
// listing), a missing file or any dot file (the build's marker) 404.html.
func (s *server) serveFile(w http.ResponseWriter, r *http.Request) {
	upath := path.Clean("/" + r.URL.Path)
	for _, seg := range strings.Split(upath, "/") {
		if strings.HasPrefix(seg, ".") {
			s.notFound(w, r)
			return
		}
	}
	name := filepath.Join(s.dir, filepath.FromSlash(upath))
	fi, err := os.Stat(name)
	if err == nil && fi.IsDir() {
		if !strings.HasSuffix(r.URL.Path, "/") {
			// Pages link relatively: adapter/ must end in a slash for
			// adapter/index.html's links to resolve.
			http.Redirect(w, r, path.Base(upath)+"/", http.StatusMovedPermanently)
			return
		}
		name = filepath.Join(name, "index.html")
		fi, err = os.Stat(name)
	}
	if err != nil || fi.IsDir() {
		if upath == "/favicon.ico" {
			// Browsers ask for it unasked; a site without one gets no error.
			w.WriteHeader(http.StatusNoContent)
			return
		}
		s.notFound(w, r)
		return
	}
	s.send(w, r, name, fi, http.StatusOK)
}

func (s *server) notFound(w http.ResponseWriter, r *http.Request) {
	name := filepath.Join(s.dir, page.Path(page.NotFound, ""))
	fi, err := os.Stat(name)
	if err != nil {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	s.send(w, r, name, fi, http.StatusNotFound)
}

// send writes a file; HTML gets the reload script before </body>.
func (s *server) send(w http.ResponseWriter, r *http.Request, name string, fi fs.FileInfo, status int) {
	w.Header().Set("Cache-Control", "no-cache")
	if !strings.HasSuffix(name, ".html") {
		f, err := os.Open(name)
		if err != nil {
			http.Error(w, "404 page not found", http.StatusNotFound)
			return
		}
		defer f.Close()
		http.ServeContent(w, r, name, fi.ModTime(), f)
		return
	}
	b, err := os.ReadFile(name)
	if err != nil {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	b = injectReload(b)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(b)
	}
}

func injectReload(b []byte) []byte {
	i := bytes.LastIndex(b, []byte("</body>"))
	if i < 0 {
		return append(b, reloadScript...)
	}
	out := make([]byte, 0, len(b)+len(reloadScript))
	out = append(out, b[:i]...)
	out = append(out, reloadScript...)
	return append(out, b[i:]...)
}

func httpJSONError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	fmt.Fprintf(w, "{\"error\":%q}\n", msg)
}

// broker fans reload events out to the open pages' event streams.
type broker struct {
	mu   sync.Mutex
	subs map[chan string]bool
}

func newBroker() *broker { return &broker{subs: map[chan string]bool{}} }

// publish sends a reload event to every open stream and returns how many.
func (b *broker) publish(id string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch := range b.subs {
		select {
		case ch <- id:
		default: // a stream that is behind reloads on the next event
		}
	}
	return len(b.subs)
}

func (b *broker) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	ch := make(chan string, 1)
	b.mu.Lock()
	b.subs[ch] = true
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.subs, ch)
		b.mu.Unlock()
	}()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	// retry: a page whose stream broke (the server restarted) reconnects soon.
	io.WriteString(w, "retry: 500\n: connected\n\n")
	fl.Flush()
	ping := time.NewTicker(20 * time.Second)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case id := <-ch:
			fmt.Fprintf(w, "event: reload\nid: %s\ndata: %s\n\n", id, id)
			fl.Flush()
		case <-ping.C:
			io.WriteString(w, ": ping\n\n")
			fl.Flush()
		}
	}
}

// watcher watches the inputs of a build with fsnotify (inotify, kqueue,
// ReadDirectoryChangesW; no polling), folders recursively.
type watcher struct {
	w       *fsnotify.Watcher
	inputs  []string // absolute paths of the inputs: folders or files
	out     string   // the output folder: its changes are the build's own
	tmp     string   // the prefix of the build's temporary folders
	watched map[string]bool
}

func newWatcher(cfg config.Config, configFile string) (*watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	wt := &watcher{w: fw, watched: map[string]bool{}}
	out, _ := filepath.Abs(cfg.Output)
	wt.out, wt.tmp = out, filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".tmp-")
	for _, p := range []string{cfg.Matrix, cfg.Content, cfg.Records, cfg.Templates, cfg.Static, configFile} {
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
			timer.Reset(debounce)
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
