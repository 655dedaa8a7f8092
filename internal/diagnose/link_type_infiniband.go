package diagnose

import (
	"fmt"
	"strings"

	"github.com/rocekb/rocekb/internal/record"
)

// checkLinkTypeIB flags ports of NVIDIA (Mellanox) VPI adapters that run,
// or will run after the next reset, as InfiniBand: RoCE is RDMA over
// Ethernet, so such a port carries none, whatever the driver and firmware.
// A VPI port's type is a setting stored in the adapter, LINK_TYPE_P<n>
// (IB(1) or ETH(2)) of mlxconfig's query, and ConnectX-6/7 VPI ports start
// as InfiniBand (content/faq/roce-disabled-at-probe.md).
//
// Severity: warning for a port the configuration query shows set to
// IB(1), now or at the next boot: someone stored it, and a customer who
// pasted the query asks about RoCE. Info for a verbs port whose
// link_layer is InfiniBand with no configuration query: it is a fact of
// the host, the cause when RoCE was meant, and nothing on an InfiniBand
// fabric.
func checkLinkTypeIB(v view) Result {
	h := v.h
	var r Result
	stored := map[string]bool{}   // PCI slots whose query already says IB
	reported := map[string]bool{} // PCI slots with a verbs port reported
	for _, mc := range h.MlxConfig {
		subj := mc.Device
		if subj == "" {
			subj = "mlxconfig device"
			if mc.DeviceType != "" {
				subj = mc.DeviceType
			}
		}
		seen := false
		for _, p := range mc.Params {
			port, ok := strings.CutPrefix(p.Name, "LINK_TYPE_P")
			if !ok {
				continue
			}
			seen = true
			now, col := linkTypeNow(mc, p)
			next := p.NextBoot
			psubj := subj + " port " + port
			ev := Evidence{Fact: mlxconfigFact(mc, p), Source: mc.Source, Line: p.Line}
			switch {
			case isIBType(now):
				if mc.PCIAddress != "" {
					stored[slotOf(mc.PCIAddress)] = true
				}
				f := Finding{
					Severity: Warning, Subject: psubj, Adapter: mc.PCIAddress,
					Message:     fmt.Sprintf("%s is set to InfiniBand (%s %s in the %s column of the adapter's configuration): it carries no RoCE", psubj, p.Name, now, col),
					Explanation: "RoCE is RDMA over Ethernet. A ConnectX VPI port runs the link type stored in the adapter, LINK_TYPE_P<n>: IB(1) or ETH(2); set to InfiniBand, the port comes up as an InfiniBand port (ibv_devinfo link_layer: InfiniBand), so RoCE cannot run on it whatever the driver and firmware. ConnectX-6 and ConnectX-7 VPI ports start as InfiniBand.",
					Fix:         fmt.Sprintf("If the port should carry RoCE, store Ethernet: mlxconfig -d %s set %s=2 (mstconfig takes the same arguments), then reboot or reset the adapter (mlxfwreset) so the firmware loads it, and check that ibv_devinfo shows link_layer: Ethernet. If the port is meant for an InfiniBand fabric, nothing to do.", mlxDeviceArg(mc), p.Name),
					Evidence:    []Evidence{ev},
				}
				r.Findings = append(r.Findings, f)
			case isIBType(next) && next != now:
				r.Findings = append(r.Findings, Finding{
					Severity: Warning, Subject: psubj, Adapter: mc.PCIAddress,
					Message:     fmt.Sprintf("%s runs %s now but is set to InfiniBand (%s) from the next reset: it will carry no RoCE then", psubj, now, next),
					Explanation: "The adapter loads its stored configuration at a reset or power cycle. LINK_TYPE_P<n> IB(1) makes the port an InfiniBand port, on which RoCE (RDMA over Ethernet) cannot run.",
					Fix:         fmt.Sprintf("If the port should keep RoCE, store Ethernet before the next reset: mlxconfig -d %s set %s=2.", mlxDeviceArg(mc), p.Name),
					Evidence:    []Evidence{ev},
				})
			case now == "" && next == "":
				r.Notes = append(r.Notes, Note{Subject: psubj, Adapter: mc.PCIAddress, Status: Unknown, Text: "the record has no value for " + p.Name})
			default:
				r.Notes = append(r.Notes, Note{Subject: psubj, Adapter: mc.PCIAddress, Status: Pass, Text: fmt.Sprintf("%s is %s, not InfiniBand", p.Name, firstNonEmpty(now, next))})
			}
		}
		if !seen {
			r.Notes = append(r.Notes, Note{Subject: subj, Adapter: mc.PCIAddress, Status: Pass, Text: "the configuration query lists no LINK_TYPE_P<n>: the adapter has no port type to set (an Ethernet-only card), or the paste left it out"})
		}
	}
	for i := range h.Devices {
		d := &h.Devices[i]
		if !isMellanoxDevice(v, d) {
			continue
		}
		pci := adapterPCI(v, d)
		for _, p := range d.Ports {
			if !strings.EqualFold(p.LinkLayer, "InfiniBand") {
				continue
			}
			subj := portSubject(d, p)
			if pci != "" && stored[slotOf(pci)] {
				r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Pass, Text: subj + " is InfiniBand as its adapter's stored LINK_TYPE says (reported there)"})
				continue
			}
			if pci != "" {
				reported[slotOf(pci)] = true
			}
			fact := fmt.Sprintf("%s link_layer InfiniBand", subj)
			if p.State != "" {
				fact += ", state " + p.State
			}
			r.Findings = append(r.Findings, Finding{
				Severity: Info, Subject: subj, Adapter: pci,
				Message:     subj + " runs InfiniBand, not Ethernet: it carries no RoCE",
				Explanation: "RoCE is RDMA over Ethernet, so only a port whose link_layer is Ethernet carries it. On a ConnectX VPI adapter the port type is a setting stored in the adapter (LINK_TYPE_P<n>, IB(1) or ETH(2)), and ConnectX-6 and ConnectX-7 VPI ports start as InfiniBand; an InfiniBand-only card has no Ethernet mode. This is the cause when RoCE was meant to run here, and nothing to fix on an InfiniBand fabric.",
				Fix:         "If the port should carry RoCE, read its stored type (mlxconfig -d <pci> query | grep LINK_TYPE, or mstconfig) and set Ethernet: mlxconfig -d <pci> set LINK_TYPE_P<n>=2, then reboot or mlxfwreset; check ibv_devinfo shows link_layer: Ethernet.",
				Evidence:    []Evidence{v.deviceFact(d, fmt.Sprintf("port.%d.link_layer", p.Number), fact)},
			})
		}
	}
	// ConnectX-3 (mlx4) ports: the type is a file on the PCI function,
	// mlx4_port<N>, which takes ib, eth or auto, read here when no verbs
	// port of the card was reported above.
	for i := range h.Adapters {
		a := &h.Adapters[i]
		for _, mp := range a.MLX4Ports {
			t := strings.ToLower(mp.Type)
			if t != "ib" && !strings.Contains(t, "(ib)") {
				continue
			}
			if reported[slotOf(a.PCIAddress)] || stored[slotOf(a.PCIAddress)] {
				continue
			}
			subj := fmt.Sprintf("%s port %d", a.PCIAddress, mp.Port)
			r.Findings = append(r.Findings, Finding{
				Severity: Info, Subject: subj, Adapter: a.PCIAddress,
				Message:     fmt.Sprintf("%s runs InfiniBand (mlx4_port%d %s), not Ethernet: it carries no RoCE", subj, mp.Port, mp.Type),
				Explanation: "RoCE is RDMA over Ethernet. A ConnectX-3 (mlx4) VPI port's type is the file mlx4_port<N> of its PCI function: ib, eth or auto. This is the cause when RoCE was meant to run here, and nothing to fix on an InfiniBand fabric.",
				Fix:         fmt.Sprintf("If the port should carry RoCE: echo eth > /sys/bus/pci/devices/%s/mlx4_port%d (read-only while the device runs SR-IOV functions; then set the mlx4_core parameter port_type_array, 2 for Ethernet, and reload).", a.PCIAddress, mp.Port),
				Evidence:    []Evidence{adapterFact(a, fmt.Sprintf("mlx4_port%d", mp.Port), mp.Type)},
			})
		}
	}
	if len(r.Findings) == 0 && len(r.Notes) == 0 {
		if len(h.Devices) == 0 && len(h.Adapters) == 0 {
			r.Notes = append(r.Notes, v.noDevices("the port types"))
		} else {
			r.Notes = append(r.Notes, Note{Subject: "host", Status: Pass, Text: "no NVIDIA port is InfiniBand and no configuration query sets one"})
		}
	}
	return r
}

// linkTypeNow is the port type the adapter runs with and the column it
// was read from: Current, else the lone Next Boot column of a query
// without -e (the running value unless a change is pending), else the
// value of a line with no header.
func linkTypeNow(mc record.MlxConfig, p record.MlxConfigParam) (string, string) {
	switch {
	case p.Current != "":
		return p.Current, "Current"
	case p.NextBoot != "" && len(mc.Columns) == 1:
		return p.NextBoot, "Next Boot"
	case p.Value != "":
		return p.Value, "only"
	}
	return "", ""
}

func isIBType(v string) bool { return strings.HasPrefix(strings.ToUpper(v), "IB(") }

func mlxconfigFact(mc record.MlxConfig, p record.MlxConfigParam) string {
	var parts []string
	for _, c := range []struct{ k, v string }{{"default", p.Default}, {"current", p.Current}, {"next_boot", p.NextBoot}, {"value", p.Value}} {
		if c.v != "" {
			parts = append(parts, c.k+" "+c.v)
		}
	}
	dev := mc.Device
	if dev == "" {
		dev = "(device not in the paste)"
	}
	return fmt.Sprintf("mlxconfig %s %s %s", dev, p.Name, strings.Join(parts, ", "))
}

func mlxDeviceArg(mc record.MlxConfig) string {
	if mc.Device != "" {
		return mc.Device
	}
	return "<pci>"
}

// slotOf is a PCI function's slot, domain:bus:device: the ports of one
// card share it.
func slotOf(pci string) string {
	if i := strings.LastIndexByte(pci, '.'); i > 0 {
		return pci[:i]
	}
	return pci
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// isMellanoxDevice reports whether an RDMA device is an NVIDIA (Mellanox)
// adapter's: its provider, its name, or its PCI vendor.
func isMellanoxDevice(v view, d *record.RDMADevice) bool {
	switch d.Provider {
	case "mlx4_ib", "mlx5_ib":
		return true
	}
	if strings.HasPrefix(d.Name, "mlx4_") || strings.HasPrefix(d.Name, "mlx5_") || strings.EqualFold(d.VendorID, "0x02c9") {
		return true
	}
	if a := v.adapterOf(d); a != nil && a.Vendor == "15b3" {
		return true
	}
	return strings.HasPrefix(d.PCIID, "15b3:")
}
