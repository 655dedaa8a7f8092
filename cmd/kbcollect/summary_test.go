package main

import (
	"testing"

	"github.com/rocekb/rocekb/internal/record"
)

func TestSummary(t *testing.T) {
	t.Parallel()
	src := func(id, status string) record.Source { return record.Source{ID: id, Status: status} }
	for _, c := range []struct {
		h    record.Host
		want string
	}{
		{record.Host{
			Host:     record.HostInfo{SourceKind: record.KindLive},
			Devices:  make([]record.RDMADevice, 2),
			Adapters: make([]record.Adapter, 3),
			Sources: []record.Source{
				src("cmd/ethtool -i ens1f0np0", record.StatusAbsent),
				src("cmd/devlink -j dev info", record.StatusAbsent), src("cmd/devlink dev info", record.StatusAbsent),
				src("cmd/lspci -nnvv", record.StatusOK),
				src("cmd/ibv_devinfo -v", record.StatusFailed), // installed, but it failed
				src("cmd/rdma link show", record.StatusAbsent), // same package as devlink: named once
				src("cmd/ofed_info -s", record.StatusAbsent),   // no distribution package: not named
				src("cmd/reboot", record.StatusAbsent),         // not in the table
			},
		}, "kbcollect: 2 RDMA devices, 3 adapters; absent: devlink, rdma, ethtool (install iproute2/iproute, ethtool for a fuller record)"},
		{record.Host{Devices: make([]record.RDMADevice, 1), Adapters: make([]record.Adapter, 1),
			Sources: []record.Source{src("cmd/lspci -nnvv", record.StatusOK), src("cmd/lspci -vvv", record.StatusAbsent)}},
			"kbcollect: 1 RDMA device, 1 adapter"},
		// Someone else's sosreport: nothing to install here.
		{record.Host{Host: record.HostInfo{SourceKind: record.KindSosreport},
			Sources: []record.Source{src("cmd/lspci -nnvv", record.StatusAbsent)}},
			"kbcollect: 0 RDMA devices, 0 adapters; not in the snapshot: lspci"},
	} {
		if got := summary(&c.h); got != c.want {
			t.Errorf("summary =\n  %s\nwant\n  %s", got, c.want)
		}
	}
}
