package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/redact"
)

// TestPasteHostsRedactedAlike: a host token is 24 bits, so a paste of a
// thousand hosts holds two whose ids redact alike about one time in 30.
// Written into a folder, each is a file of its own: the second is not
// written over the first.
func TestPasteHostsRedactedAlike(t *testing.T) {
	const salt = "collide"
	r, seen := redact.New(salt), map[string]string{}
	var a, b string
	for i := 0; a == ""; i++ {
		name := fmt.Sprintf("node%d", i)
		tok := r.Token("host", name)
		if other, ok := seen[tok]; ok {
			a, b = other, name
		}
		seen[tok] = name
	}
	devices := func(host, guid string) string {
		return fmt.Sprintf("[root@%s ~]# ibv_devices\n    device                 node GUID\n    ------              ----------------\n    mlx5_0              %s\n", host, guid)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "ticket.txt")
	os.WriteFile(in, []byte(devices(a, "b8cef60300001111")+devices(b, "b8cef60300002222")), 0o644)
	out := filepath.Join(dir, "records") + string(filepath.Separator)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"paste", in, "-o", out, "--salt", salt}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("kbcollect paste: exit %d\n%s", code, stderr.String())
	}
	files, _ := filepath.Glob(filepath.Join(out, "*.toml"))
	if len(files) != 2 {
		t.Fatalf("%s and %s (one token) gave %d records, want 2: %v\n%s", a, b, len(files), files, stderr.String())
	}
	if !strings.Contains(stderr.String(), "redact alike") {
		t.Errorf("nothing says the two hosts' ids redact alike:\n%s", stderr.String())
	}
}
