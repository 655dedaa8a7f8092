// Command kbgen builds the rocekb knowledge base: it merges the vendor
// matrix, the content and host records into a static site, lints the
// knowledge base, and serves a local preview.
package main

import (
	"io"
	"os"

	"github.com/rocekb/rocekb/internal/cli"
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Execute(newRootCmd(), args, stdin, stdout, stderr)
}
