package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/rocekb/rocekb"
	"github.com/rocekb/rocekb/internal/cli"
	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/export"
	"github.com/rocekb/rocekb/internal/kb"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/render"
	"github.com/rocekb/rocekb/internal/search"
	"github.com/rocekb/rocekb/internal/site"
)

// siteFlags are the kb.toml settings every command can override.
type siteFlags struct {
	config string
	cfg    config.Config
}

func (f *siteFlags) register(c *cobra.Command) {
	d := config.Default()
	fl := c.Flags()
	fl.StringVar(&f.config, "config", "kb.toml", "site configuration file; used when it exists")
	fl.StringVar(&f.cfg.Matrix, "matrix", d.Matrix, "matrix folder (matrix/*.toml)")
	fl.StringVar(&f.cfg.Content, "content", d.Content, "content folder (faq/*.md, trees/*.toml, glossary.toml)")
	fl.StringVar(&f.cfg.Records, "records", d.Records, "host records folder (*.toml or *.json from kbcollect); may be missing")
	fl.IntVar(&f.cfg.StaleDays, "stale-days", d.StaleDays, "warn when a claim's last_verified is older than this many days (0: never)")
}

// resolve loads kb.toml, then applies the flags the user set.
func (f *siteFlags) resolve(c *cobra.Command) (config.Config, error) {
	cfg, probs := config.Load(f.config, c.Flags().Changed("config"))
	if err := probs.Err(); err != nil {
		return cfg, cli.Usage(err)
	}
	set := func(name string, dst *string, v string) {
		if c.Flags().Changed(name) {
			*dst = v
		}
	}
	set("matrix", &cfg.Matrix, f.cfg.Matrix)
	set("content", &cfg.Content, f.cfg.Content)
	set("records", &cfg.Records, f.cfg.Records)
	set("out", &cfg.Output, f.cfg.Output)
	set("templates", &cfg.Templates, f.cfg.Templates)
	set("static", &cfg.Static, f.cfg.Static)
	if c.Flags().Changed("stale-days") {
		cfg.StaleDays = f.cfg.StaleDays
	}
	return cfg, nil
}

// loadKB loads and lints, printing warnings; errors come back as exit 2.
func loadKB(c *cobra.Command, cfg config.Config, opts kb.Options) (*kb.KB, diag.List, error) {
	k, probs := kb.Load(cfg, opts)
	if probs.Errors() > 0 {
		return nil, probs, cli.Usage(probs.Err())
	}
	fmt.Fprint(c.ErrOrStderr(), probs.String())
	return k, probs, nil
}

// buildOptions are the build's own flags.
type buildOptions struct {
	strict bool // a record that fails validation fails the build
	// recordsSet: the records path was named (flag or kb.toml), so a
	// missing one is a mistake rather than a knowledge base without hosts.
	recordsSet bool
}

func newBuildCmd() *cobra.Command {
	var f siteFlags
	var o buildOptions
	c := &cobra.Command{
		Use:   "build",
		Short: "Build the static site",
		Long: `Build the static site from the matrix, the content and the host records.

The matrix and content are linted first (see 'kbgen lint'); any error stops the
build before anything is written. The output folder is written beside itself
and swapped in only when complete, so a failed build leaves the previous site
untouched. kbgen refuses to replace a non-empty folder it did not write.

--records names a folder of records or a single record file. A record is
validated as it is read: PCI addresses, PCI ids, module and device names,
versions and the other fields must have their formats. A record that does
not is reported with its file, line and column and left out of the site;
--strict fails the build instead. A --records path that does not exist
exits 2.

The site includes its search index (search/, read by search.html without a
server, from file:// too). The build ends with one line: pages, records,
files written, time and warnings; on a terminal, a build that takes more
than a few seconds shows its progress.

Templates and static files are built in; --templates and --static (or kb.toml)
name folders whose files override them by name.

Examples:
  kbgen build
  kbgen build --out /srv/kb --records ./fleet-records
  kbgen build --records one-host.toml --strict
` + cli.ExitCodesHelp,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			cfg, err := f.resolve(c)
			if err != nil {
				return err
			}
			o.recordsSet = c.Flags().Changed("records") || cfg.Records != config.Default().Records
			_, err = runBuild(c, cfg, o)
			return err
		},
	}
	f.register(c)
	profileFlags(c)
	c.Flags().StringVarP(&f.cfg.Output, "out", "o", config.Default().Output, "output folder")
	c.Flags().StringVar(&f.cfg.Templates, "templates", "", "folder of *.html templates that override the built-in ones")
	c.Flags().StringVar(&f.cfg.Static, "static", "", "folder of static files that override or add to the built-in ones")
	c.Flags().BoolVar(&o.strict, "strict", false, "fail the build on a record that does not validate, instead of leaving it out")
	return c
}

// buildResult is what a build made, for the summary and for kbgen serve.
type buildResult struct {
	Pages, Outputs    int // HTML pages; every file written
	Records, Skipped  int // host records published; left out as invalid
	Warnings          int
	Elapsed, IndexDur time.Duration
	Docs              []search.Doc // what the search index holds
	Aliases           *search.Aliases
}

// runBuild builds the site in stages: static files, the matrix and content
// pages and the host pages (each record read, validated, diagnosed,
// rendered and dropped in turn), then the pages that list the hosts, then
// the search index of every page the stages before wrote.
func runBuild(c *cobra.Command, cfg config.Config, o buildOptions) (*buildResult, error) {
	start := time.Now()
	if o.recordsSet && cfg.Records != "" {
		if _, err := os.Stat(cfg.Records); err != nil {
			return nil, cli.Usagef("--records %s: no such file or folder%s", cfg.Records, nearbyPath(cfg.Records))
		}
	}
	b := newBuilder(c.ErrOrStderr())
	defer b.stop()
	k, probs, err := loadKB(c, cfg, kb.Options{StreamRecords: true})
	if err != nil {
		return nil, err
	}
	b.total.Store(int64(k.Records.Len()))
	s, err := site.Build(site.Input{Config: cfg, Matrix: k.Matrix, Content: k.Content, Records: k.Records.Len()})
	if err != nil {
		return nil, cli.Usage(err)
	}
	layers := render.Layers{rocekb.Assets, dirLayer(cfg.Templates, "templates"), dirLayer(cfg.Static, "static")}
	tpl, err := render.LoadTemplates(layers)
	if err != nil {
		return nil, cli.Fail(err)
	}
	res := &buildResult{Aliases: search.AliasesFrom(k.Matrix, k.Content.Glossary)}

	var recordProbs diag.List
	var hostDocs sync.Map // record number → search.Doc, filled on the writers
	hostPages := func(emit func(render.Output) error) error {
		probs, err := k.Records.Each(func(h *record.Host) error {
			j, i := s.Host(h), res.Records
			res.Records++
			b.hosts.Add(1)
			err := emit(tpl.Deferred(j.Path(), func() site.Page {
				p := j.Page()
				hostDocs.Store(i, search.HostDoc(p))
				return p
			}))
			if err != nil {
				return err
			}
			return emit(render.Func(j.RecordPath(), j.WriteRecord))
		})
		recordProbs = probs
		if err != nil {
			return err
		}
		if o.strict {
			return probs.Err()
		}
		return nil
	}
	summaryPages := func(emit func(render.Output) error) error {
		return tpl.Pages(append(s.Summaries(), s.Late()...))(emit)
	}
	// searchIndex stays the last stage: it indexes the pages the stages
	// before it wrote, and only those.
	searchIndex := func(emit func(render.Output) error) error {
		t := time.Now()
		docs := search.Written(search.FromKB(k.Matrix, k.Content), b.wrote)
		for i := range res.Records {
			if d, ok := hostDocs.Load(i); ok {
				docs = append(docs, d.(search.Doc))
			}
		}
		res.Docs = docs
		err := search.NewStatic(docs, res.Aliases).Outputs(func(name string, data []byte) error {
			return emit(render.Bytes(name, data))
		})
		res.IndexDur = time.Since(t)
		return err
	}
	st, err := render.Build(cfg.Output, b.stages(
		render.Static(layers),
		tpl.Pages(s.Pages),
		verdictFiles(s),
		export.Matrix(k.Matrix, s),
		export.Feed(k.Matrix, cfg.Title, cfg.BaseURL),
		hostPages,
		summaryPages,
		export.Hosts(s),
		export.Sitemap(cfg.BaseURL, s.Paths),
		searchIndex,
	)...)
	b.stop()
	if o.strict && recordProbs.Errors() > 0 {
		return nil, cli.Usage(recordProbs.Err())
	}
	recordProbs, res.Skipped = skipped(recordProbs)
	fmt.Fprint(c.ErrOrStderr(), recordProbs.String())
	if err != nil {
		return nil, cli.Fail(err)
	}
	res.Outputs, res.Pages = st.Outputs, b.pages
	res.Warnings = probs.Warnings() + recordProbs.Warnings()
	res.Elapsed = time.Since(start)
	fmt.Fprintln(c.OutOrStdout(), res.summary(cfg.Output))
	return res, nil
}

// skipped turns the errors of records left out into warnings, adding one
// line per record that says so, and counts those records.
func skipped(probs diag.List) (diag.List, int) {
	files := map[string]bool{}
	var out diag.List
	for _, p := range probs {
		if p.Severity == diag.Error {
			p.Severity = diag.Warning
			files[p.File] = true
		}
		out = append(out, p)
	}
	for f := range files {
		out.Warn(f, diag.Pos{}, "record left out of the site (--strict fails the build instead)")
	}
	out.Sort()
	return out, len(files)
}

// summary is the build's one line: pages, records, files, time, warnings.
func (r *buildResult) summary(out string) string {
	recs := plural(r.Records, "record")
	if r.Skipped > 0 {
		recs += fmt.Sprintf(" (%d left out)", r.Skipped)
	}
	return fmt.Sprintf("built %s from %s into %s: %s in %s (search index %s), %s",
		plural(r.Pages, "page"), recs, out, plural(r.Outputs, "file"), seconds(r.Elapsed), seconds(r.IndexDur), plural(r.Warnings, "warning"))
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func seconds(d time.Duration) string {
	if d < 10*time.Second {
		return fmt.Sprintf("%.2fs", d.Seconds())
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}

// nearbyPath suggests an existing file or folder beside a missing path.
func nearbyPath(p string) string {
	dir, base := filepath.Split(filepath.Clean(p))
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".toml") || strings.HasSuffix(e.Name(), ".json") {
			names = append(names, e.Name())
		}
	}
	s := didYouMean(base, names)
	if !strings.HasPrefix(s, "; did you mean ") {
		return ""
	}
	return "; did you mean " + filepath.Join(dir, strings.TrimSuffix(strings.TrimPrefix(s, "; did you mean "), "?")) + "?"
}

// builder wraps a build's stages: it records the paths written (for the
// search index), counts pages, and shows progress on a terminal.
type builder struct {
	written map[string]bool // only the producer goroutine touches it
	pages   int
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

func newBuilder(stderr io.Writer) *builder {
	b := &builder{written: map[string]bool{}, done: make(chan struct{}), exited: make(chan struct{})}
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

func (b *builder) wrote(name string) bool { return b.written[name] }

func (b *builder) stages(ps ...render.Producer) []render.Producer {
	b.nstages.Store(int64(len(ps)))
	out := make([]render.Producer, len(ps))
	for i, p := range ps {
		out[i] = func(emit func(render.Output) error) error {
			b.stage.Store(int64(i + 1))
			return p(func(o render.Output) error {
				name := o.Path()
				b.written[name] = true
				if strings.HasSuffix(name, ".html") {
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
func (b *builder) progress() {
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
func (b *builder) stop() {
	b.stopped.Do(func() { close(b.done) })
	<-b.exited
}

// verdictFiles emits verdicts.js and verdicts/<adapter>.js, the engine's
// verdicts the home page's form shows (see site.AdapterVerdicts).
func verdictFiles(s *site.Site) render.Producer {
	return func(emit func(render.Output) error) error {
		if err := emit(render.Func("verdicts.js", s.WriteVerdictIndex)); err != nil {
			return err
		}
		for _, id := range s.VerdictAdapters() {
			id := id
			if err := emit(render.Func("verdicts/"+id+".js", func(w io.Writer) error { return s.WriteAdapterVerdicts(w, id) })); err != nil {
				return err
			}
		}
		return nil
	}
}

// dirLayer exposes a folder as the named top-level folder of a layer.
func dirLayer(dir, as string) fs.FS {
	if dir == "" {
		return nil
	}
	return prefixFS{prefix: as, fsys: os.DirFS(dir)}
}

// prefixFS mounts fsys under prefix.
type prefixFS struct {
	prefix string
	fsys   fs.FS
}

func (p prefixFS) Open(name string) (fs.File, error) {
	if name == p.prefix {
		return p.fsys.Open(".")
	}
	if len(name) > len(p.prefix) && name[:len(p.prefix)+1] == p.prefix+"/" {
		return p.fsys.Open(name[len(p.prefix)+1:])
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}
