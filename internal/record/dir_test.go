package record

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"
)

const minimal = "schema = 1\n[host]\nid = \"h1\"\nsource_kind = \"root\"\n"

// TestLoadDirSkipsAndDepth: .git, node_modules, sosreport folders and
// folders deeper than MaxDepth are not read; records elsewhere are, in
// name order.
func TestLoadDirSkipsAndDepth(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("d/", MaxDepth+1) + "x.toml" // one folder too deep
	ok := strings.Repeat("d/", MaxDepth) + "y.toml"
	fsys := fstest.MapFS{
		"a.toml":                    {Data: []byte(minimal)},
		".git/b.toml":               {Data: []byte("not toml at all [")},
		"node_modules/c.json":       {Data: []byte("{")},
		"sos/sos_commands/x/y.toml": {Data: []byte("[")},
		deep:                        {Data: []byte("[")},
		ok:                          {Data: []byte(minimal)},
		"notes.md":                  {Data: []byte("# notes")},
		"snap.txtar":                {Data: []byte("x")},
	}
	hosts, probs := LoadDir(fsys, "recs")
	if probs.Errors() != 0 || len(hosts) != 2 {
		t.Fatalf("hosts %d, problems:\n%s", len(hosts), probs)
	}
	if !strings.Contains(probs.String(), "more than 8 folders deep") {
		t.Errorf("no depth warning:\n%s", probs)
	}
}

// TestLoadDirOnlySnapshots: a folder of snapshots says how to make records.
func TestLoadDirOnlySnapshots(t *testing.T) {
	t.Parallel()
	_, probs := LoadDir(fstest.MapFS{"host1.txtar": {Data: []byte("x")}}, "in")
	if got := probs.String(); !strings.Contains(got, "in/host1.txtar") || !strings.Contains(got, "looks like a snapshot: run kbcollect on it first") {
		t.Errorf("problems:\n%s", got)
	}
	_, probs = LoadDir(fstest.MapFS{"sos_commands/rdma/x": {Data: []byte("x")}}, "sosreport-h1")
	if got := probs.String(); !strings.Contains(got, "looks like a sosreport folder: run kbcollect on it first (kbcollect --root sosreport-h1") {
		t.Errorf("problems:\n%s", got)
	}
}

// TestLoad: a file or a folder; a missing path is an error; a file that is
// not a record says what it looks like and the fix.
func TestLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rec := write("h.toml", minimal)
	if hosts, probs, err := Load(rec); err != nil || probs.Errors() != 0 || len(hosts) != 1 || hosts[0].Host.ID != "h1" {
		t.Fatalf("file: %v %v %s", hosts, err, probs)
	}
	if hosts, _, err := Load(dir); err != nil || len(hosts) != 1 {
		t.Fatalf("folder: %v %v", hosts, err)
	}
	if _, _, err := Load(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing path: %v", err)
	}
	for name, want := range map[string]string{
		"x.txtar":   "x.txtar: looks like a snapshot: run kbcollect on it first",
		"s.tar.xz":  "s.tar.xz: looks like a sosreport or capture archive: run kbcollect on it first (kbcollect s.tar.xz > host.toml)",
		"README.md": "README.md: is Markdown, not a host record",
		"out.json":  "out.json: looks like kbgen check --format json output",
		"notes.txt": "notes.txt: not a host record: host records are the *.toml or *.json files kbcollect writes",
	} {
		body := "x"
		if strings.HasSuffix(name, ".json") {
			body = `{"hosts": [{"host": "h1"}]}`
		}
		_, probs, err := Load(write(name, body))
		if err != nil || probs.Errors() != 1 || !strings.Contains(probs.String(), want) {
			t.Errorf("%s: %v\n%s", name, err, probs)
		}
	}
}

// TestListHostileEntries: what an attacker can drop in a records folder
// (a named pipe, links to a device and out of the folder, a record over
// the cap, a folder that cannot be read) is one problem each, naming it
// and why, and never hangs the loader; a link inside the folder is read,
// from a subfolder into another too.
func TestListHostileEntries(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	dir := filepath.Join(t.TempDir(), "records")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	must(os.MkdirAll(filepath.Join(dir, "other"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "other", "two.toml"), []byte(minimal), 0o644))
	must(os.Symlink("../other/two.toml", filepath.Join(dir, "sub", "across.toml")))
	must(os.WriteFile(filepath.Join(outside, "secret.toml"), []byte(minimal), 0o644))
	must(os.WriteFile(filepath.Join(dir, "sub", "ok.toml"), []byte(minimal), 0o644))
	must(os.WriteFile(filepath.Join(dir, "big.toml"), []byte(minimal+strings.Repeat("# padding\n", 200)), 0o644))
	must(syscall.Mkfifo(filepath.Join(dir, "p.toml"), 0o644))
	must(os.Symlink("/dev/zero", filepath.Join(dir, "zero.toml")))
	must(os.Symlink(filepath.Join(outside, "secret.toml"), filepath.Join(dir, "abs.toml")))
	must(os.Symlink("../../"+filepath.Base(outside)+"/secret.toml", filepath.Join(dir, "rel.toml")))
	must(os.Symlink("sub/ok.toml", filepath.Join(dir, "in.toml")))
	must(os.Symlink("nowhere.toml", filepath.Join(dir, "dangling.toml")))

	type result struct {
		hosts []*Host
		probs string
	}
	got := make(chan result, 1)
	go func() {
		set, probs, err := ListLimits(dir, Limits{MaxFile: 1024})
		if err != nil {
			t.Error(err)
		}
		hosts, ps := set.All()
		got <- result{hosts, append(probs, ps...).String()}
	}()
	var r result
	select {
	case r = <-got:
	case <-time.After(20 * time.Second):
		t.Fatal("the loader hangs")
	}
	if len(r.hosts) != 4 { // sub/ok.toml and in.toml, its link; other/two.toml and sub/across.toml, its link
		t.Errorf("%d hosts read, want 4:\n%s", len(r.hosts), r.probs)
	}
	for _, want := range []string{
		"p.toml: not read: a named pipe, not a regular file",
		"zero.toml: not read: a symbolic link out of the records folder\n",
		"abs.toml: not read: a symbolic link out of the records folder\n",
		"rel.toml: not read: a symbolic link out of the records folder\n",
		"dangling.toml: not read: a symbolic link to nothing\n",
		"big.toml: not read: 2049 bytes, over the cap of 1024 bytes on one record (--max-record-size)\n",
	} {
		if !strings.Contains(r.probs, want) {
			t.Errorf("no %q in:\n%s", want, r.probs)
		}
	}
	if n := strings.Count(r.probs, "\n"); n != 6 {
		t.Errorf("%d problems, want one per entry not read:\n%s", n, r.probs)
	}
}

// TestListCaps: the cap on one record and on the records of a build, and
// a file named on its own (it may be a pipe) read only up to the cap.
func TestListCaps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, n := range []string{"a.toml", "b.toml", "c.toml"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(minimal), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	set, _, err := ListLimits(dir, Limits{MaxTotal: int64(2 * len(minimal))})
	if err != nil {
		t.Fatal(err)
	}
	hosts, probs := set.All()
	if len(hosts) != 2 || !strings.Contains(probs.String(), "c.toml: not read: the records before it reach the cap of") {
		t.Errorf("%d hosts:\n%s", len(hosts), probs)
	}
	// A link to /dev/zero named on its own: read up to the cap, then refused.
	if _, err := os.Stat("/dev/zero"); err == nil {
		zero := filepath.Join(dir, "zero.toml")
		if err := os.Symlink("/dev/zero", zero); err != nil {
			t.Fatal(err)
		}
		set, _, err := ListLimits(zero, Limits{MaxFile: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		_, probs := set.All()
		if !strings.Contains(probs.String(), "zero.toml: not read: over the cap of 1 MiB on one record") {
			t.Errorf("/dev/zero: %s", probs)
		}
	}
}

// unreadableFS fails to list one folder, as a folder without read
// permission does (which a test run as root cannot make).
type unreadableFS struct {
	fstest.MapFS
	dir string
}

func (u unreadableFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == u.dir {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return u.MapFS.ReadDir(name)
}

// TestListUnreadableFolder: a folder that cannot be read is one problem,
// and the records beside it are read.
func TestListUnreadableFolder(t *testing.T) {
	t.Parallel()
	fsys := unreadableFS{fstest.MapFS{"a.toml": {Data: []byte(minimal)}, "locked/b.toml": {Data: []byte(minimal)}}, "locked"}
	set, probs := ListDir(fsys, "recs")
	hosts, ps := set.All()
	probs = append(probs, ps...)
	if len(hosts) != 1 || probs.String() != "recs/locked: not read: permission denied\n" {
		t.Errorf("%d hosts, problems:\n%s", len(hosts), probs)
	}
}
