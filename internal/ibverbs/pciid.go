package ibverbs

import (
	"fmt"
	"strconv"
	"strings"
)

// PCIVendors maps ibv_devinfo's vendor_id to the PCI vendor id, for the
// providers whose vendor_part_id is the PCI device id: most report their
// PCI vendor id itself; mlx4 and mlx5 report NVIDIA's (Mellanox's) IEEE
// OUI 00:02:c9, whose PCI vendor id is 15b3. ionic_rdma sets vendor_id
// and vendor_part_id from its PCI function's vendor and device
// (ionic_query_device, drivers/infiniband/hw/ionic/ionic_ibdev.c).
var PCIVendors = map[string]string{
	"0x02c9": "15b3", "0x14e4": "14e4", "0x8086": "8086", "0x1077": "1077", "0x1425": "1425", "0x1d0f": "1d0f",
	"0x1dd8": "1dd8",
}

// PCIDevice reads vendor_part_id, which ibv_devinfo prints in decimal, as
// a 4-hex-digit PCI device id, or "" (0 is a device with no PCI function,
// such as rxe).
func PCIDevice(partID string) string {
	n, err := strconv.ParseUint(strings.TrimSpace(partID), 10, 16)
	if err != nil || n == 0 {
		return ""
	}
	return fmt.Sprintf("%04x", n)
}

// PCIID reads vendor_id and vendor_part_id as a PCI id, or "".
func PCIID(vendorID, partID string) string {
	vendor, ok := PCIVendors[strings.ToLower(strings.TrimSpace(vendorID))]
	dev := PCIDevice(partID)
	if !ok || dev == "" {
		return ""
	}
	return vendor + ":" + dev
}
