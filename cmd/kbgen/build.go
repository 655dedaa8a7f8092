package main

import (
	"fmt"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"github.com/rocekb/rocekb"
	"github.com/rocekb/rocekb/internal/cli"
	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/kb"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/render"
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

func newBuildCmd() *cobra.Command {
	var f siteFlags
	c := &cobra.Command{
		Use:   "build",
		Short: "Build the static site",
		Long: `Build the static site from the matrix, the content and the host records.

The matrix and content are linted first (see 'kbgen lint'); any error stops the
build before anything is written. The output folder is written beside itself
and swapped in only when complete, so a failed build leaves the previous site
untouched. kbgen refuses to replace a non-empty folder it did not write.

Templates and static files are built in; --templates and --static (or kb.toml)
name folders whose files override them by name.

Examples:
  kbgen build
  kbgen build --out /srv/kb --records ./fleet-records
` + cli.ExitCodesHelp,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			cfg, err := f.resolve(c)
			if err != nil {
				return err
			}
			return runBuild(c, cfg)
		},
	}
	f.register(c)
	profileFlags(c)
	c.Flags().StringVarP(&f.cfg.Output, "out", "o", config.Default().Output, "output folder")
	c.Flags().StringVar(&f.cfg.Templates, "templates", "", "folder of *.html templates that override the built-in ones")
	c.Flags().StringVar(&f.cfg.Static, "static", "", "folder of static files that override or add to the built-in ones")
	return c
}

// runBuild builds the site in stages: static files, the matrix and content
// pages and the host pages (each record read, diagnosed, rendered and
// dropped in turn), then the pages that list the hosts.
func runBuild(c *cobra.Command, cfg config.Config) error {
	k, _, err := loadKB(c, cfg, kb.Options{StreamRecords: true})
	if err != nil {
		return err
	}
	s, err := site.Build(site.Input{Config: cfg, Matrix: k.Matrix, Content: k.Content})
	if err != nil {
		return cli.Usage(err)
	}
	layers := render.Layers{rocekb.Assets, dirLayer(cfg.Templates, "templates"), dirLayer(cfg.Static, "static")}
	tpl, err := render.LoadTemplates(layers)
	if err != nil {
		return cli.Fail(err)
	}
	hosts, summaries := 0, 0
	var recordProbs diag.List
	hostPages := func(emit func(render.Output) error) error {
		probs, err := k.Records.Each(func(h *record.Host) error {
			j := s.Host(h)
			hosts++
			return emit(tpl.Deferred(j.Path(), func() site.Page { return j.Page() }))
		})
		recordProbs = probs
		if err != nil {
			return err
		}
		return probs.Err()
	}
	summaryPages := func(emit func(render.Output) error) error {
		pages := s.Summaries()
		summaries = len(pages)
		return tpl.Pages(pages)(emit)
	}
	_, err = render.Build(cfg.Output, render.Static(layers), tpl.Pages(s.Pages), hostPages, summaryPages)
	if recordProbs.Errors() > 0 {
		return cli.Usage(recordProbs.Err())
	}
	fmt.Fprint(c.ErrOrStderr(), recordProbs.String())
	if err != nil {
		return cli.Fail(err)
	}
	fmt.Fprintf(c.OutOrStdout(), "built %d pages into %s\n", len(s.Pages)+hosts+summaries, cfg.Output)
	return nil
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
