package iplink

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func parse(t *testing.T, name string) []Link {
	t.Helper()
	ls, err := Parse(bytes.NewReader(capturetest.Read(t, "ip", name)))
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

// summary is each link's name, mtu, state, carrier, master, altnames,
// parent device and VF count.
func summary(ls []Link) string {
	var out []string
	for _, l := range ls {
		s := l.Name
		if l.MTU != nil {
			s += fmt.Sprintf(" mtu=%d", *l.MTU)
		}
		s += " " + l.State
		if l.LowerUp() {
			s += " lower_up"
		}
		if l.Master != "" {
			s += " master=" + l.Master
		}
		if len(l.AltNames) > 0 {
			s += " alt=" + strings.Join(l.AltNames, ",")
		}
		if l.ParentDev != "" {
			s += " " + l.ParentBus + "/" + l.ParentDev
		}
		if len(l.VFs) > 0 {
			s += fmt.Sprintf(" vfs=%d", len(l.VFs))
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

// Every layout of the captures: ip link and ip -d link with VF lines old
// (MAC) and new (link/ether), -d's parentdev, altnames, bond slaves and
// masters, a grep that kept only first lines, -s's statistics in inline
// code spans, a first line wrapped before "state", -o's backslashes,
// mail quote marks with the indentation lost, markdown bold marks.
func TestCaptures(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"mlx5-cx4lx-switchdev-ip-d-link-pf-vf-and-representors.txt",
			"enp1s0f0np0 mtu=1500 UP lower_up pci/0000:01:00.0 vfs=1; enp1s0f0npf0vf0 mtu=1500 UP lower_up pci/0000:01:00.0; enp1s0f1npf1vf0 mtu=1500 UP lower_up pci/0000:01:00.1"},
		{"sriov-operator-ip-l-show-8-vfs-blank-line-in-fence.txt", "enp130s0f0 mtu=1500 UP lower_up vfs=8"},
		{"vf-mac-old-layout-lo-and-pf-8-vfs-truncated.txt", "lo mtu=65536 UNKNOWN lower_up; enp3s0f0 mtu=1500 UP lower_up vfs=8"},
		{"mellanox-pf-vfs-vlan-bold-markdown-quote-truncated.txt", "enp101s0f0 mtu=1500 UP lower_up vfs=12"},
		{"pf-down-noop-mail-quoted-backticks-two-netdevs.txt", "enp137s0f0 mtu=1500 DOWN vfs=1; enp137s0f2 mtu=1500 DOWN"},
		{"mlx5-cx6dx-altname-bridge-master-r640-truncated.txt",
			"lo mtu=65536 UNKNOWN lower_up; eno1np0 mtu=1500 UP lower_up alt=enp25s0f0np0; ens1f0 mtu=1500 UP lower_up master=br0 alt=enp59s0f0; eno2np1 mtu=1500 UP lower_up alt=enp25s0f1np1; ens1f1 mtu=1500 UP lower_up alt=enp59s0f1; ens2f0np0 mtu=1500 UP lower_up alt=enp94s0f0np0; ens2f1np1 mtu=1500 UP lower_up"},
		{"grep-mtu-no-carrier-mtu-9000-bond-slaves-truncated.txt",
			"lo mtu=65536 UNKNOWN lower_up; eno8303 mtu=9000 DOWN; eno8403 mtu=9000 DOWN; eno12399 mtu=9000 DOWN; eno12409 mtu=9000 DOWN; ens3f0 mtu=9000 DOWN; ens3f1 mtu=9000 DOWN; ens6f0 mtu=9000 DOWN; ens6f1 mtu=9000 UP lower_up; ens5f0 mtu=1500 UP lower_up master=bond1; ens5f1 mtu=9000 UP lower_up master=bond0"},
		{"ip-s-link-show-bond1-mtu-9000-inline-backticks-truncated.txt", "bond1 mtu=9000 UP lower_up master=br1; lo mtu=65536 UNKNOWN lower_up"},
		{"ip-s-s-link-show-eth4-wrapped-state-line-2013.txt", "eth4 mtu=1500 UP lower_up"},
		{"ip-o-link-show-oneline-bond-vlans-truncated.txt",
			"lo mtu=65536 UNKNOWN lower_up; eth0 mtu=1500 UP lower_up master=bond0; eth1 mtu=1500 UP lower_up master=bond0; bond0 mtu=1500 UP lower_up; bond0.3000 mtu=1500 UP lower_up; bond0.3001 mtu=1500 UP lower_up; bond0.3002 mtu=1500 UP lower_up; bond0.3003 mtu=1500 UP lower_up; bond0.3009 mtu=1500 UP lower_up"},
		{"mlx5-cx5-enp1s0f0np0-mtu-9000-elided-two-hosts.txt", "enp1s0f0np0 mtu=9000 UP lower_up; enp1s0f0np0 mtu=9000 UP lower_up"},
		{"cumulus-bond-slaves-mtu-9216-vrf-master.txt",
			"lo mtu=65536 UNKNOWN lower_up; eth0 mtu=1500 UP lower_up master=mgmt; swp1 mtu=9216 UP lower_up master=bond1; swp2 mtu=9216 UP lower_up master=bond1; mgmt mtu=65536 UP lower_up; bond1 mtu=9216 UP lower_up"},
	} {
		if got := summary(parse(t, tc.file)); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.file, got, tc.want)
		}
	}
}

// TestBrief: ip -br link, one line a link with its state, address and
// flags (a report's block, paste/mlx5-cx5ex-env-check-report-…).
func TestBrief(t *testing.T) {
	t.Parallel()
	b := capturetest.Read(t, "paste", "mlx5-cx5ex-env-check-report-markdown-headings-per-command.txt")
	i := bytes.Index(b, []byte("### ip -br link"))
	j := bytes.Index(b, []byte("### lsmod"))
	ls, err := Parse(bytes.NewReader(b[i:j]))
	if err != nil {
		t.Fatal(err)
	}
	want := "lo UNKNOWN lower_up; eno1 DOWN; enp1s0f0np0 DOWN; enp1s0f1np1 DOWN; wlp0s20f3 UP lower_up"
	if got := summary(ls); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if len(ls) != 5 || ls[2].Address != "6c:b3:11:88:1d:ce" || strings.Join(ls[2].Flags, ",") != "NO-CARRIER,BROADCAST,MULTICAST,UP" {
		t.Errorf("enp1s0f0np0: %+v", ls[2])
	}
}

// TestOnelineAddress: ip -o address, one line an address and a mail's
// wrapping within it, names each link once (lo's two addresses), with no
// flags or state, which its lines do not print.
func TestOnelineAddress(t *testing.T) {
	t.Parallel()
	b := capturetest.Read(t, "rdma", "mlx5-hns-res-show-qp-oneline-flowed-and-ip-o-a-mail.txt")
	ls, err := Parse(bytes.NewReader(b[bytes.Index(b, []byte("./ip/ip -o a")):]))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range ls {
		got = append(got, fmt.Sprintf("%d:%s:%s:%d", l.Index, l.Name, l.State, len(l.Flags)))
	}
	if want := "1:lo::0 10:eth8::0 11:eth9::0"; strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
}

func intp(n int) *int { return &n }

// One link whole: -d's PF with its VF line in the newer layout.
func TestLinkWhole(t *testing.T) {
	got := parse(t, "mlx5-cx4lx-switchdev-ip-d-link-pf-vf-and-representors.txt")[0]
	want := Link{Index: 2, Name: "enp1s0f0np0", Flags: []string{"BROADCAST", "MULTICAST", "UP", "LOWER_UP"}, MTU: intp(1500),
		Qdisc: "mq", State: "UP", LinkType: "ether", Address: "94:40:c9:c3:67:fa", ParentBus: "pci", ParentDev: "0000:01:00.0",
		VFs: []VF{{Num: 0, MAC: "00:00:00:00:00:00", SpoofCheck: "off", LinkState: "disable", Trust: "off"}}, Line: 4}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("\n got %+v\nwant %+v", got, want)
	}
}

// VF lines of the old layout: MAC, a VLAN, bold marks; a line cut after
// link-state keeps what it printed.
func TestVFs(t *testing.T) {
	l := parse(t, "mellanox-pf-vfs-vlan-bold-markdown-quote-truncated.txt")[0]
	if v := l.VFs[9]; v.Num != 9 || v.VLAN == nil || *v.VLAN != 10 || v.SpoofCheck != "on" || v.Trust != "off" {
		t.Errorf("vf 9: %+v", v)
	}
	if v := l.VFs[11]; v.Num != 11 || v.VLAN == nil || *v.VLAN != 452 || v.LinkState != "auto" || v.Trust != "" {
		t.Errorf("vf 11: %+v", v)
	}
	if v := l.VFs[1]; v.VLAN != nil || v.SpoofCheck != "off" {
		t.Errorf("vf 1: %+v", v)
	}
}

// Lines of ip address and other tools after a link are not its lines; a
// first line cut before '>' is no link.
func TestNotLinks(t *testing.T) {
	in := "2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP group default qlen 1000\n" +
		"    link/ether 52:54:00:12:34:56 brd ff:ff:ff:ff:ff:ff\n    inet 10.0.0.2/24 brd 10.0.0.255 scope global eth0\n" +
		"       valid_lft forever preferred_lft forever\n    link_layer:\t\tEthernet\n3: ens4f0: <BR"
	ls, err := Parse(strings.NewReader(in))
	if err != nil || len(ls) != 1 || ls[0].Address != "52:54:00:12:34:56" || ls[0].LinkType != "ether" {
		t.Fatalf("%+v %v", ls, err)
	}
}

func FuzzParse(f *testing.F) {
	capturetest.Seed(f, "ip")
	// The forms that stand in other folders' captures: ip -br link in a
	// report, ip -o address in a mail.
	f.Add(capturetest.Read(f, "paste", "mlx5-cx5ex-env-check-report-markdown-headings-per-command.txt"))
	f.Add(capturetest.Read(f, "rdma", "mlx5-hns-res-show-qp-oneline-flowed-and-ip-o-a-mail.txt"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ls, err := Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if len(ls) > len(b) {
			t.Fatalf("%d links from %d bytes", len(ls), len(b))
		}
		for _, l := range ls {
			if l.Name == "" {
				t.Fatalf("a link with no name: %+v", l)
			}
			l.LowerUp()
		}
	})
}
