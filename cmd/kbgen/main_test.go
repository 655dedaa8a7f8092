package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rocekb/rocekb/internal/cli"
	"github.com/rocekb/rocekb/internal/scripttest"
)

func TestMain(m *testing.M) {
	testscript.Main(cleanup{m}, map[string]func(){
		"kbgen": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs testdata/script/*.txtar. "exitcode N kbgen ..." runs
// kbgen in the test process (scripttest.Program), without the 50 ms of
// CPU a kbgen process costs to start; "exec kbgen" executes it, for
// standard input or to run it in the background. $REPO is the repository
// root, so scripts can use the shipped matrix and content; $ADDR is a free
// loopback address for kbgen serve; the command "bundled" sets $SITE to
// the bundled site TestBrowser reads (see sharedSite); every script shares
// one cache folder ($ROCEKB_CACHE_DIR), so the search tables of the
// shipped knowledge base are made once for all of them (search_cache.txtar
// holds the cache to its key). It runs beside the package's other tests
// (the browser's waits leave the cores to the scripts).
func TestScripts(t *testing.T) {
	t.Parallel()
	// Absolute paths: a script's kbgen runs in the script's folder.
	dir, err := filepath.Abs("testdata/script")
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(dir, "../../../..")
	progs := map[string]scripttest.Program{"kbgen": {Main: run, Env: []string{cli.CacheEnv}}}
	cmds := scripttest.Cmds(progs)
	cmds["bundled"] = bundledCmd
	setup := scripttest.Setup(progs)
	cache := t.TempDir()
	testscript.Run(t, testscript.Params{
		Dir:  dir,
		Cmds: cmds,
		Setup: func(env *testscript.Env) error {
			if err := setup(env); err != nil {
				return err
			}
			env.Setenv("REPO", repo)
			env.Setenv(cli.CacheEnv, cache)
			addr, err := scripttest.FreeAddr()
			env.Setenv("ADDR", addr)
			return err
		},
	})
}
