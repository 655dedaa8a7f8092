package diagnose

import (
	"slices"
)

// hostVendors maps every matrix hardware vendor id to whether the host has
// an adapter or RDMA device of it: an adapter the matrix identifies, a PCI
// vendor id the vendor lists, or an RDMA device whose provider driver is
// the vendor's. It is nil when the record identifies no vendor at all, so
// that "no Cisco adapter" is never concluded from an empty record.
func hostVendors(v view) map[string]bool {
	h := v.h
	present := map[string]bool{}
	for a := range v.adapters() {
		if ma := v.match(a); ma != nil && ma.Vendor != "" {
			present[ma.Vendor] = true
			continue
		}
		for _, mv := range v.m.Vendors {
			if a.Vendor != "" && slices.Contains(mv.PCIVendors, a.Vendor) {
				present[mv.ID] = true
			}
		}
		for _, d := range v.m.Drivers {
			if d.Vendor != "" && (d.ID == a.Driver.Name || slices.Contains(d.EthDrivers, a.Driver.Name)) {
				present[d.Vendor] = true
			}
		}
	}
	for _, d := range h.Devices {
		if drv := v.m.Driver(d.Provider); drv != nil && drv.Vendor != "" {
			present[drv.Vendor] = true
		}
	}
	if len(present) == 0 {
		return nil
	}
	out := map[string]bool{}
	for _, mv := range v.m.Vendors {
		out[mv.ID] = present[mv.ID]
	}
	for id := range present {
		out[id] = true
	}
	return out
}
