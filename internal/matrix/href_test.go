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

func TestIdentify(t *testing.T) {
	t.Parallel()
	m := &Matrix{Adapters: []Adapter{
		{ID: "cx5", PCI: []PCIID{{ID: "15b3:1017", Name: "MT27800 Family [ConnectX-5]"}}},
		{ID: "cx5ex", PCI: []PCIID{{ID: "15b3:1019", Name: "MT28800 Family [ConnectX-5 Ex]"}}},
		{ID: "cx4lx", PCI: []PCIID{{ID: "15b3:1015", Name: "MT27710 Family [ConnectX-4 Lx]"}}},
		{ID: "cx4lx-vf", PCI: []PCIID{{ID: "15b3:1016", Name: "MT27710 Family [ConnectX-4 Lx Virtual Function]"}}},
		{ID: "vic1455", PCI: []PCIID{{ID: "1137:0043", Subsystem: "1137:0217"}}},
		{ID: "vic", PCI: []PCIID{{ID: "1137:0043"}}},
	}}
	for _, tc := range []struct{ vendor, device, sv, sd, name, want string }{
		{"15b3", "1017", "", "", "", "cx5"},
		{"1137", "0043", "1137", "0217", "", "vic1455"},
		{"1137", "0043", "1137", "9999", "", "vic"},
		{"15b3", "abcd", "", "", "Mellanox Technologies MT27800 Family [ConnectX-5]", ""}, // ids win over the name
		{"", "", "", "", "Mellanox Technologies MT28800 Family [ConnectX-5 Ex]", "cx5ex"},
		{"", "", "", "", "Mellanox Technologies MT27710 Family [ConnectX-4 Lx Virtual Function]", "cx4lx-vf"},
		{"", "", "", "", "Mellanox Technologies MT27710 Family [ConnectX-4 Lx]", "cx4lx"},
		{"", "", "", "", "Intel Corporation Ethernet Controller", ""},
	} {
		got := ""
		if a := m.Identify(tc.vendor, tc.device, tc.sv, tc.sd, tc.name); a != nil {
			got = a.ID
		}
		if got != tc.want {
			t.Errorf("Identify(%q %q %q %q %q) = %q, want %q", tc.vendor, tc.device, tc.sv, tc.sd, tc.name, got, tc.want)
		}
	}
}
