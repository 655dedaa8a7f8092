package flint

import (
	"bytes"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func FuzzParse(f *testing.F) {
	capturetest.Seed(f, "flint")
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := Parse(bytes.NewReader(b))
		if err != nil {
			return
		}
		for _, q := range out.Queries {
			if q.Line < 1 || q.Running() == "" && q.FWRunning != "" {
				t.Fatalf("query %+v", q)
			}
		}
	})
}
