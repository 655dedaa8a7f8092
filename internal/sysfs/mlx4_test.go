package sysfs

import (
	"bytes"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/rocekb/rocekb/internal/capturetest"
)

func TestMLX4Ports(t *testing.T) {
	t.Parallel()
	got, err := ParseMLX4Ports(bytes.NewReader(capturetest.Read(t, "sysfs", "mlx4-port-types-find-print-insights-doc.txt")))
	if err != nil {
		t.Fatal(err)
	}
	want := []MLX4Port{{PCIAddress: "0000:0c:00.0", Port: 1, Type: "ib"}, {PCIAddress: "0000:0c:00.0", Port: 2, Type: "eth"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	// The same values as files under sys/bus/pci/devices.
	fsys := fstest.MapFS{}
	for _, p := range got {
		fsys["sys/bus/pci/devices/"+p.PCIAddress+"/mlx4_port"+string(rune('0'+p.Port))] = &fstest.MapFile{Data: []byte(p.Type + "\n")}
	}
	if d := cmp.Diff(want, MLX4Ports(fsys, "0000:0c:00.0")); d != "" {
		t.Errorf("from files (-want +got):\n%s", d)
	}
	if MLX4Ports(fsys, "0000:0d:00.0") != nil {
		t.Error("ports for an absent function")
	}
}

func FuzzParseMLX4Ports(f *testing.F) {
	capturetest.Seed(f, "sysfs")
	f.Fuzz(func(t *testing.T, b []byte) {
		ps, err := ParseMLX4Ports(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			if !IsPCIAddress(p.PCIAddress) || p.Port < 0 {
				t.Fatalf("%+v", p)
			}
		}
	})
}
