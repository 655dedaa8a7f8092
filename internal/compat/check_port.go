package compat

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
)

func adapterPCI(v view, d *record.RDMADevice) string {
	if a := v.adapterOf(d); a != nil {
		return a.PCIAddress
	}
	return d.PCIAddress
}

// checkActivePort flags RDMA devices none of whose ports is ACTIVE.
//
// Severity: error. Without an ACTIVE port the device carries no RDMA
// traffic at all. Warning when every port's phys_state is Disabled: the
// port was turned off, often on purpose for an unused port, so it is only
// the cause when that device is expected to carry traffic.
func checkActivePort(h *record.Host, m *matrix.Matrix) Result {
	v := newView(h, m)
	var r Result
	if len(h.Devices) == 0 {
		r.Notes = append(r.Notes, v.noDevices("port state"))
		return r
	}
	for i := range h.Devices {
		d := &h.Devices[i]
		pci := adapterPCI(v, d)
		if len(d.Ports) == 0 {
			r.Notes = append(r.Notes, noPortNote(d, pci))
			continue
		}
		var ev []Evidence
		active, unread := false, false
		for _, p := range d.Ports {
			if p.State == "" {
				unread = true
				continue
			}
			if strings.EqualFold(p.State, "ACTIVE") {
				active = true
			}
			fact := fmt.Sprintf("%s port %d state %s", d.Name, p.Number, p.State)
			if p.PhysState != "" {
				fact += ", phys_state " + p.PhysState
			}
			ev = append(ev, v.deviceFact(d, fmt.Sprintf("port.%d.state", p.Number), fact))
		}
		switch {
		case active:
			r.Notes = append(r.Notes, Note{Subject: d.Name, Adapter: pci, Status: Pass, Text: d.Name + " has an ACTIVE port"})
		case unread:
			r.Notes = append(r.Notes, Note{Subject: d.Name, Adapter: pci, Status: Unknown, Text: "the record lacks the state of a port of " + d.Name, Evidence: ev})
		default:
			sev := Error
			fix := "Check the cable, the switch port and the link (ip link show; ethtool <netdev>), then bring the interface up (ip link set <netdev> up)."
			if physDisabled(d) {
				sev = Warning
				fix = "A port with phys_state Disabled was turned off (the interface set down, or the port disabled): if this device should carry RDMA, enable it (ip link set <netdev> up, or the switch side), then check the cable and link."
			}
			if ibPort(d) {
				fix += " On InfiniBand, a port stuck in INIT needs a subnet manager (opensm) on the fabric."
			}
			r.Findings = append(r.Findings, Finding{
				Severity: sev, Subject: d.Name, Adapter: pci,
				Message:     d.Name + " has no ACTIVE port",
				Explanation: "An RDMA port must be ACTIVE (PORT_ACTIVE in ibv_devinfo) to carry traffic; DOWN means no link, INIT means the link is up but the port was not activated.",
				Fix:         fix,
				Evidence:    ev,
			})
		}
	}
	return r
}

func physDisabled(d *record.RDMADevice) bool {
	for _, p := range d.Ports {
		if strings.EqualFold(p.PhysState, "Disabled") {
			return true
		}
	}
	return false
}

func ibPort(d *record.RDMADevice) bool {
	for _, p := range d.Ports {
		if strings.EqualFold(p.LinkLayer, "InfiniBand") {
			return true
		}
	}
	return false
}

// gidsRead reports whether the record read the port's GID table: the
// collector names the GID source in the device's from map (port.N.gid),
// also when the table it read was empty. Without it, zero GIDs only means
// the snapshot held no GID listing (e.g. ibv_devinfo without -v).
func gidsRead(d *record.RDMADevice, p record.Port) bool {
	if len(p.GIDs) > 0 {
		return true
	}
	for _, k := range []string{"gid", "gids", "gid_counts"} {
		if _, ok := d.From[fmt.Sprintf("port.%d.%s", p.Number, k)]; ok {
			return true
		}
	}
	return false
}

func gidTotal(p record.Port) int {
	c := p.GIDCounts
	n := c.RoCEv1 + c.RoCEv2 + c.IB + c.Other
	if len(p.GIDs) > n {
		n = len(p.GIDs)
	}
	return n
}

// checkGIDEmpty flags Ethernet RDMA ports whose GID table is empty.
//
// Severity: error. RoCE addresses peers by GID; a port without any cannot
// form a RoCE connection. mlx5 documents that with RoCE disabled "there is
// no gid table".
func checkGIDEmpty(h *record.Host, m *matrix.Matrix) Result {
	v := newView(h, m)
	var r Result
	if len(h.Devices) == 0 {
		r.Notes = append(r.Notes, v.noDevices("GIDs"))
		return r
	}
	for i := range h.Devices {
		d := &h.Devices[i]
		pci := adapterPCI(v, d)
		if len(d.Ports) == 0 {
			// show_gids prints every populated GID of every device and
			// port; read without a line for this device, its table is empty.
			if s := v.source("cmd/show_gids"); s != nil && s.Status == record.StatusOK && s.ID == "cmd/show_gids" {
				r.Findings = append(r.Findings, Finding{
					Severity: Error, Subject: d.Name, Adapter: pci,
					Message:     "show_gids lists no GID for " + d.Name,
					Explanation: "show_gids prints every populated GID of every RDMA device and port, and printed none for this device: its GID table is empty as seen from where the snapshot was taken. RoCE cannot address peers without GIDs. Inside a container this usually means the pod's network namespace does not hold the device's netdev, or the netdev has no address.",
					Fix:         "Check that the device's netdev is up with an IP address in the namespace that runs the application (for pods: the CNI or SR-IOV device plugin must move the netdev in), and that RoCE is enabled on the function.",
					Evidence:    []Evidence{{Fact: "cmd/show_gids was read and has no line for " + d.Name, Source: s.ID}},
				})
				continue
			}
			r.Notes = append(r.Notes, noPortNote(d, pci))
		}
		for _, p := range d.Ports {
			subj := portSubject(d, p)
			if !roCEPort(&r, subj, pci, p) {
				continue
			}
			switch {
			case gidTotal(p) > 0:
				r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Pass, Text: fmt.Sprintf("%s has %d GIDs", subj, gidTotal(p))})
				continue
			case !gidsRead(d, p):
				r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Unknown, Text: "no GID source was read for " + subj + " (sysfs gids, show_gids or ibv_devinfo -v), so zero GIDs means nothing"})
				continue
			}
			ev := []Evidence{{Fact: subj + " link_layer Ethernet, 0 GIDs", Source: fromSource(d.From, fmt.Sprintf("port.%d.gid", p.Number))}}
			fix := "Give the port's netdev an IP address and bring it up (GIDs follow the netdev's addresses), and check that RoCE is enabled on the function."
			expl := "RoCE identifies endpoints by GID. The kernel fills the GID table from the netdev's MAC and IP addresses; an empty table means the port has no usable netdev or RoCE is disabled on the function."
			if a := v.adapterOf(d); a != nil && a.EnableRoCE != nil && !*a.EnableRoCE {
				ev = append(ev, adapterFact(a, "enable_roce", "false"))
				expl = "RoCE is disabled on this function (devlink param enable_roce is false); with RoCE disabled mlx5 keeps no GID table and handles only raw Ethernet QPs."
				fix = "Enable RoCE: devlink dev param set pci/" + a.PCIAddress + " name enable_roce value true cmode driverinit, then devlink dev reload pci/" + a.PCIAddress + "."
			}
			r.Findings = append(r.Findings, Finding{
				Severity: Error, Subject: subj, Adapter: pci,
				Message:     subj + " is an Ethernet RDMA port with an empty GID table",
				Explanation: expl,
				Fix:         fix,
				Evidence:    ev,
			})
		}
	}
	return r
}

// checkGIDv2 flags Ethernet ports of v2-capable adapters with GIDs but
// none of type RoCE v2.
//
// Severity: warning. RoCE v1 still works inside one L2 domain, but RoCE v2
// peers, routed traffic and the RDMA_CM v2 default cannot use the port.
func checkGIDv2(h *record.Host, m *matrix.Matrix) Result {
	v := newView(h, m)
	var r Result
	if len(h.Devices) == 0 {
		r.Notes = append(r.Notes, v.noDevices("GID types"))
		return r
	}
	for i := range h.Devices {
		d := &h.Devices[i]
		pci := adapterPCI(v, d)
		if len(d.Ports) == 0 {
			r.Notes = append(r.Notes, noPortNote(d, pci))
		}
		for _, p := range d.Ports {
			subj := portSubject(d, p)
			if !roCEPort(&r, subj, pci, p) {
				continue
			}
			c := p.GIDCounts
			switch {
			case gidTotal(p) == 0:
				r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Unknown, Text: subj + " has no GIDs at all (gid-table-empty reports it)"})
				continue
			case c.RoCEv2 > 0:
				r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Pass, Text: fmt.Sprintf("%s has %d RoCE v2 GIDs", subj, c.RoCEv2)})
				continue
			case c.RoCEv1 == 0:
				r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Unknown, Text: subj + " has GIDs but the record does not give their types"})
				continue
			}
			capable, ref, ok := v.v2Capable(d)
			if !ok {
				r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Unknown, Text: "the matrix does not say whether the adapter behind " + d.Name + " can do RoCE v2"})
				continue
			}
			if !capable {
				r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Pass, Text: "the adapter behind " + d.Name + " does RoCE v1 only", Matrix: []Ref{*ref}})
				continue
			}
			r.Findings = append(r.Findings, Finding{
				Severity: Warning, Subject: subj, Adapter: pci,
				Message:     fmt.Sprintf("%s has %d GIDs, none of type RoCE v2, on a v2-capable adapter", subj, gidTotal(p)),
				Explanation: "The GID type (gid_attrs/types) says which RoCE version a GID is used with. Without RoCE v2 GIDs the port speaks only RoCE v1: no routing over IP and no connection from RoCE v2 peers.",
				Fix:         "Check that the firmware enables RoCE v2 (for mlx5 the firmware's roce_version capability; update the firmware) and that the kernel and driver are recent enough to create RoCE v2 GIDs; then check the GID table again (show_gids, or ibv_devinfo -v).",
				Evidence:    []Evidence{v.deviceFact(d, fmt.Sprintf("port.%d.gid", p.Number), fmt.Sprintf("%s GIDs: %d RoCE v1, 0 RoCE v2", subj, c.RoCEv1))},
				Matrix:      []Ref{*ref},
			})
		}
	}
	return r
}

// isV1Mode recognises the configfs spelling of RoCE v1.
func isV1Mode(s string) bool {
	s = strings.TrimSpace(s)
	return s == "IB/RoCE v1" || s == "RoCE v1"
}

// cmRefs cites the RDMA_CM client/server rows the explanation uses, and
// words the table.
func cmRefs(v view) ([]Ref, string) {
	var refs []Ref
	var rows []string
	for _, c := range v.m.CMModes {
		res := "connects"
		if !c.Connects {
			res = "does not connect"
		}
		rule := fmt.Sprintf("a RoCE %s client with a RoCE %s server %s", c.Client, c.Server, res)
		rows = append(rows, rule)
		refs = append(refs, v.ref(fmt.Sprintf("rdma_cm_mode client %s server %s", c.Client, c.Server), c.Claim, rule))
	}
	return refs, strings.Join(rows, "; ")
}

// checkRoCEMode flags v2-capable ports whose RDMA_CM default mode is v1.
//
// Severity: warning. Connections among v1 peers work, and a v1 client can
// reach a v2 server; but RoCE v2 clients cannot connect to this host as a
// server, and traffic cannot be routed.
func checkRoCEMode(h *record.Host, m *matrix.Matrix) Result {
	v := newView(h, m)
	var r Result
	if len(h.Devices) == 0 {
		r.Notes = append(r.Notes, v.noDevices("the RDMA_CM mode"))
		return r
	}
	for i := range h.Devices {
		d := &h.Devices[i]
		pci := adapterPCI(v, d)
		if len(d.Ports) == 0 {
			r.Notes = append(r.Notes, noPortNote(d, pci))
		}
		for _, p := range d.Ports {
			subj := portSubject(d, p)
			// configfs has a mode for InfiniBand ports too: without an
			// Ethernet link layer the mode says nothing about RoCE.
			if !roCEPort(&r, subj, pci, p) {
				continue
			}
			if p.DefaultRoCEMode == "" {
				r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Unknown, Text: "the record has no default_roce_mode for " + subj + " (configfs rdma_cm/<dev> shows it only after mkdir)"})
				continue
			}
			if !isV1Mode(p.DefaultRoCEMode) {
				r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Pass, Text: subj + " default_roce_mode is " + p.DefaultRoCEMode})
				continue
			}
			capable, ref, ok := v.v2Capable(d)
			if !ok {
				r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Unknown, Text: "the matrix does not say whether the adapter behind " + d.Name + " can do RoCE v2"})
				continue
			}
			if !capable {
				r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Pass, Text: "the adapter behind " + d.Name + " does RoCE v1 only, so v1 is its only mode", Matrix: []Ref{*ref}})
				continue
			}
			refs, table := cmRefs(v)
			expl := "The RDMA_CM client decides the RoCE mode of a connection."
			if table != "" {
				expl += " The matrix table: " + table + "."
			}
			expl += " With v1 as this port's default, RoCE v2 clients cannot connect to services here, and nothing crosses an IP router."
			if def, dref := v.roceDefault(d); def != "" {
				expl += " " + dref.Rule + ", so v1 here was most likely set by hand or by a script."
				refs = append(refs, dref)
			}
			r.Findings = append(r.Findings, Finding{
				Severity: Warning, Subject: subj, Adapter: pci,
				Message:     subj + " uses RoCE v1 as its RDMA_CM default on a v2-capable adapter",
				Explanation: expl,
				Fix:         fmt.Sprintf("Unless every peer is v1-only, set v2: echo \"RoCE v2\" > /sys/kernel/config/rdma_cm/%s/ports/%d/default_roce_mode (mount configfs and mkdir /sys/kernel/config/rdma_cm/%s first); set both sides to the same mode.", d.Name, p.Number, d.Name),
				Evidence:    []Evidence{v.deviceFact(d, fmt.Sprintf("port.%d.default_roce_mode", p.Number), subj+" default_roce_mode = "+p.DefaultRoCEMode, "rdma_cm", "configfs")},
				Matrix:      append([]Ref{*ref}, refs...),
			})
		}
	}
	return r
}

// roceDefault finds the matrix RDMA_CM default for the adapter behind a
// device on the host's distro family (or upstream), when it is v2.
func (v view) roceDefault(d *record.RDMADevice) (string, Ref) {
	a := v.adapterOf(d)
	ma := v.match(a)
	if ma == nil {
		return "", Ref{}
	}
	family := strings.ToLower(v.h.Host.OS.ID)
	if dist := hostDistro(v.m, v.h); dist != nil {
		family = dist.Family
	}
	for _, want := range []string{family, "upstream"} {
		for _, rd := range v.m.RoCEDefaults {
			if rd.Family != want || rd.Mode != "v2" {
				continue
			}
			if len(rd.Adapters) > 0 && !slices.Contains(rd.Adapters, ma.ID) {
				continue
			}
			if rd.Since != "" {
				have := v.h.Host.OS.VersionID
				if want == "upstream" {
					have, _, _ = kernelBase(v.h.Host.KernelRelease)
				}
				if c, ok := compareVersions(have, rd.Since); !ok || c < 0 {
					continue
				}
			}
			rule := fmt.Sprintf("RDMA_CM defaults to RoCE %s on %s", rd.Mode, rd.Family)
			if rd.Since != "" {
				rule += " since " + rd.Since
			}
			rule += " for " + ma.Name
			return rd.Mode, v.ref("roce_default "+rd.Family, rd.Claim, rule)
		}
	}
	return "", Ref{}
}

// deviceSources list RDMA devices; any of them read means an empty device
// list is real.
var deviceSources = []string{"sys/class/infiniband", "cmd/rdma link show", "cmd/rdma dev show", "cmd/ibv_devices", "cmd/ibv_devinfo"}

// devicesListed reports whether the record can say "no RDMA device": a
// device source was read, or sysfs was in the snapshot but
// /sys/class/infiniband was not (the kernel creates it with the first
// RDMA device).
func (v view) devicesListed() bool {
	sysfs := false
	for _, s := range v.h.Sources {
		if s.Status != record.StatusOK {
			continue
		}
		for _, d := range deviceSources {
			if s.ID == d || strings.HasPrefix(s.ID, d+" ") {
				return true
			}
		}
		if strings.HasPrefix(s.ID, "sys/") {
			sysfs = true
		}
	}
	return sysfs
}

// isRXE recognises a SoftRoCE device: its provider, or (when the record
// does not name the provider) the rxe name the kernel and rdma link give
// it together with the absence of a PCI function.
func isRXE(d *record.RDMADevice) bool {
	if d.Provider != "" {
		return d.Provider == "rdma_rxe" || d.Provider == "rxe"
	}
	return strings.HasPrefix(d.Name, "rxe") && d.PCIAddress == ""
}

// checkRXE flags SoftRoCE devices on hosts that also have hardware RoCE.
//
// Severity: warning. Both work, but an application that picks the first
// RDMA device, or a GID on the shared netdev, can end up on the software
// path at a fraction of the hardware's speed, and the same netdev then has
// two RoCE devices.
func checkRXE(h *record.Host, m *matrix.Matrix) Result {
	v := newView(h, m)
	var r Result
	if len(h.Devices) == 0 {
		if v.devicesListed() {
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "no RDMA device, so no SoftRoCE device"})
			return r
		}
		r.Notes = append(r.Notes, v.noDevices("SoftRoCE"))
		return r
	}
	var rxe, hw []*record.RDMADevice
	for i := range h.Devices {
		d := &h.Devices[i]
		switch {
		case isRXE(d):
			rxe = append(rxe, d)
		case d.PCIAddress != "" && hasEthernetPort(d):
			hw = append(hw, d)
		}
	}
	if len(rxe) == 0 {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "no SoftRoCE (rxe) device"})
		return r
	}
	if len(hw) == 0 {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "SoftRoCE is the only RoCE on this host"})
		return r
	}
	var hwNames []string
	netdevs := map[string]string{}
	for _, d := range hw {
		hwNames = append(hwNames, d.Name)
		for _, p := range d.Ports {
			if p.Netdev != "" {
				netdevs[p.Netdev] = d.Name
			}
		}
	}
	sort.Strings(hwNames)
	for _, d := range rxe {
		ev := []Evidence{v.deviceFact(d, "provider", d.Name+" is a SoftRoCE device"+onParent(d.Parent))}
		for _, hd := range hw {
			ev = append(ev, v.deviceFact(hd, "pci_address", hd.Name+" is hardware RoCE on "+hd.PCIAddress))
		}
		msg := fmt.Sprintf("SoftRoCE device %s runs beside hardware RoCE (%s)", d.Name, strings.Join(hwNames, ", "))
		if hwd, ok := netdevs[d.Parent]; ok && d.Parent != "" {
			msg = fmt.Sprintf("SoftRoCE device %s rides on %s, which %s already serves in hardware", d.Name, d.Parent, hwd)
		}
		r.Findings = append(r.Findings, Finding{
			Severity: Warning, Subject: d.Name,
			Message:     msg,
			Explanation: "rdma_rxe implements RoCE v2 in software on any netdev. On a host with a RoCE adapter it adds a second, much slower RDMA device; applications and libraries that pick a device by order or by GID can land on it.",
			Fix:         "Remove it unless it is wanted: rdma link delete " + d.Name + " (and stop whatever creates it at boot, e.g. an rdma link add in a unit or script).",
			Evidence:    ev,
			Matrix:      rxeRefs(v),
		})
	}
	return r
}

func rxeRefs(v view) []Ref {
	if d := v.m.Driver("rdma_rxe"); d != nil {
		return []Ref{v.ref("driver rdma_rxe", d.Claim, "rdma_rxe is a software RoCE implementation that binds to an existing netdev")}
	}
	return nil
}

func onParent(p string) string {
	if p == "" {
		return ""
	}
	return " on " + p
}

func hasEthernetPort(d *record.RDMADevice) bool {
	for _, p := range d.Ports {
		if isEthernetPort(p) {
			return true
		}
	}
	return false
}

// noPortNote is the note for a device the record lists without ports.
func noPortNote(d *record.RDMADevice, pci string) Note {
	return Note{Subject: d.Name, Adapter: pci, Status: Unknown, Text: "the record lists no port for " + d.Name}
}

// roCEPort reports whether p is an Ethernet (RoCE) port. For any other port
// it notes why the port is left out: unknown without a link layer, passed
// when the link layer is not Ethernet.
func roCEPort(r *Result, subj, pci string, p record.Port) bool {
	switch {
	case p.LinkLayer == "":
		r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Unknown, Text: "the record has no link layer for " + subj})
		return false
	case !isEthernetPort(p):
		r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Pass, Text: subj + " is " + p.LinkLayer + ", not RoCE"})
		return false
	}
	return true
}
