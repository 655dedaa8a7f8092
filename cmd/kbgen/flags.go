package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rocekb/rocekb/internal/cli"
	"github.com/rocekb/rocekb/internal/config"
	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/kb"
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
