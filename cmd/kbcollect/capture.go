package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/rocekb/rocekb/internal/cli"
	"github.com/rocekb/rocekb/internal/collect"
	"github.com/rocekb/rocekb/internal/snapshot"
)

type captureOptions struct {
	output  string
	timeout time.Duration
	jobs    int
	maxFile int64
}

func newCaptureCmd() *cobra.Command {
	var o captureOptions
	c := &cobra.Command{
		Use:   "capture -o FILE",
		Short: "Save this host's raw RDMA data to a tarball, to parse later",
		Long: `capture runs the same read-only collection as kbcollect on this host and saves
the raw data instead of a record: every file the collector read under its own path
(sys/, proc/, etc/ …, symlinks kept as symlinks) and every tool's output under
sos_commands/<plugin>/<command>, as an sosreport lays them out, plus
kbcollect_manifest.json (each command's exit code, run time and status).

Parse it later, here or on another machine, with a newer kbcollect if you like:
  kbcollect capture -o host.tar.gz
  kbcollect host.tar.gz > host.toml

The tarball is NOT redacted: it holds MAC addresses, GUIDs and host names. Redaction
happens when it is parsed. Members are sorted and carry a fixed time, so the same
host state gives the same tarball.
` + exitCodesHelp,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error { return runCapture(c, o) },
	}
	c.Flags().StringVarP(&o.output, "output", "o", "", "the tarball to write (.tar.gz), or - for standard output (required)")
	addLimitFlags(c, &o.timeout, &o.jobs, &o.maxFile)
	return c
}

func runCapture(c *cobra.Command, o captureOptions) error {
	if o.output == "" {
		return cli.Usagef("capture needs -o FILE (for example -o host.tar.gz)")
	}
	if err := checkLimits(o.timeout, o.jobs, o.maxFile); err != nil {
		return err
	}
	snap := snapshot.Live()
	snap.MaxFile, snap.Timeout, snap.Jobs = o.maxFile, o.timeout, o.jobs
	if err := snap.Record(); err != nil {
		return cli.Fail(err)
	}
	snap.Prefetch()
	if _, err := captureCollect(snap); err != nil {
		return cli.Fail(err)
	}
	if o.output == "-" {
		return snap.WriteCapture(c.OutOrStdout(), cli.Version())
	}
	if err := writeAtomic(o.output, func(f *os.File) error { return snap.WriteCapture(f, cli.Version()) }); err != nil {
		return err
	}
	fmt.Fprintf(c.ErrOrStderr(), "kbcollect: wrote %s\n", o.output)
	return nil
}

// captureCollect runs the collector only to learn which files it reads;
// collect.Collect recovers its own panics.
func captureCollect(snap *snapshot.Snapshot) (ok bool, err error) {
	_, err = collect.Collect(snap)
	return err == nil, err
}
