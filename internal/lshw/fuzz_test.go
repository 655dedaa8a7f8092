package lshw

import (
	"bytes"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

// FuzzParse: any text parses without a panic, each device names a PCI
// function, and no netdev is given to two functions.
func FuzzParse(f *testing.F) {
	capturetest.Seed(f, "lshw")
	f.Add(capturetest.Read(f, "paste", "ice-e822c-lshw-businfo-unknown-ids-ethtool-i-dmesg-no-timestamps-cut-columns-truncated.txt"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ds, err := Parse(bytes.NewReader(b))
		if err != nil {
			return
		}
		owner := map[string]string{}
		for _, d := range ds {
			if d.BusInfo == "" {
				t.Fatalf("device with no bus info: %+v", d)
			}
			if d.Netdev == "" {
				continue
			}
			if o, ok := owner[d.Netdev]; ok && o != d.BusInfo {
				t.Fatalf("netdev %s given to %s and %s", d.Netdev, o, d.BusInfo)
			}
			owner[d.Netdev] = d.BusInfo
		}
	})
}
