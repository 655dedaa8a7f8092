package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rocekb/rocekb"
	"github.com/rocekb/rocekb/internal/build"
	"github.com/rocekb/rocekb/internal/cli"
	"github.com/rocekb/rocekb/internal/config"
)

// buildOptions are the build's own flags.
type buildOptions struct {
	strict bool // a record that fails validation fails the build
	// recordsSet: the records path was named (flag or kb.toml), so a
	// missing one is a mistake rather than a knowledge base without hosts.
	recordsSet bool
	// previous is the build that made the output folder: kbgen serve's
	// rebuilds update it in place (build.Options.Previous).
	previous *build.Result
	keep     bool // keep what the next rebuild reuses (kbgen serve)
}

func newBuildCmd() *cobra.Command {
	var f siteFlags
	var o buildOptions
	c := &cobra.Command{
		Use:   "build",
		Short: "Build the static site",
		Long: `Build the static site from the matrix, the content and the host records.

The matrix and content are linted first (see 'kbgen lint'); any error stops the
build before anything is written. The output folder is written beside itself
and swapped in only when complete, in one step on Linux, so a failed build
leaves the previous site untouched and a server never finds it missing. Builds
into one folder wait for each other (a lock file .<out>.lock beside it), and
each removes what killed builds left beside it (.<out>.tmp-*). kbgen refuses
to replace a non-empty folder it did not write.

--records names a folder of records or a single record file. A record is
validated as it is read: PCI addresses, PCI ids, module and device names,
versions and the other fields must have their formats. A record that does
not is reported with its file, line and column and left out of the site;
--strict fails the build instead. A --records path that does not exist
exits 2. Only regular files are read (never a named pipe or a device), links
only inside the records folder, a record of at most --max-record-size and at
most --max-records-size in all; each entry left unread is a warning saying
why, an error with --strict.

The site includes its search index (search/, read by search.html without a
server, from file:// too). The build ends with one line: pages, records,
files written, time and warnings; on a terminal, a build that takes more
than a few seconds shows its progress.

Templates and static files are built in; --templates and --static (or kb.toml)
name folders whose files override them by name.

Examples:
  kbgen build
  kbgen build --out /srv/kb --records ./fleet-records
  kbgen build --records one-host.toml --strict
` + cli.ExitCodesHelp,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			cfg, err := f.resolve(c)
			if err != nil {
				return err
			}
			o.recordsSet = c.Flags().Changed("records") || cfg.Records != config.Default().Records
			_, err = runBuild(c, cfg, o)
			return err
		},
	}
	f.register(c)
	profileFlags(c)
	c.Flags().StringVarP(&f.cfg.Output, "out", "o", config.Default().Output, "output folder")
	c.Flags().StringVar(&f.cfg.Templates, "templates", "", "folder of *.html templates that override the built-in ones")
	c.Flags().StringVar(&f.cfg.Static, "static", "", "folder of static files that override or add to the built-in ones")
	c.Flags().BoolVar(&o.strict, "strict", false, "fail the build on a record that does not validate, instead of leaving it out")
	return c
}

// runBuild builds the site with internal/build and prints its summary;
// kbgen serve calls it for every rebuild.
func runBuild(c *cobra.Command, cfg config.Config, o buildOptions) (*build.Result, error) {
	if o.recordsSet && cfg.Records != "" {
		if _, err := os.Stat(cfg.Records); err != nil {
			return nil, cli.Usagef("--records %s: no such file or folder%s", cfg.Records, nearbyPath(cfg.Records))
		}
	}
	res, err := build.Site(cfg, build.Options{Assets: rocekb.Assets, Strict: o.strict, Stderr: c.ErrOrStderr(), Previous: o.previous, Keep: o.keep, HostsGC: hostsGC})
	var input *build.InputError
	switch {
	case errors.As(err, &input):
		return nil, cli.Usage(input.Err)
	case err != nil:
		return nil, cli.Fail(err)
	}
	fmt.Fprintln(c.OutOrStdout(), res.Summary(cfg.Output))
	return res, nil
}

// nearbyPath suggests an existing file or folder beside a missing path.
func nearbyPath(p string) string {
	dir, base := filepath.Split(filepath.Clean(p))
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".toml") || strings.HasSuffix(e.Name(), ".json") {
			names = append(names, e.Name())
		}
	}
	s := didYouMean(base, names)
	if !strings.HasPrefix(s, "; did you mean ") {
		return ""
	}
	return "; did you mean " + filepath.Join(dir, strings.TrimSuffix(strings.TrimPrefix(s, "; did you mean "), "?")) + "?"
}
