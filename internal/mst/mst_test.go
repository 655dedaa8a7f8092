package mst

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocekb/rocekb/internal/capturetest"
)

// Every layout the real captures show: several netdevs, a domain, empty
// RDMA and NET columns, a wrapped NUMA column, a "-E-" line and a prompt
// before the table, "." lines between rows.
func TestParseStatus(t *testing.T) {
	t.Parallel()
	for name, want := range map[string][]string{
		"bluefield3-multi-netdev.txt": {
			"BlueField3 rev 1 /dev/mst/mt41692_pciconf0.1 03:00.1 mlx5_1 [p1 pf1hpf en3f1pf1sf0] numa -1 @8",
			"BlueField3 rev 1 /dev/mst/mt41692_pciconf0 03:00.0 mlx5_0 [pf0hpf en3f0pf0sf0 p0] numa -1 @10"},
		"cx4-domain-0004-ib.txt": {
			"ConnectX4 rev 0 /dev/mst/mt4115_pciconf0.1 0004:01:00.1 mlx5_1 [ib1] numa 1 @8",
			"ConnectX4 rev 0 /dev/mst/mt4115_pciconf0 0004:01:00.0 mlx5_0 [ib0] numa 1 @10"},
		"bluefield2-no-rdma-wrapped-numa.txt": {
			"BlueField2 rev 1 /dev/mst/mtxxxxx_pciconf0.1 82:00.1 mlx5_1 [enp1xxxxxxxxx] numa 1 @9",
			"BlueField2 rev 1 /dev/mst/mtxxxxx_pciconf0 82:00.0 mlx5_0 [enp1xxxxxxxxx] numa 1 @12"},
		"cx5-unknown-argument-then-v.txt": {
			"ConnectX5 rev 0 /dev/mst/mt4121_pciconf0.1 01:00.1 mlx5_1 [redwest] numa 0 @15",
			"ConnectX5 rev 0 /dev/mst/mt4121_pciconf0 01:00.0 mlx5_0 [redeast] numa 0 @17"},
		"bluefield2-dpu-no-rdma-columns.txt": {
			"BlueField2 rev 1 /dev/mst/mt41686_pciconf0 10:00.0  [] numa -1 @5",
			"BlueField2 rev 1 /dev/mst/mt41686_pciconf0.1 10:00.1  [] numa -1 @7",
			"BlueField2 rev 1 /dev/mst/mt49873_pciconf0.2 10:00.2  [] numa -1 @9"},
	} {
		st, err := ParseStatus(bytes.NewReader(capturetest.Read(t, "mst", name)))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range st.Devices {
			got = append(got, fmt.Sprintf("%s rev %s %s %s %s [%s] numa %s @%d", d.Type, d.Revision, d.MST, d.PCIAddress, d.RDMA, strings.Join(d.Netdevs, " "), d.NUMA, d.Line))
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", name, d)
		}
		if name == "cx5-unknown-argument-then-v.txt" && (len(st.Errors) != 1 || st.Errors[0] != `-E- Unknown argument "--v"`) {
			t.Errorf("errors = %q", st.Errors)
		}
	}
	if FullPCIAddress("03:00.1") != "0000:03:00.1" || FullPCIAddress("0004:01:00.0") != "0004:01:00.0" {
		t.Error("FullPCIAddress")
	}
}

func FuzzParseStatus(f *testing.F) {
	capturetest.Seed(f, "mst")
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := ParseStatus(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Devices) > MaxDevices || len(st.Devices) > st.Lines {
			t.Fatalf("%d devices from %d lines", len(st.Devices), st.Lines)
		}
		for _, d := range st.Devices {
			if d.Line < 1 || d.Line > st.Lines || d.Type == "" {
				t.Fatalf("bad device %+v", d)
			}
		}
	})
}
