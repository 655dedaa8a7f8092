package diagnose

import (
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/record"
)

// gid-link-local-only on the healthy ConnectX-5 host given the GID tables
// of real captures: Mooncake#1617's rocep193s0f0 (show_gids: two fe80 GIDs
// of enp193s0f0np0, v1 and v2, and nothing else), nccl#769's mlx5_bond_0
// (the same two and the GIDs of 200.0.209.6), the AMD rocep105s0 of
// Mooncake#1617 (fe80 and a unique-local fd93: GID) and a redacted table,
// whose fe80::/64 prefix survives.
func TestGIDLinkLocalOnly(t *testing.T) {
	t.Parallel()
	gids := func(link string, g ...record.GID) func(*record.Host) {
		return func(h *record.Host) {
			p := &h.Devices[0].Ports[0]
			p.LinkLayer, p.Netdev, p.GIDs, p.GIDCounts = link, "", g, record.GIDCounts{}
		}
	}
	ll1 := record.GID{Index: 0, GID: "fe80:0000:0000:0000:7ec2:55ff:feba:ff88", Type: "IB/RoCE v1", Netdev: "enp193s0f0np0"}
	ll2 := record.GID{Index: 1, GID: "fe80:0000:0000:0000:7ec2:55ff:feba:ff88", Type: "RoCE v2", Netdev: "enp193s0f0np0"}
	v4 := record.GID{Index: 3, GID: "0000:0000:0000:0000:0000:ffff:c800:d106", Type: "RoCE v2", IPv4Mapped: true}
	ula := record.GID{Index: 1, GID: "fd93:16d3:59b6:010d:0690:81ff:fe39:e3e8", Type: "RoCE v2", Netdev: "enp105s0"}
	redacted := record.GID{Index: 1, GID: "fe80:0000:0000:0000:guid-2b8632", Type: "RoCE v2"}
	redactedULA := record.GID{Index: 1, GID: "ipv6-unique-local-bcb512:guid-ad90a6", Type: "RoCE v2"}
	runCases(t, "gid-link-local-only", []checkCase{
		{"counts only", healthy, Unknown, "", ""},
		{"only link-local (Mooncake#1617)", with(healthy, gids("Ethernet", ll1, ll2)), Found, Warning, "mlx5_0/1"},
		{"only link-local, no link layer (show_gids alone)", with(healthy, gids("", ll1, ll2)), Found, Warning, "mlx5_0/1"},
		{"link-local v1 only, no link layer: not judged", with(healthy, gids("", ll1)), Unknown, "", ""},
		{"IPv4 GID (nccl#769)", with(healthy, gids("Ethernet", ll1, ll2, v4)), Pass, "", ""},
		{"unique-local IPv6 GID", with(healthy, gids("Ethernet", ll2, ula)), Pass, "", ""},
		{"redacted link-local", with(healthy, gids("Ethernet", redacted)), Found, Warning, "mlx5_0/1"},
		{"redacted unique-local", with(healthy, gids("Ethernet", redacted, redactedULA)), Pass, "", ""},
		{"InfiniBand port", with(healthy, gids("InfiniBand", ll1)), Pass, "", ""},
	})
	r, _ := Evaluate(tm(t), with(healthy, gids("Ethernet", ll1, ll2))(), "gid-link-local-only")
	f := r.Findings[0]
	if !strings.Contains(f.Message, "enp193s0f0np0") || !strings.Contains(f.Fix, "dev enp193s0f0np0") || !strings.Contains(f.Evidence[0].Fact, "GID[1] fe80:0000:0000:0000:7ec2:55ff:feba:ff88 RoCE v2") {
		t.Errorf("finding = %q / %q / %+v", f.Message, f.Fix, f.Evidence)
	}
}
