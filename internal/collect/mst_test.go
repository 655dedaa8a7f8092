package collect

import (
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/rocekb/rocekb/internal/capturetest"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
)

// A -v row's node gives its function's device id (mt4115 is 0x1013) and
// its type the vendor (ConnectX4: 15b3); a GPU's row (GB100, vendor 10de)
// and the list without -v, which prints no type, give no id. A function's
// two nodes (_pciconf0 and _pci_cr0) are one adapter, and a cable's node
// (mt52100_pciconf0_cable_0) is none.
func TestMstNodeGivesPCIID(t *testing.T) {
	t.Parallel()
	for file, want := range map[string]map[string]string{
		"cx4-domain-0004-ib.txt": {"0004:01:00.0": "15b3:1013", "0004:01:00.1": "15b3:1013"},
		"cx3pro-hp544-status-no-v-pciconf-and-pci-cr-one-function.txt": {"0000:02:00.0": ":"}, // the list names no type, so no vendor
		"spectrum-sn2700-sonic-status-no-v-cables-indented-doc.txt":    {"0000:03:00.0": ":"},
		"gb10-spark-gpu-rows-and-cx7-roce-names-vfio-column-mft-4.34.txt": {"000f:01:00.0": ":", // GB100, a GPU (10de)
			"0002:01:00.1": "15b3:1021", "0002:01:00.0": "15b3:1021", "0000:01:00.1": "15b3:1021", "0000:01:00.0": "15b3:1021"},
		"bluefield2-no-rdma-wrapped-numa.txt": {"0000:82:00.0": ":", "0000:82:00.1": ":"}, // mtxxxxx: elided by its poster
	} {
		fsys := fstest.MapFS{"sos_commands/mellanox_firmware/mst_status_-v": {Data: capturetest.Read(t, "mst", file)}}
		h, err := Collect(snapshot.FromFS(fsys, record.KindSosreport, "t"))
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, a := range h.Adapters {
			got[a.PCIAddress] = a.Vendor + ":" + a.Device
			if a.Vendor != "" && a.From["vendor"] != "cmd/mst status -v" {
				t.Errorf("%s: %s vendor from %q", file, a.PCIAddress, a.From["vendor"])
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: adapters %v, want %v", file, got, want)
		}
		for addr, id := range want {
			if got[addr] != id {
				t.Errorf("%s: %s is %q, want %q", file, addr, got[addr], id)
			}
		}
	}
}

// Under VMware mst status -vv names the node without /dev/mst/ and lists a
// function once per node: ConnectX3Pro's 05:00.0 twice, with the same
// netdevs (the rows of MFT's "mst Synopsis - VMware", whose page text
// keeps no line breaks: one row a line here). One adapter, each netdev
// once.
func TestMstVMwareRowsOneFunction(t *testing.T) {
	t.Parallel()
	rows := "PCI devices:\nDEVICE_TYPE MST PCI RDMA NET NUMA\n" +
		"ConnectX4(rev:0) mt4115_pciconf0 03:00.0 net-vmnic4\n" +
		"ConnectX4(rev:0) mt4115_pciconf0.1 03:00.1 net-vmnic5\n" +
		"ConnectX3Pro(rev:0) mt4103_pci_cr0 05:00.0 net-vmnic1,netvmnic1000102\n" +
		"ConnectX3Pro(rev:0) mt4103_pciconf0 05:00.0 net-vmnic1,netvmnic1000102\n"
	fsys := fstest.MapFS{"sos_commands/mellanox_firmware/mst_status_-v": {Data: []byte(rows)}}
	h, err := Collect(snapshot.FromFS(fsys, record.KindSosreport, "t"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, a := range h.Adapters {
		got[a.PCIAddress] = fmt.Sprint(a.Vendor, ":", a.Device, " ", a.Netdevs)
	}
	want := map[string]string{
		"0000:03:00.0": "15b3:1013 [vmnic4]",
		"0000:03:00.1": "15b3:1013 [vmnic5]",
		"0000:05:00.0": "15b3:1007 [netvmnic1000102 vmnic1]", // the page prints the second without its "net-"
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
