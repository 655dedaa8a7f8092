package dmesg

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Renames, PCI ids and limited links as real NIC logs print them.
func TestParseLogNICFacts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file    string
		renames []Rename
		ids     []PCIID
		bw      []Bandwidth
		repairs map[string]int
	}{
		{
			file:    "mlx5-cx4lx-renamed-from-eth0-netdev-mail.txt",
			renames: []Rename{{Driver: "mlx5_core", PCIAddress: "0000:21:00.0", From: "eth0", To: "enp33s0f0np0", Line: 17}},
			bw: []Bandwidth{
				{PCIAddress: "0000:21:00.0", AvailableGbps: 63.008, SpeedGTps: 8, Width: 8, Line: 2},
				{PCIAddress: "0000:21:00.1", AvailableGbps: 63.008, SpeedGTps: 8, Width: 8, Line: 9},
			},
			repairs: map[string]int{},
		},
		{
			file: "mlx5-cx5-limited-by-x8-capable-x16-blog.txt",
			bw: []Bandwidth{{PCIAddress: "0001:43:00.0", AvailableGbps: 63.008, SpeedGTps: 8, Width: 8, LimitedBy: "0001:42:01.0",
				CapableGbps: 126.016, CapableGTps: 8, CapableWidth: 16, Line: 2}},
			repairs: map[string]int{},
		},
		{
			file: "pci-cx3pro-15b3-1007-limited-5gts-mail-quoted.txt",
			ids: []PCIID{
				{PCIAddress: "0000:00:00.0", Vendor: "10e8", Device: "e004", Class: "060400", Line: 9},
				{PCIAddress: "0000:01:00.0", Vendor: "15b3", Device: "1007", Class: "020000", Line: 21},
			},
			bw: []Bandwidth{{PCIAddress: "0000:01:00.0", AvailableGbps: 32, SpeedGTps: 5, Width: 8, LimitedBy: "0000:00:00.0",
				CapableGbps: 63.008, CapableGTps: 8, CapableWidth: 8, Line: 26}},
			repairs: map[string]int{"mail-quote": 36},
		},
		{
			file:    "hns3-19e5-a221-rescan-bar14-no-space-mail.txt",
			ids:     []PCIID{{PCIAddress: "0000:7d:00.3", Vendor: "19e5", Device: "a221", Class: "020000", Line: 4}},
			repairs: map[string]int{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			lg, err := ParseLog(bytes.NewReader(capture(t, tt.file)))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.renames, lg.Renames); d != "" {
				t.Errorf("renames (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.ids, lg.PCIIDs); d != "" {
				t.Errorf("pci ids (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.bw, lg.Bandwidth); d != "" {
				t.Errorf("bandwidth (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.repairs, lg.Repairs); d != "" {
				t.Errorf("repairs (-want +got):\n%s", d)
			}
		})
	}
}
