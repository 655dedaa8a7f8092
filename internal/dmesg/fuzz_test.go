package dmesg

import (
	"bytes"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func FuzzParseLog(f *testing.F) {
	capturetest.Seed(f, "dmesg", "kernellog")
	f.Fuzz(func(t *testing.T, b []byte) {
		lg, err := ParseLog(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if len(lg.Events) > MaxEvents || len(lg.Bindings) > maxBindings {
			t.Fatalf("%d events, %d bindings", len(lg.Events), len(lg.Bindings))
		}
		for i, e := range lg.Events {
			if len(e.Text) > maxText || e.Line < 1 || e.Line > lg.Lines {
				t.Fatalf("bad event %+v", e)
			}
			if len(lg.Context[i]) > maxContext {
				t.Fatalf("%d context lines", len(lg.Context[i]))
			}
		}
	})
}
