package matrix

import "testing"

func TestSourceHref(t *testing.T) {
	t.Parallel()
	for url, want := range map[string]string{
		"https://docs.kernel.org/networking/devlink/mlx5.html":            "https://docs.kernel.org/networking/devlink/mlx5.html",
		"torvalds/linux:drivers/infiniband/hw/mlx5/Kconfig@2c1212de":      "https://github.com/torvalds/linux/blob/2c1212de/drivers/infiniband/hw/mlx5/Kconfig",
		"linux-rdma/rdma-core:kernel-boot/rdma-hw-modules.rules@72660cb5": "https://github.com/linux-rdma/rdma-core/blob/72660cb5/kernel-boot/rdma-hw-modules.rules",
		"kernel source: mlx4_port_immutable":                              "",
		"":                                                                "",
	} {
		s := Source{URL: url}
		if got := s.Href(); got != want {
			t.Errorf("Href(%q) = %q, want %q", url, got, want)
		}
	}
}
