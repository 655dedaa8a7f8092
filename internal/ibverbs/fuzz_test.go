package ibverbs

import (
	"bytes"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func FuzzParse(f *testing.F) {
	capturetest.Seed(f, "ibv_devinfo", "ibv_devices", "ibstat", "ibstatus", "show_gids", "ibdev2netdev")
	f.Fuzz(func(t *testing.T, b []byte) {
		di, err := ParseDevinfo(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range di.Devices {
			for _, p := range d.Ports {
				p.RateGbps()
				State(p.State)
				PhysState(p.PhysState)
			}
		}
		if _, err := ParseDevices(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
		if _, err := ParseIbstat(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
		if _, err := ParseIbstatus(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
		if _, err := ParseShowGIDs(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
		if _, err := ParseIbdev2netdev(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
	})
}
