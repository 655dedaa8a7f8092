package mst

import "testing"

// The MST node names of the captures in testdata/captures/mst, and the
// PCI ids pci.ids gives their device types.
func TestPCIID(t *testing.T) {
	t.Parallel()
	for node, want := range map[string]string{
		"/dev/mst/mt4115_pciconf0":    "15b3:1013", // ConnectX4
		"/dev/mst/mt4121_pciconf0.1":  "15b3:1019", // ConnectX5 (Ex)
		"/dev/mst/mt41686_pciconf0":   "15b3:a2d6", // BlueField2
		"/dev/mst/mt41692_pciconf0.1": "15b3:a2dc", // BlueField3
		"/dev/mst/mt4099_pci_cr0":     "15b3:1003", // ConnectX-3, mst start's direct-access node
		"/dev/mst/mtxxxxx_pciconf0":   "",          // elided by its poster
		"mlx5_0":                      "",
	} {
		if got := PCIID(node); got != want {
			t.Errorf("PCIID(%q) = %q, want %q", node, got, want)
		}
	}
}

// NodeDevice reads a word that is a function's node and nothing else:
// the forms MFT prints on Linux, VMK Linux and native ESXi ("mst Synopsis
// - VMware"), never a cable's node or a name inside other text.
func TestNodeDevice(t *testing.T) {
	t.Parallel()
	for word, want := range map[string]string{
		"/dev/mst/mt4103_pci_cr0":    "1007",
		"/dev/mt4099_pciconf0":       "1003",
		"mt4115_pciconf0.1":          "1013",
		"/dev/mst/mt11794_pciconf0":  "2e12", // GB100: a GPU's device id
		"mt52100_pciconf0_cable_0":   "",
		"/dev/mst/mt4119_pciconf0,":  "",
		"NA":                         "",
		"/dev/mst/mt99999_pciconf0":  "", // more than 16 bits
		"flint -d mt4119_pciconf0 q": "",
	} {
		if got := NodeDevice(word); got != want {
			t.Errorf("NodeDevice(%q) = %q, want %q", word, got, want)
		}
	}
	for typ, want := range map[string]string{"ConnectX4LX": "15b3", "ConnectIB": "15b3", "BlueField3": "15b3", "GB100": ""} {
		if got := TypeVendor(typ); got != want {
			t.Errorf("TypeVendor(%q) = %q, want %q", typ, got, want)
		}
	}
}
