package rxecfg

import (
	"bytes"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func FuzzParse(f *testing.F) {
	capturetest.Seed(f, "rxe_cfg")
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Messages) > MaxMessages {
			t.Fatalf("%d messages", len(out.Messages))
		}
		for _, i := range out.Interfaces {
			if i.Name == "" || i.Line < 1 {
				t.Fatalf("bad row %+v", i)
			}
			i.Up()
		}
		out.ConfigfsFailed()
	})
}
