package main

import (
	"github.com/spf13/cobra"

	"github.com/rocekb/rocekb/internal/cli"
)

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "kbgen",
		Short: "Build, lint, check and serve the rocekb RoCE compatibility knowledge base",
		Long: `kbgen answers one question: will this RoCE adapter work with this Linux kernel,
driver stack and firmware, and if not, why and what to do?

It merges the curated vendor matrix (matrix/*.toml), the FAQ and troubleshooting
content (content/) and host records written by kbcollect into a static website.

Settings come from kb.toml in the current folder when it exists; flags override it.
` + cli.ExitCodesHelp,
		Version: cli.Version(),
	}
	root.SetVersionTemplate("kbgen {{.Version}}\n")
	root.AddCommand(newBuildCmd(), newLintCmd(), newServeCmd(), newCheckCmd(), newSearchCmd())
	cli.Completion(root)
	return root
}
