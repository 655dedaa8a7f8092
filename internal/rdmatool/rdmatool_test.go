package rdmatool

import (
	"bytes"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"

	"github.com/google/go-cmp/cmp"
)

func capture(t testing.TB, name string) []byte { return capturetest.Read(t, "rdma", name) }

func TestParseLink(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file string
		want []Link
	}{
		{"bnxt_re-link-show-port2-disabled.txt", []Link{
			{Device: "bnxt_re0", Port: 1, State: "ACTIVE", PhysState: "LINK_UP", Netdev: "enp194s0f0np0"},
			{Device: "bnxt_re1", Port: 1, State: "DOWN", PhysState: "DISABLED", Netdev: "enp194s0f1np1"},
		}},
		{"mlx5-ib-link-polling-subnet-prefix.txt", []Link{{Device: "mlx5_7", Port: 1, State: "DOWN", PhysState: "POLLING",
			Attrs: map[string]string{"subnet_prefix": "fe80:0000:0000:0000", "lid": "3403", "sm_lid": "1", "lmc": "0"}}}},
		{"rxe-link-ens5.txt", []Link{{Device: "rxe_ens5", Port: 1, State: "ACTIVE", PhysState: "LINK_UP", Netdev: "ens5"}}},
		{"mlx5-res-show.txt", nil},
		// iproute2 before v5.5.0: "<index>/<port>: <dev>/<port>:" heads.
		{"mlx5-cx6dx-link-show-old-iproute2-index-heads.txt", []Link{
			{Device: "mlx5_0", Port: 1, State: "ACTIVE", PhysState: "LINK_UP", Netdev: "eth0"},
			{Device: "mlx5_1", Port: 1, State: "ACTIVE", PhysState: "LINK_UP", Netdev: "eth1"},
			{Device: "mlx5_2", Port: 1, State: "ACTIVE", PhysState: "LINK_UP", Netdev: "eth2"},
			{Device: "mlx5_3", Port: 1, State: "ACTIVE", PhysState: "LINK_UP", Netdev: "eth3"},
		}},
		{"mlx5-link-old-iproute2-index-heads-no-netdev.txt", []Link{
			{Device: "mlx5_0", Port: 1, State: "DOWN", PhysState: "DISABLED"},
			{Device: "mlx5_2", Port: 1, State: "ACTIVE", PhysState: "LINK_UP"},
			{Device: "mlx5_4", Port: 1, State: "DOWN", PhysState: "DISABLED"},
			{Device: "mlx5_5", Port: 1, State: "ACTIVE", PhysState: "LINK_UP",
				Attrs: map[string]string{"subnet_prefix": "fe80:0000:0000:0000", "lid": "12", "sm_lid": "4", "lmc": "0"}},
			{Device: "mlx5_3", Port: 1, State: "ACTIVE", PhysState: "LINK_UP"},
			{Device: "mlx5_1", Port: 1, State: "ACTIVE", PhysState: "LINK_UP"},
		}},
	} {
		got, err := ParseLink(bytes.NewReader(capture(t, tc.file)))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, d)
		}
	}
}

func TestParseDev(t *testing.T) {
	t.Parallel()
	got, err := ParseDev(bytes.NewReader(capture(t, "bnxt_re-dev-show-protocol-roce.txt")))
	if err != nil {
		t.Fatal(err)
	}
	want := []Dev{
		{Index: 0, Name: "bnxt_re0", NodeType: "ca", Protocol: "roce", FW: "231.0.154.0", NodeGUID: "8e84:74ff:fe1f:2550", SysImageGUID: "8e84:74ff:fe1f:2550"},
		{Index: 1, Name: "bnxt_re1", NodeType: "ca", Protocol: "roce", FW: "231.0.154.0", NodeGUID: "8e84:74ff:fe1f:2551", SysImageGUID: "8e84:74ff:fe1f:2551"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// rdma res show qp gives device names; its "state RTS" is a QP state and
// never becomes a port state in ParseLink.
func TestParseResQP(t *testing.T) {
	t.Parallel()
	in := capture(t, "mlx5-res-show-qp-xrc-ibp0s9.txt")
	qps, err := ParseResQP(bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(qps) != 5 || qps[3] != (QP{Device: "ibp0s9", Port: 1, LQPN: 42, Type: "XRC_TGT", State: "INIT", Comm: "[ib_uverbs]"}) || qps[4].Comm != "ibv_xsrq_pingpong" {
		t.Errorf("%+v", qps)
	}
	if d := Devices(qps); len(d) != 1 || d[0] != "ibp0s9" {
		t.Errorf("devices %v", d)
	}
	if links, _ := ParseLink(bytes.NewReader(in)); len(links) != 0 {
		t.Errorf("QP lines read as links: %+v", links)
	}
	dash, _ := ParseResQP(bytes.NewReader(capture(t, "mlx5-res-show-qp-port-dash-before-after.txt")))
	if d := Devices(dash); len(d) != 1 || d[0] != "mlx5_0" || dash[len(dash)-1].Port != 0 {
		t.Errorf("port dash: %+v", dash)
	}
}
