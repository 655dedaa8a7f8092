package record

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
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
