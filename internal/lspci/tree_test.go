package lspci

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// lspci -tv's tree: each function's address from the buses the diagram
// draws (a host bridge's "[0000:80]", a bridge's "[82]" or "[54-7b]"),
// its name from -v; the tree prints no class.
func TestParseTree(t *testing.T) {
	t.Parallel()
	cx7 := "Mellanox Technologies MT2910 Family [ConnectX-7]"
	for _, tc := range []struct {
		file string
		want map[string]string // slot → name, of the functions checked
		n    int               // functions read
	}{
		// Domains 0005 and 0001, bridges chained on one line; the
		// tutorial's own tuning tool names cx7_0/0005:03:00.0 and
		// cx7_1/0005:03:00.1. The first line is one column right of the
		// rest (the document's indentation).
		{"mlx5-cx7-igx-tv-tree-domains-0005-doc-indented.txt", map[string]string{
			"0005:03:00.0": cx7, "0005:03:00.1": cx7,
			"0007:01:00.0": "Marvell Technology Group Ltd. 88SE9235 PCIe 2.0 x2 4-port SATA 6 Gb/s Controller",
			"0005:09:00.1": "NVIDIA Corporation GA102 High Definition Audio Controller",
			"0001:9a:02.0": "ASPEED Technology, Inc. Device 2603",
		}, 12},
		// pciutils of 2005: host bridges "[80]" with no domain.
		{"mthca-infinihost3-tv-tree-old-pciutils-no-domains-lkml.txt", map[string]string{
			"0000:81:00.0": "Mellanox Technologies MT25208 InfiniHost III Ex (Tavor compatibility mode)",
			"0000:0a:09.0": "Chelsio Communications Inc: Unknown device 000b",
			"0000:80:0a.0": "nVidia Corporation CK804 Ethernet Controller",
			"0000:00:19.3": "Advanced Micro Devices [AMD] K8 [Athlon64/Opteron] Miscellaneous Control",
		}, 30},
		// A host bridge's one function drawn "---00.0"; VFs of a CX-5.
		{"hns-kunpeng-cx5-vfs-tv-tree-PP-cheese-prompt.txt", map[string]string{
			"0000:7d:00.0": "Huawei Technologies Co., Ltd. HNS GE/10GE/25GE RDMA Network Controller",
			"0000:7b:00.0": "Huawei Technologies Co., Ltd. HiSilicon Embedded DMA Engine",
			"0000:82:02.1": "Mellanox Technologies MT27800 Family [ConnectX-5 Virtual Function]",
			"0000:87:00.0": "Broadcom / LSI MegaRAID Tri-Mode SAS3408",
		}, 35},
		// grep kept the lines naming Mellanox: the second hangs from the
		// branch the first drew.
		{"mlx5-cx5-vt-tree-grep-mellanox.txt", map[string]string{
			"0000:18:00.0": "Mellanox Technologies MT27800 Family [ConnectX-5]",
			"0000:18:00.1": "Mellanox Technologies MT27800 Family [ConnectX-5]",
		}, 2},
		// An excerpt starting mid-tree: the functions above the first host
		// bridge's line hang from buses it does not show, and are left out.
		{"mlx5-cx5-tv-tree-x722-nccl-excerpt-truncated.txt", map[string]string{
			"0000:58:00.0": "Mellanox Technologies MT27800 Family [ConnectX-5]",
			"0000:58:00.1": "Mellanox Technologies M",
		}, 2},
	} {
		got, err := Parse(bytes.NewReader(capture(t, tc.file)))
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]string{}
		for _, d := range got {
			if d.Class != "" || d.ClassID != "" {
				t.Errorf("%s: %s has a class, %q", tc.file, d.Slot, d.Class)
			}
			names[d.Slot] = d.Name
		}
		if len(got) != tc.n {
			t.Errorf("%s: %d functions, want %d: %v", tc.file, len(got), tc.n, names)
		}
		for slot, name := range tc.want {
			if names[slot] != name {
				t.Errorf("%s: %s named %q, want %q", tc.file, slot, names[slot], name)
			}
		}
	}
}

// A tree under mail quote marks, beside other lspci output: the tree is
// read only when no device line is.
func TestParseTreeQuoted(t *testing.T) {
	t.Parallel()
	text := ">>  +-[0000:80]-+-00.0-[81]--+-00.0  Intel Corporation I350 Gigabit Network Connection\n" +
		">>  |           +-04.0-[82]--+-00.0  Mellanox Technologies MT27710 Family [ConnectX-4 Lx]\n" +
		">>  |           |            \\-00.1  Mellanox Technologies MT27710 Family [ConnectX-4 Lx]\n"
	got, _ := Parse(bytes.NewBufferString(text))
	want := []Device{
		{Slot: "0000:81:00.0", Name: "Intel Corporation I350 Gigabit Network Connection"},
		{Slot: "0000:82:00.0", Name: "Mellanox Technologies MT27710 Family [ConnectX-4 Lx]"},
		{Slot: "0000:82:00.1", Name: "Mellanox Technologies MT27710 Family [ConnectX-4 Lx]"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Error(d)
	}
}
