package diagnose

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/rocekb/rocekb/internal/record"
)

// checkGIDLinkLocal flags Ethernet RDMA ports whose GID table holds only
// the default GIDs, those of the IPv6 link-local prefix fe80::/64 the port
// always has, and no GID of an IP address: the port's netdev has no IPv4
// address and no routable IPv6 one. NVIDIA's RoCE documentation: GID table
// entries "are created whenever an IP address is configured on one of the
// Ethernet devices of the NIC's ports", the link-local ones "always
// pre-set (the default GIDs)" (content/faq/gid-index-rtr.md).
//
// Severity: warning. A link-local GID is not routed, RDMA_CM resolves
// peers by IP address, and applications that pick a GID of an IPv4 or
// routable address (NCCL, UCX, perftest -x with the usual index) find
// none; RoCE inside one L2 segment over the link-local GID may still work.
//
// GIDs are judged only when the record holds their values (sysfs gids,
// show_gids, ibv_devinfo -v): counts alone say nothing of the addresses.
// A redacted GID keeps its fe80::/64 prefix and its IPv4 mark, so the
// check reads redacted records alike.
func checkGIDLinkLocal(v view) Result {
	var r Result
	for rp := range v.gidPorts(&r, "GID addresses") {
		d, p, subj, pci := rp.Dev, rp.Port, rp.Subject, rp.Adapter
		switch {
		case gidTotal(p) == 0:
			r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Unknown, Text: subj + " has no GIDs at all (gid-table-empty reports it)"})
			continue
		case len(p.GIDs) == 0:
			r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Unknown, Text: subj + " has GIDs but the record does not give their values, so it does not say which addresses they come from"})
			continue
		}
		var ip []string
		for _, g := range p.GIDs {
			if !linkLocalGID(g) {
				ip = append(ip, fmt.Sprintf("GID[%d] %s", g.Index, g.GID))
			}
		}
		if len(ip) > 0 {
			r.Notes = append(r.Notes, Note{Subject: subj, Adapter: pci, Status: Pass, Text: fmt.Sprintf("%s has %d GIDs of IP addresses (%s)", subj, len(ip), ip[0])})
			continue
		}
		netdev := gidNetdev(p)
		var shown []string
		for _, g := range p.GIDs {
			s := fmt.Sprintf("GID[%d] %s", g.Index, g.GID)
			if g.Type != "" {
				s += " " + g.Type
			}
			shown = append(shown, s)
		}
		fact := fmt.Sprintf("%s GIDs: %s", subj, strings.Join(shown, "; "))
		on := "its netdev"
		if netdev != "" {
			on = "its netdev " + netdev
			fact += " (netdev " + netdev + ")"
		}
		fix := "Give the port's netdev an IP address and bring it up: ip addr add <address>/<prefix> dev <netdev>; ip link set <netdev> up. Each address adds a GID per RoCE type; check with show_gids or ibv_devinfo -v, then use the RoCE v2 GID of that address (perftest -x <index>, NCCL_IB_GID_INDEX) or connect by that address through RDMA_CM. If the netdev is a bond slave, the address belongs on the bond master (its GIDs appear on active slaves only)."
		if netdev != "" {
			fix = strings.ReplaceAll(fix, "<netdev>", netdev)
		}
		r.Findings = append(r.Findings, Finding{
			Severity: Warning, Subject: subj, Adapter: pci,
			Message:     fmt.Sprintf("%s has only link-local GIDs (fe80::/64), no GID of an IP address: %s has no IPv4 or routable IPv6 address", subj, on),
			Explanation: "The GID table of a RoCE port is built from the IP addresses of its netdevs (and of VLANs, aliases and the bond master of an active slave); the link-local GIDs are always there, whatever the addresses. A table with only fe80:: GIDs means no IP address is configured: link-local GIDs are not routed, RDMA_CM (rping, ib_write_bw -R, NVMe-oF, NFS/RDMA) resolves peers by IP address, and NCCL, UCX and perftest's usual GID index look for a GID of an IPv4 or routable address.",
			Fix:         fix,
			Evidence:    []Evidence{v.deviceFact(d, fmt.Sprintf("port.%d.gid", p.Number), fact)},
		})
	}
	return r
}

// linkLocalGID reports whether a GID is one of the port's default GIDs,
// of the IPv6 link-local prefix fe80::/64. A redacted GID keeps that
// prefix as written and tokenises the rest, so the written prefix decides
// when the GID does not parse.
func linkLocalGID(g record.GID) bool {
	if g.IPv4Mapped {
		return false
	}
	s := strings.ToLower(strings.TrimSpace(g.GID))
	if a, err := netip.ParseAddr(s); err == nil {
		return netip.MustParsePrefix("fe80::/64").Contains(a.WithZone(""))
	}
	return strings.HasPrefix(s, "fe80:0000:0000:0000:") || strings.HasPrefix(s, "fe80::")
}

// gidNetdev is the netdev of a port's GIDs: the port's, else the one its
// GIDs name when they all name the same.
func gidNetdev(p record.Port) string {
	if p.Netdev != "" {
		return p.Netdev
	}
	n := ""
	for _, g := range p.GIDs {
		switch {
		case g.Netdev == "":
		case n == "":
			n = g.Netdev
		case n != g.Netdev:
			return ""
		}
	}
	return n
}

func hasRoCEv2GID(p record.Port) bool {
	if p.GIDCounts.RoCEv2 > 0 {
		return true
	}
	for _, g := range p.GIDs {
		if g.Type == "RoCE v2" {
			return true
		}
	}
	return false
}
