package dmesg

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"mime/quotedprintable"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite testdata/logs.golden")

// pasteVariants are the ways a log reaches kbcollect besides as it was
// captured: mail-quoted, line-numbered, indented, with CRLF endings,
// re-cased, quoted-printable, and with its lines in reverse order (which
// moves every line to another neighbour and state).
var pasteVariants = []struct {
	name string
	f    func([]byte) []byte
}{
	{"as-captured", func(b []byte) []byte { return b }},
	{"mail-quote", eachLine(func(i int, l string) string { return "> " + l })},
	{"line-numbers", eachLine(func(i int, l string) string { return fmt.Sprintf("%d: %s", i+1, l) })},
	{"glued-numbers", eachLine(func(i int, l string) string { return fmt.Sprintf("%d%s", i+1, l) })},
	{"indented", eachLine(func(i int, l string) string { return "   " + l })},
	{"crlf", eachLine(func(i int, l string) string { return l + "\r" })},
	{"lower", bytes.ToLower},
	{"upper", bytes.ToUpper},
	{"quoted-printable", func(b []byte) []byte {
		var out bytes.Buffer
		w := quotedprintable.NewWriter(&out)
		w.Write(b)
		w.Close()
		return out.Bytes()
	}},
	{"reversed", func(b []byte) []byte {
		ls := strings.Split(string(b), "\n")
		for i, j := 0, len(ls)-1; i < j; i, j = i+1, j-1 {
			ls[i], ls[j] = ls[j], ls[i]
		}
		return []byte(strings.Join(ls, "\n"))
	}},
}

func eachLine(f func(int, string) string) func([]byte) []byte {
	return func(b []byte) []byte {
		ls := strings.Split(string(b), "\n")
		for i, l := range ls {
			ls[i] = f(i, l)
		}
		return []byte(strings.Join(ls, "\n"))
	}
}

// logInputs returns every capture of testdata/captures (any tool's:
// a kernel log is pasted beside anything) and every file of every host
// fixture in testdata/hosts, by name, and all kernel-log and paste
// captures run together as one log (far fewer events than MaxEvents, whose
// cap TestBounded holds).
func logInputs(t testing.TB) map[string][]byte {
	t.Helper()
	in := map[string][]byte{}
	var all []byte
	root := filepath.Join("..", "..", "testdata")
	err := filepath.WalkDir(filepath.Join(root, "captures"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		in[filepath.ToSlash(rel)] = b
		if tool := filepath.Base(filepath.Dir(path)); tool == "dmesg" || tool == "kernellog" || tool == "paste" {
			all = append(all, b...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	hosts, err := filepath.Glob(filepath.Join(root, "hosts", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hosts {
		a, err := txtar.ParseFile(h)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			in["hosts/"+filepath.Base(h)+"/"+f.Name] = f.Data
		}
	}
	in["all kernel-log and paste captures"] = all
	return in
}

// variantsOf are the forms an input is tried in: a kernel log (by its
// name) also as pasted, other files as they are.
func variantsOf(name string) []struct {
	name string
	f    func([]byte) []byte
} {
	for _, w := range []string{"dmesg", "kernellog", "paste", "messages", "journal", "syslog", "kern"} {
		if strings.Contains(name, w) {
			return pasteVariants
		}
	}
	return pasteVariants[:1]
}

// TestLogGolden: the Log ParseLog gives for every capture and host
// fixture file, and each kernel log in each pasted form, is the one
// testdata/logs.golden records (its events and a digest of the whole Log,
// encoded): a change that is not meant to change an answer changes no
// line, and one that is shows which inputs it moved. go test -update
// rewrites the file.
func TestLogGolden(t *testing.T) {
	t.Parallel()
	in := logInputs(t)
	var out []string
	for name, b := range in {
		for _, v := range variantsOf(name) {
			lg, err := ParseLog(bytes.NewReader(v.f(b)))
			if err != nil {
				t.Fatalf("%s (%s): %v", name, v.name, err)
			}
			enc, err := json.Marshal(lg)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(enc)
			out = append(out, fmt.Sprintf("%s\t%s\t%d events\t%x", name, v.name, len(lg.Events), sum[:8]))
		}
	}
	slices.Sort(out)
	got := strings.Join(out, "\n") + "\n"
	path := filepath.Join("testdata", "logs.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) == got {
		return
	}
	wl, gl := strings.Split(string(want), "\n"), strings.Split(got, "\n")
	for _, l := range gl {
		if !slices.Contains(wl, l) {
			t.Errorf("now:    %s", l)
		}
	}
	for _, l := range wl {
		if !slices.Contains(gl, l) {
			t.Errorf("golden: %s", l)
		}
	}
}
