package diagnose

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/rocekb/rocekb/internal/record"
)

// vlanName matches VLAN netdev names: eth0.100, vlan100.
var vlanName = regexp.MustCompile(`^(.+\.\d+|vlan\d+)$`)

// stackedKind says whether a netdev is a bond or a VLAN, from its driver
// (ethtool -i prints "bonding" and "802.1Q VLAN Support") or its name.
func stackedKind(n *record.Netdev, name string) string {
	drv := ""
	if n != nil {
		drv = strings.ToLower(n.Driver)
	}
	switch {
	case drv == "bonding" || drv == "team" || strings.HasPrefix(name, "bond") || strings.HasPrefix(name, "team"):
		return "bond"
	case strings.Contains(drv, "802.1q") || drv == "vlan" || vlanName.MatchString(name):
		return "VLAN"
	}
	return ""
}

// netdev returns the record netdev with the given name, or nil.
func (v view) netdev(name string) *record.Netdev {
	for i := range v.h.Netdevs {
		if v.h.Netdevs[i].Name == name {
			return &v.h.Netdevs[i]
		}
	}
	return nil
}

// checkRXEInUse reports SoftRoCE devices.
//
// Severity: info for lab use (rxe is a software RoCE v2 for tests and
// development, far slower than an adapter); warning when it sits on a bond
// or VLAN (rxe follows one netdev's addresses, and bond failover or VLAN
// GIDs are known trouble spots) or its GID table was read empty (it cannot
// address peers).
func checkRXEInUse(v view) Result {
	h := v.h
	var r Result
	if len(h.Devices) == 0 {
		if v.devicesListed() {
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "no RDMA device, so no SoftRoCE device"})
		} else {
			r.Notes = append(r.Notes, v.noDevices("SoftRoCE use"))
		}
		return r
	}
	seen := false
	for i := range h.Devices {
		d := &h.Devices[i]
		if !isRXE(d) {
			continue
		}
		seen = true
		ev := []Evidence{v.deviceFact(d, "provider", d.Name+" is a SoftRoCE (rdma_rxe) device"+onParent(d.Parent))}
		sev := Info
		msg := "SoftRoCE device " + d.Name + onParent(d.Parent) + ": software RoCE, for lab use"
		expl := "rdma_rxe implements RoCE v2 in the kernel on top of an ordinary netdev. It is meant for development and tests: it uses the CPU for every packet and reaches a fraction of an adapter's rate and latency."
		fix := "Nothing to do for a lab host. For production traffic use a RoCE adapter, and remove the device when it is not wanted: rdma link delete " + d.Name + "."
		parent := d.Parent
		if parent == "" {
			for _, p := range d.Ports {
				if p.Netdev != "" {
					parent = p.Netdev
				}
			}
		}
		if kind := stackedKind(v.netdev(parent), parent); kind != "" {
			sev = Warning
			nd := v.netdev(parent)
			f := parent + " is a " + kind
			src := ""
			if nd != nil {
				src = nd.Origin
				if nd.Driver != "" {
					f += " (driver " + nd.Driver + ")"
					src = fromSource(nd.From, "driver")
				}
			}
			ev = append(ev, Evidence{Fact: f, Source: src})
			msg = fmt.Sprintf("SoftRoCE device %s sits on the %s %s", d.Name, kind, parent)
			expl = "rdma_rxe binds to one netdev and takes its GIDs from that netdev's addresses. On a bond, failover moves the traffic but not the rxe device's state, and on a VLAN netdev the GIDs and the VLAN tag depend on the netdev stacking; both are known trouble spots for SoftRoCE."
			fix = "Create the rxe device on the physical netdev under the " + kind + " (rdma link add rxe0 type rxe netdev <physical netdev>), or use a RoCE adapter, which handles bonds (RoCE LAG) and VLANs in hardware."
		}
		for _, p := range d.Ports {
			if gidTotal(p) == 0 && gidsRead(d, p) {
				sev = Warning
				ev = append(ev, Evidence{Fact: fmt.Sprintf("%s 0 GIDs", portSubject(d, p)), Source: fromSource(d.From, fmt.Sprintf("port.%d.gid", p.Number))})
				msg = fmt.Sprintf("SoftRoCE device %s has no GIDs", d.Name)
				expl = "rdma_rxe takes its GIDs from the IP addresses of the netdev it sits on; with none, it cannot address a peer."
				fix = "Give " + rulesOr(parent, "its netdev") + " an IP address and bring it up (ip addr add …; ip link set … up), then check the GIDs (rdma link show; ibv_devinfo -v)."
			}
		}
		r.Findings = append(r.Findings, Finding{
			Severity: sev, Subject: d.Name,
			Message: msg, Explanation: expl, Fix: fix, Evidence: ev, Matrix: rxeRefs(v),
		})
	}
	if !seen {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "no SoftRoCE (rxe) device"})
	}
	return r
}
