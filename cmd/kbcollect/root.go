package main

import (
	"github.com/spf13/cobra"

	"github.com/rocekb/rocekb/internal/cli"
	"github.com/rocekb/rocekb/internal/collect"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
)

type rootOptions struct {
	root   string
	format string
}

func newRootCmd() *cobra.Command {
	var o rootOptions
	c := &cobra.Command{
		Use:   "kbcollect",
		Short: "Write a RoCE host record from a live host or a copied tree",
		Long: `kbcollect reads what a host says about its RDMA over Converged Ethernet (RoCE)
adapters and writes one host record (TOML by default) to standard output.

With no flags it reads the running host, read-only. With --root it reads a copied
tree laid out like / (sys/, proc/, etc/ …), such as an extracted sosreport.

A missing file or tool is recorded as absent, not treated as a failure; a host with
no RDMA hardware gives a valid record that says so.

Examples:
  kbcollect > host.toml
  kbcollect --root ./sosreport-host1 --format json
` + cli.ExitCodesHelp,
		Args:    cobra.NoArgs,
		Version: cli.Version(),
		RunE: func(c *cobra.Command, args []string) error {
			return runCollect(c, o)
		},
	}
	c.SetVersionTemplate("kbcollect {{.Version}}\n")
	c.Flags().StringVar(&o.root, "root", "", "read a copied tree rooted like / instead of the live host")
	c.Flags().StringVar(&o.format, "format", "toml", "output format: toml or json")
	cli.Completion(c)
	return c
}

func runCollect(c *cobra.Command, o rootOptions) error {
	if o.format != "toml" && o.format != "json" {
		return cli.Usagef("unknown --format %q (want toml or json)", o.format)
	}
	snap := snapshot.Live()
	if o.root != "" {
		s, err := snapshot.Root(o.root)
		if err != nil {
			return cli.Usagef("--root: %v", err)
		}
		snap = s
	}
	h, err := collect.Collect(snap)
	if err != nil {
		return cli.Fail(err)
	}
	h.Host.Collector = cli.Version()
	return record.Encode(c.OutOrStdout(), h, o.format)
}
