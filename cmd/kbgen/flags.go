package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

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
	// the records loader's caps, as written: "16MiB", "200M", "1048576"
	maxRecord, maxRecords string
}

func (f *siteFlags) register(c *cobra.Command) {
	d := config.Default()
	fl := c.Flags()
	fl.StringVar(&f.config, "config", "kb.toml", "site configuration file; used when it exists")
	fl.StringVar(&f.cfg.Matrix, "matrix", d.Matrix, "matrix folder (matrix/*.toml)")
	fl.StringVar(&f.cfg.Content, "content", d.Content, "content folder (faq/*.md, trees/*.toml, glossary.toml)")
	fl.StringVar(&f.cfg.Records, "records", d.Records, "host records folder (*.toml or *.json from kbcollect); may be missing")
	fl.IntVar(&f.cfg.StaleDays, "stale-days", d.StaleDays, "warn when a claim's last_verified is older than this many days (0: never)")
	fl.StringVar(&f.maxRecord, "max-record-size", "16MiB", "a record file larger than this is not read (a warning names it)")
	fl.StringVar(&f.maxRecords, "max-records-size", "8GiB", "records past this total size are not read (a warning names each)")
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
	for _, sz := range []struct {
		flag, v string
		dst     *int64
	}{{"max-record-size", f.maxRecord, &cfg.MaxRecordBytes}, {"max-records-size", f.maxRecords, &cfg.MaxRecordsBytes}} {
		if !c.Flags().Changed(sz.flag) {
			continue
		}
		n, err := parseSize(sz.v)
		if err != nil {
			return cfg, cli.Usagef("--%s %s: %v", sz.flag, sz.v, err)
		}
		*sz.dst = n
	}
	return cfg, nil
}

// loadKB loads and lints, printing warnings; errors come back as exit 2.
// The loaded matrix and its lint are kept in the cache folder between
// runs (kb.Options.MatrixCache), one file per matrix folder.
func loadKB(c *cobra.Command, cfg config.Config, opts kb.Options) (*kb.KB, diag.List, error) {
	opts.MatrixCache, opts.Code = cacheFile("matrix", cfg.Matrix), cli.ProgramID()
	k, probs := kb.Load(cfg, opts)
	if probs.Errors() > 0 {
		return nil, probs, cli.Usage(probs.Err())
	}
	fmt.Fprint(c.ErrOrStderr(), probs.String())
	return k, probs, nil
}

// sizeUnits are the suffixes parseSize knows, binary and decimal alike as
// people mean them for file sizes.
var sizeUnits = []struct {
	suffix string
	n      int64
}{{"gib", 1 << 30}, {"mib", 1 << 20}, {"kib", 1 << 10}, {"gb", 1 << 30}, {"mb", 1 << 20}, {"kb", 1 << 10}, {"g", 1 << 30}, {"m", 1 << 20}, {"k", 1 << 10}, {"b", 1}}

// parseSize reads a size in bytes: "16MiB", "200M", "512k", "1048576".
func parseSize(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.n
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("want a positive size such as 16MiB, 200M or 1048576")
	}
	return n * mult, nil
}
