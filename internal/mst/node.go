package mst

import (
	"regexp"
	"strings"

	"github.com/rocekb/rocekb/internal/ibverbs"
)

// NodePattern matches an MST device node's name, mt<PCI device id in
// decimal>_pciconf<n> or _pci_cr<n>, with a function suffix (.1): the
// captures in testdata/captures/mst pair ConnectX4 with mt4115 (0x1013),
// BlueField2 with mt41686 (0xa2d6) and BlueField3 with mt41692 (0xa2dc),
// and a public note spells the form "/dev/mst/mt<dev_id>_pci{_cr0|conf0}".
// Plain syntax shared with JavaScript.
const NodePattern = `\bmt(\d{4,5})_pci(?:conf|_cr)\d+(?:\.\d+)?`

// PCIVendor is Mellanox's (NVIDIA networking's) PCI vendor id.
const PCIVendor = "15b3"

var (
	nodeRe = regexp.MustCompile(NodePattern)
	// wholeNodeRe is a whole word of mst status naming a PCI function's
	// node: /dev/mst/ on Linux, /dev/ under VMware's VMK Linux, nothing
	// on native ESXi (MFT's "mst Synopsis - VMware"). A cable's node
	// (mt4119_pciconf0_cable_0) names the cable, not a function.
	wholeNodeRe = regexp.MustCompile(`^(?:/dev/mst/|/dev/)?mt(\d{4,5})_pci(?:conf|_cr)\d+(?:\.\d+)?$`)
)

// PCIID reads an MST device node's name (/dev/mst/mt4119_pciconf0) as the
// PCI id of its device (15b3:1017), or "", for a search query, which may
// name a node inside any text. The name gives the device id, not the
// vendor: mst lists NVIDIA's GPUs too (GB100, 10de), so a record takes
// the vendor from the device type (TypeVendor), never from the name.
func PCIID(node string) string {
	if dev := device(nodeRe.FindStringSubmatch(node)); dev != "" {
		return PCIVendor + ":" + dev
	}
	return ""
}

// NodeDevice reads a word that is an MST node of a PCI function, and
// nothing else, as its PCI device id (mt4103_pciconf0 is 1007), or "".
func NodeDevice(word string) string {
	return device(wholeNodeRe.FindStringSubmatch(word))
}

func device(m []string) string {
	if m == nil {
		return ""
	}
	return ibverbs.PCIDevice(m[1])
}

// typeVendors are the device types of mst status -v whose PCI vendor is
// Mellanox (15b3), by the start of their name: the NICs, DPUs and switch
// ASICs MFT names (ConnectX4LX, ConnectX3Pro, ConnectIB, BlueField3,
// Spectrum…, Quantum…). A type not here (GB100, a GPU with PCI vendor
// 10de: mt11794_pciconf0 and mt10561_pciconf0 in MFT 4.34 outputs) says
// no vendor, so its node gives no PCI id.
var typeVendors = []struct{ prefix, vendor string }{
	{"ConnectX", PCIVendor}, {"ConnectIB", PCIVendor}, {"BlueField", PCIVendor},
	{"Spectrum", PCIVendor}, {"Quantum", PCIVendor}, {"SwitchIB", PCIVendor}, {"SwitchX", PCIVendor},
}

// TypeVendor is the PCI vendor of an mst status -v device type, or "".
func TypeVendor(typ string) string {
	for _, t := range typeVendors {
		if strings.HasPrefix(typ, t.prefix) {
			return t.vendor
		}
	}
	return ""
}
