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
			"BlueField3 rev 1 /dev/mst/mt41692_pciconf0.1 15b3:a2dc 03:00.1 mlx5_1 [p1 pf1hpf en3f1pf1sf0] numa -1 @8",
			"BlueField3 rev 1 /dev/mst/mt41692_pciconf0 15b3:a2dc 03:00.0 mlx5_0 [pf0hpf en3f0pf0sf0 p0] numa -1 @10"},
		"cx4-domain-0004-ib.txt": {
			"ConnectX4 rev 0 /dev/mst/mt4115_pciconf0.1 15b3:1013 0004:01:00.1 mlx5_1 [ib1] numa 1 @8",
			"ConnectX4 rev 0 /dev/mst/mt4115_pciconf0 15b3:1013 0004:01:00.0 mlx5_0 [ib0] numa 1 @10"},
		"bluefield2-no-rdma-wrapped-numa.txt": {
			"BlueField2 rev 1 /dev/mst/mtxxxxx_pciconf0.1  82:00.1 mlx5_1 [enp1xxxxxxxxx] numa 1 @9",
			"BlueField2 rev 1 /dev/mst/mtxxxxx_pciconf0  82:00.0 mlx5_0 [enp1xxxxxxxxx] numa 1 @12"},
		"cx5-unknown-argument-then-v.txt": {
			"ConnectX5 rev 0 /dev/mst/mt4121_pciconf0.1 15b3:1019 01:00.1 mlx5_1 [redwest] numa 0 @15",
			"ConnectX5 rev 0 /dev/mst/mt4121_pciconf0 15b3:1019 01:00.0 mlx5_0 [redeast] numa 0 @17"},
		"bluefield2-dpu-no-rdma-columns.txt": {
			"BlueField2 rev 1 /dev/mst/mt41686_pciconf0 15b3:a2d6 10:00.0  [] numa -1 @5",
			"BlueField2 rev 1 /dev/mst/mt41686_pciconf0.1 15b3:a2d6 10:00.1  [] numa -1 @7",
			"BlueField2 rev 1 /dev/mst/mt49873_pciconf0.2 15b3:c2d1 10:00.2  [] numa -1 @9"},
		// Without -v: a node, then its address and revision on lines of
		// their own; two nodes of one function; the cables' nodes are
		// no functions.
		"cx3pro-hp544-status-no-v-pciconf-and-pci-cr-one-function.txt": {
			" rev 00 /dev/mst/mt4103_pciconf0  0000:02:00.0  [] numa  @8",
			" rev 00 /dev/mst/mt4103_pci_cr0  0000:02:00.0  [] numa  @11"},
		// GB100 is a GPU (PCI vendor 10de): its node's number is its
		// device id, and no type names its vendor, so no PCI id.
		"gb10-spark-gpu-rows-and-cx7-roce-names-vfio-column-mft-4.34.txt": {
			"GB100 rev 0 /dev/mst/mt11794_pciconf0  000f:01:00.0  [] numa -1 @9",
			"GB100 rev 0 /dev/mst/mt11794_pci_cr0  000f:01:00.0  [] numa -1 @10",
			"ConnectX7 rev 0 /dev/mst/mt4129_pciconf1.1 15b3:1021 0002:01:00.1 roceP2p1s0f1 [aerial03] numa -1 @11",
			"ConnectX7 rev 0 /dev/mst/mt4129_pciconf1 15b3:1021 0002:01:00.0 roceP2p1s0f0 [aerial02] numa -1 @12",
			"ConnectX7 rev 0 /dev/mst/mt4129_pciconf0.1 15b3:1021 0000:01:00.1 rocep1s0f1 [aerial01] numa -1 @13",
			"ConnectX7 rev 0 /dev/mst/mt4129_pciconf0 15b3:1021 0000:01:00.0 rocep1s0f0 [aerial00] numa -1 @14"},
		"spectrum-sn2700-sonic-status-no-v-cables-indented-doc.txt": {
			" rev 01 /dev/mst/mt52100_pciconf0  0000:03:00.0  [] numa  @12",
			" rev 01 /dev/mst/mt52100_pci_cr0  0000:03:00.0  [] numa  @18"},
	} {
		st, err := ParseStatus(bytes.NewReader(capturetest.Read(t, "mst", name)))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range st.Devices {
			got = append(got, fmt.Sprintf("%s rev %s %s %s %s %s [%s] numa %s @%d", d.Type, d.Revision, d.MST, d.PCIID, d.PCIAddress, strings.Join(d.RDMA, ","), strings.Join(d.Netdevs, " "), d.NUMA, d.Line))
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", name, d)
		}
		if name == "cx5-unknown-argument-then-v.txt" && (len(st.Errors) != 1 || st.Errors[0] != `-E- Unknown argument "--v"`) {
			t.Errorf("errors = %q", st.Errors)
		}
	}
	// Without MST's kernel modules mst lists the functions' addresses
	// alone, and -v prints NA for the node: the values of the example in
	// https://docs.nvidia.com/networking/display/mftv4221526lts/running+mst+in+an+environment+without+a+kernel
	// (its page text keeps no line breaks; one address a line here).
	st, _ := ParseStatus(strings.NewReader("PCI Devices:\n------------\n05:00.0\n08:00.0\n82:00.0\n"))
	if len(st.Devices) != 3 || st.Devices[2].PCIAddress != "82:00.0" || st.Devices[2].PCIID != "" {
		t.Errorf("address list: %+v", st.Devices)
	}
	st, _ = ParseStatus(strings.NewReader("PCI devices:\nDEVICE_TYPE MST PCI RDMA NET NUMA\nConnectX4(rev:0) NA 08:00.0 mlx5_0 net-ib2\n"))
	if len(st.Devices) != 1 || st.Devices[0].MST != "" || st.Devices[0].PCIID != "" || strings.Join(st.Devices[0].RDMA, ",") != "mlx5_0" {
		t.Errorf("NA node: %+v", st.Devices)
	}
	// A function with an SMI device (XDR multi-plane; a user's script adds
	// them as `rdma dev add smi-mlx5_${dev} type SMI parent mlx5_${dev}`)
	// lists both in the RDMA column, with a comma, as NET lists netdevs:
	// the row a script's comment quotes as mst status -v's (search-index
	// file id 69013742326), its "..." dropped.
	st, _ = ParseStatus(strings.NewReader("ConnectX8(rev:0)  /dev/mst/mt4131_pciconf7  ec:00.0 smi-mlx5_15,mlx5_15 net-ibp236s0\n"))
	if len(st.Devices) != 1 || strings.Join(st.Devices[0].RDMA, " ") != "smi-mlx5_15 mlx5_15" || st.Devices[0].PCIID != "15b3:1023" || len(st.Devices[0].Netdevs) != 1 {
		t.Errorf("SMI device: %+v", st.Devices)
	}
	if FullPCIAddress("03:00.1") != "0000:03:00.1" || FullPCIAddress("0004:01:00.0") != "0004:01:00.0" {
		t.Error("FullPCIAddress")
	}
}

func FuzzParseStatus(f *testing.F) {
	capturetest.Seed(f, "mst")
	f.Add([]byte("ConnectX8(rev:0)  /dev/mst/mt4131_pciconf7  ec:00.0 smi-mlx5_15,mlx5_15 net-ibp236s0\n"))
	f.Add([]byte("PCI Devices:\n------------\n05:00.0\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := ParseStatus(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Devices) > MaxDevices || len(st.Devices) > st.Lines {
			t.Fatalf("%d devices from %d lines", len(st.Devices), st.Lines)
		}
		for _, d := range st.Devices {
			if d.Line < 1 || d.Line > st.Lines || d.Type == "" && d.MST == "" && d.PCIAddress == "" {
				t.Fatalf("bad device %+v", d)
			}
		}
	})
}
