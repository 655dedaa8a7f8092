package source

import "testing"

func TestSosName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"ibv_devinfo -v", "ibv_devinfo_-v"},
		{"ethtool -i ens1f0np0", "ethtool_-i_ens1f0np0"},
		{"/usr/sbin/lspci -nnvv", "lspci_-nnvv"},
		{"devlink dev eswitch show pci/0000:03:00.0", "devlink_dev_eswitch_show_pci.0000_03_00.0"},
		{"mstconfig -d 0000:08:00.0  -e q", "mstconfig_-d_0000_08_00.0_-e_q"},
		{"mstreg -d 0000:08:00.0 --reg_name ROCE_ACCL --get", "mstreg_-d_0000_08_00.0_--reg_name_ROCE_ACCL_--get"},
		{"  uname -a ", "uname_-a"},
		{"find /lib/modules/5.14/extra -ls", "find_.lib.modules.5.14.extra_-ls"},
	} {
		if got := SosName(tc.in); got != tc.want {
			t.Errorf("SosName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestOf(t *testing.T) {
	t.Parallel()
	for id, want := range map[ID]string{
		IbvDevinfoV:                 "ibv_devinfo",
		Cmd("ethtool -i ens1f0np0"): "ethtool",
		Cmd("modinfo mlx5_core"):    "modinfo",
		SysInfiniBand:               "sysfs-infiniband",
		ProcOSRelease:               "uname",
		ProcVersion:                 "uname",
		"sos_commands/logs/journalctl_--no-pager_--dmesg": "kernel-log",
		"cmd/reboot":                   "",
		"cmd/ibv_devinfo -v -d mlx5_0": "",
		"sys/class/infiniband/mlx5_0":  "",
		"proc/version_signature":       "",
		"sos_commands/logs/messages":   "",
		// Every place sos 3.x–4.x and supportconfig keep kernel messages.
		"sos_commands/logs/journalctl_--no-pager":                             "kernel-log",
		"sos_commands/logs/journalctl_--no-pager_--boot":                      "kernel-log",
		"sos_commands/logs/journalctl_--no-pager_--boot_-1":                   "kernel-log",
		"sos_commands/logs/journalctl_--no-pager_--catalog_--boot":            "kernel-log",
		"sos_commands/logs/journalctl_--no-pager_--since_-3days":              "kernel-log",
		"sos_commands/logs/journalctl_--all_--this-boot_--no-pager":           "kernel-log",
		"sos_commands/kernel/dmesg_-T":                                        "",
		"cmd/dmesg -T":                                                        "kernel-log",
		"var/log/messages":                                                    "kernel-log",
		"var/log/messages-20240101":                                           "kernel-log",
		"var/log/kern.log.2.gz":                                               "kernel-log",
		"var/log/syslog.1":                                                    "kernel-log",
		"boot.txt":                                                            "", // read through its sections, below
		"sos_commands/boot/journalctl_--no-pager_--boot_0_--output_short-iso": "kernel-log",
		"sos_commands/messages/journalctl_--no-pager_--output_short-iso":      "kernel-log",
		"sos_commands/boot/journalctl_--boot_0_--no-pager_--disk-usage":       "",
		"sos_commands/boot/journalctl_--no-pager_--list-boot":                 "",
		// Journals that hold no kernel message lines.
		"sos_commands/logs/journalctl_--no-pager_--all_--boot_--output_verbose": "",
		"sos_commands/logs/journalctl_--disk-usage":                             "",
		"sos_commands/logs/journalctl_--no-pager_--unit_rdma":                   "",
	} {
		got, ok := Of(id)
		if got.Name != want || ok != (want != "") {
			t.Errorf("Of(%q) = %q, %v; want %q", id, got.Name, ok, want)
		}
	}
}
