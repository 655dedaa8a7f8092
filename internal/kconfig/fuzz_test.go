package kconfig

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func FuzzParse(f *testing.F) {
	capturetest.Seed(f, "kconfig")
	f.Fuzz(func(t *testing.T, b []byte) {
		cfgs, err := Parse(bytes.NewReader(b))
		if err != nil && !strings.Contains(err.Error(), "too long") {
			t.Fatal(err)
		}
		for _, c := range cfgs {
			for _, o := range c.Options {
				if !strings.HasPrefix(o.Name, "CONFIG_") || o.Value == "" || o.Line < 1 {
					t.Fatalf("%+v", o)
				}
			}
		}
	})
}
