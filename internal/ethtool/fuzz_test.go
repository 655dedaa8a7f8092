package ethtool

import (
	"bytes"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func FuzzParse(f *testing.F) {
	capturetest.Seed(f, "ethtool")
	f.Fuzz(func(t *testing.T, b []byte) {
		infos, err := Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if len(infos) > len(b) {
			t.Fatalf("%d blocks from %d bytes", len(infos), len(b))
		}
		for _, i := range infos {
			SplitFirmware(i.FirmwareVersion)
		}
	})
}
