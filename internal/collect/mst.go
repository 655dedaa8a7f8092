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
			if n := mstNode(d.MST); n != "" {
				if c.mstNodes == nil {
					c.mstNodes = map[string]string{}
				}
				c.mstNodes[n] = addr
			}
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

// placeMstNodes puts what flint, mstflint, mlxfwmanager and mlxconfig read
// from an MST node (/dev/mst/mt4125_pciconf0) on the function mst status
// lists that node at: a firmware device becomes that adapter's running
// and stored firmware, PSID and part number, each only when no source
// before gave it, as a device named by its address would; a configuration
// query gets the function's address. A node mst status does not list
// stays as printed.
func (c *collector) placeMstNodes() {
	if len(c.mstNodes) == 0 {
		return
	}
	kept := c.h.FirmwareDevices[:0]
	for _, fd := range c.h.FirmwareDevices {
		addr := c.mstNodes[mstNode(fd.Name)]
		if addr == "" {
			kept = append(kept, fd)
			continue
		}
		a := c.adapter(addr)
		run := nonEmpty(fd.FWRunning, fd.FWCurrent)
		fill(&a.Firmware.Running, run, &a.From, "firmware.running", fd.Source)
		if fd.FWRunning != "" && a.Firmware.Running == run {
			fill(&a.Firmware.Stored, fd.FWCurrent, &a.From, "firmware.stored", fd.Source)
		}
		fill(&a.Firmware.PSID, fd.PSID, &a.From, "firmware.psid", fd.Source)
		fill(&a.PartNumber, fd.PartNumber, &a.From, "part_number", fd.Source)
	}
	c.h.FirmwareDevices = kept
	for i := range c.h.MlxConfig {
		if mc := &c.h.MlxConfig[i]; mc.PCIAddress == "" {
			mc.PCIAddress = c.mstNodes[mstNode(mc.Device)]
		}
	}
}

// mstNode is the node a device argument or mst status names, without the
// folder it is in: /dev/mst/ on Linux, /dev/ under VMware's VMK Linux,
// none on native ESXi (MFT's "mst Synopsis - VMware"); "" when it is no
// node.
func mstNode(dev string) string {
	for _, dir := range []string{"/dev/mst/", "/dev/"} {
		if n, ok := strings.CutPrefix(dev, dir); ok {
			return n
		}
	}
	if mst.NodeDevice(dev) != "" {
		return dev
	}
	return ""
}
