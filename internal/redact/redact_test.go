package redact

import (
	"bytes"
	"net/netip"
	"regexp"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/record"
)

// Identifiers planted in a record; none may survive redaction in any case.
var originals = []string{
	"node17.example.com", "node17",
	"08:c0:eb:12:34:56", "08c0eb123456",
	"0c42:a103:0065:9e3c", "0c42a10300659e3c",
	"0ac0:ebff:fe12:3456",
	"c0a8:0a11", "192.168.10.17",
	"10.1.2.3",
	"2001:db8:42::17",
	"MT2048X12345",
	"ABC123SERIAL",
	"0x98039b0300a1b2c3",
	// Global and unique-local GIDs and addresses: their /64 names a site.
	"2001:0db8:0000:0042", "2001:db8:0:42", "2001:db8:42",
	"fd12:3456:789a:0001", "fd12:3456:789a:1",
	"0ac0:ebff:fe77:8899",
}

func fixture() *record.Host {
	return &record.Host{
		Schema: record.Schema,
		Host:   record.HostInfo{ID: "node17.example.com", KernelRelease: "5.14.0-362.8.1.el9_3.x86_64", SourceKind: record.KindLive},
		Adapters: []record.Adapter{{
			PCIAddress: "0000:3b:00.0", Vendor: "15b3", Device: "101d", Netdevs: []string{"ens1f0np0"},
			Driver:   record.Driver{Name: "mlx5_core", Version: "5.8-1.0.1.1"},
			Firmware: record.Firmware{Running: "22.36.1010", Stored: "22.36.1010", PSID: "MT_0000000359"},
			Name:     "Mellanox ConnectX-6 Dx, serial number MT2048X12345",
			From:     map[string]string{"firmware.running": "cmd/devlink dev info"},
		}},
		Devices: []record.RDMADevice{{
			Name: "mlx5_0", NodeGUID: "0c42:a103:0065:9e3c", FwVer: "22.36.1010",
			Ports: []record.Port{{Number: 1, State: "ACTIVE", LinkLayer: "Ethernet", Netdev: "ens1f0np0", GIDs: []record.GID{
				{Index: 0, GID: "fe80:0000:0000:0000:0ac0:ebff:fe12:3456", Type: "IB/RoCE v1"},
				{Index: 1, GID: "fe80:0000:0000:0000:0ac0:ebff:fe12:3456", Type: "RoCE v2"},
				{Index: 2, GID: "0000:0000:0000:0000:0000:ffff:c0a8:0a11", Type: "RoCE v2", IPv4Mapped: true},
				{Index: 3, GID: "2001:0db8:0000:0042:0ac0:ebff:fe77:8899", Type: "RoCE v2"},
				{Index: 4, GID: "fd12:3456:789a:1::17", Type: "RoCE v2"},
			}}},
		}},
		Stack: &record.Stack{Name: "MLNX_OFED", Version: "5.8-1.0.1.1", Raw: "MLNX_OFED_LINUX-5.8-1.0.1.1:"},
		KernelLog: []record.LogEvent{
			{Kind: record.LogDriverInit, Text: "mlx5_core 0000:3b:00.0 ens1f0np0: Link up, MAC 08:c0:eb:12:34:56", Source: "cmd/dmesg", Line: 3},
			{Kind: record.LogFirmware, Text: "Nov 30 09:00:01 node17 kernel: ib0: GUID 0x98039b0300a1b2c3 addr 10.1.2.3 peer 2001:db8:42::17", Source: "cmd/dmesg", Line: 4},
			{Kind: record.LogFirmware, Text: "GID:fe80::0ac0:ebff:fe12:3456 on node17.example.com, ipv4 ::ffff:192.168.10.17", Source: "cmd/dmesg", Line: 5},
			{Kind: record.LogFirmware, Text: "route 2001:db8:0:42::/64 via fd12:3456:789a:1::1 dev ens1f0np0", Source: "cmd/dmesg", Line: 6},
		},
		// mlxfwmanager prints the base GUID as bare hex.
		FirmwareDevices: []record.FirmwareDevice{{Name: "/dev/mst/mt4115_pciconf0", PSID: "MT_2180110032", BaseGUID: "0c42a10300659e3c",
			FWCurrent: "12.28.2040", Versions: []record.FirmwareDeviceVersion{{Name: "FW", Current: "12.28.2040", Line: 15}}, Source: "cmd/mlxfwmanager --query"}},
		Sources:  []record.Source{{ID: "cmd/ethtool -i ens1f0np0", Status: record.StatusFailed, Reason: "exit status 1: cannot reach 192.168.10.17 (serial_number ABC123SERIAL)"}},
		Problems: []record.Problem{{Source: "etc/hostname", Msg: "node17 is odd"}},
	}
}

func TestNoOriginalSurvives(t *testing.T) {
	t.Parallel()
	h := fixture()
	New("fleet-salt", h.Host.ID).Host(h)
	for _, format := range []string{"toml", "json"} {
		var buf bytes.Buffer
		if err := record.Encode(&buf, h, format); err != nil {
			t.Fatal(err)
		}
		out := strings.ToLower(buf.String())
		for _, o := range originals {
			if strings.Contains(out, strings.ToLower(o)) {
				t.Errorf("%s output still holds %q:\n%s", format, o, buf.String())
			}
		}
		// What diagnosis needs survives.
		for _, keep := range []string{"5.8-1.0.1.1", "22.36.1010", "0000:3b:00.0", "mt_0000000359", "5.14.0-362.8.1.el9_3.x86_64", "roce v2", "ib/roce v1", "fe80:0000:0000:0000:guid-", "0000:0000:0000:0000:0000:ffff:ipv4-", "ipv6-global-", "ipv6-unique-local-", "mlx5_core", "ens1f0np0"} {
			if !strings.Contains(out, keep) {
				t.Errorf("%s output lost %q", format, keep)
			}
		}
	}
	if !h.Host.Redacted || !h.Devices[0].Ports[0].GIDs[2].IPv4Mapped || h.Devices[0].Ports[0].GIDs[2].Type != "RoCE v2" {
		t.Errorf("GID type or IPv4-mapped flag lost: %+v", h.Devices[0].Ports[0].GIDs[2])
	}
}

func TestTokensConsistent(t *testing.T) {
	t.Parallel()
	a, b, c := New("s1"), New("s1"), New("s2")
	if a.Text("mac 08:C0:EB:12:34:56") != b.Text("mac 08:c0:eb:12:34:56") {
		t.Error("same value and salt, different tokens")
	}
	if a.Text("08:c0:eb:12:34:56") == c.Text("08:c0:eb:12:34:56") {
		t.Error("different salts, same token")
	}
	// The IPv4 address in a GID and in text is one value, so one token.
	gid := a.GID("0000:0000:0000:0000:0000:ffff:c0a8:0a11")
	text := a.Text("addr 192.168.10.17")
	tok := strings.TrimPrefix(text, "addr ")
	if !strings.HasSuffix(gid, tok) {
		t.Errorf("GID %q and text %q disagree", gid, text)
	}
	// A node GUID in either spelling gives one token.
	if a.GUID("0c42:a103:0065:9e3c") != a.GUID("0x0c42a10300659e3c") {
		t.Error("GUID spellings disagree")
	}
	if got := a.Token("mac", "08:c0:eb:12:34:56"); len(got) != len("mac-")+6 {
		t.Errorf("token %q", got)
	}
}

// Every spelling of a GID or IPv6 address: the fe80::/64 prefix, the
// ::ffff: of an IPv4-mapped GID, ::1 and :: stay; any other prefix becomes a
// token naming its scope, and the interface id a guid token.
func TestGIDForms(t *testing.T) {
	t.Parallel()
	r := New("s")
	iid := r.Token("guid", "0ac0ebfffe123456")
	one := r.Token("guid", "0000000000000001")
	v4 := r.Token("ipv4", "192.168.1.1")
	global := r.Token("ipv6-global", "2001:db8:0:42::/64")
	ula := r.Token("ipv6-unique-local", "fd00::/64")
	for _, c := range []struct{ in, want string }{
		{"fe80:0000:0000:0000:0ac0:ebff:fe12:3456", "fe80:0000:0000:0000:" + iid}, // sysfs, show_gids
		{"fe80::ac0:ebff:fe12:3456", "fe80::" + iid},
		{"0000:0000:0000:0000:0000:ffff:c0a8:0101", "0000:0000:0000:0000:0000:ffff:" + v4}, // sysfs IPv4-mapped
		{"::ffff:192.168.1.1", "::ffff:" + v4},
		{"::ffff:c0a8:101", "::ffff:" + v4},
		{"2001:0db8:0000:0042:0ac0:ebff:fe12:3456", global + ":" + iid},
		{"2001:db8:0:42:ac0:ebff:fe12:3456", global + ":" + iid},
		{"2001:DB8:0:42::1", global + ":" + one},
		{"2001:db8:0:42::", global + "::"},
		{"fd00:0000:0000:0000:0000:0000:0000:0001", ula + ":" + one},
		{"fd00::1", ula + ":" + one},
		{"fe80:0000:0000:0001:0000:0000:0000:0001", r.Token("ipv6-link-local", "fe80:0:0:1::/64") + ":" + one},
		{"ff02::1", r.Token("ipv6-multicast", "ff02::/64") + ":" + one},
		{"0000:0000:0000:0000:0000:0000:0000:0000", "0000:0000:0000:0000:0000:0000:0000:0000"},
		{"::", "::"},
		{"::1", "::1"},
	} {
		if got := r.GID(c.in); got != c.want {
			t.Errorf("GID(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := r.Text("gid " + c.in + " up"); got != "gid "+c.want+" up" {
			t.Errorf("Text(%q) = %q, want %q", "gid "+c.in+" up", got, "gid "+c.want+" up")
		}
	}
	// Scope is visible in the token.
	for _, want := range []string{"ipv6-global-", "ipv6-unique-local-", "ipv6-link-local-", "ipv6-multicast-"} {
		if !strings.Contains(global+ula+r.GID("fe80:0:0:1::1")+r.GID("ff02::1"), want) {
			t.Errorf("no %s token", want)
		}
	}
	// A network with a trailing :: and an address with a zone.
	if got := r.Text("2001:db8:0:42::/64 fe80::1%eth0"); got != global+"::/64 fe80::"+one+"%eth0" {
		t.Errorf("Text = %q", got)
	}
}

func TestTextLeavesNonIdentifiers(t *testing.T) {
	t.Parallel()
	r := New("s")
	for _, s := range []string{
		"[   12.345678] mlx5_core 0000:3b:00.0: firmware version: 22.36.1010",
		"MLNX_OFED_LINUX-5.8-1.0.1.1 (OFED-5.8-1.0.1)",
		"Mon Nov 30 09:36:11 UTC 2026",
		"version 1.2.3.4.5",
		"link ::1 and :: stay",
		"std::vector<int>",
	} {
		if got := r.Text(s); got != s {
			t.Errorf("Text(%q) = %q", s, got)
		}
	}
}

var reTokenGID = regexp.MustCompile(`^ipv6-(global|unique-local|link-local|multicast)-[0-9a-f]{6}(::|:guid-[0-9a-f]{6})$`)

func FuzzText(f *testing.F) {
	for _, s := range []string{
		"08:c0:eb:12:34:56", "fe80::1%eth0", "::ffff:1.2.3.4", "0x0c42a10300659e3c", "serial number: X1234", "1.2.3.4:4791",
		"2001:0db8:0000:0042:0ac0:ebff:fe12:3456", "2001:db8::1", "2001:db8::/32", "fd00::17 dev eth0", "GID:2001:db8::1",
		"0000:0000:0000:0000:0000:ffff:c0a8:0101", "ff02::1:ff12:3456", "fe80:0000:0000:0001::1",
		"mlx5_0\t1\t3\tfd12:3456:789a:0001:0000:0000:0000:0017\t\tv2\tens1f0",
		"MAC AA-BB-CC-DD-EE-01", "aabb.ccdd.ee02", "enx0c42a1659e3c:", "MAC address 0c42a1659e3d", "0c-42-a1-03-00-65-9e-43",
		"guid 0c42a10300659e40", "nqn.2014-08.org.nvmexpress:uuid:4c4c4544-0042-3910-8058-b4c04f4a3732",
		"nqn.2014-08.com.acme:nvme.target01", "admin@example-corp.com", "addr nvme-target01.storage.acme.io:4420",
		"S/N: MT2042X01234", "SN ABC123456", "sn=XYZ98765", "Serial#: 7CE123P0AB", "MT2109X11223", "gw.lab.local",
	} {
		f.Add(s)
	}
	r := New("s", "node17")
	f.Fuzz(func(t *testing.T, s string) {
		out := r.Text(s)
		if r.Text(out) != out {
			// Tokens must not look like identifiers themselves.
			t.Errorf("Text is not idempotent on %q: %q then %q", s, out, r.Text(out))
		}
		// An IPv6 address with a prefix other than fe80::/64 keeps neither
		// its prefix nor its interface id: all of it is tokens.
		if a, err := netip.ParseAddr(s); err == nil && a.Is6() && !a.Is4In6() && !a.IsUnspecified() && !a.IsLoopback() && a.Zone() == "" &&
			netip.PrefixFrom(a, 64).Masked() != linkLocal64 && !reTokenGID.MatchString(r.GID(s)) {
			t.Errorf("GID(%q) = %q keeps part of the address", s, r.GID(s))
		}
	})
}

// TestMayHold: the prefilters of Text must hold wherever the
// case-insensitive regexps they guard could match, Unicode folds included.
func TestMayHold(t *testing.T) {
	for _, tc := range []struct {
		s, lower string
		want     bool
	}{
		{"Serial Number: X1", "serial", true},
		{"SERIAL", "serial", true},
		{"ſerial", "serial", true}, // U+017F folds to s
		{"seria l", "serial", false},
		{"S/N 123456", "s/n", true},
		{"NQN.2014-08.org", "nqn.", true},
		{"0X0002c903000e0b72", "0x", true},
		{"", "sn", false},
	} {
		if got := mayHold(tc.s, tc.lower); got != tc.want {
			t.Errorf("mayHold(%q, %q) = %t, want %t", tc.s, tc.lower, got, tc.want)
		}
	}
	for _, tc := range []struct {
		s    string
		want bool
	}{{"0011223344ab", true}, {"001122334_4ab", false}, {"00-11-22-33", false}, {"00-11-22-33-44", true}} {
		if got := hasRun(tc.s, 12); got != tc.want {
			t.Errorf("hasRun(%q, 12) = %t, want %t", tc.s, got, tc.want)
		}
	}
}
