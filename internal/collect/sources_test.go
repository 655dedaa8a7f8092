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
		source.RdmaDev, source.Ibdev2netdev, source.Ibdev2netdevV, source.ShowGIDs, source.IbvDevices, source.RdmaResQP, source.RxeCfgStatus, source.RxeCfg,
		source.MlxfwmanagerQuery, source.MlxupQuery, source.Dmesg, source.VarLogDmesg, source.JournalK, source.ModinfoAll,
	} {
		if !inTable(string(id)) {
			t.Errorf("%q is not in source.Tools", id)
		}
	}
}
