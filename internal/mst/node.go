package mst

import (
	"regexp"

	"github.com/rocekb/rocekb/internal/ibverbs"
)

// NodePattern matches an MST device node's name, mt<PCI device id in
// decimal>_pciconf<n> or _pci_cr<n>, with a function suffix (.1): the
// captures in testdata/captures/mst pair ConnectX4 with mt4115 (0x1013),
// BlueField2 with mt41686 (0xa2d6) and BlueField3 with mt41692 (0xa2dc),
// and a public note spells the form "/dev/mst/mt<dev_id>_pci{_cr0|conf0}".
// Plain syntax shared with JavaScript.
const NodePattern = `\bmt(\d{4,5})_pci(?:conf|_cr)\d+(?:\.\d+)?`

// PCIVendor is the PCI vendor of the devices MST names: Mellanox (NVIDIA).
const PCIVendor = "15b3"

var nodeRe = regexp.MustCompile(NodePattern)

// PCIID reads an MST device node's name (/dev/mst/mt4119_pciconf0) as the
// PCI id of its device (15b3:1017), or "".
func PCIID(node string) string {
	m := nodeRe.FindStringSubmatch(node)
	if m == nil {
		return ""
	}
	if dev := ibverbs.PCIDevice(m[1]); dev != "" {
		return PCIVendor + ":" + dev
	}
	return ""
}
