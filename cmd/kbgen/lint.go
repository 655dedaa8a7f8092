package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rocekb/rocekb/internal/cli"
	"github.com/rocekb/rocekb/internal/kb"
)

func newLintCmd() *cobra.Command {
	var f siteFlags
	var stats bool
	c := &cobra.Command{
		Use:   "lint",
		Short: "Check the matrix and content for errors",
		Long: `Check the matrix and content, and report every problem at once, sorted, as
file:line:col: message.

Errors: syntax, unknown keys, missing required fields, malformed PCI ids,
duplicate ids and PCI ids, references to undefined entries, bad version
syntax, firmware minimums that go down across a stack's releases, sources
without a retrieved date, and claims without sources or confidence.
Warnings: claims whose last_verified date is older than --stale-days.

--stats prints what the matrix holds: vendors, adapters, drivers, stacks,
distros, firmware minimums, sources, and claims per confidence tier.

Errors exit 1; warnings alone exit 0. Files that cannot be parsed at all also exit 1.
` + cli.ExitCodesHelp,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			cfg, err := f.resolve(c)
			if err != nil {
				return err
			}
			k, probs := kb.Load(cfg, kb.Options{SkipRecords: true})
			fmt.Fprint(c.ErrOrStderr(), probs.String())
			if probs.Errors() > 0 {
				fmt.Fprintf(c.ErrOrStderr(), "%d errors, %d warnings\n", probs.Errors(), probs.Warnings())
				return cli.Silent(cli.Failure)
			}
			fmt.Fprintf(c.OutOrStdout(), "ok: 0 errors, %d warnings\n", probs.Warnings())
			if stats && k != nil && k.Matrix != nil {
				if err := k.Matrix.Stats().Write(c.OutOrStdout()); err != nil {
					return cli.Fail(err)
				}
			}
			return nil
		},
	}
	f.register(c)
	c.Flags().BoolVar(&stats, "stats", false, "print counts of entries and of claims per confidence tier")
	return c
}
