package ibverbs

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func FuzzParse(f *testing.F) {
	for _, tool := range []string{"ibv_devinfo", "ibv_devices", "ibstat", "ibstatus", "show_gids", "ibdev2netdev"} {
		files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "captures", tool, "*.txt"))
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
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
