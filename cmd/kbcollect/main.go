// Command kbcollect turns a host snapshot (the live host, a copied tree, an
// sosreport or a capture) into a rocekb host record.
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
