package rdmatool

import (
	"bytes"
	"strings"
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
		// -d: netdev_index, then the caps line (2018).
		{"mlx5-link-show-old-heads-netdev-then-d-netdev-index-caps.txt", []Link{
			{Device: "mlx5_3", Port: 1, State: "ACTIVE", PhysState: "LINK_UP", Netdev: "ens7"},
			{Device: "mlx5_3", Port: 1, State: "ACTIVE", PhysState: "LINK_UP", Netdev: "ens7", Attrs: map[string]string{"netdev_index": "7"}},
		}},
		// The commit message wrapped the line before state, and the caps.
		{"mlx5-ib-link-d-old-heads-capmask2-wrapped.txt", []Link{{Device: "mlx5_0", Port: 1, State: "ACTIVE", PhysState: "LINK_UP",
			Attrs: map[string]string{"subnet_prefix": "fe80:0000:0000:0000", "lid": "2", "sm_lid": "2", "lmc": "0"}}}},
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
	// A commit message wrapped each line before node_guid or
	// sys_image_guid; IB, RoCE and iWARP (siw) protocols.
	got, _ = ParseDev(bytes.NewReader(capture(t, "mlx5-siw-dev-protocol-roce-ib-iw-wrapped.txt")))
	want = []Dev{
		{Index: 11, Name: "mlx5_0", NodeType: "ca", Protocol: "roce", FW: "12.28.2006", NodeGUID: "248a:0703:004b:f094", SysImageGUID: "248a:0703:004b:f094"},
		{Index: 12, Name: "mlx5_1", NodeType: "ca", Protocol: "ib", FW: "12.28.2006", NodeGUID: "248a:0703:0049:d4f0", SysImageGUID: "248a:0703:0049:d4f0"},
		{Index: 13, Name: "mlx5_2", NodeType: "ca", Protocol: "ib", FW: "12.28.2006", NodeGUID: "248a:0703:0049:d4f1", SysImageGUID: "248a:0703:0049:d4f0"},
		{Index: 19, Name: "siw0", NodeType: "rnic", Protocol: "iw", NodeGUID: "0200:00ff:fe00:0000", SysImageGUID: "0200:00ff:fe00:0000"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("wrapped (-want +got):\n%s", d)
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

// Every form of rdma resource output names its devices: the summary, the
// per-object lines (link dev/port, dev name, the 2020 ifindex/ifname
// misprint) and the JSON arrays.
func TestParseRes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"mlx5-res-summary-four-devices.txt", []string{"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"}},
		{"mlx5-res-summary-five-devices-from-index-1.txt", []string{"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4"}},
		{"mlx5-res-summary-ibp8s0-resource-show.txt", []string{"ibp8s0f0", "ibp8s0f1"}},
		{"cxgb4-mlx4-res-summary-no-ctx-srq.txt", []string{"cxgb4_0", "mlx4_0"}},
		{"mlx5-res-show.txt", []string{"mlx5_0", "mlx5_1"}},
		{"cxgb4-mlx4-res-show-cm_id-listen-connect.txt", []string{"cxgb4_0", "mlx4_0"}},
		{"cxgb4-mlx4-res-show-cq-poll_ctx.txt", []string{"cxgb4_0", "mlx4_0"}},
		{"mlx4-cxgb4-res-show-mr-rkey-cap-net-admin.txt", []string{"mlx4_0", "cxgb4_0"}},
		{"mlx5-res-show-pd-cq-mr-qp-prompts.txt", []string{"mlx5_0"}},
		{"mlx5-res-show-ctx-ibp8s0-two-devices.txt", []string{"ibp8s0f0", "ibp8s0f1"}},
		{"mlx5-res-show-srq-lqpn-ranges.txt", []string{"ibp8s0f0", "ibp8s0f1"}},
		{"mlx5-res-show-qp-port-dash-before-after.txt", []string{"mlx5_0", "rocep0s9"}},
		{"mlx5-res-show-qp-xrc-ibp0s9.txt", []string{"ibp0s9"}},
		{"mlx5-res-show-srq-json-pretty.txt", []string{"ibp8s0f0"}},
		{"hns-res-show-srq-json-raw-elided.txt", []string{"hns3"}},
		// Not resource outputs: nothing.
		{"bnxt_re-dev-show-protocol-roce.txt", nil},
		{"mlx5-cx6dx-link-show-old-iproute2-index-heads.txt", nil},
	} {
		got, err := ParseRes(bytes.NewReader(capture(t, tc.file)))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, d)
		}
	}
}

// rdma's JSON forms: the pretty dev output of iproute2's own example
// (hand-edited: a value lost its opening quote, another is bare) and the
// link output of iproute2 before v5.5.0, whose "ifname" is "<dev>/<port>".
func TestParseJSON(t *testing.T) {
	t.Parallel()
	devs, err := ParseDev(bytes.NewReader(capture(t, "mlx5-dev-json-pretty-caps-hand-edited.txt")))
	if err != nil {
		t.Fatal(err)
	}
	want := []Dev{
		{Index: 1, Name: "mlx5_0", NodeType: "ca", FW: "2.8.9999", NodeGUID: "5254:00c0:fe12:3457", SysImageGUID: "5254:00c0:fe12:3457"},
		{Index: 2, Name: "mlx5_1", NodeType: "ca", FW: "2.8.9999", NodeGUID: "5254:00c0:fe12:3458", SysImageGUID: "5254:00c0:fe12:3458"},
	}
	if d := cmp.Diff(want, devs); d != "" {
		t.Errorf("dev (-want +got):\n%s", d)
	}
	links, err := ParseLink(bytes.NewReader(capture(t, "mlx5-ib-link-json-pretty-old-ifname-dev-port.txt")))
	if err != nil {
		t.Fatal(err)
	}
	ib := map[string]string{"subnet_prefix": "fe80:0000:0000:0000", "lid": "13399", "sm_lid": "49151", "lmc": "0"}
	ib2 := map[string]string{"subnet_prefix": "fe80:0000:0000:0000", "lid": "13400", "sm_lid": "49151", "lmc": "0"}
	wantL := []Link{
		{Device: "mlx5_0", Port: 1, State: "ACTIVE", PhysState: "LINK_UP", Attrs: ib},
		{Device: "mlx5_1", Port: 1, State: "ACTIVE", PhysState: "LINK_UP", Attrs: ib2},
	}
	if d := cmp.Diff(wantL, links); d != "" {
		t.Errorf("link (-want +got):\n%s", d)
	}
}

// rdma statistic show in every layout the captures show: one line a port,
// a mail's wrapping of it, -p's head with counters indented below, and
// MLNX iproute2's four ports; then the JSON form and a qp counter line.
func TestParseStat(t *testing.T) {
	t.Parallel()
	for name, want := range map[string][]string{
		"mlx5-stat-show-and-p-wrapped-iproute2-cover-letter.txt":               {"mlx5_0"},
		"mlx5-statistic-show-four-ports-mellanox-iproute2-zh-notes-fenced.txt": {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"},
	} {
		got, err := ParseStat(bytes.NewReader(capturetest.Read(t, "rdma", name)))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", name, d)
		}
	}
	got, _ := ParseStat(strings.NewReader(`[{"ifindex":0,"ifname":"rxe0","port":1,"sent_pkts":10}]`))
	if d := cmp.Diff([]string{"rxe0"}, got); d != "" {
		t.Errorf("json (-want +got):\n%s", d)
	}
	got, _ = ParseStat(strings.NewReader("link mlx5_2/1 cntn 4 qp-type RC pid 30818 comm ibv_rc_pingpong rx_write_requests 0\n"))
	if d := cmp.Diff([]string{"mlx5_2"}, got); d != "" {
		t.Errorf("qp (-want +got):\n%s", d)
	}
}
