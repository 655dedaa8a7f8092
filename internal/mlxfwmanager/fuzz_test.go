package mlxfwmanager

import (
	"bytes"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func FuzzParse(f *testing.F) {
	capturetest.Seed(f, "mlxfwmanager")
	f.Add([]byte("PSID: MT_1\nVersions: Current Available\nFW (Running) 1.2.3 N/A\nFW 1\nPort1 GUID: x\nPSID: MT_2\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range out.Devices {
			_, _ = d.FirmwareRunning()
			_, _ = d.FirmwareFlash()
		}
	})
}
