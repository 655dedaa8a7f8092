package sysfs

import (
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func link(target string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte(target), Mode: fs.ModeSymlink}
}

func file(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s + "\n")} }

// liveTree is laid out like a live /sys: class and bus entries are
// symlinks into sys/devices, and the driver link dangles.
func liveTree() fstest.MapFS {
	const dev = "sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.0"
	return fstest.MapFS{
		dev + "/vendor":                    file("0x15b3"),
		dev + "/device":                    file("0x101d"),
		dev + "/class":                     file("0x020000"),
		dev + "/driver":                    link("../../../../bus/pci/drivers/mlx5_core"),
		dev + "/msi_irqs/120":              file("msix"),
		dev + "/msi_irqs/121":              file("msix"),
		dev + "/net/ens1f0np0/device":      link("../../../0000:3b:00.0"),
		dev + "/infiniband/mlx5_0/device":  link("../../../0000:3b:00.0"),
		dev + "/infiniband/mlx5_0/fw_ver":  file("22.36.1010"),
		"sys/bus/pci/devices/0000:3b:00.0": link("../../../devices/pci0000:00/0000:00:02.0/0000:3b:00.0"),
		"sys/bus/pci/devices/0000:00:02.0": link("../../../devices/pci0000:00/0000:00:02.0"),
		"sys/class/net/ens1f0np0":          link("../../devices/pci0000:00/0000:00:02.0/0000:3b:00.0/net/ens1f0np0"),
		"sys/class/net/lo/mtu":             file("65536"),
		"sys/class/infiniband/mlx5_0":      link("../../devices/pci0000:00/0000:00:02.0/0000:3b:00.0/infiniband/mlx5_0"),
		"sys/class/infiniband/rxe0/parent": file("ens5"),
		"sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode": file("RoCE v2"),
		"sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos":  file("106"),
	}
}

func TestPCIDevices(t *testing.T) {
	t.Parallel()
	got, err := PCIDevices(liveTree())
	if err != nil {
		t.Fatal(err)
	}
	two := 2
	want := []PCIFunc{
		{Address: "0000:00:02.0"},
		{Address: "0000:3b:00.0", Vendor: "15b3", Device: "101d", Class: "020000", Driver: "mlx5_core", MSIIRQs: &two, Netdevs: []string{"ens1f0np0"}, IBDevices: []string{"mlx5_0"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if _, err := PCIDevices(fstest.MapFS{}); err != ErrAbsent {
		t.Errorf("empty tree: %v", err)
	}
}

func TestNetDevs(t *testing.T) {
	t.Parallel()
	got, err := NetDevs(liveTree())
	if err != nil {
		t.Fatal(err)
	}
	want := []NetDev{{Name: "ens1f0np0", PCIAddress: "0000:3b:00.0", Driver: "mlx5_core"}, {Name: "lo"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// A copied tree may hold plain folders where sysfs has links; the uevent
// file then names the slot and driver.
func TestNetDevsPlainFolders(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"sys/class/net/eth0/device/uevent": file("DRIVER=bnxt_en\nPCI_SLOT_NAME=0000:c2:00.0")}
	got, _ := NetDevs(fsys)
	if d := cmp.Diff([]NetDev{{Name: "eth0", PCIAddress: "0000:c2:00.0", Driver: "bnxt_en"}}, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestInfiniBandLinks(t *testing.T) {
	t.Parallel()
	got, err := InfiniBand(liveTree())
	if err != nil {
		t.Fatal(err)
	}
	want := []IBDevice{{Name: "mlx5_0", FwVer: "22.36.1010", PCIAddress: "0000:3b:00.0"}, {Name: "rxe0", Parent: "ens5"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestRDMACM(t *testing.T) {
	t.Parallel()
	got, err := RDMACM(liveTree())
	if err != nil {
		t.Fatal(err)
	}
	tos := 106
	if d := cmp.Diff([]CMPort{{Device: "mlx5_0", Port: 1, DefaultRoCEMode: "RoCE v2", DefaultRoCETOS: &tos}}, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// fstest.MapFS itself recurses without bound on a symlink loop inside a
// path it opens, so loops are tested here on realPath alone, with links
// that MapFS returns without resolving.
func TestRealPathBounded(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"a": link("b"), "b": link("a"),
		"up": link("../../../../etc"),
	}
	if _, ok := realPath(fsys, "a/x"); ok {
		t.Error("loop resolved")
	}
	if got, ok := realPath(fsys, "up/passwd"); !ok || got != "etc/passwd" {
		t.Errorf("escape: %q %v", got, ok)
	}
}
