// Command kbgen builds the rocekb knowledge base: it merges the vendor
// matrix, the content and host records into a static site, lints the
// knowledge base, and serves a local preview.
package main

import (
	"io"
	"os"
	"runtime/debug"

	"github.com/rocekb/rocekb/internal/cli"
)

func main() {
	tuneGC()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// hostsGC is the collector's pace while a build reads host records
// (build.Options.HostsGC): at 300 a 100k build took 64.9–69.6 s and
// 123–133 CPU-s against 69.9–77.7 s and 134–145 CPU-s at 100 (four
// interleaved pairs), with 1,556–1,560 MiB at peak instead of
// 1,336–1,421, under the 2 GiB the fleet may use; 0 when GOGC is set.
var hostsGC int

// tuneGC caps the heap: a build allocates much short-lived garbage
// (decoded records, rendered pages) under Go's default collector pace,
// with a soft limit of 1.5 GiB that keeps the peak bounded. A pace of
// 400 (a collection a quarter as often) saved user CPU but paid it back
// in page faults: on the 10k corpus, 10.24 s and 1,440 MiB at 400 against
// 9.96 s and 764 MiB at 100 (medians of three interleaved runs); at 100k
// records 75–91 s and 1,598 MiB against 79 s and 1,362–1,489 MiB. GOGC
// and GOMEMLIMIT in the environment win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		hostsGC = 300
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1536 << 20)
	}
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Execute(newRootCmd(), args, stdin, stdout, stderr)
}
