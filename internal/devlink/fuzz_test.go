package devlink

import (
	"bytes"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func FuzzParse(f *testing.F) {
	capturetest.Seed(f, "devlink")
	f.Add([]byte(`{"info":{"pci/0000:00:06.0":{"driver":"mlx5_core","versions":{"fixed":{"fw.psid":"MT_1"}}}}}`))
	f.Add([]byte(`{"param":{"pci/0000:06:00.0":[{"name":"enable_roce","values":[{"cmode":"runtime","value":true}]}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		info, err := ParseInfo(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range info.Devices {
			_, _, _, _ = d.PCIAddress(), d.FirmwareRunning(), d.FirmwareStored(), d.PSID()
		}
		if _, err := ParseParams(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
		reps, err := ParseHealth(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range reps {
			_ = r.PCIAddress()
		}
		_, _ = ParseInfoJSON(bytes.NewReader(b))
		_, _ = ParseParamsJSON(bytes.NewReader(b))
	})
}
