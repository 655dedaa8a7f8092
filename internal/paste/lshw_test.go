package paste

import (
	"strings"
	"testing"
)

// TestLshw: lshw's network nodes, after any of its command lines or
// recognised by a "*-network" header, a "bus info: pci@" line or a
// -businfo row, give each PCI function its netdev, and a node's
// configuration its driver, firmware and link. Before: "no command output
// recognised".
func TestLshw(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file, netdev, pci, driver, fw, link string
	}{
		{"mlx5-bf2-cx6dx-class-network-grep-C9-two-logical-names.txt", "enp1s0f0np0", "0000:01:00.0", "mlx5_core", "24.41.1000", "up"},
		{"mlx5-cx4lx-hp-grep-mellanox-A10-headless.txt", "ens1f1", "0000:03:00.1", "mlx5_core", "14.18.2030", "up"},
		{"mlx5-cx6-disabled-link-no-full-tree-excerpt.txt", "enp65s0np0", "0000:41:00.0", "mlx5_core", "20.36.1010", "down"},
		{"mlx5-cx5-and-igb-class-network-businfo.txt", "enp33s0f0", "0000:21:00.0", "", "", ""},
	} {
		text := body(t, "lshw", tc.file)
		// With and without its command lines.
		var bare []string
		for _, l := range strings.Split(text, "\n") {
			if !strings.Contains(l, "lshw") {
				bare = append(bare, l)
			}
		}
		for i, in := range []string{text, strings.Join(bare, "\n")} {
			h := collectText(t, in)
			found := false
			for _, n := range h.Netdevs {
				if n.Name != tc.netdev {
					continue
				}
				found = true
				if n.PCIAddress != tc.pci || n.Driver != tc.driver || n.Link != tc.link || !strings.HasPrefix(n.Origin, "cmd/lshw") {
					t.Errorf("%s (%d): netdev %+v", tc.file, i, n)
				}
			}
			if !found {
				t.Errorf("%s (%d): no netdev %s in %+v", tc.file, i, tc.netdev, h.Netdevs)
			}
			for _, a := range h.Adapters {
				if a.PCIAddress == tc.pci && a.Firmware.Running != tc.fw {
					t.Errorf("%s (%d): firmware %q, want %q", tc.file, i, a.Firmware.Running, tc.fw)
				}
			}
		}
	}
}

// TestEthtoolSettings: `ethtool <netdev>` after its command line, indented,
// mail-quoted, or quoted with its indentation lost, gives the netdev its
// link and speed; "Speed: Unknown!" gives none. Before: "no command output
// recognised".
func TestEthtoolSettings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ file, netdev, link, speed string }{
		{"bnx2x-settings-ens4f1-link-detected-after-blank.txt", "ens4f1", "up", "10000Mb/s"},
		{"ice-e810-settings-ens2f0np0-mail-quoted-dac-10g.txt", "ens2f0np0", "up", "10000Mb/s"},
		{"ice-e810-settings-eth3-speed-unknown-link-no-indent-collapsed.txt", "eth3", "down", ""},
	} {
		text := body(t, "ethtool", tc.file)
		// With and without its command line: the "Settings for" head names the netdev.
		var bare []string
		for _, l := range strings.Split(text, "\n") {
			if !strings.Contains(l, "# ethtool") {
				bare = append(bare, l)
			}
		}
		for i, in := range []string{text, strings.Join(bare, "\n")} {
			h := collectText(t, in)
			if len(h.Netdevs) != 1 || h.Netdevs[0].Name != tc.netdev || h.Netdevs[0].Link != tc.link || h.Netdevs[0].Speed != tc.speed {
				t.Errorf("%s (%d): netdevs %+v", tc.file, i, h.Netdevs)
			}
		}
	}
}
