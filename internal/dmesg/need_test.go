package dmesg

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/need"
)

// gated are the classifier's patterns run through their need.
var gated = map[string]*need.Regexp{"timeoutRE": timeoutRE, "cmdFailRE": cmdFailRE, "cmdSendRE": cmdSendRE, "queueRE": queueRE,
	"gidRE": gidRE, "roceOffRE": roceOffRE, "resourceRE": resourceRE, "resetRE": resetRE, "qpRE": qpRE, "mrRE": mrRE}

// scannedAgrees reports how r, run through the message scan (part.match)
// on l as a whole message and as the message after a speaker, differs
// from r.MatchString(l) ("" when it does not), and r.MatchString(l).
func scannedAgrees(r *need.Regexp, l string) (diff string, want bool) {
	want = r.MatchString(l)
	for _, head := range []string{"", "mlx5_core 0000:01:00.0: ", "infiniband mlx5_0: error cmd failed: "} {
		var m msg
		m.reset(head + l)
		if got := m.part(l).match(r); got != want {
			return fmt.Sprintf("scanned after %q: %v, pattern %v", head, got, want), want
		}
	}
	return "", want
}

// TestGatedPatternsAgree: every classifier pattern run through its need
// (need.Regexp.MatchHits on the message's one scan)
// answers as the pattern itself does, on every line of the kernel-log and
// paste captures. A line held in several captures is compared once (its
// matches counted for each): scannedAgrees reads nothing but the line.
func TestGatedPatternsAgree(t *testing.T) {
	lines, matched := 0, 0
	matches := map[string]int{} // by line compared
	for _, root := range []string{"../../testdata/captures/dmesg", "../../testdata/captures/kernellog", "../../testdata/captures/paste"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sc := bufio.NewScanner(bytes.NewReader(b))
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				l := sc.Text()
				lines++
				n, ok := matches[l]
				if !ok {
					for name, r := range gated {
						d, want := scannedAgrees(r, l)
						if d != "" {
							t.Errorf("%s on %s line %q: %s", name, path, l, d)
						}
						if want {
							n++
						}
					}
					matches[l] = n
				}
				matched += n
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if lines < 3000 || matched < 100 {
		t.Errorf("only %d lines and %d matches compared", lines, matched)
	}
	t.Logf("%d lines (%d distinct), %d matches", lines, len(matches), matched)
}

// FuzzGatedPatternsAgree: the same on any line, seeded with the captures'
// lines when fuzzing (TestGatedPatternsAgree holds each of them in every
// run).
func FuzzGatedPatternsAgree(f *testing.F) {
	if fuzzing() {
		for _, tool := range []string{"dmesg", "kernellog", "paste"} {
			files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "captures", tool, "*.txt"))
			if err != nil {
				f.Fatal(err)
			}
			for _, p := range files {
				b, err := os.ReadFile(p)
				if err != nil {
					f.Fatal(err)
				}
				for _, l := range strings.Split(string(b), "\n") {
					if lower := strings.ToLower(l); hasAny(lower, failWords) || hasAny(lower, timeoutWords) || hasAny(lower, resetWords) {
						f.Add(l)
					}
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, l string) {
		for name, r := range gated {
			if d, _ := scannedAgrees(r, l); d != "" {
				t.Errorf("%s on %q: %s", name, l, d)
			}
		}
	})
}
