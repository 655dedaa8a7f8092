package supportconfig

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func FuzzParse(f *testing.F) {
	capturetest.Seed(f, "supportconfig")
	f.Fuzz(func(t *testing.T, b []byte) {
		secs, err := Parse(bytes.NewReader(b))
		if err != nil {
			return
		}
		for _, sec := range secs {
			if p := sec.FilePath(); strings.HasPrefix(p, "/") || strings.HasPrefix(p, "..") || strings.Contains(p, "/../") {
				t.Fatalf("%+v: path %q", sec, p)
			}
			if sec.Line < 1 {
				t.Fatalf("%+v", sec)
			}
		}
	})
}
