package collect

import (
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/devlink"
	"github.com/rocekb/rocekb/internal/ethtool"
	"github.com/rocekb/rocekb/internal/lshw"
	"github.com/rocekb/rocekb/internal/lspci"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
	"github.com/rocekb/rocekb/internal/source"
	"github.com/rocekb/rocekb/internal/sysfs"
)

// adapter returns the adapter for a PCI address, creating it.
func (c *collector) adapter(addr string) *record.Adapter {
	addr = strings.ToLower(addr)
	a, ok := c.adapters[addr]
	if !ok {
		a = &record.Adapter{PCIAddress: addr}
		c.adapters[addr] = a
	}
	return a
}

// sysfsPCI reads the PCI functions that carry a netdev or RDMA device.
func (c *collector) sysfsPCI() {
	fsys := c.s.FS()
	const pciID = string(source.SysPCIDevices)
	c.parse(pciID, func() error {
		funcs, err := sysfs.PCIDevices(fsys)
		switch {
		case err == sysfs.ErrAbsent:
			c.noteStatus(pciID, pciID, record.StatusAbsent, "not in snapshot")
			return nil
		case err != nil:
			c.noteStatus(pciID, pciID, record.StatusFailed, err.Error())
			return nil
		}
		c.noteStatus(pciID, pciID, record.StatusOK, "")
		for _, f := range funcs {
			// A network function with no net/ or infiniband/ child is kept:
			// a failed probe or vfio-pci leaves none.
			// So is one with mlx4_port<N> files, which only mlx4_core creates.
			if len(f.Netdevs) == 0 && len(f.IBDevices) == 0 && !strings.HasPrefix(f.Class, "02") && !netDriver(f.Driver) &&
				len(sysfs.MLX4Ports(fsys, f.Address)) == 0 {
				continue
			}
			src := pciID + "/" + f.Address
			c.fromPCI(f, src)
			a := c.adapter(f.Address)
			a.Netdevs = append(a.Netdevs, f.Netdevs...)
			a.RDMADevices = append(a.RDMADevices, f.IBDevices...)
			for _, name := range f.Netdevs {
				n := c.addNetdev(name, pciID)
				fill(&n.PCIAddress, f.Address, &n.From, "pci_address", src+"/net")
			}
		}
		return nil
	})
}

// sysfsNet reads the netdevs and the PCI functions under them.
func (c *collector) sysfsNet() {
	fsys := c.s.FS()
	const netID = string(source.SysClassNet)
	c.parse(netID, func() error {
		nets, err := sysfs.NetDevs(fsys)
		switch {
		case err == sysfs.ErrAbsent:
			c.noteStatus(netID, netID, record.StatusAbsent, "not in snapshot")
			return nil
		case err != nil:
			c.noteStatus(netID, netID, record.StatusFailed, err.Error())
			return nil
		}
		c.noteStatus(netID, netID, record.StatusOK, "")
		for _, n := range nets {
			nd := c.addNetdev(n.Name, netID)
			if n.PCIAddress == "" {
				// No device link: a virtual netdev (bond, VLAN, veth, lo).
				nd.Virtual = true
				setFrom(&nd.From, "virtual", path.Join(netID, n.Name, "device"))
				continue
			}
			fill(&nd.PCIAddress, n.PCIAddress, &nd.From, "pci_address", path.Join(netID, n.Name, "device"))
			fill(&nd.Driver, n.Driver, &nd.From, "driver", path.Join(netID, n.Name, "device/driver"))
			a := c.adapter(n.PCIAddress)
			a.Netdevs = append(a.Netdevs, n.Name)
			if a.Vendor == "" {
				c.fromPCI(sysfs.PCIDevice(fsys, path.Join(netID, n.Name, "device"), n.PCIAddress), path.Join(netID, n.Name, "device"))
			}
			fill(&a.Driver.Name, n.Driver, &a.From, "driver.name", path.Join(netID, n.Name, "device/driver"))
		}
		return nil
	})
}

// fromPCI copies sysfs PCI attributes into the adapter.
func (c *collector) fromPCI(f sysfs.PCIFunc, src string) {
	a := c.adapter(f.Address)
	fill(&a.Vendor, f.Vendor, &a.From, "vendor", src+"/vendor")
	fill(&a.Device, f.Device, &a.From, "device", src+"/device")
	fill(&a.SubsystemVendor, f.SubsystemVendor, &a.From, "subsystem_vendor", src+"/subsystem_vendor")
	fill(&a.SubsystemDevice, f.SubsystemDevice, &a.From, "subsystem_device", src+"/subsystem_device")
	fill(&a.Driver.Name, f.Driver, &a.From, "driver.name", src+"/driver")
	if f.MSIIRQs != nil {
		msix(a).Vectors = f.MSIIRQs
		setFrom(&a.From, "msix.vectors", src+"/msi_irqs")
	}
	if len(a.MLX4Ports) == 0 {
		for _, p := range sysfs.MLX4Ports(c.s.FS(), f.Address) {
			a.MLX4Ports = append(a.MLX4Ports, record.MLX4Port{Port: p.Port, Type: p.Type})
		}
		if len(a.MLX4Ports) > 0 {
			setFrom(&a.From, "mlx4_port", string(source.SysPCIDevices)+"/"+f.Address+"/mlx4_port*")
		}
	}
}

// netDrivers are PCI drivers of network and RDMA functions besides those
// byPCIDriver names: a function bound to one is an adapter even when it
// has no netdev or RDMA device (yet), and a kernel log line of one proves
// an adapter.
var netDrivers = map[string]bool{
	"mlx5_core": true, "mlx4_core": true, "qed": true, "cxgb4": true, "hfi1": true, "ib_qib": true,
	"bnx2x": true, "ixgbe": true, "igb": true, "e1000e": true, "hinic": true, "nfp": true, "virtio_net": true,
	"mlx5_vdpa": true, "octeon_ep": true, "idpf": true, "gve": true, "ena": true,
}

// netDriver reports whether a PCI driver drives network or RDMA functions.
func netDriver(name string) bool {
	_, rdma := byPCIDriver[name]
	return netDrivers[name] || rdma
}

func msix(a *record.Adapter) *record.MSIX {
	if a.MSIX == nil {
		a.MSIX = &record.MSIX{}
	}
	return a.MSIX
}

// lspciCommands are the lspci row's command lines, tried in its order.
var lspciCommands = func() []string {
	row, _ := source.Of(source.LspciNNVV)
	var out []string
	for _, c := range row.Commands {
		if c.Line != lspciTree {
			out = append(out, c.Line)
		}
	}
	return out
}()

// lspciTree is the lspci row's tree, read beside the first listing: it
// names the functions that listing leaves out (an lspci -s of one).
const lspciTree = "lspci -tv"

// lspci reads the first of the row's outputs that lists a device. One
// with none (lspci -vv cut by grep to a "Product Name:" line) says nothing
// of which device it was, and the next one is read.
func (c *collector) lspci() {
	if r, id := c.command(lspciTree); r.OK() {
		c.lspciFrom(r, id)
	}
	for _, cl := range lspciCommands {
		r, id := c.command(cl)
		if !r.OK() {
			continue
		}
		if c.lspciFrom(r, id) {
			return
		}
	}
}

// lspciFrom fills the adapters from one lspci output and reports whether
// it listed a device.
func (c *collector) lspciFrom(r snapshot.Result, id string) (listed bool) {
	c.parse(id, func() error {
		devs, err := lspci.Parse(reader(r))
		if err != nil {
			return err
		}
		listed = len(devs) > 0
		if listed && devs[0].Class == "" && devs[0].ClassID == "" {
			// lspci -tv's tree prints no class, so it cannot say which
			// functions are network adapters: its names and ids are kept
			// for the functions other sources find (treeNames).
			c.tree, c.treeID = devs, id
			return nil
		}
		denied := false
		for _, d := range devs {
			if _, known := c.adapters[d.Slot]; !known && !d.IsNetwork() {
				continue
			}
			a := c.adapter(d.Slot)
			fill(&a.Vendor, d.Vendor, &a.From, "vendor", id)
			fill(&a.Device, d.Device, &a.From, "device", id)
			fill(&a.SubsystemVendor, d.SubsystemVendor, &a.From, "subsystem_vendor", id)
			fill(&a.SubsystemDevice, d.SubsystemDevice, &a.From, "subsystem_device", id)
			fill(&a.Name, d.Name, &a.From, "name", id)
			fill(&a.Driver.Name, d.Driver, &a.From, "driver.name", id)
			fill(&a.SubsystemName, d.SubsystemName, &a.From, "subsystem_name", id)
			fill(&a.ProductName, d.VPDName, &a.From, "product_name", id)
			fill(&a.PartNumber, d.PartNumber, &a.From, "part_number", id)
			if len(a.KernelModules) == 0 && len(d.Modules) > 0 {
				a.KernelModules = append([]string(nil), d.Modules...)
				setFrom(&a.From, "kernel_modules", id)
			}
			if d.Link != nil && a.PCIe == nil {
				a.PCIe = pcieFromLspci(*d.Link)
				setFrom(&a.From, "pcie", id)
			}
			if d.MSIX != nil {
				m := msix(a)
				if m.Count == nil {
					n, on := d.MSIX.Count, d.MSIX.Enabled
					m.Count, m.Enabled = &n, &on
					setFrom(&a.From, "msix.count", id)
					setFrom(&a.From, "msix.enabled", id)
				}
			}
			denied = denied || d.CapsDenied
		}
		if denied {
			c.problem(id, "lspci ran without root: capabilities, and so MSI-X, are not shown")
		}
		return nil
	})
	return listed
}

// treeNames names, from lspci -tv's tree, the adapters the other sources
// found (by their PCI address: sysfs, devlink, ethtool's bus-info, the
// kernel log) when no lspci output listing devices was captured.
func (c *collector) treeNames() {
	for _, d := range c.tree {
		a, ok := c.adapters[d.Slot]
		if !ok {
			continue
		}
		fill(&a.Vendor, d.Vendor, &a.From, "vendor", c.treeID)
		fill(&a.Device, d.Device, &a.From, "device", c.treeID)
		fill(&a.Name, d.Name, &a.From, "name", c.treeID)
	}
}

// devlinkHealth keeps each adapter's devlink health reporters.
func (c *collector) devlinkHealth() {
	r, id := c.command("devlink health show")
	if !r.OK() {
		return
	}
	c.parse(id, func() error {
		reps, err := devlink.ParseHealth(reader(r))
		if err != nil {
			return err
		}
		for _, rep := range reps {
			addr := rep.PCIAddress()
			if !sysfs.IsPCIAddress(addr) {
				continue
			}
			a := c.adapter(addr)
			a.HealthReporters = append(a.HealthReporters, record.HealthReporter{
				Name: rep.Name, Port: rep.Port, State: rep.State, Errors: rep.Errors, Recovers: rep.Recovers})
			setFrom(&a.From, "health_reporter", id)
		}
		return nil
	})
}

func (c *collector) devlink() {
	defer c.devlinkHealth()
	r, id, ok := c.firstCommand("devlink -j dev info", "devlink dev info")
	if ok {
		c.parse(id, func() error {
			var out devlink.InfoOutput
			var err error
			if id == string(source.DevlinkInfoJ) {
				out, err = devlink.ParseInfoJSON(reader(r))
			} else {
				out, err = devlink.ParseInfo(reader(r))
			}
			if err != nil {
				return err
			}
			if len(out.Devices) == 0 && len(out.Messages) > 0 {
				c.fail(id, out.Messages[0])
			}
			for _, d := range out.Devices {
				addr := d.PCIAddress()
				if !sysfs.IsPCIAddress(addr) {
					continue
				}
				a := c.adapter(addr)
				fill(&a.Driver.Name, d.Driver, &a.From, "driver.name", id)
				// The driver's summary key (fw.bundle_id on ice, which has no
				// fw.version), else fw.version or fw.
				run, key := d.Summary("running")
				if run == "" {
					run, key = d.FirmwareRunning(), ""
				}
				stored, skey := d.Summary("stored")
				if stored == "" {
					stored = d.FirmwareStored()
				}
				if a.Firmware.Running == "" && run != "" {
					fill(&a.Firmware.SummaryKey, nonEmpty(key, skey), &a.From, "firmware.summary_key", id)
				}
				fill(&a.Firmware.Running, run, &a.From, "firmware.running", id)
				fill(&a.Firmware.Stored, stored, &a.From, "firmware.stored", id)
				if len(a.Firmware.Components) == 0 {
					for _, cp := range d.Components() {
						a.Firmware.Components = append(a.Firmware.Components, record.FirmwareComponent{Section: cp.Section, Key: cp.Key, Version: cp.Value})
					}
					if len(a.Firmware.Components) > 0 {
						setFrom(&a.From, "firmware.component", id)
					}
				}
				fill(&a.Firmware.PSID, d.PSID(), &a.From, "firmware.psid", id)
				fill(&a.Firmware.BoardID, d.Fixed["board.id"], &a.From, "firmware.board_id", id)
			}
			return nil
		})
	}
	pr, pid := c.command("devlink dev param show")
	if !pr.OK() {
		return
	}
	c.parse(pid, func() error {
		params, err := devlink.ParseParams(reader(pr))
		if err != nil {
			return err
		}
		for _, p := range params {
			addr := strings.TrimPrefix(p.Handle, "pci/")
			if p.Name != "enable_roce" || !sysfs.IsPCIAddress(addr) {
				continue
			}
			for _, mode := range []string{"runtime", "driverinit", "permanent"} {
				v, ok := p.Value(mode)
				if !ok || (v != "true" && v != "false") {
					continue
				}
				a := c.adapter(addr)
				on := v == "true"
				a.EnableRoCE = &on
				setFrom(&a.From, "enable_roce", pid+" (cmode "+mode+")")
				break
			}
		}
		return nil
	})
}

// ethtool reads `ethtool -i` for every netdev seen anywhere, and for
// every ethtool -i file an sosreport holds.
func (c *collector) ethtool() {
	names := map[string]bool{}
	for n := range c.nets {
		names[n] = true
	}
	// sos's networking plugin, a capture's kbcollect folder and a
	// supportconfig's network.txt (sos_commands/network) each keep one
	// ethtool -i output per netdev.
	files, _ := fs.Glob(c.s.FS(), "sos_commands/*/ethtool_-i_*")
	for _, f := range files {
		if n, ok := strings.CutPrefix(path.Base(f), "ethtool_-i_"); ok && n != "" {
			names[n] = true
		}
	}
	// And "ethtool <dev>", the link settings (a name, not a flag, after "ethtool_").
	settings, _ := fs.Glob(c.s.FS(), "sos_commands/*/ethtool_*")
	for _, f := range settings {
		if n, ok := strings.CutPrefix(path.Base(f), "ethtool_"); ok && n != "" && !strings.HasPrefix(n, "-") {
			names[n] = true
		}
	}
	var sorted []string
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	for _, n := range sorted {
		r, id := c.command("ethtool -i " + n)
		if !r.OK() {
			continue
		}
		c.parse(id, func() error {
			infos, err := ethtool.Parse(reader(r))
			if err != nil {
				return err
			}
			// One netdev, one block: a paste of several outputs keeps the
			// first. A block a loop's banner names ("----- eth1 -----") is
			// that netdev's; one of another PCI function than the block
			// kept, with no banner (a loop that echoed no names), still
			// tells its function's driver and firmware.
			seen := map[string]bool{}
			kept := ""
			for _, in := range infos {
				name := n
				if in.Netdev != "" {
					name = in.Netdev
				}
				if seen[name] {
					if in.Netdev == "" && kept != "" && sysfs.IsPCIAddress(in.BusInfo) && !strings.EqualFold(in.BusInfo, kept) {
						c.ethtoolAdapter(in, id)
					}
					continue
				}
				seen[name] = true
				if name == n {
					kept = in.BusInfo
				}
				nd := c.addNetdev(name, id)
				fill(&nd.Driver, in.Driver, &nd.From, "driver", id)
				if nd.Driver == in.Driver {
					fill(&nd.Version, in.Version, &nd.From, "version", id)
				}
				if !sysfs.IsPCIAddress(in.BusInfo) {
					// A virtual netdev (bond, VLAN, veth): kept in the netdev
					// table, with no adapter.
					if b := strings.TrimSpace(in.BusInfo); !in.NoBusInfo && (b == "" || b == "N/A") {
						nd.Virtual = true
						setFrom(&nd.From, "virtual", id)
					}
					continue
				}
				fill(&nd.PCIAddress, strings.ToLower(in.BusInfo), &nd.From, "pci_address", id)
				a := c.ethtoolAdapter(in, id)
				if !slices.Contains(a.Netdevs, name) {
					a.Netdevs = append(a.Netdevs, name)
				}
			}
			return nil
		})
	}
	c.namespacedEthtool()
	for _, n := range sorted {
		c.ethtoolSettings(n)
	}
}

// ethtoolSettings reads `ethtool <netdev>`: the netdev's link (Link
// detected: yes or no) and speed, where no better source gave them. A
// block another "Settings for" line names is that netdev's.
func (c *collector) ethtoolSettings(n string) {
	r, id := c.command("ethtool " + n)
	if !r.OK() {
		return
	}
	c.parse(id, func() error {
		ss, err := ethtool.ParseSettings(reader(r))
		for _, s := range ss {
			name := nonEmpty(s.Netdev, n)
			nd := c.addNetdev(name, id)
			fill(&nd.Link, netdevLink(s.Link), &nd.From, "link", id)
			if !strings.HasPrefix(s.Speed, "Unknown") {
				fill(&nd.Speed, s.Speed, &nd.From, "speed", id)
			}
		}
		return err
	})
}

// namespacedEthtool reads the ethtool -i outputs sos keeps for netdevs in
// other network namespaces (a pod's SR-IOV VF): the ethtool row's Globs,
// "ip netns exec <ns> ethtool -i <dev>" in sos_commands/networking/, since
// 2021 under namespaces/<ns>/ (sosreport/sos commits 131f2ab9 and
// 9118562c). They tell the adapter's driver and firmware; the netdev is
// not one of the host's, so it is not in the netdev table.
func (c *collector) namespacedEthtool() {
	row, _ := source.Of(source.Cmd("ethtool -i eth0"))
	c.eachGlobbed(row, func(p string, r snapshot.Result) {
		c.parse(p, func() error {
			infos, err := ethtool.Parse(reader(r))
			for _, in := range infos[:min(len(infos), 1)] {
				if sysfs.IsPCIAddress(in.BusInfo) {
					c.ethtoolAdapter(in, p)
				}
			}
			return err
		})
	})
}

// ethtoolAdapter fills the adapter of an ethtool -i block's bus-info with
// its driver and firmware.
func (c *collector) ethtoolAdapter(in ethtool.Info, id string) *record.Adapter {
	a := c.adapter(in.BusInfo)
	fill(&a.Driver.Name, in.Driver, &a.From, "driver.name", id)
	if a.Driver.Name == in.Driver {
		fill(&a.Driver.Version, in.Version, &a.From, "driver.version", id)
	}
	fw, psid := ethtool.SplitFirmware(in.FirmwareVersion)
	if fw != "N/A" {
		fill(&a.Firmware.Running, fw, &a.From, "firmware.running", id)
	}
	fill(&a.Firmware.PSID, psid, &a.From, "firmware.psid", id)
	return a
}

// pcieFromLspci turns lspci's LnkSta and LnkCap into the record's link.
func pcieFromLspci(l lspci.Link) *record.PCIeLink {
	p := &record.PCIeLink{Speed: l.Speed, CapableSpeed: l.CapableSpeed}
	if v, ok := lspci.SpeedGTps(l.Speed); ok {
		p.SpeedGTps = &v
	}
	if v, ok := lspci.SpeedGTps(l.CapableSpeed); ok {
		p.CapableSpeedGTps = &v
	}
	if l.Width > 0 {
		w := l.Width
		p.Width = &w
	}
	if l.CapableWidth > 0 {
		w := l.CapableWidth
		p.CapableWidth = &w
	}
	// Downgraded is known only when both ends were printed, or lspci
	// marked it.
	if (p.SpeedGTps != nil && p.CapableSpeedGTps != nil) || (p.Width != nil && p.CapableWidth != nil) || l.Downgraded() {
		d := l.Downgraded()
		p.Downgraded = &d
	}
	return p
}

// lshw reads lshw's network nodes (lshw -class network, or sos's whole
// tree): each PCI function's netdev, driver, driver version, firmware and
// link, filled where ethtool -i gave nothing. A -businfo row ties a
// netdev to its function only.
func (c *collector) lshw() {
	r, id, ok := c.firstCommand("lshw -class network", "lshw")
	if !ok {
		return
	}
	c.parse(id, func() error {
		devs, err := lshw.Parse(reader(r))
		for _, d := range devs {
			a := c.ethtoolAdapter(ethtool.Info{Driver: d.Driver, Version: d.DriverVersion, FirmwareVersion: d.Firmware, BusInfo: d.BusInfo}, id)
			if d.Netdev == "" {
				continue
			}
			nd := c.addNetdev(d.Netdev, id)
			fill(&nd.PCIAddress, d.BusInfo, &nd.From, "pci_address", id)
			fill(&nd.Driver, d.Driver, &nd.From, "driver", id)
			if nd.Driver == d.Driver {
				fill(&nd.Version, d.DriverVersion, &nd.From, "version", id)
			}
			fill(&nd.Link, netdevLink(d.Link), &nd.From, "link", id)
			if !slices.Contains(a.Netdevs, d.Netdev) {
				a.Netdevs = append(a.Netdevs, d.Netdev)
			}
		}
		return err
	})
}
