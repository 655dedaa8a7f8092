package collect

import (
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/source"
)

// Every row of source.Tools has exactly one read step, in the table's
// order, and every step names a row.
func TestStepsFollowTheTable(t *testing.T) {
	t.Parallel()
	var got []string
	for _, st := range steps {
		if st.tool != "" {
			got = append(got, st.tool)
		}
	}
	var want []string
	for _, tl := range source.Tools {
		want = append(want, tl.Name)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("collect steps read\n  %s\nsource.Tools lists\n  %s", strings.Join(got, " "), strings.Join(want, " "))
	}
}

func inTable(id string) bool {
	_, ok := source.Of(source.ID(id))
	return ok
}

// The collector reads nothing the table does not list: on every fixture
// host, each source it records is in source.Tools.
func TestSourcesAreInTheTable(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, name := range hostNames(t) {
		h, _ := Collect(loadHost(t, name))
		for _, s := range h.Sources {
			seen[s.ID] = true
			if !inTable(s.ID) {
				t.Errorf("%s: source %q is not in source.Tools", name, s.ID)
			}
		}
	}
	if !seen[string(source.IbvDevinfoV)] || !seen[string(source.SysInfiniBand)] {
		t.Errorf("fixtures recorded none of the usual sources: %v", seen)
	}
	if inTable("cmd/reboot") || inTable("etc/shadow") {
		t.Error("inTable accepts what the table does not list")
	}
}

// A fixed source id constant names a command line or file of the table.
func TestIDConstantsAreInTheTable(t *testing.T) {
	t.Parallel()
	for _, id := range []source.ID{
		source.EtcHostname, source.SosHostname, source.ProcHostname, source.UnameR, source.UnameA,
		source.ProcOSRelease, source.EtcOSRelease, source.UsrOSRelease, source.Lsmod, source.ProcModules,
		source.SysModule, source.OFEDInfoS, source.OFEDInfoN, source.SysPCIDevices, source.SysClassNet,
		source.LspciNNVV, source.DevlinkInfoJ, source.DevlinkInfo, source.DevlinkParams, source.SysInfiniBand,
		source.RDMACM, source.IbvDevinfoV, source.IbvDevinfo, source.Ibstat, source.Ibstatus, source.RdmaLink,
		source.RdmaDev, source.Ibdev2netdev, source.Ibdev2netdevV, source.ShowGIDs, source.IbvDevices, source.RdmaRes, source.RdmaResQP, source.RxeCfgStatus, source.RxeCfg,
		source.MlxfwmanagerQuery, source.MlxupQuery, source.Dmesg, source.VarLogDmesg, source.JournalK, source.ModinfoAll,
	} {
		if !inTable(string(id)) {
			t.Errorf("%q is not in source.Tools", id)
		}
	}
}

// A flint query file's name gives its device as sos mangled it.
func TestFlintDevice(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"flint_-d_0000_08_00.0_q":             "0000:08:00.0",
		"mstflint_-d_0000_af_00.0_q":          "0000:af:00.0",
		"flint_-d_.dev.mst.mt4119_pciconf0_q": "/dev/mst/mt4119_pciconf0",
		"flint_-d_0000_08_00.0_dc":            "",
	} {
		dev := flintDevice(name)
		if a := pciAddress(dev); a != "" {
			dev = a
		}
		if dev != want {
			t.Errorf("%s: %q, want %q", name, dev, want)
		}
	}
}

// A flint or mstflint query in sos's mellanox_firmware folder gives the
// adapter its firmware (running, and in flash when it differs) and PSID;
// one of an mst device joins the firmware device table.
func TestFlintQueriesInSosreports(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ host, addr, running, stored, psid string }{
		{"flint-sos-cx4lx-oem-orig-psid", "0000:18:00.0", "14.22.1002", "", "MT_2420110034"},
		{"flint-sos-mstflint-cx3pro-running-differs", "0000:01:00.0", "2.40.5032", "2.42.5000", ""},
	} {
		h, err := Collect(loadHost(t, tc.host))
		if err != nil {
			t.Fatal(err)
		}
		if len(h.Adapters) != 1 || h.Adapters[0].PCIAddress != tc.addr || h.Adapters[0].Firmware.Running != tc.running ||
			h.Adapters[0].Firmware.Stored != tc.stored || h.Adapters[0].Firmware.PSID != tc.psid {
			t.Errorf("%s: adapters %+v", tc.host, h.Adapters)
		}
	}
	h, _ := Collect(loadHost(t, "flint-sos-mst-device-cx4lx-dell"))
	if len(h.FirmwareDevices) != 1 || h.FirmwareDevices[0].Name != "/dev/mst/mt4117_pciconf0" || h.FirmwareDevices[0].PSID != "DEL0000000006" {
		t.Errorf("firmware devices %+v", h.FirmwareDevices)
	}
}

// A supportconfig's sections are read where the table looks: uname -a
// and /etc/os-release of basic-environment.txt, lspci -vvv of
// hardware.txt, "lsmod | sort" of modules.txt, ethtool -i of network.txt,
// dmesg -T of boot.txt and /var/log/messages of messages.txt.
func TestSupportconfigSections(t *testing.T) {
	t.Parallel()
	h, err := Collect(loadHost(t, "supportconfig-mlx5-cx4lx-sections"))
	if err != nil {
		t.Fatal(err)
	}
	if h.Host.SourceKind != "supportconfig" || h.Host.KernelRelease != "3.13.0-32-generic" || h.Host.OS.ID != "ubuntu" {
		t.Errorf("host %+v", h.Host)
	}
	paths := map[string]string{}
	for _, s := range h.Sources {
		if s.Status == "ok" {
			paths[s.ID] = s.Path
		}
	}
	for id, p := range map[string]string{
		"cmd/uname -a": "sos_commands/basic-environment/uname_-a", "etc/os-release": "etc/os-release",
		"cmd/lspci -vvv": "sos_commands/hardware/lspci_-vvv", "cmd/lsmod": "sos_commands/modules/lsmod",
		"cmd/ethtool -i p3p1": "sos_commands/network/ethtool_-i_p3p1", "cmd/dmesg -T": "sos_commands/boot/dmesg_-T",
		"var/log/messages": "var/log/messages",
	} {
		if paths[id] != p {
			t.Errorf("%s read from %q, want %q", id, paths[id], p)
		}
	}
	var fromLog, fromMessages int
	for _, e := range h.KernelLog {
		switch e.Source {
		case "cmd/dmesg -T":
			fromLog++
		case "var/log/messages":
			fromMessages++
		}
	}
	if len(h.Modules) == 0 || len(h.Netdevs) < 2 || fromLog == 0 || fromMessages == 0 {
		t.Errorf("%d modules, %d netdevs, %d dmesg -T and %d messages events", len(h.Modules), len(h.Netdevs), fromLog, fromMessages)
	}
}
