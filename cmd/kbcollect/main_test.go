package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rocekb/rocekb/internal/scripttest"
	"github.com/rocekb/rocekb/internal/snapshot/tartest"
)

func TestMain(m *testing.M) {
	testscript.Main(cleanup{m}, map[string]func(){
		"kbcollect": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs testdata/script/*.txtar. "exitcode N kbcollect ..."
// runs kbcollect in the test process (scripttest.Program), without the
// CPU a kbcollect process costs to start; "exec kbcollect" executes it,
// for standard input. The scripts' helpers mktar and normrec run in the
// test process too ("exitcode 0 mktar ..."). The scripts' kbcollect runs in their folders, so
// the package's other tests, which read relative paths, wait until the
// scripts end: this test is not parallel.
func TestScripts(t *testing.T) {
	dir, err := filepath.Abs("testdata/script")
	if err != nil {
		t.Fatal(err)
	}
	progs := map[string]scripttest.Program{"kbcollect": {Main: run, Env: []string{"PATH"}}, "mktar": {Main: mktar}, "normrec": {Main: normrec}}
	testscript.Run(t, testscript.Params{Dir: dir, Cmds: scripttest.Cmds(progs), Condition: condition, Setup: scripttest.Setup(progs)})
}

// condition adds [rdma]: the machine running the tests has an RDMA device
// (an entry in /sys/class/infiniband, which the kernel creates with the
// first one), so live.txtar can assert what the record must say either way.
func condition(cond string) (bool, error) {
	if cond != "rdma" {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	entries, err := os.ReadDir("/sys/class/infiniband")
	return err == nil && len(entries) > 0, nil
}

// mktar builds a tarball from a folder (symlinks kept), with extra hostile
// members no tar tool writes:
//
//	mktar [-z gz|xz|none] [-prefix P] [-huge NAME=SIZE] [-evil NAME=BODY]
//	      [-garbage NAME=SIZE] [-cut BYTES] OUT [DIR]
//
// -huge declares a sparse member of SIZE bytes that takes a few bytes in
// the archive; -evil adds a member under a raw name such as ../../etc/passwd;
// -garbage adds SIZE pseudo-random bytes; -cut truncates the output.
func mktar(args []string, _ io.Reader, _, stderr io.Writer) int {
	fl := flag.NewFlagSet("mktar", flag.ContinueOnError)
	fl.SetOutput(stderr)
	z := fl.String("z", "gz", "compression: gz, xz or none")
	prefix := fl.String("prefix", "", "prefix for members from DIR")
	var huge, evil, garbage multi
	fl.Var(&huge, "huge", "NAME=SIZE sparse member")
	fl.Var(&evil, "evil", "NAME=BODY member with a raw name")
	fl.Var(&garbage, "garbage", "NAME=SIZE random bytes")
	cut := fl.Int("cut", 0, "truncate the output to this many bytes")
	if err := fl.Parse(args); err != nil || fl.NArg() < 1 || fl.NArg() > 2 {
		fmt.Fprintln(stderr, "usage: mktar [flags] OUT [DIR]")
		return 2
	}
	var members []tartest.Member
	if fl.NArg() == 2 {
		m, err := tartest.FromDir(fl.Arg(1), *prefix)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		members = m
	}
	for _, h := range huge {
		name, size, _ := strings.Cut(h, "=")
		n, _ := strconv.ParseInt(size, 10, 64)
		members = append(members, tartest.Member{Name: name, Body: "[    0.000000] Linux version 6.1.0\n", Size: n})
	}
	for _, e := range evil {
		name, body, _ := strings.Cut(e, "=")
		members = append(members, tartest.Member{Name: name, Body: body + "\n"})
	}
	for _, g := range garbage {
		name, size, _ := strings.Cut(g, "=")
		n, _ := strconv.Atoi(size)
		r := rand.New(rand.NewPCG(1, 2))
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.UintN(256))
		}
		members = append(members, tartest.Member{Name: name, Body: string(b)})
	}
	comp := *z
	if comp == "none" {
		comp = ""
	}
	var buf bytes.Buffer
	if err := tartest.Write(&buf, comp, members); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	out := buf.Bytes()
	if *cut > 0 && *cut < len(out) {
		out = out[:*cut]
	}
	if err := os.WriteFile(fl.Arg(0), out, 0o644); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

// normrec copies a TOML or JSON record without the lines that differ
// between a live run and a parse of its capture: source_kind, collected_at,
// collector.
//
//	normrec IN OUT
func normrec(args []string, _ io.Reader, _, stderr io.Writer) int {
	if len(args) != 2 {
		fmt.Fprintln(stderr, "usage: normrec IN OUT")
		return 2
	}
	in, err := os.ReadFile(args[0])
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(in))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if slices.ContainsFunc([]string{"source_kind", "collected_at", "collector"}, func(k string) bool {
			return strings.HasPrefix(l, k+" =") || strings.HasPrefix(l, `"`+k+`":`)
		}) {
			continue
		}
		out.WriteString(sc.Text() + "\n")
	}
	if err := os.WriteFile(args[1], out.Bytes(), 0o644); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// cleanup removes the host fixtures the tests share (hostFixture) after
// the tests.
type cleanup struct{ m testscript.TestingM }

func (c cleanup) Run() int {
	code := c.m.Run()
	removeShared()
	return code
}
