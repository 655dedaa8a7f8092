package lshw

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func parseFile(t *testing.T, name string) []Device {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "captures", "lshw", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ds, err := Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// Every layout of the captures: a -class network node with two logical
// names (the netdev and a /dev/fb0), a headerless grep -A excerpt, a
// DISABLED node of a whole tree between bridges.
func TestCaptures(t *testing.T) {
	for _, tc := range []struct {
		file string
		want Device
	}{
		{"mlx5-bf2-cx6dx-class-network-grep-C9-two-logical-names.txt", Device{BusInfo: "0000:01:00.0", Netdev: "enp1s0f0np0",
			Product: "MT42822 BlueField-2 integrated ConnectX-6 Dx network controller", Driver: "mlx5_core",
			DriverVersion: "5.14.0-427.42.1.el9_4.aarch64", Firmware: "24.41.1000 (MT_0000000375)", Link: "yes"}},
		{"mlx5-cx4lx-hp-grep-mellanox-A10-headless.txt", Device{BusInfo: "0000:03:00.1", Netdev: "ens1f1", Driver: "mlx5_core",
			DriverVersion: "5.5-1.0.3", Firmware: "14.18.2030 (HP_2420110034)", Link: "yes"}},
		{"mlx5-cx6-disabled-link-no-full-tree-excerpt.txt", Device{BusInfo: "0000:41:00.0", Netdev: "enp65s0np0",
			Product: "MT28908 Family [ConnectX-6]", Driver: "mlx5_core", DriverVersion: "6.2.0-1015-nvidia",
			Firmware: "20.36.1010 (DEL0000000010)", Link: "no", Disabled: true}},
	} {
		ds := parseFile(t, tc.file)
		if len(ds) != 1 {
			t.Errorf("%s: %d devices, want 1: %+v", tc.file, len(ds), ds)
			continue
		}
		got := ds[0]
		got.Line = 0
		if got != tc.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.file, got, tc.want)
		}
	}
}

// lshw -businfo: one row per function, the netdev beside its bus info.
func TestBusinfoRows(t *testing.T) {
	got := netdevs(parseFile(t, "mlx5-cx5-and-igb-class-network-businfo.txt"))
	if want := "0000:21:00.0=enp33s0f0 0000:21:00.1=enp33s0f1 0000:62:00.0=eno1 0000:62:00.1=eno2"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

// netdevs lists each device as bus info=netdev.
func netdevs(ds []Device) string {
	var out []string
	for _, d := range ds {
		out = append(out, d.BusInfo+"="+d.Netdev)
	}
	return strings.Join(out, " ")
}

func TestConfig(t *testing.T) {
	c := Config("autonegotiation=on driver=mlx5_core firmware=20.27.4006 (NVD0000000001) ip=10.0.0.2 link=yes")
	if c["firmware"] != "20.27.4006 (NVD0000000001)" || c["link"] != "yes" || c["driver"] != "mlx5_core" {
		t.Fatalf("%v", c)
	}
}

// A device column that several functions share names none of them: the
// E822 paste's "????" on four functions ice left without an interface;
// its other rows keep their netdevs.
func TestBusinfoSharedNameIsNone(t *testing.T) {
	raw := capturetest.Read(t, "paste", "ice-e822c-lshw-businfo-unknown-ids-ethtool-i-dmesg-no-timestamps-cut-columns-truncated.txt")
	ds, err := Parse(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	want := "0000:ec:00.0= 0000:ec:00.1= 0000:ec:00.2= 0000:ec:00.3= 0000:ec:00.4=lan3 0000:ec:00.5=lan2 0000:ec:00.6=lan4 0000:ec:00.7=lan1"
	if got := netdevs(ds); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
