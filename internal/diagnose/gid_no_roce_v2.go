package diagnose

import (
	"fmt"

	"github.com/rocekb/rocekb/internal/rule"
)

// checkGIDv2 flags Ethernet ports of v2-capable adapters with GIDs but
// none of type RoCE v2.
//
// Severity: warning. RoCE v1 still works inside one L2 domain, but RoCE v2
// peers, routed traffic and the RDMA_CM v2 default cannot use the port.
func checkGIDv2(v view) Result {
	var r Result
	for rp := range v.rocePorts(&r, "GID types", nil) {
		d, p, subj, pci := rp.Dev, rp.Port, rp.Subject, rp.Adapter
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
			r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Pass, Text: "the adapter behind " + d.Name + " does RoCE v1 only", Matrix: []rule.Ref{*ref}})
			continue
		}
		r.Findings = append(r.Findings, Finding{
			Severity: Warning, Subject: subj, Adapter: pci,
			Message:     fmt.Sprintf("%s has %d GIDs, none of type RoCE v2, on a v2-capable adapter", subj, gidTotal(p)),
			Explanation: "The GID type (gid_attrs/types) says which RoCE version a GID is used with. Without RoCE v2 GIDs the port speaks only RoCE v1: no routing over IP and no connection from RoCE v2 peers.",
			Fix:         "Check that the firmware enables RoCE v2 (for mlx5 the firmware's roce_version capability; update the firmware) and that the kernel and driver are recent enough to create RoCE v2 GIDs; then check the GID table again (show_gids, or ibv_devinfo -v).",
			Evidence:    []Evidence{v.deviceFact(d, fmt.Sprintf("port.%d.gid", p.Number), fmt.Sprintf("%s GIDs: %d RoCE v1, 0 RoCE v2", subj, c.RoCEv1))},
			Matrix:      []rule.Ref{*ref},
		})
	}
	return r
}
