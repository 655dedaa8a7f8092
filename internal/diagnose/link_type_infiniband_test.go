package diagnose

import (
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/record"
)

// link-type-infiniband on the healthy ConnectX-5 host given the port types
// of real captures: the ConnectX-7 whose mlxconfig query (Next Boot column
// only) stores LINK_TYPE_P1 IB(1) (sriov-network-device-plugin#601), the
// ConnectX-7 whose ibv_devinfo shows link_layer InfiniBand on a host meant
// for RoCE tests (DeepEP#38), and a ConnectX-4 Lx query with no
// LINK_TYPE at all, an Ethernet-only card (openshift/sriov-network-operator#48).
func TestLinkTypeInfiniBand(t *testing.T) {
	t.Parallel()
	query := func(mc record.MlxConfig) func(*record.Host) {
		return func(h *record.Host) { h.MlxConfig = append(h.MlxConfig, mc) }
	}
	cx7NextBoot := query(record.MlxConfig{Columns: []string{"Next Boot"}, Source: "sos_commands/kbcollect/mlxconfig_-d_pasted_query", Line: 1,
		Params: []record.MlxConfigParam{{Name: "LINK_TYPE_P1", NextBoot: "IB(1)", Line: 33}}})
	pending := query(record.MlxConfig{Device: "0000:3b:00.0", PCIAddress: "0000:3b:00.0", Columns: []string{"Default", "Current", "Next Boot"}, Source: "s",
		Params: []record.MlxConfigParam{{Name: "LINK_TYPE_P1", Default: "ETH(2)", Current: "ETH(2)", NextBoot: "IB(1)", Modified: true}}})
	eth := query(record.MlxConfig{Device: "0000:3b:00.0", PCIAddress: "0000:3b:00.0", Columns: []string{"Current"}, Source: "s",
		Params: []record.MlxConfigParam{{Name: "LINK_TYPE_P1", Current: "ETH(2)"}}})
	grep := query(record.MlxConfig{Source: "s", Params: []record.MlxConfigParam{{Name: "LINK_TYPE_P2", Value: "IB(1)"}}})
	cx4lx := query(record.MlxConfig{Device: "0000:05:00.1", PCIAddress: "0000:05:00.1", DeviceType: "ConnectX4LX", Source: "s"})
	ibPort := func(h *record.Host) { h.Devices[0].Ports[0].LinkLayer = "InfiniBand" }
	storedIB := query(record.MlxConfig{Device: "0000:3b:00.0", PCIAddress: "0000:3b:00.0", Columns: []string{"Current"}, Source: "s",
		Params: []record.MlxConfigParam{{Name: "LINK_TYPE_P1", Current: "IB(1)"}}})
	runCases(t, "link-type-infiniband", []checkCase{
		{"ethernet ports, no query", healthy, Pass, "", ""},
		{"query next boot only IB", with(healthy, cx7NextBoot), Found, Warning, "mlxconfig device port 1"},
		{"IB from the next reset", with(healthy, pending), Found, Warning, "0000:3b:00.0 port 1"},
		{"query ETH", with(healthy, eth), Pass, "", ""},
		{"grep line IB", with(healthy, grep), Found, Warning, "mlxconfig device port 2"},
		{"no LINK_TYPE (Ethernet-only card)", with(healthy, cx4lx), Pass, "", ""},
		{"verbs port InfiniBand", with(healthy, ibPort), Found, Info, "mlx5_0/1"},
		{"mlx4_port1 ib, no verbs port", with(healthy, func(h *record.Host) {
			h.Devices = nil
			h.Adapters[0].MLX4Ports = []record.MLX4Port{{Port: 1, Type: "ib"}, {Port: 2, Type: "auto (eth)"}}
		}), Found, Info, "0000:3b:00.0 port 1"},
		{"verbs port and query both IB: one finding", with(healthy, ibPort, storedIB), Found, Warning, "0000:3b:00.0 port 1"},
	})
	r, _ := Evaluate(tm(t), with(healthy, ibPort, storedIB)(), "link-type-infiniband")
	if len(r.Findings) != 1 {
		t.Errorf("findings = %d, want the stored setting's only: %+v", len(r.Findings), r.Findings)
	}
	r, _ = Evaluate(tm(t), with(healthy, pending)(), "link-type-infiniband")
	if f := r.Findings[0]; !strings.Contains(f.Message, "next reset") || !strings.Contains(f.Fix, "mlxconfig -d 0000:3b:00.0 set LINK_TYPE_P1=2") {
		t.Errorf("pending finding = %q / %q", f.Message, f.Fix)
	}
}
