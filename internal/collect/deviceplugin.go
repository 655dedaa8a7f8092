package collect

import (
	"github.com/rocekb/rocekb/internal/deviceplugin"
	"github.com/rocekb/rocekb/internal/snapshot"
	"github.com/rocekb/rocekb/internal/source"
	"github.com/rocekb/rocekb/internal/sysfs"
)

// devicePlugin reads the PCI functions a Kubernetes device plugin's log
// names (the RDMA shared device plugin's and the SR-IOV network device
// plugin's "device found" and "device added" lines): each network function
// becomes an adapter, and fills, only where no earlier source did, its
// description (the pci.ids names the plugin printed, cut as it cut them),
// its PCI ids and its driver (the "added" line's). A function of another
// class (the SR-IOV plugin's accelerators) is left out.
func (c *collector) devicePlugin() {
	row, _ := source.Of(source.ID("sos_commands/kbcollect/kubectl_logs_pod"))
	c.eachGlobbed(row, func(p string, r snapshot.Result) {
		c.parse(p, func() error {
			l, err := deviceplugin.Parse(reader(r))
			if err != nil {
				return err
			}
			for _, d := range l.Devices {
				if !d.Network() || !sysfs.IsPCIAddress(d.Address) {
					continue
				}
				_, known := c.adapters[d.Address]
				a := c.adapter(d.Address)
				if !known {
					setFrom(&a.From, "pci_address", p)
				}
				fill(&a.Name, d.Description, &a.From, "name", p)
				if a.Vendor == "" && a.Device == "" && d.Vendor != "" && d.Device != "" {
					fill(&a.Vendor, d.Vendor, &a.From, "vendor", p)
					fill(&a.Device, d.Device, &a.From, "device", p)
				}
				fill(&a.Driver.Name, d.Driver, &a.From, "driver.name", p)
			}
			return nil
		})
	})
}
