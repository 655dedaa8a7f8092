package mlxconfig

import (
	"bytes"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func FuzzParse(f *testing.F) {
	capturetest.Seed(f, "mlxconfig")
	f.Add([]byte("Device #1:\nDevice:  x\nConfigurations: Default  Current\n*  A_B  1 2 3\n   C_D\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range out.Devices {
			for _, p := range d.Params {
				_, _ = p.Value()
			}
		}
	})
}
