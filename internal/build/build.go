package build

import (
	"fmt"
	"io"
	"io/fs"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/export"
	"github.com/rocekb/rocekb/internal/kb"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/render"
	"github.com/rocekb/rocekb/internal/search"
	"github.com/rocekb/rocekb/internal/site"
)

// Options configure a build beyond its site configuration.
type Options struct {
	// Assets holds the built-in templates/ and static/ folders; the
	// configuration's Templates and Static folders override them by name.
	Assets fs.FS
	// Strict fails the build on a record that does not validate, instead
	// of leaving it out.
	Strict bool
	// Stderr gets the lint and record warnings and, when it is a
	// terminal, the progress line; nil discards them.
	Stderr io.Writer
	// Previous, when set, is the result of the build that made
	// cfg.Output: the build then updates that folder in place, rendering
	// only the outputs whose inputs changed, and reuses what Previous's
	// cache keeps of the inputs that did not change (kbgen serve's
	// rebuild; see cache).
	Previous *Result
	// Keep makes the result hold a cache of what a rebuild reuses, for a
	// Previous to come; a one-off build does not keep it.
	Keep bool

	// HostsGC, above 0, is the collector's pace (as GOGC) while the host
	// records are read, decoded and rendered, and the pace before after:
	// decoding a record is almost all garbage (BurntSushi/toml made 58%
	// of a 100k build's allocations), so a fleet is built faster with the
	// collector running less often. 0 leaves the pace alone. The pace is
	// the process's: one build at a time should set it.
	HostsGC int

	hooks *hooks // tests look inside the build; nil: none
}

// hooks are the tests' windows on a build's state: begun once the site
// model is made, hosts as the host records start to be read, indexing
// once the search index has its documents.
type hooks struct {
	begun, hosts, indexing func(*builder)
}

// InputError is a build stopped by its inputs: the knowledge base does not
// lint, the page model refuses it, or (Strict) a record does not validate.
// Err is what to show; anything else a build returns is a failure to write.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// Result is what a build made, for the summary and for kbgen serve.
type Result struct {
	Pages, Outputs    int // HTML pages; every file the site holds
	Rendered, Changed int // outputs rendered; files created, rewritten or removed
	Manifest          *render.Manifest
	Update            bool // the folder was updated in place (Options.Previous)
	Records, Skipped  int  // host records published; left out as invalid
	Warnings          int
	Elapsed, IndexDur time.Duration
	Docs              []search.Doc // what the search index holds
	Aliases           *search.Aliases
	IndexKept         bool // an update kept the search index: its documents and aliases did not change

	cache *cache // what the next build of this site reuses (Options.Previous)
}

// Kinds of the work a build keeps itself (page.Key.Kind).
const (
	kindHost    = "build: host page" // Name: the host page's key
	kindAliases = "build: aliases"   // Name: keys.aliases
)

// keptHost is what a host page left for the pages that list hosts and for
// the search index.
type keptHost struct {
	state site.HostState
	docs  []search.Doc
}

// Site builds the site cfg names into cfg.Output in stages: static files,
// the matrix and content pages and the host pages (each record read,
// validated, diagnosed, rendered and dropped in turn), then the pages that
// list the hosts, then the search index of the documents the pages the
// stages before wrote yield (site.DocsOf).
func Site(cfg config.Config, o Options) (*Result, error) {
	start := time.Now()
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	t := newTracker(o.Stderr)
	defer t.stop()
	b, err := begin(cfg, o, t)
	if err != nil {
		return nil, err
	}
	if o.hooks != nil && o.hooks.begun != nil {
		o.hooks.begun(b)
	}
	// The stage list: an export is one line here. searchIndex stays the
	// last: it indexes the pages the stages before it wrote, and only
	// those.
	write := func(dir string, stages ...render.Producer) (render.Stats, error) {
		return render.Update(dir, b.prev, stages...)
	}
	if o.Previous == nil && !o.Keep {
		write = render.BuildOnce // no update follows: no manifest
	}
	st, err := write(cfg.Output, t.stages(
		render.Static(b.layers),
		b.pages(func() []site.Page { return b.s.Pages }),
		b.bodyProblems,
		b.gridLint,
		b.judged,
		b.key.fromMatrix(verdictFiles(b.s)),
		b.key.fromMatrix(export.Matrix(b.k.Matrix, b.s)),
		b.key.fromMatrix(export.Feed(b.k.Matrix, cfg.Title, cfg.BaseURL)),
		b.hostPages,
		b.summaryPages,
		export.Hosts(b.s),
		export.Sitemap(cfg.BaseURL, b.s.Paths),
		b.searchIndex,
	)...)
	t.stop()
	res, recordProbs := b.res, b.recordProbs
	if o.Strict && recordProbs.Errors() > 0 {
		return nil, &InputError{recordProbs.Err()}
	}
	recordProbs, res.Skipped = skipped(recordProbs)
	fmt.Fprint(o.Stderr, recordProbs.String())
	if err != nil {
		return nil, err
	}
	b.cache.end()
	res.Outputs, res.Pages, res.Rendered, res.Changed, res.Manifest = st.Outputs, t.pages, st.Rendered, st.Changed, st.Manifest
	res.Update = st.InPlace
	res.Warnings = b.warnings + recordProbs.Warnings()
	res.Elapsed = time.Since(start)
	return res, nil
}

// builder is one build's state, shared by its stages.
type builder struct {
	cfg      config.Config
	o        Options
	t        *tracker
	k        *kb.KB
	s        *site.Site
	tpl      *render.Templates
	layers   render.Layers
	prev     *render.Manifest
	cache    *cache     // nil keeps nothing
	reuse    page.Reuse // the cache's, nil without one
	key      keys       // only a build an update may follow keys its outputs
	res      *Result
	warnings int // the inputs' lint warnings

	// written are the pages of kinds marked Search as they are emitted
	// (on the producer goroutine): each yields its documents when the
	// index is made.
	written []site.Page
	// hostDocs are each host's search documents by record number, filled
	// on the writers (each its own element) as its page is made and
	// dropped, read by the search stage; nil: none.
	hostDocs    [][]search.Doc
	recordProbs diag.List

	// bodyProbs are the link and citation problems of the FAQ bodies
	// rendered as their pages are written (site.FAQ.Body), on the writers.
	bodyMu    sync.Mutex
	bodyProbs diag.List
}

// begin loads and lints the inputs and makes the site's page model, its
// templates and the keys of its outputs.
func begin(cfg config.Config, o Options, t *tracker) (*builder, error) {
	b := &builder{cfg: cfg, o: o, t: t}
	switch {
	case o.Previous != nil:
		b.prev, b.cache = o.Previous.Manifest, o.Previous.cache
	case o.Keep:
		b.cache = newCache()
	}
	b.cache.begin()
	b.reuse = b.cache.reuse()
	// The grid lint is the site's (gridLint), from the verdict tables and
	// the engine that judges them.
	k, probs := kb.Load(cfg, kb.Options{StreamRecords: true, SkipBodyLinks: true, SkipGridLint: true, Reuse: b.reuse, LateBodies: b.oneOff()})
	if probs.Errors() > 0 {
		return nil, &InputError{probs.Err()}
	}
	fmt.Fprint(o.Stderr, probs.String())
	b.k, b.warnings = k, probs.Warnings()
	t.total.Store(int64(k.Records.Len()))
	s, err := site.Build(site.Input{Config: cfg, Matrix: k.Matrix, Content: k.Content, Records: k.Records.Len(), Reuse: b.reuse, MatrixSum: k.MatrixSum, LateBodies: b.oneOff()})
	if err != nil {
		return nil, &InputError{err}
	}
	b.s = s
	go s.GridLint() // beside the pages, once the grid is judged
	b.layers = render.Layers{o.Assets, dirLayer(cfg.Templates, "templates"), dirLayer(cfg.Static, "static")}
	if b.tpl, err = render.LoadTemplates(b.layers); err != nil {
		return nil, err
	}
	b.res = &Result{cache: b.cache}
	if b.cache != nil {
		b.key = newKeys(cfg, s, b.tpl, k.Content, k.MatrixSum, b.reuse)
	}
	// The aliases are made from the matrix and the glossary, which
	// key.aliases names.
	b.res.Aliases = page.Reused(b.reuse, page.Key{Kind: kindAliases, Name: b.key.aliases}, func() *search.Aliases {
		return search.AliasesFrom(k.Matrix, k.Content.Glossary)
	})
	b.hostDocs = make([][]search.Doc, k.Records.Len())
	return b, nil
}

// pages emits the pages list gives, keeping those of kinds marked Search
// for the index.
func (b *builder) pages(list func() []site.Page) render.Producer {
	return func(emit func(render.Output) error) error {
		for _, p := range list() {
			o := b.key.pageOutput(b.tpl, p)
			if d, ok := p.(dropper); ok && b.oneOff() {
				o = dropAfter{o, d}
			}
			if f, ok := p.(*site.FAQ); ok && b.oneOff() {
				o = bodyFirst{o, f, b} // a kept build's bodies are rendered with the site model
			}
			if err := emit(o); err != nil {
				return err
			}
			if page.SpecOf(p.PageMeta().Ref.Kind).Search {
				b.written = append(b.written, p)
			}
		}
		return nil
	}
}

// oneOff is whether the build keeps no cache (no Keep, and no Previous
// that kept one): no update reuses its work, so it lets go of each input
// once no stage reads it.
func (b *builder) oneOff() bool { return b.cache == nil }

// A dropper is page data that holds what only its own page shows (an
// FAQ page's body, an adapter page's grid), let go of once the page is
// written when no update follows.
type dropper interface{ Drop() }

// dropAfter is an output that drops its page's data once rendered.
type dropAfter struct {
	render.Output
	d dropper
}

func (o dropAfter) Render(w io.Writer) error {
	defer o.d.Drop()
	return o.Output.Render(w)
}

// bodyFirst is an FAQ page's output that renders its body first (a
// one-off build's bodies are rendered as their pages are written) and
// keeps its problems for bodyProblems.
type bodyFirst struct {
	render.Output
	f *site.FAQ
	b *builder
}

func (o bodyFirst) Render(w io.Writer) error {
	if ps := o.f.Body(); len(ps) > 0 {
		o.b.bodyMu.Lock()
		o.b.bodyProbs = append(o.b.bodyProbs, ps...)
		o.b.bodyMu.Unlock()
	}
	return o.Output.Render(w)
}

// bodyProblems fails the build on a broken link or citation in an FAQ
// body rendered as its page was written, each at its file:line:col and
// all at once, as site.Build does for the bodies it renders. It runs once
// the stage that wrote the pages is done, before anything is swapped in.
func (b *builder) bodyProblems(func(render.Output) error) error {
	b.bodyMu.Lock()
	defer b.bodyMu.Unlock()
	if err := b.bodyProbs.Err(); err != nil {
		return &InputError{err}
	}
	return nil
}

// gridLint fails the build on a verdict of the grid that the grid lint
// (site.GridLint, verdict.Lint) finds wrong: a supported verdict below a
// device's first kernel with no distro_support row behind it, or a yes
// whose chain has an unconfirmed step. It is linted beside the pages,
// from the verdict tables and the engine that judged them; this waits
// for its problems,
// before the engine lets go of its memos (judged) and before anything is
// swapped in. A warning is reported, as the load's are.
func (b *builder) gridLint(func(render.Output) error) error {
	probs := b.s.GridLint()
	if err := probs.Err(); err != nil {
		return &InputError{err}
	}
	fmt.Fprint(b.o.Stderr, probs.String())
	b.warnings += probs.Warnings()
	return nil
}

// judged lets go of the verdict engine's memos in a one-off build once
// the pages that judge are written: the verdict tables and the lists the
// catalog pages show are made, the exports and the adapter pages read the
// tables, and no update reuses the memos (at 10k pages, some 45 MB of
// live heap while the exports and adapter pages are written). A host's
// readiness judged after it is judged anew, to the same verdict.
func (b *builder) judged(func(render.Output) error) error {
	if b.oneOff() {
		b.s.ForgetJudging()
	}
	return nil
}

// hostPages emits each record's host page and its record download. A
// kept build remembers each host page's state and search documents by
// its key, so the next update restores them for a host whose page it
// keeps instead of diagnosing and rendering it again.
func (b *builder) hostPages(emit func(render.Output) error) error {
	res, key, reuse := b.res, b.key, b.reuse
	if b.o.HostsGC > 0 && b.k.Records.Len() > 0 {
		defer debug.SetGCPercent(debug.SetGCPercent(b.o.HostsGC))
	}
	if h := b.o.hooks; h != nil && h.hosts != nil {
		h.hosts(b)
	}
	probs, err := b.k.Records.EachLoaded(func(l record.Loaded) error {
		j, i := b.s.Host(l.Host), res.Records
		j.Source(l.File, l.Src)
		key.record(j, l.File, l.Src)
		res.Records++
		b.t.hosts.Add(1)
		hk := key.deps(j.Path(), j.Deps())
		if kh, ok := keptHostOf(reuse, hk); ok && b.prev.Kept([]string{j.Path(), j.RecordPath()}, hk) {
			j.Restore(kh.state)
			b.hostDocs[i] = kh.docs
		}
		page := b.tpl.Deferred(j.Path(), func() site.Page {
			p := j.Page()
			docs := site.DocsOf(p)
			for n := range docs {
				docs[n] = keepDoc(docs[n])
			}
			b.hostDocs[i] = docs
			if hk != "" && reuse != nil {
				reuse.Store(page.Key{Kind: kindHost, Name: hk}, keptHost{j.State(), docs})
			}
			return p
		})
		if err := emit(render.Keyed(page, hk)); err != nil {
			return err
		}
		return emit(render.Keyed(render.Func(j.RecordPath(), j.WriteRecord), hk))
	})
	b.recordProbs = probs
	if err != nil {
		return err
	}
	if b.o.Strict {
		return probs.Err()
	}
	return nil
}

// summaryPages emits the pages that list the hosts, and the adapter pages,
// which show the hosts that run each adapter.
func (b *builder) summaryPages(emit func(render.Output) error) error {
	b.key.recordsRead()
	return b.pages(func() []site.Page { return append(b.s.Summaries(), b.s.Late()...) })(emit)
}

// searchIndex emits the search index of the documents of the pages
// written.
func (b *builder) searchIndex(emit func(render.Output) error) error {
	t := time.Now()
	var docs []search.Doc
	for _, p := range b.written {
		docs = append(docs, site.DocsOf(p)...)
	}
	for _, d := range b.hostDocs[:b.res.Records] {
		docs = append(docs, d...)
	}
	b.hostDocs, b.written = nil, nil
	if b.oneOff() {
		// The site model, the inputs and the templates are read no
		// more, and the index is made without them (at 10k pages,
		// about 250 MB of live heap).
		b.s, b.k, b.tpl = nil, nil, nil
	}
	if h := b.o.hooks; h != nil && h.indexing != nil {
		h.indexing(b)
	}
	b.res.Docs = docs
	// The index is a function of its documents and the aliases (from
	// the matrix and the glossary). An update of a kept index changes it
	// for the documents that changed, and its files keep their keys
	// unless their bytes change, so only those are written.
	ix := search.NewStaticReusing(docs, b.res.Aliases, b.key.aliases, b.reuse)
	b.res.IndexKept = b.o.Previous != nil && ix.Unchanged()
	err := ix.KeyedOutputs(func(name, key string, data func() []byte) error {
		return emit(render.Keyed(render.Func(name, func(w io.Writer) error {
			_, err := w.Write(data())
			return err
		}), key))
	})
	b.res.IndexDur = time.Since(t)
	return err
}

// keptHostOf is what r keeps of the host page whose key is hk.
func keptHostOf(r page.Reuse, hk string) (keptHost, bool) {
	if r == nil || hk == "" {
		return keptHost{}, false
	}
	v, ok := r.Load(page.Key{Kind: kindHost, Name: hk})
	if !ok {
		return keptHost{}, false
	}
	return v.(keptHost), true
}

// keepDoc copies a host's search document out of its record: a string
// decoded from a record file shares the file's bytes, and the document,
// kept until the index is built, would keep every record file alive.
func keepDoc(d search.Doc) search.Doc {
	k := strings.Clone
	d.URL, d.Title, d.Kind, d.Vendor, d.Lang, d.Body = k(d.URL), k(d.Title), k(d.Kind), k(d.Vendor), k(d.Lang), k(d.Body)
	for _, ss := range [][]string{d.Headings, d.IDs} {
		for i := range ss {
			ss[i] = k(ss[i])
		}
	}
	return d
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

// Summary is the build's one line: pages, records, files, time, warnings.
func (r *Result) Summary(out string) string {
	recs := plural(r.Records, "record")
	if r.Skipped > 0 {
		recs += fmt.Sprintf(" (%d left out)", r.Skipped)
	}
	verb, files := "built", plural(r.Outputs, "file")
	if r.Update {
		verb, files = "updated", fmt.Sprintf("%s (%d rendered, %d changed)", files, r.Rendered, r.Changed)
	}
	return fmt.Sprintf("%s %s from %s into %s: %s in %s (search index %s), %s",
		verb, plural(r.Pages, "page"), recs, out, files, seconds(r.Elapsed), seconds(r.IndexDur), plural(r.Warnings, "warning"))
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
