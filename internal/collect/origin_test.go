package collect

import (
	"testing"
	"testing/fstest"

	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
)

func TestOrigin(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		module  string
		version string
		setup   func(c *collector)
		want    string
	}{
		{"cisco kmod version", "enic_rdma", "1.0.0.6-802.21", nil, record.OriginVendor},
		{"cisco version with a dash", "enic", "4.0.0.6-802-21", nil, record.OriginVendor},
		{"ofed driver version", "mlx5_core", "23.10-1.1.9", nil, record.OriginOFED},
		{"ofed banner version", "mlx4_core", "4.9-7.1.0", nil, record.OriginOFED},
		{"old inbox mlx version", "mlx5_core", "5.0-0", nil, record.OriginUnknown},
		{"kernel release", "bnxt_en", "6.6.43", func(c *collector) { c.h.Host.KernelRelease = "6.6.43" }, record.OriginInbox},
		{"ethtool cut kernel release", "hns3", "4.14.0-115.el7.0.1.ctyun.panic.", func(c *collector) {
			c.h.Host.KernelRelease = "4.14.0-115.el7.0.1.ctyun.panic.aarch64"
		}, record.OriginInbox},
		{"intree", "mlx5_ib", "", func(c *collector) { c.module("mlx5_ib").inTree = "Y" }, record.OriginInbox},
		{"updates folder", "irdma", "1.0.13", func(c *collector) {
			c.module("irdma").rec.Filename = "/lib/modules/5.4.5/updates/drivers/infiniband/hw/irdma/irdma.ko"
		}, record.OriginVendor},
		{"taint O on mlx with OFED installed", "mlx5_core", "", func(c *collector) {
			c.module("mlx5_core").rec.Taint = "OE"
			c.h.Stack = &record.Stack{Name: "MLNX_OFED", Raw: "MLNX_OFED_LINUX-5.8-1.0.1.1:"}
		}, record.OriginOFED},
		{"user of mlx_compat", "ib_core", "", func(c *collector) {
			m := c.module("mlx_compat")
			m.loaded, m.rec.UsedBy = true, []string{"ib_core", "mlx5_core"}
		}, record.OriginOFED},
		{"full lsmod without mlx_compat", "mlx5_core", "", func(c *collector) {
			c.module("mlx5_core").loaded = true
			c.noteStatus("cmd/lsmod", "sos_commands/kernel/lsmod", record.StatusOK, "")
		}, record.OriginInbox},
		// A pasted lsmod is as whole as its grep: "grep mlx" shows
		// mlx_compat, "grep -i -E 'rxe|mlx5'" (paste/mlx5-cx5ex-…) and
		// "grep rxe" never do, so lacking it says nothing.
		{"lsmod | grep mlx without mlx_compat", "mlx5_core", "", func(c *collector) {
			c.module("mlx5_core").loaded = true
			c.noteStatus("cmd/lsmod", "sos_commands/kernel/lsmod", record.StatusOK, "")
			c.s.Filters = map[string]string{"sos_commands/kernel/lsmod": `grep "mlx"`}
		}, record.OriginInbox},
		{"lsmod | grep mlx5 without mlx_compat", "mlx5_core", "", func(c *collector) {
			c.module("mlx5_core").loaded = true
			c.noteStatus("cmd/lsmod", "sos_commands/kernel/lsmod", record.StatusOK, "")
			c.s.Filters = map[string]string{"sos_commands/kernel/lsmod": "grep -i -E 'rxe|mlx5'"}
		}, record.OriginUnknown},
		{"lsmod | grep rxe without mlx_compat", "ib_core", "", func(c *collector) {
			c.module("ib_core").loaded = true
			c.noteStatus("cmd/lsmod", "sos_commands/kernel/lsmod", record.StatusOK, "")
			c.s.Filters = map[string]string{"sos_commands/kernel/lsmod": "grep rxe"}
		}, record.OriginUnknown},
		{"no evidence", "qede", "8.10.10.21", nil, record.OriginUnknown},
	} {
		c := &collector{
			s:       snapshot.FromFS(fstest.MapFS{}, record.KindRoot, "t"),
			h:       &record.Host{},
			sources: map[string]record.Source{},
			modules: map[string]*modState{},
		}
		if tc.setup != nil {
			tc.setup(c)
		}
		got, why := c.origin(tc.module, tc.version)
		if got != tc.want || why == "" {
			t.Errorf("%s: origin(%s, %q) = %s (%s), want %s", tc.name, tc.module, tc.version, got, why, tc.want)
		}
	}
}
