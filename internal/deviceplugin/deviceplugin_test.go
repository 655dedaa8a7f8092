package deviceplugin

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func summary(l Log) []string {
	var out []string
	for _, d := range l.Devices {
		out = append(out, fmt.Sprintf("%s class=%s %q ids=%s:%s driver=%s @%d", d.Address, d.Class, d.Description, d.Vendor, d.Device, d.Driver, d.Line))
	}
	return out
}

// Every layout the real captures show: tabs kept, tabs made runs of
// spaces, the one space after a vendor name the plugin cut at 20, glog's
// and Go log's prefixes, ghw's "unknown", "device added" lines with the
// PCI ids, and a log cut mid-line.
func TestParse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tool, name string
		want       []string
	}{
		{"deviceplugin", "mlx5-cx6-vfs-sriov-dp-fenced-one-space-after-cut-vendor-truncated.txt", []string{
			`0000:c2:00.0 class=02 "Intel Corporation Ethernet Controller X710 for 10GbE SFP+" ids=: driver= @3`,
			`0000:c2:00.1 class=02 "Intel Corporation Ethernet Controller X710 for 10GbE SFP+" ids=: driver= @4`,
			`0000:c3:00.0 class=02 "Mellanox Technolo... MT28908 Family [ConnectX-6]" ids=: driver= @5`,
			`0000:c3:00.1 class=02 "Mellanox Technolo... MT28908 Family [ConnectX-6]" ids=: driver= @6`,
			`0000:c3:00.2 class=02 "Mellanox Technolo... MT28908 Family [ConnectX-6 Virtual Fu..." ids=: driver= @7`,
			`0000:c3:00.3 class=02 "Mellanox Technolo... MT28908 Family [ConnectX-6 Virtual Fu..." ids=: driver= @8`,
			`0000:c3:00.4 class=02 "Mellanox Technolo... MT28908 Fam" ids=: driver= @9`,
		}},
		{"deviceplugin", "intel-unknown-name-sriov-dp-discoverdevices-error-driver-readlink-truncated.txt", []string{
			`0000:1a:00.0 class=02 "Intel Corporation" ids=: driver= @8`,
		}},
		{"deviceplugin", "x710-vfio-sriov-dp-device-added-pciaddr-truncated.txt", []string{
			`0000:3b:11.6 class= "" ids=8086:1565 driver=vfio-pci @1`, `0000:3b:11.7 class= "" ids=8086:1565 driver=vfio-pci @2`,
			`0000:3b:12.0 class= "" ids=8086:1565 driver=vfio-pci @3`, `0000:3b:12.1 class= "" ids=8086:1565 driver=vfio-pci @4`,
			`0000:3b:12.2 class= "" ids=8086:1565 driver=vfio-pci @5`, `0000:3b:12.3 class= "" ids=8086:1565 driver=vfio-pci @6`,
			`0000:3b:12.4 class= "" ids=8086:1565 driver=vfio-pci @7`, `0000:3b:12.5 class= "" ids=8086:1565 driver=vfio-pci @8`,
			`0000:3b:12.6 class= "" ids=8086:1565 driver=vfio-pci @9`, `0000:3b:12.7 class= "" ids=8086:1565 driver=vfio-pci @10`,
		}},
		{"paste", "mlx5-cx5-rdma-shared-dev-plugin-network-operator-logs-device-found-truncated.txt", []string{
			`0000:07:00.0 class=02 "Mellanox Technolo... MT27800 Family [ConnectX-5]" ids=: driver= @10`,
		}},
	} {
		l, err := Parse(bytes.NewReader(capturetest.Read(t, tc.tool, tc.name)))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(tc.want, summary(l)); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
}

// The tab-separated columns, one "found" and one "added" line of a
// function: the added line's ids join the found line's names; another
// class is kept, and Network says it is not a network function.
func TestParseColumns(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		"I0101 00:00:00.000000       1 netDeviceProvider.go:84] netdevice AddTargetDevices(): device found: 0000:41:00.0\t02          \tunknown             \tunknown                                 ",
		"I0101 00:00:00.000000       1 accelDeviceProvider.go:71] accelerator AddTargetDevices(): device found: 0000:af:00.0\t12          \tIntel Corporation   \tDevice 0d5c                             ",
		"I0101 00:00:00.000000       1 factory.go:108] device added: [identifier: 0000:41:00.0, vendor: 15b3, device: 1017, driver: mlx5_core]",
		"2024/06/25 04:11:20 DiscoverHostDevices(): PCI device found: 41:00.1\t02          \tMellanox Technolo...\tMT27800 Family [ConnectX-5]             ",
	}, "\n")
	l, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`0000:41:00.0 class=02 "" ids=15b3:1017 driver=mlx5_core @1`,
		`0000:af:00.0 class=12 "Intel Corporation Device 0d5c" ids=: driver= @2`,
		`0000:41:00.1 class=02 "Mellanox Technolo... MT27800 Family [ConnectX-5]" ids=: driver= @4`,
	}
	if d := cmp.Diff(want, summary(l)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if !l.Devices[0].Network() || l.Devices[1].Network() {
		t.Error("Network: want the class 02 function only")
	}
}

func FuzzParse(f *testing.F) {
	capturetest.Seed(f, "deviceplugin")
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := Parse(bytes.NewReader(b))
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, d := range l.Devices {
			if seen[d.Address] {
				t.Fatalf("%s twice", d.Address)
			}
			seen[d.Address] = true
		}
	})
}
