package diagnose

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/record"
)

// cardOf names the physical card behind an RDMA device: the PCI slot
// (domain:bus:device, without the function) of its adapter, so that the
// functions of one dual-port card group together, and the model the
// device reports (hca_type, vendor_part_id or the PCI device id), so that
// virtual functions, which share the slot under ARI but report another
// model (ConnectX-5 PF MT4119, its VF MT4120), are kept apart. ok is false
// when the record does not place the device on a PCI function.
func (v view) cardOf(d *record.RDMADevice) (string, bool) {
	pci := adapterPCI(v, d)
	if !isPCIAddress(pci) {
		return "", false
	}
	model := d.HCAType
	if model == "" {
		model = d.VendorPartID
	}
	if a := v.adapterOf(d); model == "" && a != nil && a.Device != "" {
		model = a.Vendor + ":" + a.Device
	}
	key := "slot " + pci[:len(pci)-2]
	if model != "" {
		key += " (" + model + ")"
	}
	return key, true
}

// checkPortDown flags ports that are not ACTIVE while another port of the
// same card is: a second port of a device, or a port of another function
// of the same PCI slot.
//
// Severity: warning, for a port whose link is down (Polling, no cable or
// no partner): half the card's bandwidth or its redundancy is gone. Info
// when the port's phys_state is Disabled: it was turned off, often on
// purpose for an unused port.
// maxSiblings is how many ACTIVE ports of the card a down port's finding
// names and quotes.
const maxSiblings = 8

func checkPortDown(v view) Result {
	var r Result
	type port struct {
		d   *record.RDMADevice
		p   record.Port
		pci string
	}
	cards := map[string][]port{}
	for d, pci := range v.devices(&r, "port state") {
		key, ok := v.cardOf(d)
		if !ok {
			key = "device " + d.Name
			if len(d.Ports) < 2 {
				r.Notes = append(r.Notes, Note{Subject: d.Name, Adapter: pci, Status: Unknown, Text: "the record does not place " + d.Name + " on a PCI function, so its sibling ports are not known"})
				continue
			}
		}
		for _, p := range d.Ports {
			cards[key] = append(cards[key], port{d, p, pci})
		}
	}
	keys := make([]string, 0, len(cards))
	for k := range cards {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ps := cards[k]
		var active []string
		unread := false
		for _, x := range ps {
			state, _ := portState(x.p)
			if strings.EqualFold(state, "ACTIVE") {
				active = append(active, portSubject(x.d, x.p))
			}
			if state == "" {
				unread = true
			}
		}
		switch {
		case len(active) == 0:
			r.Notes = append(r.Notes, Note{Subject: ps[0].d.Name, Adapter: ps[0].pci, Status: Pass, Text: "no port of " + k + " is ACTIVE (no-active-port reports it)"})
			continue
		case len(ps) == 1:
			r.Notes = append(r.Notes, Note{Subject: portSubject(ps[0].d, ps[0].p), Adapter: ps[0].pci, Status: Pass, Text: "the only port the record lists on " + k + " is ACTIVE"})
			continue
		}
		// A card has a few ports; a record may claim thousands on one
		// slot, and naming every ACTIVE one in each down port's finding
		// grew as their product (a 20,000-device record never finished).
		shown, named := active, strings.Join(active, ", ")
		if len(active) > maxSiblings {
			shown = active[:maxSiblings]
			named = fmt.Sprintf("%s and %d more", strings.Join(shown, ", "), len(active)-maxSiblings)
		}
		down := 0
		for _, x := range ps {
			state, how := portState(x.p)
			if state == "" || strings.EqualFold(state, "ACTIVE") {
				continue
			}
			down++
			subj := portSubject(x.d, x.p)
			fact := fmt.Sprintf("%s %s", subj, how)
			if x.p.PhysState != "" {
				fact += ", phys_state " + x.p.PhysState
			}
			if x.p.Netdev != "" {
				fact += ", netdev " + x.p.Netdev
			}
			ev := []Evidence{v.deviceFact(x.d, fmt.Sprintf("port.%d.state", x.p.Number), fact)}
			for _, a := range shown {
				name, num, _ := strings.Cut(a, "/")
				ev = append(ev, v.deviceFact(v.device(name), "port."+num+".state", a+" state ACTIVE"))
			}
			sev, fix := Warning, "Check the cable or transceiver, the switch port and its configuration (speed, FEC), and the link (ethtool <netdev>); if the port is unused on purpose, disable it so it reads Disabled."
			if strings.EqualFold(x.p.PhysState, "Disabled") {
				sev, fix = Info, "If the port should carry traffic, enable it (ip link set <netdev> up, or the switch side), then check the cable and link; if it is unused on purpose, nothing to do."
			}
			r.Findings = append(r.Findings, Finding{
				Severity: sev, Subject: subj, Adapter: x.pci,
				Message:     fmt.Sprintf("%s is %s while %s on the same adapter is ACTIVE", subj, state, named),
				Explanation: "The adapter works on another port, so the driver and firmware are fine: this port has no link (cable, transceiver, switch port) or was turned off. Traffic meant for it, a bond or multipath member behind it, or the redundancy it gives is lost.",
				Fix:         fix,
				Evidence:    ev,
			})
		}
		if down == 0 {
			text := "every port of " + k + " is ACTIVE"
			st := Pass
			if unread {
				text, st = "the record lacks the state of a port of "+k, Unknown
			}
			r.Notes = append(r.Notes, Note{Subject: ps[0].d.Name, Adapter: ps[0].pci, Status: st, Text: text})
		}
	}
	return r
}
