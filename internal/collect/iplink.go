package collect

import (
	"fmt"
	"strings"

	"github.com/rocekb/rocekb/internal/interrupts"
	"github.com/rocekb/rocekb/internal/iplink"
	"github.com/rocekb/rocekb/internal/source"
	"github.com/rocekb/rocekb/internal/sysfs"
)

// ipLink reads ip's link table: each netdev's mtu, operational state and
// master, and its link from the state where no better source gave one.
// Only netdevs another source named are filled, and those -d ties to a
// PCI function (parentbus pci): loopback, bridges, bonds and veths of a
// whole table are not the adapters' netdevs. A pasted table is filed
// under the line of the table it fits, so every line is tried.
func (c *collector) ipLink() {
	row, _ := source.Of(source.Cmd("ip link"))
	var lines []string
	for _, cmd := range row.Commands {
		lines = append(lines, cmd.Line)
	}
	r, id, ok := c.firstCommand(lines...)
	if !ok {
		return
	}
	c.parse(id, func() error {
		links, err := iplink.Parse(reader(r))
		var left []string
		kept := 0
		for _, l := range links {
			pci := l.ParentBus == "pci" && sysfs.IsPCIAddress(l.ParentDev)
			if _, known := c.nets[l.Name]; !known && !pci {
				left = append(left, l.Name)
				continue
			}
			kept++
			nd := c.addNetdev(l.Name, id)
			if pci {
				fill(&nd.PCIAddress, l.ParentDev, &nd.From, "pci_address", id)
			}
			if nd.MTU == nil && l.MTU != nil {
				mtu := *l.MTU
				nd.MTU = &mtu
				setFrom(&nd.From, "mtu", id)
			}
			fill(&nd.State, l.State, &nd.From, "state", id)
			fill(&nd.Master, l.Master, &nd.From, "master", id)
			fill(&nd.Link, ipState(l.State), &nd.From, "link", id)
		}
		if kept == 0 && len(left) > 0 {
			// ip link alone: which of its links are an adapter's is not
			// said (a record's netdev is a function's, or one a tool of
			// RDMA names), so none is kept; say what was there.
			c.problem(id, "%s; none is a netdev another source names or ip -d ties to a PCI function, so none is kept: ethtool -i, ibdev2netdev or rdma link would say which are the adapters'", listed(len(left), "link", left))
		}
		return err
	})
}

// listed is "3 links (eth0, eth1, ib0)", the names cut after eight.
func listed(n int, what string, names []string) string {
	if n != 1 {
		what += "s"
	}
	if len(names) > 8 {
		names = append(names[:8:8], "…")
	}
	return fmt.Sprintf("%d %s (%s)", n, what, strings.Join(names, ", "))
}

// ipState is the link up or down as ip's operational state says; UNKNOWN
// and the other states say neither.
func ipState(s string) string {
	switch s {
	case "UP":
		return "up"
	case "DOWN", "LOWERLAYERDOWN":
		return "down"
	}
	return ""
}

// interrupts reads /proc/interrupts: how many message-signalled vectors
// of each adapter's function have a handler.
func (c *collector) interrupts() {
	p := string(source.ProcInterrupts)
	r := c.file(p)
	if !r.OK() {
		return
	}
	c.parse(p, func() error {
		x, err := interrupts.Parse(reader(r))
		var left []string
		kept := 0
		for _, f := range x.Functions() {
			a, ok := c.adapters[f.Address]
			if !ok {
				left = append(left, f.Address)
				continue // a function no other source found: a disk, a GPU
			}
			kept++
			n := len(f.Names)
			m := msix(a)
			m.Used = &n
			setFrom(&a.From, "msix.used", p)
		}
		if kept == 0 && len(left) > 0 {
			// /proc/interrupts alone: it names PCI functions, not what
			// they are (an NVMe drive's and a GPU's vectors are there
			// too, and a handler's name is the driver's choice); say
			// what was there.
			c.problem(p, "%s with message-signalled vectors; no other source names them as adapters, so msix.used is kept for none: lspci, ethtool -i or ibdev2netdev would say which are network adapters", listed(len(left), "PCI function", left))
		}
		return err
	})
}
