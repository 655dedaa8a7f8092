package collect

import (
	"testing"
	"testing/fstest"

	"github.com/rocekb/rocekb/internal/capturetest"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
)

// TestMaskedGUIDs: a GUID the poster masked is no GUID: ibv_devinfo's
// "0002:c903:0005:xxxx" (and "…:xxxy") gives the device but no node_guid,
// and ibv_devices' "xxxxxxxxxxxx" rows give their devices alone.
func TestMaskedGUIDs(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"sos_commands/infiniband/ibv_devinfo_-v": {Data: capturetest.Read(t, "ibv_devinfo", "mlx4-ibm-freebsd11-masked-guids-xxxx-xxxy-truncated.txt")},
		"sos_commands/infiniband/ibv_devices":    {Data: capturetest.Read(t, "ibv_devices", "bnxt_re-eight-hcas-masked-guids-docker-doc.txt")},
	}
	h, err := Collect(snapshot.FromFS(fsys, record.KindSosreport, "t"))
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Devices) != 9 {
		t.Fatalf("%d devices, want mlx4_0 and bnxt_re0-7", len(h.Devices))
	}
	for _, d := range h.Devices {
		if d.NodeGUID != "" {
			t.Errorf("%s: node_guid %q from a masked GUID", d.Name, d.NodeGUID)
		}
		if d.From["name"] == "" && d.From["fw_ver"] == "" {
			t.Errorf("%s: no source says it is there: %v", d.Name, d.From)
		}
	}
}
