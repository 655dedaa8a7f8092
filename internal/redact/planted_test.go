package redact

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/record"
)

// planted are identifiers of every kind and spelling, planted in the free
// text of a record as snapshots write them: log lines, a VPD product name,
// netdev names, source ids, paths and reasons. None may survive.
var planted = []struct{ where, text, id string }{
	{"log", "mlx5_core 0000:3b:00.0 ens1f0np0: Link up, MAC 08:c0:eb:12:34:57", "08:c0:eb:12:34:57"},
	{"log", "bond0: (slave eth2): MAC AA-BB-CC-DD-EE-01 in use", "AA-BB-CC-DD-EE-01"},
	{"log", "cdp neighbour port 0/1 mac aabb.ccdd.ee02 learned", "aabb.ccdd.ee02"},
	{"log", "be2net 0000:04:00.0: MAC address 0c42a1659e3d", "0c42a1659e3d"},
	{"log", "eth4      Link encap:Ethernet  HWaddr 00:1B:21:3A:4F:5C", "00:1B:21:3A:4F:5C"},
	{"log", "link/ether 98:03:9b:aa:bb:cc brd ff:ff:ff:ff:ff:ff permaddr 0c:42:a1:65:9e:3f", "98:03:9b:aa:bb:cc"},
	{"log", "", "0c:42:a1:65:9e:3f"},
	{"log", "link/infiniband 80:00:00:48:fe:80:00:00:00:00:00:00:0c:42:a1:03:00:65:9e:3c", "0c:42:a1:03:00:65:9e:3c"},
	{"log", "wlx001122334455: associated", "001122334455"},
	{"log", "r8169 0000:02:00.0 eth0: RTL8168h, 08-C0-EB-12-34-58, XID 541", "08-C0-EB-12-34-58"},
	{"log", "arp reply from 00:00:5e:00:53:af", "00:00:5e:00:53:af"},
	{"log", "port guid 0c42a10300659e40 joined the multicast group", "0c42a10300659e40"},
	{"log", "ib0: GUID 0x98039b0300a1b2c4 registered", "98039b0300a1b2c4"},
	{"log", "node guid 0c42:a103:0065:9e41", "0c42:a103:0065:9e41"},
	{"log", "EUI-64 0c:42:a1:03:00:65:9e:42", "0c:42:a1:03:00:65:9e:42"},
	{"log", "Capabilities: [1a0] Device Serial Number 0c-42-a1-03-00-65-9e-43", "0c-42-a1-03-00-65-9e-43"},
	{"log", "Node GUID: 0c42.a103.0065.9e44", "0c42.a103.0065.9e44"},
	{"log", "nvme nvme0: new ctrl: hostnqn nqn.2014-08.org.nvmexpress:uuid:4c4c4544-0042-3910-8058-b4c04f4a3732", "4c4c4544-0042-3910-8058-b4c04f4a3732"},
	{"log", "EXT4-fs (sda1): mounted filesystem 3f1e9a2c-7b4d-4e8a-9c1f-2a6b8d0e4f11 r/w", "3f1e9a2c-7b4d-4e8a-9c1f-2a6b8d0e4f11"},
	{"log", "DMI: Product UUID EC2A1B3C-4D5E-6F70-8192-A3B4C5D6E7F8", "EC2A1B3C-4D5E-6F70-8192-A3B4C5D6E7F8"},
	{"log", "nvme nvme1: new ctrl: NQN \"nqn.2014-08.com.acme:nvme.target01\", addr 192.168.100.5:4420", "nvme.target01"},
	{"log", "", "192.168.100.5"},
	{"log", "nvme nvme2: creating 8 I/O queues, addr nvme-target01.storage.acme.io:4420", "nvme-target01.storage.acme.io"},
	{"log", "sssd: cannot reach db-primary.corp.internal, ldap1.example.net and gw.lab.local", "db-primary.corp.internal"},
	{"log", "", "ldap1.example.net"},
	{"log", "", "gw.lab.local"},
	{"log", "iscsi target san01.customer.example answered", "san01.customer.example"},
	{"log", "Nov 30 09:00:01 node17 kernel: cma: peer 10.20.30.40 and 2001:db8:42::99 via fd12:3456:789a:2::5", "node17"},
	{"log", "", "10.20.30.40"},
	{"log", "", "2001:db8:42::99"},
	{"log", "", "fd12:3456:789a:2"},
	{"log", "mlx5_0 gid 3: ::ffff:10.9.8.7", "10.9.8.7"},
	{"log", "postfix: mail for admin@example-corp.com and john.doe+ops@storage.acme.io queued", "admin@example-corp.com"},
	{"log", "", "john.doe+ops@storage.acme.io"},
	{"log", "FRU: Board S/N: MT2042X01234", "MT2042X01234"},
	{"log", "chassis SN ABC123456 ok", "ABC123456"},
	{"log", "ipmi: fru sn=XYZ98765", "XYZ98765"},
	{"log", "HPE Serial#: 7CE123P0AB", "7CE123P0AB"},
	{"log", "System Information Serial Number: 5CG1234XYZ", "5CG1234XYZ"},
	{"log", "mlx5_core: adapter MT2109X11223 ready", "MT2109X11223"},
	{"log", "smartctl serial_number=SRL000123", "SRL000123"},
	{"log", "dmidecode Service Tag: 8XK2L93", "8XK2L93"},
	{"log", "[SN] Serial number: MT1947X00999", "MT1947X00999"},
	{"log", "label S/N:A1B2C3D4E5 on the tray", "A1B2C3D4E5"},
	{"log", "Serial No. PBKWT0ABC123", "PBKWT0ABC123"},
	{"product", "ConnectX-6 Dx EN adapter card, 100GbE, SN: MT2133X05678", "MT2133X05678"},
	{"product", "", "ops-team@customer.example"},
	{"netdev", "enx0c42a1659e3c", "0c42a1659e3c"},
	{"source", "cmd/ethtool -i enx0c42a1659e3c", ""},
	{"path", "sys/class/net/enx0c42a1659e3c/address", ""},
	{"reason", "exit status 1: no such device enx0c42a1659e3c on node17.example.com", "node17.example.com"},
}

// kept are what diagnosis reads in the same fields: firmware and kernel
// versions, PCI addresses and ids, PSIDs, syndromes, part numbers, switch
// models, module files and devlink keys, the discovery NQN.
var kept = []string{
	"firmware version: 16.35.2000 (MT_0000000359)", "mlx5_core 0000:3b:00.0: 15b3:1017", "syndrome (0x7c5d3e)",
	"5.14.0-362.8.1.el9_3.x86_64", "MLNX_OFED_LINUX-5.8-1.0.1.1", "MCX623106AN-CDAT", "Mellanox MT28800 Family",
	"Spectrum-2 SN3700 switch", "SN2700", "fw.mgmt.api", "board.id", "see kernel.org and docs.nvidia.com",
	"/etc/rc.local", "mlx5_core.ko.xz", "serial console on ttyS0", "Serial: 8250/16550 driver", "rocep59s0f0",
	"nqn.2014-08.org.nvmexpress.discovery", "vendor_err 0x10", "version 1.2.3.4.5", "ib0.8001", "CX623106A",
	"timestamp 1700000000000000", "srcversion 4A3B2C1D0E9F8A7B6C5D4E3",
}

func plantedHost() *record.Host {
	h := &record.Host{
		Schema: record.Schema,
		Host:   record.HostInfo{ID: "node17.example.com", SourceKind: record.KindSosreport},
		Adapters: []record.Adapter{{PCIAddress: "0000:3b:00.0", Vendor: "15b3", Device: "101d",
			Netdevs: []string{"enx0c42a1659e3c"}, Driver: record.Driver{Name: "mlx5_core"}}},
		Netdevs: []record.Netdev{{Name: "enx0c42a1659e3c", Driver: "mlx5_core"}},
	}
	var product []string
	for i, p := range planted {
		switch p.where {
		case "log":
			if p.text != "" {
				h.KernelLog = append(h.KernelLog, record.LogEvent{Kind: record.LogDriverInit, Text: p.text, Source: "cmd/dmesg", Line: i + 1})
			}
		case "product":
			product = append(product, p.text, p.id)
		case "source":
			h.Sources = append(h.Sources, record.Source{ID: p.text, Status: record.StatusOK})
		case "path":
			h.Sources = append(h.Sources, record.Source{ID: "sys/class/net", Path: p.text, Status: record.StatusOK})
		case "reason":
			h.Sources = append(h.Sources, record.Source{ID: "cmd/ethtool", Status: record.StatusFailed, Reason: p.text})
		}
	}
	h.Adapters[0].ProductName = strings.Join(product, " ")
	for i, k := range kept {
		h.KernelLog = append(h.KernelLog, record.LogEvent{Kind: record.LogFirmware, Text: k, Source: "cmd/dmesg", Line: 100 + i})
	}
	return h
}

// TestPlantedIdentifiers: in a record with 50 planted identifiers (every
// kind, every spelling, in every free-text field), none survives the
// default redaction, what diagnosis needs does, and the record still
// validates.
func TestPlantedIdentifiers(t *testing.T) {
	t.Parallel()
	h := plantedHost()
	New("fleet-salt", h.Host.ID).Host(h)
	var buf bytes.Buffer
	if err := record.Encode(&buf, h, "toml"); err != nil {
		t.Fatal(err)
	}
	out := strings.ToLower(buf.String())
	n := 0
	for _, p := range planted {
		if p.id == "" {
			continue
		}
		n++
		for _, form := range []string{p.id, strings.NewReplacer(":", "", "-", "", ".", "").Replace(p.id)} {
			if len(form) >= 6 && strings.Contains(out, strings.ToLower(form)) {
				t.Errorf("%s: %q survives redaction", p.where, form)
			}
		}
	}
	if n < 45 {
		t.Errorf("only %d identifiers planted", n)
	}
	for _, k := range kept {
		if !strings.Contains(out, strings.ToLower(k)) {
			t.Errorf("redaction damaged %q", k)
		}
	}
	if bad := record.Validate(h); len(bad) > 0 {
		t.Errorf("the redacted record does not validate: %v", bad)
	}
	if t.Failed() {
		t.Logf("redacted:\n%s", buf.String())
	}
}

// TestSpellingsShareTokens: one MAC or GUID, however written, is one
// token, and the same salt gives it on every host.
func TestSpellingsShareTokens(t *testing.T) {
	t.Parallel()
	a, b := New("fleet-salt"), New("fleet-salt", "other-host")
	mac := a.Token("mac", "0c:42:a1:65:9e:3c")
	for _, s := range []string{"MAC 0c:42:a1:65:9e:3c", "MAC 0C-42-A1-65-9E-3C", "MAC 0c42.a165.9e3c", "MAC 0c42a1659e3c"} {
		if got := a.Text(s); got != "MAC "+mac {
			t.Errorf("Text(%q) = %q, want MAC %s", s, got, mac)
		}
		if b.Text(s) != a.Text(s) {
			t.Errorf("same salt, different tokens for %q", s)
		}
	}
	if got := a.Text("enx0c42a1659e3c"); got != "enx"+mac {
		t.Errorf("enx name: %q, want enx%s", got, mac)
	}
	guid := a.GUID("0c42a10300659e3c")
	for _, s := range []string{"0c42:a103:0065:9e3c", "0x0c42a10300659e3c", "0c:42:a1:03:00:65:9e:3c", "0c-42-a1-03-00-65-9e-3c", "0c42a10300659e3c"} {
		if got := a.Text("guid " + s); got != "guid "+guid {
			t.Errorf("Text(guid %s) = %q, want guid %s", s, got, guid)
		}
	}
	if a.Text("peer nvme-target01.storage.acme.io") != b.Text("peer nvme-target01.storage.acme.io") {
		t.Error("a host name gets different tokens with the same salt")
	}
}
