package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rocekb/rocekb/internal/cli"
	"github.com/rocekb/rocekb/internal/kb"
)

func newLintCmd() *cobra.Command {
	var f siteFlags
	c := &cobra.Command{
		Use:   "lint",
		Short: "Check the matrix and content for errors",
		Long: `Check the matrix and content, and report every problem at once, sorted, as
file:line:col: message.

Errors: syntax, unknown keys, missing required fields, malformed PCI ids,
duplicate ids, references to undefined entries, and claims without sources.
Warnings: claims whose last_verified date is older than --stale-days.

Errors exit 1; warnings alone exit 0. Files that cannot be parsed at all also exit 1.
` + cli.ExitCodesHelp,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			cfg, err := f.resolve(c)
			if err != nil {
				return err
			}
			_, probs := kb.Load(cfg, kb.Options{SkipRecords: true})
			fmt.Fprint(c.ErrOrStderr(), probs.String())
			if probs.Errors() > 0 {
				fmt.Fprintf(c.ErrOrStderr(), "%d errors, %d warnings\n", probs.Errors(), probs.Warnings())
				return cli.Silent(cli.Failure)
			}
			fmt.Fprintf(c.OutOrStdout(), "ok: 0 errors, %d warnings\n", probs.Warnings())
			return nil
		},
	}
	f.register(c)
	return c
}
