package collect

import (
	"fmt"
	"net/netip"
	"regexp"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/ibverbs"
	"github.com/rocekb/rocekb/internal/rdmaname"
	"github.com/rocekb/rocekb/internal/rdmatool"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
	"github.com/rocekb/rocekb/internal/source"
	"github.com/rocekb/rocekb/internal/sysfs"
)

func (c *collector) device(name string) *record.RDMADevice {
	d, ok := c.devices[name]
	if !ok {
		d = &record.RDMADevice{Name: name}
		c.devices[name] = d
	}
	return d
}

// port returns the device's port n, creating it. The pointer is valid
// until the next port is added.
func port(d *record.RDMADevice, n int) *record.Port {
	for i := range d.Ports {
		if d.Ports[i].Number == n {
			return &d.Ports[i]
		}
	}
	d.Ports = append(d.Ports, record.Port{Number: n})
	return &d.Ports[len(d.Ports)-1]
}

func pfield(n int, f string) string { return fmt.Sprintf("port.%d.%s", n, f) }

// setPort fills a port field from a source, once.
func setPort(d *record.RDMADevice, p *record.Port, field string, dst *string, v, src string) {
	fill(dst, v, &d.From, pfield(p.Number, field), src)
}

func setRate(d *record.RDMADevice, p *record.Port, gbps float64, ok bool, src string) {
	if p.RateGbps != nil || !ok {
		return
	}
	p.RateGbps = &gbps
	setFrom(&d.From, pfield(p.Number, "rate_gbps"), src)
}

var rateRE = regexp.MustCompile(`^\s*(\d+(?:\.\d+)?)`)

// rateGbps parses sysfs "100 Gb/sec (4X EDR)" or ibstat "100".
func rateGbps(s string) (float64, bool) {
	m := rateRE.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	f, err := strconv.ParseFloat(m[1], 64)
	return f, err == nil && f >= 0 && f < 1e6
}

// canonGID writes a GID the way sysfs does: eight groups of four hex digits.
func canonGID(g string) (string, bool) {
	a, err := netip.ParseAddr(strings.TrimSpace(g))
	if err != nil || !a.Is6() && !a.Is4In6() {
		return strings.TrimSpace(g), false
	}
	b := a.As16()
	var sb strings.Builder
	for i := 0; i < 16; i += 2 {
		if i > 0 {
			sb.WriteByte(':')
		}
		fmt.Fprintf(&sb, "%02x%02x", b[i], b[i+1])
	}
	return sb.String(), a.Is4In6()
}

// gidType normalises the GID type names of sysfs, ibv_devinfo (rdma-core
// and MLNX_OFED) and show_gids to the kernel's: "IB/RoCE v1" or "RoCE v2".
func gidType(t string) string {
	switch strings.TrimSpace(t) {
	case "IB/RoCE v1", "RoCE v1", "v1":
		return "IB/RoCE v1"
	case "RoCE v2", "v2":
		return "RoCE v2"
	}
	return strings.TrimSpace(t)
}

func zeroGID(g string) bool { return strings.Trim(g, "0:") == "" }

// sysfsInfiniBand reads /sys/class/infiniband. The RDMA tools read after it
// fill what it lacks, per device and port: the first source to give a
// field wins, in the order of the steps (sysfs, ibv_devinfo, ibstat,
// ibstatus, rdma, ibdev2netdev, show_gids, ibv_devices).
func (c *collector) sysfsInfiniBand() {
	fsys := c.s.FS()
	const ibID = string(source.SysInfiniBand)
	c.parse(ibID, func() error {
		devs, err := sysfs.InfiniBand(fsys)
		switch {
		case err == sysfs.ErrAbsent:
			c.noteStatus(ibID, ibID, record.StatusAbsent, "no RDMA devices: the class folder does not exist")
			return nil
		case err != nil:
			c.noteStatus(ibID, ibID, record.StatusFailed, err.Error())
			return nil
		}
		c.noteStatus(ibID, ibID, record.StatusOK, "")
		for _, sd := range devs {
			d := c.device(sd.Name)
			src := ibID + "/" + sd.Name
			fill(&d.NodeType, sd.NodeType, &d.From, "node_type", src+"/node_type")
			fill(&d.FwVer, sd.FwVer, &d.From, "fw_ver", src+"/fw_ver")
			fill(&d.HCAType, sd.HCAType, &d.From, "hca_type", src+"/hca_type")
			fill(&d.BoardID, sd.BoardID, &d.From, "board_id", src+"/board_id")
			fill(&d.NodeGUID, sd.NodeGUID, &d.From, "node_guid", src+"/node_guid")
			fill(&d.PCIAddress, sd.PCIAddress, &d.From, "pci_address", src+"/device")
			fill(&d.Parent, sd.Parent, &d.From, "parent", src+"/parent")
			if sd.PCIAddress != "" {
				c.fromPCI(sysfs.PCIDevice(fsys, src+"/device", sd.PCIAddress), src+"/device")
			}
			for _, sp := range sd.Ports {
				p := port(d, sp.Number)
				psrc := fmt.Sprintf("%s/ports/%d", src, sp.Number)
				setPort(d, p, "state", &p.State, ibverbs.State(sp.State), psrc+"/state")
				setPort(d, p, "phys_state", &p.PhysState, ibverbs.PhysState(sp.PhysState), psrc+"/phys_state")
				setPort(d, p, "link_layer", &p.LinkLayer, sp.LinkLayer, psrc+"/link_layer")
				setPort(d, p, "rate", &p.Rate, sp.Rate, psrc+"/rate")
				r, ok := rateGbps(sp.Rate)
				setRate(d, p, r, ok, psrc+"/rate")
				for _, g := range sp.GIDs {
					gid, v4 := canonGID(g.GID)
					p.GIDs = append(p.GIDs, record.GID{Index: g.Index, GID: gid, Type: gidType(g.Type), Netdev: g.Netdev, IPv4Mapped: v4})
				}
				if len(sp.GIDs) > 0 {
					setFrom(&d.From, pfield(p.Number, "gid"), psrc+"/gids")
				}
			}
		}
		return nil
	})
}

func (c *collector) rdmaCM() {
	const id = string(source.RDMACM)
	c.parse(id, func() error {
		ports, err := sysfs.RDMACM(c.s.FS())
		switch {
		case err == sysfs.ErrAbsent:
			c.noteStatus(id, id, record.StatusAbsent, "configfs rdma_cm not mounted or no device folder created")
			return nil
		case err != nil:
			c.noteStatus(id, id, record.StatusFailed, err.Error())
			return nil
		}
		c.noteStatus(id, id, record.StatusOK, "")
		for _, cp := range ports {
			d := c.device(cp.Device)
			p := port(d, cp.Port)
			src := fmt.Sprintf("%s/%s/ports/%d", id, cp.Device, cp.Port)
			setPort(d, p, "default_roce_mode", &p.DefaultRoCEMode, cp.DefaultRoCEMode, src+"/default_roce_mode")
			if cp.DefaultRoCETOS != nil && p.DefaultRoCETOS == nil {
				p.DefaultRoCETOS = cp.DefaultRoCETOS
				setFrom(&d.From, pfield(p.Number, "default_roce_tos"), src+"/default_roce_tos")
			}
		}
		return nil
	})
}

func (c *collector) ibvDevinfo() {
	r, id, ok := c.firstCommand("ibv_devinfo -v", "ibv_devinfo")
	if !ok {
		return
	}
	c.parse(id, func() error {
		out, err := ibverbs.ParseDevinfo(reader(r))
		if err != nil {
			return err
		}
		if len(out.Errors) > 0 {
			c.problem(id, "%d error lines (devices it could not open are missing from its view); first: %q", len(out.Errors), out.Errors[0])
		}
		for _, pr := range out.Problems {
			c.h.ToolMessages = append(c.h.ToolMessages, record.ToolMessage{
				Tool: "ibv_devinfo", Kind: pr.Kind, Device: pr.Device, Driver: pr.Driver, Text: pr.Text,
				Count: countIfMany(pr.Count), Source: id, Line: pr.Line,
			})
		}
		if out.ProblemsDropped > 0 {
			c.problem(id, "kept %d distinct error lines; %d more were dropped", ibverbs.MaxProblems, out.ProblemsDropped)
		}
		for _, dv := range out.Devices {
			d := c.device(dv.HCAID)
			fill(&d.FwVer, dv.FwVer, &d.From, "fw_ver", id)
			fill(&d.NodeGUID, guid(strings.ReplaceAll(dv.NodeGUID, ":", "")), &d.From, "node_guid", id)
			fill(&d.BoardID, dv.BoardID, &d.From, "board_id", id)
			fill(&d.VendorID, dv.VendorID, &d.From, "vendor_id", id)
			fill(&d.VendorPartID, dv.VendorPartID, &d.From, "vendor_part_id", id)
			fill(&d.PCIID, ibverbs.PCIID(dv.VendorID, dv.VendorPartID), &d.From, "pci_id", id)
			for _, dp := range dv.Ports {
				p := port(d, dp.Number)
				if dp.Implicit && p.Note == "" {
					p.Note = fmt.Sprintf("port lines had no port: header in %s; port %d assumed", id, dp.Number)
				}
				setPort(d, p, "state", &p.State, ibverbs.State(dp.State), id)
				setPort(d, p, "phys_state", &p.PhysState, ibverbs.PhysState(dp.PhysState), id)
				setPort(d, p, "link_layer", &p.LinkLayer, dp.LinkLayer, id)
				rate, ok := dp.RateGbps()
				setRate(d, p, rate, ok, id)
				if len(p.GIDs) == 0 && len(dp.GIDs) > 0 {
					for _, g := range dp.GIDs {
						gid, v4 := canonGID(g.GID)
						if zeroGID(gid) {
							continue
						}
						p.GIDs = append(p.GIDs, record.GID{Index: g.Index, GID: gid, Type: gidType(g.Type), IPv4Mapped: v4})
					}
					setFrom(&d.From, pfield(p.Number, "gid"), id)
				}
			}
			fill(&d.Protocol, transportProtocol(dv.Transport, d.Ports), &d.From, "protocol", id)
		}
		return nil
	})
}

// transportProtocol reads ibv_devinfo's transport line as rdma dev's
// protocol: "iWARP (1)" is iw, whatever the link layer (qedr, i40iw,
// irdma in iWARP mode, siw, cxgb4); "InfiniBand (0)" is roce on an
// Ethernet link layer and ib on an InfiniBand one. "" when it does not
// tell (usNIC, an unknown transport, no link layer).
func transportProtocol(transport string, ports []record.Port) string {
	t := strings.ToLower(transport)
	switch {
	case strings.HasPrefix(t, "iwarp"):
		return "iw"
	case !strings.HasPrefix(t, "infiniband"):
		return ""
	}
	layer := ""
	for _, p := range ports {
		if p.LinkLayer != "" {
			if layer != "" && !strings.EqualFold(layer, p.LinkLayer) {
				return "" // mixed ports: rdma dev prints one protocol per device
			}
			layer = p.LinkLayer
		}
	}
	switch strings.ToLower(layer) {
	case "ethernet":
		return "roce"
	case "infiniband":
		return "ib"
	}
	return ""
}

// guid writes ibstat's 0x-prefixed GUID (0x8e8474fffe1f2550) or
// ibv_devices' bare hex the way sysfs does (8e84:74ff:fe1f:2550), or ""
// for what is no GUID: one a poster masked ("0002:c903:0005:xxxx",
// ibv_devinfo's form with its colons taken out) or cut.
func guid(s string) string {
	h := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(s), "0x"))
	if len(h) != 16 || strings.Trim(h, "0123456789abcdef") != "" {
		return ""
	}
	return h[0:4] + ":" + h[4:8] + ":" + h[8:12] + ":" + h[12:16]
}

func (c *collector) ibstat() {
	r, id := c.command("ibstat")
	if !r.OK() {
		return
	}
	c.parse(id, func() error {
		out, err := ibverbs.ParseIbstat(reader(r))
		if err != nil {
			return err
		}
		for _, m := range out.Messages {
			if strings.HasPrefix(m, "ibpanic:") {
				c.problem(id, "ibstat stopped: %s", m)
			}
		}
		for _, ca := range out.CAs {
			d := c.device(ca.Name)
			fill(&d.FwVer, ca.FwVersion, &d.From, "fw_ver", id)
			fill(&d.HCAType, ca.Type, &d.From, "hca_type", id)
			fill(&d.NodeGUID, guid(ca.NodeGUID), &d.From, "node_guid", id)
			for _, cp := range ca.Ports {
				p := port(d, cp.Number)
				setPort(d, p, "state", &p.State, ibverbs.State(cp.State), id)
				setPort(d, p, "phys_state", &p.PhysState, ibverbs.PhysState(cp.PhysState), id)
				setPort(d, p, "link_layer", &p.LinkLayer, cp.LinkLayer, id)
				rate, ok := rateGbps(cp.Rate)
				setRate(d, p, rate, ok, id)
			}
		}
		return nil
	})
}

func (c *collector) ibstatus() {
	r, id := c.command("ibstatus")
	if !r.OK() {
		return
	}
	c.parse(id, func() error {
		out, err := ibverbs.ParseIbstatus(reader(r))
		if err != nil {
			return err
		}
		for _, ps := range out {
			d := c.device(ps.Device)
			p := port(d, ps.Port)
			setPort(d, p, "state", &p.State, ibverbs.State(ps.State), id)
			setPort(d, p, "phys_state", &p.PhysState, ibverbs.PhysState(ps.PhysState), id)
			setPort(d, p, "link_layer", &p.LinkLayer, ps.LinkLayer, id)
			setPort(d, p, "rate", &p.Rate, ps.Rate, id)
			rate, ok := rateGbps(ps.Rate)
			setRate(d, p, rate, ok, id)
		}
		return nil
	})
}

func (c *collector) rdmaTool() {
	c.rdmaSystem()
	for _, r := range c.everyCommand("rdma link show", "rdma link", "rdma link show -d") {
		c.parse(r.id, func() error {
			links, err := rdmatool.ParseLink(reader(r.res))
			if err != nil {
				return err
			}
			for _, l := range links {
				d := c.device(l.Device)
				p := port(d, l.Port)
				setPort(d, p, "state", &p.State, ibverbs.State(l.State), r.id)
				setPort(d, p, "phys_state", &p.PhysState, ibverbs.PhysState(l.PhysState), r.id)
				setPort(d, p, "netdev", &p.Netdev, l.Netdev, r.id)
				c.addNetdev(l.Netdev, r.id)
			}
			return nil
		})
	}
	for _, r := range c.everyCommand("rdma dev show", "rdma dev", "rdma dev show -d") {
		c.parse(r.id, func() error {
			devs, err := rdmatool.ParseDev(reader(r.res))
			if err != nil {
				return err
			}
			for _, rd := range devs {
				d := c.device(rd.Name)
				fill(&d.FwVer, rd.FW, &d.From, "fw_ver", r.id)
				fill(&d.NodeGUID, rd.NodeGUID, &d.From, "node_guid", r.id)
				fill(&d.Protocol, rd.Protocol, &d.From, "protocol", r.id)
			}
			return nil
		})
	}
	// Resources name the devices that have them, nothing more: a QP state
	// is never a port state. The summary lists every device, so a live run
	// stops there; elsewhere each output may name what another lacks (a
	// paste's QPs of one device, CQs of another). An sosreport's or
	// sysinfo-snapshot's per-object outputs are the row's Globs.
	for _, cl := range []string{"rdma res show", "rdma res show qp"} {
		r, id := c.command(cl)
		if !r.OK() {
			continue
		}
		c.resDevices(id, r)
		if c.s.Kind == snapshot.KindLive {
			break
		}
	}
	row, _ := source.Of(source.RdmaRes)
	c.eachGlobbed(row, c.resDevices)
	// Counters name the devices and ports that have them, likewise.
	if r, id := c.command("rdma statistic show"); r.OK() {
		c.parse(id, func() error {
			names, err := rdmatool.ParseStat(reader(r))
			c.namedDevices(id, names)
			return err
		})
	}
}

// namedDevices adds RDMA devices an output names and says nothing more of.
func (c *collector) namedDevices(id string, names []string) {
	for _, name := range names {
		d := c.device(name)
		if len(d.From) == 0 {
			setFrom(&d.From, "name", id)
		}
	}
}

// resDevices adds the RDMA devices an rdma resource output names.
func (c *collector) resDevices(id string, r snapshot.Result) {
	c.parse(id, func() error {
		names, err := rdmatool.ParseRes(reader(r))
		c.namedDevices(id, names)
		return err
	})
}

func (c *collector) ibdev2netdev() {
	r, id, ok := c.firstCommand("ibdev2netdev", "ibdev2netdev -v")
	if !ok {
		return
	}
	c.parse(id, func() error {
		maps, err := ibverbs.ParseIbdev2netdev(reader(r))
		if err != nil {
			return err
		}
		for _, m := range maps {
			d := c.device(m.Device)
			p := port(d, m.Port)
			setPort(d, p, "netdev", &p.Netdev, m.Netdev, id)
			// (Up)/(Down) after "==>" is the netdev's link, not the verbs
			// port state; -v prints the verbs state as well.
			setPort(d, p, "netdev_link", &p.NetdevLink, m.LinkState, id)
			setPort(d, p, "state", &p.State, ibverbs.State(m.PortState), id)
			fill(&d.PCIAddress, strings.ToLower(m.PCIAddress), &d.From, "pci_address", id)
			fill(&d.FwVer, m.Firmware, &d.From, "fw_ver", id)
			if m.CAType != "NA" {
				fill(&d.HCAType, m.CAType, &d.From, "hca_type", id)
			}
			if sysfs.IsPCIAddress(m.PCIAddress) {
				a := c.adapter(m.PCIAddress)
				fill(&a.PartNumber, m.PartNumber(), &a.From, "part_number", id)
				fill(&a.ProductName, m.Description, &a.From, "product_name", id)
			}
			if n := c.addNetdev(m.Netdev, id); n != nil {
				fill(&n.Link, netdevLink(m.LinkState), &n.From, "link", id)
			}
		}
		return nil
	})
}

func (c *collector) showGIDs() {
	r, id := c.command("show_gids")
	if !r.OK() {
		return
	}
	c.parse(id, func() error {
		rows, err := ibverbs.ParseShowGIDs(reader(r))
		if err != nil {
			return err
		}
		had := map[*record.RDMADevice]map[int]bool{}
		for _, g := range rows {
			d := c.device(g.Device)
			if had[d] == nil {
				had[d] = map[int]bool{}
				for _, p := range d.Ports {
					had[d][p.Number] = len(p.GIDs) > 0
				}
			}
			p := port(d, g.Port)
			setPort(d, p, "netdev", &p.Netdev, g.Netdev, id)
			c.addNetdev(g.Netdev, id)
			if had[d][g.Port] {
				continue
			}
			gid, v4 := canonGID(g.GID)
			p.GIDs = append(p.GIDs, record.GID{Index: g.Index, GID: gid, Type: gidType(g.Ver), Netdev: g.Netdev, IPv4Mapped: v4})
			setFrom(&d.From, pfield(p.Number, "gid"), id)
		}
		return nil
	})
}

func (c *collector) ibvDevices() {
	r, id := c.command("ibv_devices")
	if !r.OK() {
		return
	}
	c.parse(id, func() error {
		out, err := ibverbs.ParseDevices(reader(r))
		if err != nil {
			return err
		}
		if len(out.Warnings) > 0 {
			c.problem(id, "libibverbs warned (a provider may be missing, so devices can be absent from this view): %s", out.Warnings[0])
		}
		for _, pr := range out.Problems {
			c.h.ToolMessages = append(c.h.ToolMessages, record.ToolMessage{
				Tool: "ibv_devices", Kind: pr.Kind, Device: pr.Device, Driver: pr.Driver, Text: pr.Text,
				Count: countIfMany(pr.Count), Source: id, Line: pr.Line,
			})
		}
		for _, dg := range out.Devices {
			if dg.NodeGUID == "" { // masked by the poster: the device alone
				c.namedDevices(id, []string{dg.Name})
				continue
			}
			d := c.device(dg.Name)
			fill(&d.NodeGUID, guid(dg.NodeGUID), &d.From, "node_guid", id)
		}
		return nil
	})
}

// providers maps RDMA device name prefixes to the kernel modules that
// register them (drivers/infiniband/hw/*, sw/*; facts §1.1). Where a
// driver ships as several modules, all candidates are listed and the
// loaded one wins.
var providers = []struct {
	prefix  string
	modules []string
}{
	{"mlx5_", []string{"mlx5_ib"}}, {"mlx4_", []string{"mlx4_ib"}},
	{"bnxt_re", []string{"bnxt_re"}}, {"irdma", []string{"irdma"}}, {"i40iw", []string{"i40iw"}},
	{"qedr", []string{"qedr"}}, {"hns", []string{"hns_roce_hw_v2", "hns_roce_hw_v1", "hns_roce"}},
	{"hrn", []string{"hns_roce_hw_v2", "hns_roce_hw_v1", "hns_roce"}},
	{"rxe", []string{"rdma_rxe"}}, {"siw", []string{"siw"}}, {"efa", []string{"efa"}},
	{"ocrdma", []string{"ocrdma"}}, {"vmw_pvrdma", []string{"vmw_pvrdma"}}, {"usnic", []string{"usnic_verbs"}},
	{"erdma", []string{"erdma"}}, {"mana", []string{"mana_ib"}}, {"ionic", []string{"ionic_rdma"}},
	// Devices no RoCE stack uses, named so a host that has them is not
	// left without a provider: Chelsio's iWARP (cxgb4_0), and the
	// InfiniBand-only mthca (InfiniHost), qib and hfi1 (Omni-Path).
	{"cxgb4_", []string{"iw_cxgb4"}}, {"mthca", []string{"ib_mthca"}}, {"qib", []string{"ib_qib"}}, {"hfi1_", []string{"hfi1"}},
}

// byPCIDriver maps the PCI (Ethernet or core) driver of a renamed device
// (rocep59s0f0, ibp75s0 …) to its provider (rdma-core
// kernel-boot/rdma-hw-modules.rules; facts §1.1). enic's in-tree provider
// is usnic_verbs; Cisco's binary enic_rdma replaces it when loaded.
var byPCIDriver = map[string][]string{
	"mlx5_core": {"mlx5_ib"}, "mlx4_core": {"mlx4_ib"}, "mlx4_en": {"mlx4_ib"},
	"bnxt_en": {"bnxt_re"}, "ice": {"irdma"}, "i40e": {"irdma", "i40iw"}, "qede": {"qedr"},
	"hns3": {"hns_roce_hw_v2"}, "be2net": {"ocrdma"}, "vmxnet3": {"vmw_pvrdma"},
	"enic": {"enic_rdma", "usnic_verbs"}, "efa": {"efa"}, "erdma": {"erdma"}, "mana": {"mana_ib"}, "ionic": {"ionic_rdma"},
	"cxgb4": {"iw_cxgb4"},
}

var software = map[string]bool{"rdma_rxe": true, "siw": true}

// linkDevices ties RDMA devices to adapters, names their providers and
// counts GIDs.
func (c *collector) linkDevices() {
	byNetdev := map[string]string{}
	for addr, a := range c.adapters {
		for _, n := range a.Netdevs {
			byNetdev[n] = addr
		}
	}
	for _, d := range c.devices {
		var cands []string
		why := ""
		for _, p := range providers {
			if strings.HasPrefix(d.Name, p.prefix) {
				cands, why = p.modules, "device name prefix "+p.prefix
				break
			}
		}
		if cands == nil && d.PCIAddress == "" && d.Parent == "" {
			// Its netdevs' function first, then the one its name gives.
			if c.viaNetdev(d, byNetdev); d.PCIAddress == "" {
				c.viaName(d)
			}
		}
		if cands == nil && d.PCIAddress != "" {
			if a, ok := c.adapters[d.PCIAddress]; ok && a.Driver.Name != "" {
				cands, why = byPCIDriver[a.Driver.Name], "PCI driver "+a.Driver.Name
			}
		}
		if cands == nil {
			cands, why = c.providerFromLog(d.Name)
		}
		if len(cands) > 0 {
			mod := cands[0]
			for _, m := range cands {
				if ms, ok := c.modules[m]; ok && ms.loaded {
					mod, why = m, why+", module loaded"
					break
				}
			}
			d.Provider = mod
			setFrom(&d.From, "provider", why)
		}
		if software[d.Provider] {
			for _, p := range d.Ports {
				fill(&d.Parent, p.Netdev, &d.From, "parent", d.From[pfield(p.Number, "netdev")])
			}
		} else if d.PCIAddress == "" {
			c.viaNetdev(d, byNetdev)
		}
		if d.PCIAddress != "" {
			a := c.adapter(d.PCIAddress)
			a.RDMADevices = append(a.RDMADevices, d.Name)
			fill(&a.Firmware.Running, d.FwVer, &a.From, "firmware.running", d.From["fw_ver"])
			fill(&a.Firmware.BoardID, d.BoardID, &a.From, "firmware.board_id", d.From["board_id"])
			// The ids ibv_devinfo gives, where lspci and sysfs gave none.
			if v, dev, ok := strings.Cut(d.PCIID, ":"); ok && a.Vendor == "" && a.Device == "" {
				fill(&a.Vendor, v, &a.From, "vendor", d.From["pci_id"])
				fill(&a.Device, dev, &a.From, "device", d.From["pci_id"])
			}
		}
		for i := range d.Ports {
			countGIDs(d, &d.Ports[i])
		}
	}
}

// logFuncRE is a provider's message through the RDMA core's ibdev_*
// printers with the function and line before it, as mlx5_ib's
// mlx5_ib_dbg and mlx5_ib_warn print: "infiniband rocep33s0f0:
// mlx5_poll_one:527:(pid 0): …".
var logFuncRE = regexp.MustCompile(`^infiniband (\S+): ([a-z][a-z0-9]*_[a-z0-9_]*):\d+:`)

// providerFromLog names the provider of a renamed device (rocep33s0f0)
// from a kernel log line that device's provider printed with its function
// name (mlx5_poll_one is mlx5_ib's), when nothing else named it.
func (c *collector) providerFromLog(name string) ([]string, string) {
	for _, e := range c.h.KernelLog {
		m := logFuncRE.FindStringSubmatch(e.Text)
		if m == nil || m[1] != name {
			continue
		}
		for _, p := range providers {
			if strings.HasPrefix(m[2], p.prefix) && !software[p.modules[0]] {
				return p.modules, "kernel log function " + m[2] + " (" + e.Source + " line " + strconv.Itoa(e.Line) + ")"
			}
		}
	}
	return nil, ""
}

// viaName finds a hardware device's PCI function in its name, where
// rdma-core's naming policy made it from the function (rocep59s0f0 is
// 0000:3b:00.0, roceP2p1s0f1 0002:01:00.1; rdmaname), when no device
// link, ibdev2netdev -v or netdev named it. The policy names a software
// device too, after its netdev's function (an rxe device on enp0s8 is
// rocep0s8), so the name ties a device only where something says it is
// that function's: the adapter there has a driver with an RDMA provider,
// or ibv_devinfo gave the device a PCI id the adapter there (or no
// adapter) does not contradict.
func (c *collector) viaName(d *record.RDMADevice) {
	n, ok := rdmaname.Parse(d.Name)
	addr := n.Address()
	if !ok || addr == "" {
		return
	}
	a, known := c.adapters[addr]
	switch {
	case known && a.Driver.Name != "":
		if byPCIDriver[a.Driver.Name] == nil {
			return // a driver with no RDMA provider: the device rides on it
		}
	case d.PCIID == "":
		return // nothing says the device is hardware
	case known && a.Vendor != "" && a.Device != "" && a.Vendor+":"+a.Device != d.PCIID:
		return
	}
	d.PCIAddress = addr
	setFrom(&d.From, "pci_address", "device name "+d.Name+" (rdma-core rdma_rename NAME_PCI)")
}

// viaNetdev finds a hardware device's PCI function through its ports'
// netdevs, when no device link or ibdev2netdev -v named it.
func (c *collector) viaNetdev(d *record.RDMADevice, byNetdev map[string]string) {
	for _, p := range d.Ports {
		if addr, ok := byNetdev[p.Netdev]; ok && p.Netdev != "" {
			d.PCIAddress = addr
			setFrom(&d.From, "pci_address", "netdev "+p.Netdev+" ("+d.From[pfield(p.Number, "netdev")]+")")
			return
		}
	}
}

func countGIDs(d *record.RDMADevice, p *record.Port) {
	p.GIDCounts = record.GIDCounts{}
	for _, g := range p.GIDs {
		switch {
		case g.Type == "RoCE v2":
			p.GIDCounts.RoCEv2++
		case g.Type == "IB/RoCE v1" && p.LinkLayer == "InfiniBand":
			p.GIDCounts.IB++
		case g.Type == "IB/RoCE v1" && (p.LinkLayer == "Ethernet" || p.LinkLayer == "" && g.Netdev != ""):
			// A GID bound to a netdev (show_gids' last DEV column,
			// gid_attrs/ndevs) is a RoCE GID: an InfiniBand port's
			// GIDs have none, so a v1 GID of a port whose link layer
			// no source gave is RoCE v1.
			p.GIDCounts.RoCEv1++
		default:
			p.GIDCounts.Other++
		}
		if g.IPv4Mapped {
			p.GIDCounts.IPv4++
		}
		if p.Netdev == "" && g.Netdev != "" {
			fill(&p.Netdev, g.Netdev, &d.From, pfield(p.Number, "netdev"), d.From[pfield(p.Number, "gid")])
		}
	}
}

// countIfMany is a repeat count worth recording: more than once.
func countIfMany(n int) int {
	if n > 1 {
		return n
	}
	return 0
}
