package collect

import (
	"errors"
	"strings"

	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
	"github.com/rocekb/rocekb/internal/sysfs"
)

// Collect reads a snapshot into a host record.
func Collect(s *snapshot.Snapshot) (*record.Host, error) {
	h := &record.Host{Schema: record.Schema, Host: record.HostInfo{SourceKind: s.Kind}}
	devs, err := sysfs.InfiniBand(s.FS())
	switch {
	case errors.Is(err, sysfs.ErrAbsent):
		h.Sources = append(h.Sources, record.Source{ID: "sys/class/infiniband", Status: record.StatusAbsent, Reason: "no RDMA devices: the class folder does not exist"})
	case err != nil:
		h.Sources = append(h.Sources, record.Source{ID: "sys/class/infiniband", Status: record.StatusFailed, Reason: err.Error()})
	default:
		h.Sources = append(h.Sources, record.Source{ID: "sys/class/infiniband", Status: record.StatusOK})
	}
	for _, d := range devs {
		rd := record.RDMADevice{Name: d.Name, NodeType: d.NodeType, FwVer: d.FwVer, HCAType: d.HCAType, BoardID: d.BoardID, NodeGUID: d.NodeGUID}
		for _, p := range d.Ports {
			rp := record.Port{Number: p.Number, State: afterColon(p.State), PhysState: afterColon(p.PhysState), LinkLayer: p.LinkLayer, Rate: p.Rate}
			for _, g := range p.GIDs {
				rg := record.GID{Index: g.Index, GID: g.GID, Type: g.Type, Netdev: g.Netdev, IPv4Mapped: strings.HasPrefix(g.GID, "0000:0000:0000:0000:0000:ffff:")}
				switch {
				case g.Type == "RoCE v2":
					rp.GIDCounts.RoCEv2++
				case g.Type == "IB/RoCE v1" && p.LinkLayer == "Ethernet":
					rp.GIDCounts.RoCEv1++
				case g.Type == "IB/RoCE v1":
					rp.GIDCounts.IB++
				default:
					rp.GIDCounts.Other++
				}
				if rg.IPv4Mapped {
					rp.GIDCounts.IPv4++
				}
				if rp.Netdev == "" {
					rp.Netdev = g.Netdev
				}
				rp.GIDs = append(rp.GIDs, rg)
			}
			rd.Ports = append(rd.Ports, rp)
		}
		h.Devices = append(h.Devices, rd)
	}
	h.Host.HasRDMA = len(h.Devices) > 0
	return h, nil
}

// afterColon turns sysfs "4: ACTIVE" into "ACTIVE".
func afterColon(s string) string {
	if i := strings.Index(s, ": "); i >= 0 {
		return s[i+2:]
	}
	return s
}
