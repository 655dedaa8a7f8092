package collect

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rocekb/rocekb/internal/capturetest"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
)

// TestIPLinkAndInterrupts: an sosreport's ip link table fills the mtu,
// state and link of a netdev sysfs named, and /proc/interrupts gives each
// adapter function the vectors it has a handler on. Both outputs are of
// the same host (crow, a ConnectX-5 at 0000:01:00.0/.1); sysfs is laid out
// by hand to name its functions and netdev. A function no other source
// found (none here) would get nothing.
func TestIPLinkAndInterrupts(t *testing.T) {
	t.Parallel()
	link := func(target string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(target), Mode: fs.ModeSymlink}
	}
	fsys := fstest.MapFS{
		"sys/bus/pci/devices/0000:01:00.0/driver": link("../../../../bus/pci/drivers/mlx5_core"),
		"sys/bus/pci/devices/0000:01:00.1/driver": link("../../../../bus/pci/drivers/mlx5_core"),
		"sys/class/net/enp1s0f0np0/device":        link("../../../bus/pci/devices/0000:01:00.0"),
		"sos_commands/networking/ip_link":         {Data: capturetest.Read(t, "ip", "mlx5-cx5-enp1s0f0np0-mtu-9000-elided-two-hosts.txt")},
		"proc/interrupts":                         {Data: capturetest.Read(t, "interrupts", "mlx5-two-functions-ir-pci-msix-grep-mlx-12-cpus.txt")},
	}
	h, err := Collect(snapshot.FromFS(fsys, record.KindSosreport, "t"))
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]int{}
	for _, a := range h.Adapters {
		if a.MSIX != nil && a.MSIX.Used != nil {
			used[a.PCIAddress] = *a.MSIX.Used
			if a.From["msix.used"] != "proc/interrupts" {
				t.Errorf("%s: msix.used from %q", a.PCIAddress, a.From["msix.used"])
			}
		}
	}
	if used["0000:01:00.0"] != 13 || used["0000:01:00.1"] != 2 || len(used) != 2 {
		t.Errorf("msix used: %v, want 0000:01:00.0 13, 0000:01:00.1 2", used)
	}
	var nd *record.Netdev
	for i := range h.Netdevs {
		if h.Netdevs[i].Name == "enp1s0f0np0" {
			nd = &h.Netdevs[i]
		}
	}
	if nd == nil {
		t.Fatalf("no netdev enp1s0f0np0: %+v", h.Netdevs)
	}
	if nd.MTU == nil || *nd.MTU != 9000 || nd.State != "UP" || nd.Link != "up" || nd.From["mtu"] != "cmd/ip -s -d link" && nd.From["mtu"] != "cmd/ip link" {
		t.Errorf("netdev %+v", *nd)
	}
	if len(h.Netdevs) != 1 {
		t.Errorf("netdevs %+v: ip link's others are not kept", h.Netdevs)
	}
	for _, p := range h.Problems {
		if p.Source == "proc/interrupts" || strings.HasPrefix(p.Source, "cmd/ip") {
			t.Errorf("problem %+v: another source named what they hold", p)
		}
	}
}

// TestIPLinkOrInterruptsAlone: /proc/interrupts or ip link with no other
// source says which functions or links are there and keeps none of them:
// neither says which are a network adapter's (an NVMe drive's vectors, a
// bridge's link are there too). With another source naming them (the
// test above), nothing is said.
func TestIPLinkOrInterruptsAlone(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		path, dir, file, source, want string
	}{
		{"proc/interrupts", "interrupts", "mlx5-two-functions-ir-pci-msix-grep-mlx-12-cpus.txt", "proc/interrupts",
			"2 PCI functions (0000:01:00.0, 0000:01:00.1) with message-signalled vectors; no other source names them as adapters"},
		{"proc/interrupts", "interrupts", "its-msi-gicv3-wifi-and-nvme-two-pcie-domains-arm64-patch.txt", "proc/interrupts",
			"2 PCI functions (0000:01:00.0, 0001:01:00.0) with"},
		{"sos_commands/networking/ip_link", "ip", "cumulus-bond-slaves-mtu-9216-vrf-master.txt", "cmd/ip link",
			"6 links (lo, eth0, swp1, swp2, mgmt, bond1); none is a netdev another source names"},
	} {
		fsys := fstest.MapFS{c.path: {Data: capturetest.Read(t, c.dir, c.file)}}
		h, err := Collect(snapshot.FromFS(fsys, record.KindCapture, "t"))
		if err != nil {
			t.Fatal(err)
		}
		if len(h.Adapters) != 0 || len(h.Netdevs) != 0 {
			t.Errorf("%s: %d adapters, %d netdevs, want none", c.file, len(h.Adapters), len(h.Netdevs))
		}
		found := false
		for _, p := range h.Problems {
			if p.Source == c.source && strings.HasPrefix(p.Msg, c.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: problems %+v, want one of %s starting %q", c.file, h.Problems, c.source, c.want)
		}
	}
}
