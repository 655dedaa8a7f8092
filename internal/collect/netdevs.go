package collect

import (
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/record"
)

// addNetdev notes a netdev a source named; the first source to name it is
// its origin. The returned entry is valid for the whole run.
func (c *collector) addNetdev(name, src string) *record.Netdev {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil
	}
	n, ok := c.nets[name]
	if !ok {
		n = &record.Netdev{Name: name, Origin: src}
		c.nets[name] = n
	}
	return n
}

// netdevLink normalises a printed link state ("Up", "yes", "DOWN") to up
// or down; anything else is kept as printed.
func netdevLink(s string) string {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "up", "yes":
		return "up"
	case "down", "no":
		return "down"
	}
	return strings.TrimSpace(s)
}

// netdevNames lists every netdev seen, sorted.
func (c *collector) netdevNames() []string {
	var out []string
	for n := range c.nets {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// finishNetdevs completes the netdev table from the adapters that list a
// netdev and moves it into the record.
func (c *collector) finishNetdevs() {
	for _, a := range c.adapters {
		for _, name := range a.Netdevs {
			n := c.addNetdev(name, "adapter "+a.PCIAddress)
			fill(&n.PCIAddress, a.PCIAddress, &n.From, "pci_address", "adapter "+a.PCIAddress)
			if !n.Virtual {
				fill(&n.Driver, a.Driver.Name, &n.From, "driver", a.From["driver.name"])
			}
		}
	}
	for _, d := range c.devices {
		if d.Parent != "" {
			c.addNetdev(d.Parent, nonEmpty(d.From["parent"], "rdma device "+d.Name))
		}
	}
	for _, name := range c.netdevNames() {
		n := c.nets[name]
		if len(n.From) == 0 {
			n.From = nil
		}
		c.h.Netdevs = append(c.h.Netdevs, *n)
	}
}
