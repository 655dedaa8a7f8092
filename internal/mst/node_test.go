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
