package lspci

import (
	"bytes"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func FuzzParse(f *testing.F) {
	capturetest.Seed(f, "lspci")
	f.Fuzz(func(t *testing.T, b []byte) {
		devs, err := Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if len(devs) > len(b) {
			t.Fatalf("%d devices from %d bytes", len(devs), len(b))
		}
		for _, d := range devs {
			d.IsNetwork()
		}
	})
}
