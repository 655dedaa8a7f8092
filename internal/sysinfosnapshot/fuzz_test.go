package sysinfosnapshot

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/rocekb/rocekb/internal/capturetest"
)

// seed adds the sysinfo-snapshot hosts' files (HTML, command files) and the
// captures they hold.
func seed(f *testing.F) {
	f.Helper()
	hosts, err := filepath.Glob("../../testdata/hosts/sysinfo-snapshot-*.txtar")
	if err != nil || len(hosts) == 0 {
		f.Fatalf("no sysinfo-snapshot hosts: %v", err)
	}
	for _, h := range hosts {
		a, err := txtar.ParseFile(h)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range a.Files {
			f.Add(file.Data)
		}
	}
	capturetest.Seed(f, "ethtool", "ibv_devinfo")
}

func FuzzParse(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		secs, err := ParseHTML(bytes.NewReader(b))
		if err != nil {
			return
		}
		for _, o := range secs {
			if o.Line < 1 || o.Title == "" {
				t.Fatalf("%+v", o)
			}
			if p := o.FilePath(); strings.HasPrefix(p, "/") || strings.HasPrefix(p, "..") || strings.Contains(p, "/../") {
				t.Fatalf("%+v: path %q", o, p)
			}
			for _, e := range SplitEthtool(o) {
				if e.Line < o.Line || !strings.HasPrefix(e.Title, "ethtool ") {
					t.Fatalf("%+v", e)
				}
			}
		}
		if o, ok, err := ParseFile(bytes.NewReader(b)); err == nil && ok && (o.Title == "" || strings.Contains(o.Title, "\n")) {
			t.Fatalf("%+v", o)
		}
	})
}
