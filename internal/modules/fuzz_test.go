package modules

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func FuzzParse(f *testing.F) {
	capturetest.Seed(f, "lsmod", "modinfo")
	f.Fuzz(func(t *testing.T, b []byte) {
		mods, err := ParseLsmod(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mods {
			if m.Size < 0 {
				t.Fatalf("negative size %+v", m)
			}
		}
		infos, err := ParseModinfo(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range infos {
			OutOfTree(i.Filename)
		}
		all, err := ParseModinfoAll(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if r, _ := all.KernelRelease(); strings.ContainsAny(r, " \t/") {
			t.Fatalf("release %q", r)
		}
	})
}
