package collect

import (
	"strings"

	"github.com/rocekb/rocekb/internal/mst"
	"github.com/rocekb/rocekb/internal/source"
)

// mst reads MFT's device table: each NVIDIA function it lists is an
// adapter, with its netdevs and RDMA device. Sources read before it win.
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
			for _, n := range d.Netdevs {
				a.Netdevs = append(a.Netdevs, n)
				if nd := c.addNetdev(n, id); nd != nil {
					fill(&nd.PCIAddress, addr, &nd.From, "pci_address", id)
				}
			}
			if d.RDMA != "" {
				a.RDMADevices = append(a.RDMADevices, d.RDMA)
				dev := c.device(d.RDMA)
				fill(&dev.PCIAddress, addr, &dev.From, "pci_address", id)
			}
		}
		for _, e := range st.Errors {
			c.problem(id, "%s", e)
		}
		return err
	})
}
