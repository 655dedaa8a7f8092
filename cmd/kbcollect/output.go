package main

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"github.com/rocekb/rocekb/internal/cli"
)

// writeOutput writes data to standard output, or to file atomically: a
// temporary file in the same folder, renamed over file once complete.
func writeOutput(c *cobra.Command, file string, data []byte) error {
	if file == "" || file == "-" {
		_, err := c.OutOrStdout().Write(data)
		return err
	}
	return writeAtomic(file, func(f *os.File) error {
		_, err := f.Write(data)
		return err
	})
}

func writeAtomic(file string, write func(*os.File) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".tmp*")
	if err != nil {
		return cli.Usagef("-o: %v", err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := write(tmp); err != nil {
		return cli.Fail(fmt.Errorf("write %s: %w", file, err))
	}
	if err := tmp.Chmod(0o644); err != nil {
		return cli.Fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return cli.Fail(err)
	}
	if err := tmp.Close(); err != nil {
		return cli.Fail(err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return cli.Fail(err)
	}
	done = true
	return nil
}

func sortBy[T any](s []T, key func(T) string) {
	slices.SortStableFunc(s, func(a, b T) int { return cmp.Compare(key(a), key(b)) })
}
