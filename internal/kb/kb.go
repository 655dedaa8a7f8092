package kb

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/rocekb/rocekb/internal/checkid"
	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/content"
	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/dirfs"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/page"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/verdict"
)

// KB is a loaded knowledge base.
type KB struct {
	Config  config.Config
	Matrix  *matrix.Matrix
	Content *content.Content
	Hosts   []*record.Host // all records, decoded; nil with StreamRecords
	Records *Records       // the record files, with StreamRecords
	// MatrixSum identifies the matrix loaded, with Reuse: the digest of
	// the names and bytes of its files. Zero without Reuse.
	MatrixSum [sha256.Size]byte
}

// Options say what to load.
type Options struct {
	// Now is the date staleness is measured against; zero means today.
	Now time.Time
	// SkipRecords skips the records folder (lint does not need it).
	SkipRecords bool
	// SkipGridLint skips the lint that judges the whole distro × stack
	// grid (a yes whose chain has an unconfirmed step is an error): kbgen
	// lint runs it; check and search, which answer one question each,
	// would spend most of their time on it; a build lints the grid with
	// the site, whose engine judges the grid anyway (site.GridLint).
	SkipGridLint bool
	// SkipBodyLinks leaves the links and citations of FAQ bodies to the
	// build, whose rendering of each body reports them (site.Build), and
	// to lint; check and search, which answer one question, do not report
	// them either. A load that fails checks them too, so every problem is
	// reported together.
	SkipBodyLinks bool
	// LateBodies loads the content for a build that renders each FAQ
	// body when its page is written and reads it from its file again
	// then (content.LoadLate): no page holds its markdown. Not with Reuse.
	LateBodies bool
	// SkipContent leaves the content folder unread: a planned
	// configuration's verdict, a listing of the matrix and a fleet's
	// readiness (kbgen check) read only the matrix. KB.Content is nil.
	SkipContent bool
	// StreamRecords lists the records folder instead of reading it: the
	// records are read one at a time by Records.Each, and their problems
	// come from there.
	StreamRecords bool
	// Reuse, when set, keeps the loaded matrix and its lint between
	// loads: a load whose matrix files (and day) are unchanged reuses
	// them, the same *matrix.Matrix (kbgen serve's rebuilds); and the
	// content's parses and lint (content.LoadReusing).
	Reuse page.Reuse
	// MatrixCache, with Code and without Reuse, is a file the loaded
	// matrix and its lint are kept in between runs (kbgen check and
	// search): a load whose matrix files, lint options, day and program
	// (Code: its build ID, cli.ProgramID) are those the file was made from
	// decodes them from it instead of decoding and linting the TOML. Any
	// other load, or a file that cannot be read or decoded, loads as
	// without it and writes the file anew (matrixcache.go).
	MatrixCache string
	Code        string
}

// loadedMatrix is what a load keeps of the matrix for the next.
type loadedMatrix struct {
	m     *matrix.Matrix
	probs diag.List
}

// filesDigest identifies the names and bytes of every file under dir.
func filesDigest(dir string) [sha256.Size]byte {
	h := sha256.New()
	fsys := os.DirFS(dir)
	fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := fs.ReadFile(fsys, p)
			fmt.Fprintf(h, "%s %d\n", p, len(b))
			h.Write(b)
		}
		return nil
	})
	var s [sha256.Size]byte
	h.Sum(s[:0])
	return s
}

// contentLintOptions resolves content references against the matrix when
// it loaded; without it, lint checks everything but matrix ids.
func contentLintOptions(m *matrix.Matrix, haveMatrix bool, cfg config.Config, opts Options) content.LintOptions {
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	lo := content.LintOptions{Now: now, StaleAfter: time.Duration(cfg.StaleDays) * 24 * time.Hour, Checks: checkid.IDs()}
	if !haveMatrix {
		return lo
	}
	r := &content.Refs{Adapters: map[string]bool{}, Drivers: map[string]bool{}, Distros: map[string]bool{}, Stacks: map[string]bool{}, Vendors: map[string]bool{}, Sources: map[string]bool{}}
	for _, d := range m.Distros {
		r.Distros[d.ID] = true
	}
	for _, s := range m.Stacks {
		r.Stacks[s.ID] = true
	}
	for _, v := range m.Vendors {
		r.Vendors[v.ID] = true
	}
	for _, a := range m.Adapters {
		r.Adapters[a.ID] = true
	}
	for _, d := range m.Drivers {
		r.Drivers[d.ID] = true
	}
	for _, s := range m.Sources {
		r.Sources[s.ID] = true
	}
	lo.Refs = r
	return lo
}

// Load reads and lints everything cfg names. It returns the problems of all
// inputs together, sorted; the KB is nil when any of them is an error.
func Load(cfg config.Config, opts Options) (*KB, diag.List) {
	var probs diag.List
	k := &KB{Config: cfg}
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	// The content loads while the matrix loads and is linted: neither
	// reads the other until the content's lint.
	var c *content.Content
	var ps diag.List
	loaded := make(chan struct{})
	go func() {
		defer close(loaded)
		if !opts.SkipContent {
			if fsys := dirfs.New(cfg.Content); opts.LateBodies && opts.Reuse == nil {
				c, ps = content.LoadLate(fsys, cfg.Content)
			} else {
				c, ps = content.LoadReusing(fsys, cfg.Content, opts.Reuse)
			}
		}
	}()
	var m *matrix.Matrix
	var matrixProbs diag.List
	var matrixOK bool
	if opts.Reuse == nil && opts.MatrixCache != "" && opts.Code != "" {
		m, matrixProbs, matrixOK = loadMatrixCached(cfg, now, opts.SkipGridLint, opts.MatrixCache, opts.Code)
	} else {
		m, matrixProbs, matrixOK = loadMatrix(cfg, now, opts.Reuse, opts.SkipGridLint, &k.MatrixSum)
	}
	probs = append(probs, matrixProbs...)
	k.Matrix = m
	<-loaded
	probs = append(probs, ps...)
	k.Content = c
	var lo content.LintOptions
	if c != nil {
		lo = contentLintOptions(m, matrixOK, cfg, opts)
		lo.Reuse = opts.Reuse
		lo.SkipBodies = opts.SkipBodyLinks
		probs = append(probs, content.Lint(c, lo)...)
	}
	if !opts.SkipRecords && opts.StreamRecords && cfg.Records != "" {
		recs, ps := listRecords(cfg.Records, record.Limits{MaxFile: cfg.MaxRecordBytes, MaxTotal: cfg.MaxRecordsBytes})
		probs = append(probs, ps...)
		k.Records = recs
	} else if !opts.SkipRecords && cfg.Records != "" {
		recs, ps := listRecords(cfg.Records, record.Limits{MaxFile: cfg.MaxRecordBytes, MaxTotal: cfg.MaxRecordsBytes})
		probs = append(probs, ps...)
		hosts, ps := recs.All()
		probs = append(probs, ps...)
		k.Hosts = hosts
	}
	if c != nil && lo.SkipBodies && probs.Errors() > 0 {
		probs = append(probs, content.LintBodies(c, lo)...)
	}
	probs.Sort()
	if probs.Errors() > 0 {
		return nil, probs
	}
	return k, probs
}

// loadMatrix loads and lints the matrix, or takes both from r when the
// files are the ones it kept; with r, sum is set to the matrix's.
func loadMatrix(cfg config.Config, now time.Time, r page.Reuse, skipGrid bool, sum *[sha256.Size]byte) (*matrix.Matrix, diag.List, bool) {
	var key page.Key
	if r != nil {
		// The lint's staleness warnings depend on the day too.
		*sum = filesDigest(cfg.Matrix)
		key = page.Key{Kind: "kb: matrix", Name: cfg.Matrix, Sum: page.Sum(string(sum[:]), now.Format("2006-01-02"), fmt.Sprint("grid lint skipped: ", skipGrid))}
		if v, ok := r.Load(key); ok {
			l := v.(loadedMatrix)
			return l.m, l.probs, true
		}
	}
	m, probs := matrix.Load(os.DirFS(cfg.Matrix), cfg.Matrix)
	ok := m != nil && probs.Errors() == 0
	if ok {
		probs = append(probs, matrix.Lint(m, matrix.LintOptions{Now: now, StaleAfter: time.Duration(cfg.StaleDays) * 24 * time.Hour})...)
		if !skipGrid {
			probs = append(probs, verdict.Lint(m)...) // no supported verdict below a device's first kernel without a distro row
		}
	}
	if r != nil && ok && probs.Errors() == 0 {
		r.Store(key, loadedMatrix{m, probs})
	}
	return m, probs, ok
}
