package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rocekb/rocekb/internal/scripttest"
)

// shared is one build of the bundled knowledge base with every fixture
// host and the record full of markup (xssHost), made by kbgen build
// in-process by the first test or script that asks for it. TestBrowser
// and build.txtar read it; nothing writes to it.
var shared struct {
	once sync.Once
	tmp  string // removed by TestMain
	site string
	log  string // the build's output, for a failure
	err  error
}

// sharedSite builds the shared site once and returns its folder. Its
// paths are relative to the package's folder, where scripts may be
// running kbgen in other folders (scripttest.Locked).
func sharedSite() (site, log string, err error) {
	shared.once.Do(func() { scripttest.Locked(buildShared) })
	return shared.site, shared.log, shared.err
}

func buildShared() {
	if shared.tmp, shared.err = os.MkdirTemp("", "kbgen-test-"); shared.err != nil {
		return
	}
	records := filepath.Join(shared.tmp, "records")
	if shared.err = os.Mkdir(records, 0o755); shared.err != nil {
		return
	}
	hosts, _ := filepath.Glob("../../testdata/hosts/*.toml")
	for _, f := range hosts {
		b, err := os.ReadFile(f)
		if err != nil {
			shared.err = err
			return
		}
		if shared.err = os.WriteFile(filepath.Join(records, filepath.Base(f)), b, 0o644); shared.err != nil {
			return
		}
	}
	if shared.err = os.WriteFile(filepath.Join(records, "xss.toml"), []byte(xssHost), 0o644); shared.err != nil {
		return
	}
	site := filepath.Join(shared.tmp, "site")
	var out bytes.Buffer
	if code := run([]string{"build", "--matrix", "../../matrix", "--content", "../../content", "--records", records, "--out", site}, nil, &out, &out); code != 0 {
		shared.err = fmt.Errorf("kbgen build exited %d", code)
	}
	shared.site, shared.log = site, out.String()
}

// bundledCmd is the script command "bundled": it sets $SITE to the shared
// site's folder (building it the first time).
func bundledCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: bundled")
	}
	site, log, err := sharedSite()
	if err != nil {
		ts.Fatalf("building the bundled site: %v\n%s", err, log)
	}
	ts.Setenv("SITE", site)
}

// cleanup removes the shared site after the tests.
type cleanup struct{ m testscript.TestingM }

func (c cleanup) Run() int {
	code := c.m.Run()
	if shared.tmp != "" {
		os.RemoveAll(shared.tmp)
	}
	return code
}
