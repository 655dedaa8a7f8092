package collect

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
)

var update = flag.Bool("update", false, "rewrite testdata/hosts/*.golden.toml")

const hostsDir = "../../testdata/hosts"

// loadHost reads a host fixture: a txtar archive whose comment says, on
// line 1, what the host was assembled from and, on a "kind: " line, the
// snapshot kind (sosreport, root, capture or live). Each file becomes a
// fstest.MapFS entry, except two name forms:
//
//	-- sys/class/net/eth0/device -> ../../../bus/pci/devices/0000:3b:00.0 --
//	    a symlink (the file body is ignored; dangling targets are allowed)
//	-- sys/bus/pci/devices/0000:3b:00.0/infiniband/mlx5_0/ --
//	    an empty folder
func loadHost(t testing.TB, name string) *snapshot.Snapshot {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join(hostsDir, name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	kind := ""
	for _, line := range strings.Split(string(a.Comment), "\n") {
		if k, ok := strings.CutPrefix(line, "kind: "); ok {
			kind = strings.TrimSpace(k)
		}
	}
	switch kind {
	case record.KindSosreport, record.KindRoot, record.KindCapture, record.KindLive, record.KindSupportconfig, record.KindSysinfoSnapshot:
	default:
		t.Fatalf("%s: comment needs a kind: line, got %q", name, kind)
	}
	if !strings.Contains(strings.SplitN(string(a.Comment), "\n", 2)[0], "assembled from ") {
		t.Fatalf("%s: line 1 must say what the host was assembled from", name)
	}
	fsys := fstest.MapFS{}
	for _, f := range a.Files {
		switch {
		case strings.Contains(f.Name, " -> "):
			p, target, _ := strings.Cut(f.Name, " -> ")
			fsys[p] = &fstest.MapFile{Data: []byte(target), Mode: fs.ModeSymlink}
		case strings.HasSuffix(f.Name, "/"):
			fsys[strings.TrimSuffix(f.Name, "/")] = &fstest.MapFile{Mode: fs.ModeDir | 0o555}
		default:
			fsys[f.Name] = &fstest.MapFile{Data: f.Data}
		}
	}
	return snapshot.FromFS(fsys, kind, name)
}

func hostNames(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join(hostsDir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no host fixtures: %v", err)
	}
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), ".txtar"))
	}
	return names
}

func encode(t testing.TB, h *record.Host) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := record.Encode(&buf, h, "toml"); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestHosts collects every fixture host and compares the record with its
// golden file; -update rewrites them.
func TestHosts(t *testing.T) {
	t.Parallel()
	for _, name := range hostNames(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h, err := Collect(loadHost(t, name))
			if err != nil {
				t.Fatal(err)
			}
			got := encode(t, h)
			golden := filepath.Join(hostsDir, name+".golden.toml")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/collect -update)", err)
			}
			if d := cmp.Diff(string(want), string(got)); d != "" {
				t.Errorf("%s (-golden +got):\n%s", golden, d)
			}
			// The record must also survive the strict decoder.
			if _, probs := record.Decode(name+".toml", got); len(probs) > 0 {
				t.Errorf("decode: %s", probs)
			}
		})
	}
}

// Collecting twice gives the same bytes: nothing depends on map order.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	for _, name := range hostNames(t) {
		h1, _ := Collect(loadHost(t, name))
		h2, _ := Collect(loadHost(t, name))
		if !bytes.Equal(encode(t, h1), encode(t, h2)) {
			t.Errorf("%s: two runs differ", name)
		}
	}
}
