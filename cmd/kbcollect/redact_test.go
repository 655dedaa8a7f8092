package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/rocekb/rocekb/internal/record"
)

const hostsDir = "../../testdata/hosts"

// materialize writes a host fixture (a txtar of files, "path -> target"
// symlinks and "path/" folders) as a folder.
func materialize(t testing.TB, file string) string {
	t.Helper()
	dir := t.TempDir()
	if err := materializeIn(dir, file); err != nil {
		t.Fatal(err)
	}
	return dir
}

// materializeIn writes a host fixture into the folder dir.
func materializeIn(dir, file string) error {
	a, err := txtar.ParseFile(file)
	if err != nil {
		return err
	}
	for _, f := range a.Files {
		name, target, isLink := strings.Cut(f.Name, " -> ")
		p := filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(name, "/")))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		switch {
		case isLink:
			err = os.Symlink(target, p)
		case strings.HasSuffix(name, "/"):
			err = os.MkdirAll(p, 0o755)
		default:
			err = os.WriteFile(p, f.Data, 0o644)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func kbcollect(t testing.TB, args ...string) []byte {
	t.Helper()
	out, err := kbcollectRun(args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// kbcollectRun runs kbcollect in the test process and returns its
// standard output, or an error that holds its exit status and stderr.
func kbcollectRun(args ...string) ([]byte, error) {
	var out, errb bytes.Buffer
	if code := run(args, nil, &out, &errb); code != 0 {
		return nil, fmt.Errorf("kbcollect %v: exit %d: %s", args, code, errb.String())
	}
	return out.Bytes(), nil
}

// memo makes each value once, by key, for every test that asks for it.
type memo[T any] struct {
	mu sync.Mutex
	m  map[string]func() (T, error)
}

func (m *memo[T]) get(key string, mk func() (T, error)) (T, error) {
	m.mu.Lock()
	f, ok := m.m[key]
	if !ok {
		if m.m == nil {
			m.m = map[string]func() (T, error){}
		}
		f = sync.OnceValues(mk)
		m.m[key] = f
	}
	m.mu.Unlock()
	return f()
}

// shared holds what the tests of host fixtures share: each fixture's
// folder (nothing writes to it: kbcollect and the live snapshot only read
// a root) and its redacted records, in a folder TestMain removes.
var shared struct {
	tmp      func() (string, error)
	dirs     memo[string]
	redacted memo[[]byte]
}

func init() {
	shared.tmp = sync.OnceValues(func() (string, error) { return os.MkdirTemp("", "kbcollect-test-") })
}

// removeShared removes the shared fixtures' folder.
func removeShared() {
	if tmp, err := shared.tmp(); err == nil {
		os.RemoveAll(tmp)
	}
}

// hostFixture returns the folder of the host fixture file, materialized
// once for every test that reads it.
func hostFixture(t testing.TB, file string) string {
	t.Helper()
	dir, err := fixtureDir(file)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return dir
}

func fixtureDir(file string) (string, error) {
	return shared.dirs.get(file, func() (string, error) {
		tmp, err := shared.tmp()
		if err != nil {
			return "", err
		}
		dir, err := os.MkdirTemp(tmp, filepath.Base(file))
		if err != nil {
			return "", err
		}
		return dir, materializeIn(dir, file)
	})
}

// redacted returns kbcollect's redacted record (salt "test") of the host
// fixture file in format (toml or json), collected once for both
// redaction tests, which each look in it for their own identifiers.
func redacted(t testing.TB, file, format string) []byte {
	t.Helper()
	out, err := shared.redacted.get(file+"\x00"+format, func() ([]byte, error) {
		dir, err := fixtureDir(file)
		if err != nil {
			return nil, err
		}
		return kbcollectRun("--salt", "test", "--format", format, "--root", dir)
	})
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return out
}

var (
	findMAC  = regexp.MustCompile(`(?i)\b[0-9a-f]{2}(?::[0-9a-f]{2}){5}\b`)
	findGUID = regexp.MustCompile(`(?i)\b0x[0-9a-f]{16}\b|\b[0-9a-f]{4}(?::[0-9a-f]{4}){3}\b`)
	findIPv4 = regexp.MustCompile(`(?:^|[\s=(\["'/])((?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3})(?:$|[\s)\],"':/])`)
	findSN   = regexp.MustCompile(`(?i)serial[ _]?(?:number)?\s*[:=]?\s*([A-Za-z0-9]{6,})`)
)

// identifiers lists what must not survive redaction in a record: the host
// id, node GUIDs, the interface-id half and IPv4 part of each GID, and
// every MAC, GUID, IPv4 address and serial number in any text of it.
func identifiers(h *record.Host, raw []byte) []string {
	ids := map[string]bool{}
	if h.Host.ID != "" && h.Host.ID != "localhost" {
		ids[strings.ToLower(h.Host.ID)] = true
	}
	for _, d := range h.Devices {
		if d.NodeGUID != "" && strings.Trim(d.NodeGUID, "0:") != "" {
			ids[strings.ToLower(d.NodeGUID)] = true
		}
		for _, p := range d.Ports {
			for _, g := range p.GIDs {
				if len(g.GID) == 39 {
					ids[strings.ToLower(g.GID[20:])] = true // interface id, or ffff:c0a8:0a11
				}
			}
		}
	}
	text := string(raw)
	for _, m := range findMAC.FindAllString(text, -1) {
		if m != "00:00:00:00:00:00" {
			ids[strings.ToLower(m)] = true
		}
	}
	for _, l := range findGUID.FindAllStringIndex(text, -1) {
		m := text[l[0]:l[1]]
		// Four groups next to a fifth are part of a GID, checked above.
		if l[0] > 0 && text[l[0]-1] == ':' || l[1] < len(text) && text[l[1]] == ':' {
			continue
		}
		if strings.Trim(strings.TrimPrefix(m, "0x"), "0:") != "" {
			ids[strings.ToLower(m)] = true
		}
	}
	// IPv4 addresses in free text; version fields (firmware 231.0.154.0)
	// hold dotted quads that are not addresses.
	var free []string
	for _, e := range h.KernelLog {
		free = append(free, e.Text)
	}
	for _, s := range h.Sources {
		free = append(free, s.Reason)
	}
	for _, p := range h.Problems {
		free = append(free, p.Msg)
	}
	for _, m := range findIPv4.FindAllStringSubmatch(strings.Join(free, "\n"), -1) {
		if m[1] != "0.0.0.0" && !strings.HasPrefix(m[1], "127.") {
			ids[m[1]] = true
		}
	}
	for _, m := range findSN.FindAllStringSubmatch(text, -1) {
		ids[strings.ToLower(m[1])] = true
	}
	out := make([]string, 0, len(ids))
	for id := range ids {
		out = append(out, id)
	}
	return out
}

// TestRedactionLeavesNoIdentifier collects every host fixture through the
// CLI, first with --no-redact to learn its identifiers, then redacted as
// TOML and JSON, and requires that none of them appears in the output.
func TestRedactionLeavesNoIdentifier(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(hostsDir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no host fixtures: %v", err)
	}
	total := 0
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			dir := hostFixture(t, file)
			plain := kbcollect(t, "--no-redact", "--format", "json", "--root", dir)
			h, probs := record.Decode("plain.json", plain)
			if h == nil {
				t.Fatalf("decode: %v", probs)
			}
			ids := identifiers(h, plain)
			total += len(ids)
			for _, format := range []string{"toml", "json"} {
				out := strings.ToLower(string(redacted(t, file, format)))
				if !strings.Contains(out, "redacted") {
					t.Fatalf("%s output: no redacted flag", format)
				}
				for _, id := range ids {
					if strings.Contains(out, id) {
						t.Errorf("%s output still holds %q", format, id)
					}
				}
			}
		})
	}
	if total == 0 {
		t.Error("the fixtures held no identifiers: the test proves nothing")
	}
	t.Logf("%d identifiers checked over %d hosts", total, len(files))
}
