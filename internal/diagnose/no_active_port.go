package diagnose

import (
	"fmt"
	"strings"

	"github.com/rocekb/rocekb/internal/record"
)

// checkActivePort flags RDMA devices none of whose ports is ACTIVE.
//
// Severity: error. Without an ACTIVE port the device carries no RDMA
// traffic at all. Warning when every port's phys_state is Disabled: the
// port was turned off, often on purpose for an unused port, so it is only
// the cause when that device is expected to carry traffic.
func checkActivePort(v view) Result {
	var r Result
	for d, pci := range v.devices(&r, "port state") {
		if len(d.Ports) == 0 {
			r.Notes = append(r.Notes, noPortNote(d, pci))
			continue
		}
		var ev []Evidence
		active, unread := false, false
		for _, p := range d.Ports {
			state, how := portState(p)
			if state == "" {
				unread = true
				continue
			}
			if strings.EqualFold(state, "ACTIVE") {
				active = true
			}
			fact := fmt.Sprintf("%s port %d %s", d.Name, p.Number, how)
			if p.PhysState != "" {
				fact += ", phys_state " + p.PhysState
			}
			ev = append(ev, v.deviceFact(d, fmt.Sprintf("port.%d.state", p.Number), fact))
		}
		switch {
		case active:
			r.Notes = append(r.Notes, Note{Subject: d.Name, Adapter: pci, Status: Pass, Text: d.Name + " has an ACTIVE port"})
		case v.siblingActive(d) != "":
			r.Notes = append(r.Notes, Note{Subject: d.Name, Adapter: pci, Status: Pass, Text: v.siblingActive(d) + " on the same card is ACTIVE, so port-down reports " + d.Name})
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

// siblingActive names an ACTIVE port of another function of the card
// behind d (see cardOf), or "".
func (v view) siblingActive(d *record.RDMADevice) string {
	card, ok := v.cardOf(d)
	if !ok {
		return ""
	}
	ix := v.lookup()
	if ix.active == nil {
		// Each card's devices with an ACTIVE port, in record order, and
		// that port (the first ACTIVE one).
		ix.active = map[string][]activePort{}
		for i := range v.h.Devices {
			o := &v.h.Devices[i]
			c, ok := v.cardOf(o)
			if !ok {
				continue
			}
			for _, p := range o.Ports {
				if strings.EqualFold(p.State, "ACTIVE") {
					ix.active[c] = append(ix.active[c], activePort{o.Name, portSubject(o, p)})
					break
				}
			}
		}
	}
	for _, a := range ix.active[card] {
		if a.device != d.Name {
			return a.port
		}
	}
	return ""
}

// activePort is a device's first ACTIVE port.
type activePort struct{ device, port string }
