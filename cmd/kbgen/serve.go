package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rocekb/rocekb/internal/build"
	"github.com/rocekb/rocekb/internal/cli"
	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/kb"
	"github.com/rocekb/rocekb/internal/preview"
	"github.com/rocekb/rocekb/internal/render"
	"github.com/rocekb/rocekb/internal/search"
	"github.com/rocekb/rocekb/internal/site"
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

func newServeCmd() *cobra.Command { return newServeCmdWith(&serveOptions{}) }

func newServeCmdWith(o *serveOptions) *cobra.Command {
	c := &cobra.Command{
		Use:   "serve",
		Short: "Build the site, serve it for local preview and update it on every change",
		Long: `Build the site (as 'kbgen build' does, into --out), serve it over HTTP and
watch the inputs: the matrix, the content, the records, the template and
static folders and kb.toml. A change updates the site in place: only the
pages and files whose inputs changed are rendered, only files whose bytes
changed are written, and an unchanged matrix keeps its verdicts (each
update prints what it rendered and changed, and how long it took). Open
pages then reload themselves, through server-sent events from
` + preview.ReloadPath + `; the script that listens is added to the pages as they
are served and never written into the built files. An edit that does not
build leaves the previous site in place, and open pages reload to show the
build's message (file:line:col) above it until an edit fixes it.

/api/search?q=…[&kind=…][&vendor=…][&lang=…][&limit=…] answers from a bleve
index of the same pages as the site's static search, as JSON with facets and
highlighted snippets; it is reindexed after each update, answering from the
previous index meanwhile.

A folder serves its index.html, never a listing; a missing page serves
404.html with status 404; files whose name starts with a dot (the build's
marker among them) are not served, nor a link that leads out of the folder.
It listens on 127.0.0.1 by default so the preview, which serves customer
records, is not exposed to the network; another --addr gets a warning.
It answers GET and HEAD only, to a Host header naming the address it
listens on (a rebound DNS name gets 421), with nosniff, a
Content-Security-Policy that allows the site's own files only and no
framing; slow clients are cut off and open reload streams are capped.

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

// runServe builds the site (unless --dir), then serves it with
// internal/preview, which rebuilds it through runBuild on every change.
func runServe(ctx context.Context, c *cobra.Command, cfg config.Config, o *serveOptions) error {
	stdout, stderr := c.OutOrStdout(), c.ErrOrStderr()
	popts := preview.Options{Dir: o.dir, SearchCache: o.cache, Stdout: stdout, Stderr: stderr, Name: c.Root().Name()}
	var first *build.Result
	if o.dir != "" {
		if _, err := os.Stat(filepath.Join(o.dir, render.Marker)); err != nil {
			return cli.Usagef("%s is not a kbgen site (run 'kbgen build' first)", o.dir)
		}
	} else {
		var err error
		o.build.keep = true
		if first, err = runBuild(c, cfg, o.build); err != nil {
			return err
		}
		popts.Dir = cfg.Output
		popts.Inputs = []string{cfg.Matrix, cfg.Content, cfg.Records, cfg.Templates, cfg.Static, o.site.config}
		// A rebuild updates the folder the last build left, rendering
		// what changed; after a failed one the next builds it afresh.
		last := first
		popts.Rebuild = func() ([]search.Doc, *search.Aliases, error) {
			cfg, err := o.site.resolve(c) // kb.toml may have changed
			if err != nil {
				return nil, nil, err
			}
			bo := o.build
			bo.previous, last = last, nil
			res, err := runBuild(c, cfg, bo)
			if err != nil {
				return nil, nil, err
			}
			last = res
			if res.IndexKept {
				return nil, nil, nil // the search API keeps its index
			}
			return res.Docs, res.Aliases, nil
		}
	}
	srv, err := preview.New(popts)
	if err != nil {
		return cli.Fail(err)
	}
	defer srv.Close()
	if first != nil {
		if err := srv.Index(first.Docs, first.Aliases); err != nil {
			return cli.Fail(err)
		}
	} else if k, _ := kb.Load(cfg, kb.Options{SkipRecords: true}); k != nil {
		// --dir: the search API still answers, from the matrix and content
		// when they load; without them it says it is unavailable.
		if s, err := site.Build(site.Input{Config: cfg, Matrix: k.Matrix, Content: k.Content, SearchOnly: true}); err == nil {
			if ix, err := search.Build(s.Docs(), search.AliasesFrom(k.Matrix, k.Content.Glossary)); err == nil {
				srv.SetIndex(ix)
			}
		}
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return cli.Usage(err)
	}
	if !preview.Loopback(o.addr) {
		fmt.Fprintf(stderr, "%s: warning: --addr %s is reachable from other machines, and the site holds customer records; serve on 127.0.0.1 unless you mean it\n", c.Root().Name(), o.addr)
	}
	fmt.Fprintf(stdout, "serving %s on http://%s/ (Ctrl-C to stop)\n", popts.Dir, ln.Addr())
	if roots := srv.Watching(); roots != nil {
		fmt.Fprintf(stdout, "watching %s\n", strings.Join(roots, ", "))
	}
	if o.ready != nil {
		o.ready(ln.Addr().String())
	}
	if err := srv.Serve(ctx, ln); err != nil {
		return cli.Fail(err)
	}
	return nil
}
