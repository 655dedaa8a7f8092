package collect

import (
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/mst"
	"github.com/rocekb/rocekb/internal/source"
)

// mst reads MFT's device table or list: each NVIDIA function it lists is
// an adapter, with its netdevs and RDMA device, and the PCI id its row
// gives (applyMstIDs). Sources read before it win.
func (c *collector) mst() {
	r, id, ok := c.firstCommand(strings.TrimPrefix(string(source.MstStatusV), "cmd/"))
	if !ok {
		return
	}
	c.parse(id, func() error {
		st, err := mst.ParseStatus(reader(r))
		for _, d := range st.Devices {
			if d.PCIAddress == "" {
				continue
			}
			addr := mst.FullPCIAddress(d.PCIAddress)
			if _, known := c.adapters[addr]; !known {
				setFrom(&c.adapter(addr).From, "pci_address", id)
			}
			a := c.adapter(addr)
			if d.PCIID != "" {
				c.mstIDs = append(c.mstIDs, [3]string{addr, d.PCIID, id})
			}
			for _, n := range d.Netdevs {
				if slices.Contains(a.Netdevs, n) {
					continue // the same function's other node (VMware: _pci_cr0 and _pciconf0)
				}
				a.Netdevs = append(a.Netdevs, n)
				if nd := c.addNetdev(n, id); nd != nil {
					fill(&nd.PCIAddress, addr, &nd.From, "pci_address", id)
				}
			}
			for _, name := range d.RDMA {
				if !slices.Contains(a.RDMADevices, name) {
					a.RDMADevices = append(a.RDMADevices, name)
					dev := c.device(name)
					fill(&dev.PCIAddress, addr, &dev.From, "pci_address", id)
				}
			}
		}
		for _, e := range st.Errors {
			c.problem(id, "%s", e)
		}
		return err
	})
}

// applyMstIDs gives an adapter the PCI id its mst status -v row gave, when
// no other source did: after linkDevices, so that ibv_devinfo's ids, read
// from the device itself, come first.
func (c *collector) applyMstIDs() {
	for _, m := range c.mstIDs {
		a := c.adapters[m[0]]
		if v, dev, ok := strings.Cut(m[1], ":"); ok && a != nil && a.Vendor == "" && a.Device == "" {
			fill(&a.Vendor, v, &a.From, "vendor", m[2])
			fill(&a.Device, dev, &a.From, "device", m[2])
		}
	}
}
