package diagnose

import (
	"fmt"

	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/source"
)

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

// checkGIDEmpty flags Ethernet RDMA ports whose GID table is empty.
//
// Severity: error. RoCE addresses peers by GID; a port without any cannot
// form a RoCE connection. mlx5 documents that with RoCE disabled "there is
// no gid table".
func checkGIDEmpty(v view) Result {
	var r Result
	noPorts := func(d *record.RDMADevice, pci string) {
		// show_gids prints every populated GID of every device and
		// port; read without a line for this device, its table is empty.
		if s := v.source(source.ShowGIDs); s != nil && s.Status == record.StatusOK {
			r.Findings = append(r.Findings, Finding{
				Severity: Error, Subject: d.Name, Adapter: pci,
				Message:     "show_gids lists no GID for " + d.Name,
				Explanation: "show_gids prints every populated GID of every RDMA device and port, and printed none for this device: its GID table is empty as seen from where the snapshot was taken. RoCE cannot address peers without GIDs. Inside a container this usually means the pod's network namespace does not hold the device's netdev, or the netdev has no address.",
				Fix:         "Check that the device's netdev is up with an IP address in the namespace that runs the application (for pods: the CNI or SR-IOV device plugin must move the netdev in), and that RoCE is enabled on the function.",
				Evidence:    []Evidence{{Fact: "cmd/show_gids was read and has no line for " + d.Name, Source: s.ID}},
			})
			return
		}
		r.Notes = append(r.Notes, noPortNote(d, pci))
	}
	for rp := range v.rocePorts(&r, "GIDs", noPorts) {
		d, p, subj, pci := rp.Dev, rp.Port, rp.Subject, rp.Adapter
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
	return r
}
