package source

import (
	"path"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
)

// Tool is one tool or file kbcollect reads: one row of Tools. The parser
// that turns its output into the record lives in internal/collect, which
// has exactly one read step per row (its tests check that).
type Tool struct {
	Name     string    // the row's name, e.g. "ibv_devinfo"; collect's read step has the same
	Commands []Command // the command lines kbcollect may run for it, in the order the collector tries them
	Files    []ID      // the snapshot files and folders it reads, in the order the collector tries them
	// Globs are path.Match patterns of further snapshot files the row
	// reads, every match in name order after Files: rotated logs
	// (var/log/messages-20240101, kern.log.1) and the command-line
	// variants sos names its outputs by (journalctl_--no-pager_--boot_-1).
	Globs []string
	// Package is the distribution package that installs the tool, Debian's
	// name then RHEL's after a slash when they differ ("iproute2/iproute");
	// empty for files, tools every system has, and vendor-stack tools no
	// distribution ships. kbcollect names it when the tool is absent.
	Package string
}

// Command is one command line of a tool.
type Command struct {
	// Line is the argv, words separated by one space. A word in braces
	// stands for a name the live host must have: {netdev} (a folder of
	// /sys/class/net), {ibdev} (of /sys/class/infiniband), {module} (a
	// module name) or {port} (a port number).
	Line string
	// Plugin is the sos plugin that runs the command. Its output is
	// sos_commands/<Plugin>/<SosName(line)> in an sosreport, and kbcollect
	// stores it there in a capture; "kbcollect" for commands no sos plugin
	// runs (sos/report/plugins/{infiniband,networking,pci,kernel,host,logs}.py,
	// and NVIDIA's rdma.py and roce.py in sosreport/sos).
	Plugin string
	// Prefetch: a live run starts the command at once, in parallel with the
	// others. A line with {netdev} is then run for each netdev that has a
	// device, one with {module} for each loaded module of RDMAModules.
	Prefetch bool
	// Also lists where else an sosreport may hold the output: sos's
	// root_symlink names at the top of the archive, or sos_commands/*/<name>
	// of a command whose output begins with what this one prints (rdma's
	// plugin runs "rdma link show -d", whose first lines are "rdma link show").
	Also []string
}

// ID is the record source id of the command's output (Line must have no placeholder).
func (c Command) ID() ID { return Cmd(c.Line) }

// Tools is the table of sources, in the order the collector reads them:
// where two give the same field, the earlier one wins.
var Tools = []Tool{
	{Name: "hostname", Files: []ID{EtcHostname, SosHostname, ProcHostname}, Commands: []Command{
		{Line: "hostname", Plugin: "host", Also: []string{"hostname"}},
	}},
	{Name: "uname", Files: []ID{ProcOSRelease, ProcVersion}, Commands: []Command{
		{Line: "uname -r", Plugin: "kernel", Prefetch: true},
		{Line: "uname -a", Plugin: "kernel", Prefetch: true, Also: []string{"uname"}},
	}},
	{Name: "os-release", Files: []ID{EtcOSRelease, UsrOSRelease, EtcRedHatRelease}},
	{Name: "lsmod", Package: "kmod", Files: []ID{ProcModules, SysModule}, Commands: []Command{
		{Line: "lsmod", Plugin: "kernel", Prefetch: true, Also: []string{"lsmod"}},
	}},
	{Name: "ofed_info", Commands: []Command{
		{Line: "ofed_info -s", Plugin: "kbcollect", Prefetch: true},
		{Line: "ofed_info -n", Plugin: "kbcollect"},
		{Line: "ofed_info", Plugin: "kbcollect"},
	}},
	{Name: "sysfs-pci", Files: []ID{SysPCIDevices}},
	{Name: "sysfs-net", Files: []ID{SysClassNet}},
	// sos stores -nnvv; other captures and pastes use other flags, the
	// collector reads the first present in this order. NVIDIA's
	// sysinfo-snapshot keeps "lspci -nnvvvxxxx" (pcie_files/lspci_nnvvvxxx,
	// 2023 on) and "lspci -vvvxxxxx" (pcie_files/lspci_vvvxxxxx): -vvv with
	// the config space dumped after each device (read for its ids when
	// -n is not given); supportconfig's hardware.txt keeps -vvv. sos's pci
	// plugin also keeps "lspci -tv", a tree with names and no classes,
	// read last: it names only functions another source has found.
	{Name: "lspci", Package: "pciutils", Commands: []Command{
		{Line: "lspci -nnvv", Plugin: "pci", Prefetch: true, Also: []string{"lspci"}},
		{Line: "lspci -nnvvvxxxx", Plugin: "pci"},
		{Line: "lspci -vvv", Plugin: "pci"},
		{Line: "lspci -vvvxxxxx", Plugin: "pci"},
		{Line: "lspci -vv", Plugin: "pci"},
		{Line: "lspci -nvv", Plugin: "pci"},
		{Line: "lspci -vmmkn", Plugin: "pci", Prefetch: true},
		{Line: "lspci -v", Plugin: "pci"},
		{Line: "lspci -nn", Plugin: "pci"},
		{Line: "lspci -D", Plugin: "pci"},
		{Line: "lspci -k", Plugin: "pci"},
		{Line: "lspci", Plugin: "pci"},
		{Line: "lspci -tv", Plugin: "pci"},
	}},
	{Name: "devlink", Package: "iproute2/iproute", Commands: []Command{
		{Line: "devlink -j dev info", Plugin: "kbcollect", Prefetch: true}, // sos collects devlink as text only
		{Line: "devlink dev info", Plugin: "networking", Prefetch: true, Also: []string{"sos_commands/*/devlink_dev_info_-v"}},
		{Line: "devlink dev param show", Plugin: "networking", Prefetch: true},
		{Line: "devlink dev", Plugin: "networking"},
		// The health reporters' state and counts (no sos plugin runs it).
		{Line: "devlink health show", Plugin: "kbcollect", Prefetch: true},
	}},
	// The folder where it was copied; else its listing, which is all a
	// paste or a pod's log holds ("ls -l" names each device's PCI path).
	{Name: "sysfs-infiniband", Files: []ID{SysInfiniBand}, Commands: []Command{
		{Line: "ls -l /sys/class/infiniband", Plugin: "kbcollect"},
		{Line: "ls /sys/class/infiniband", Plugin: "kbcollect"},
	}},
	// The character devices user space opens: verbs needs the uverbsN of
	// each RDMA device, librdmacm rdma_cm. No sos plugin lists /dev; in a
	// container this is what the runtime or device plugin passed in.
	{Name: "dev-infiniband", Commands: []Command{
		{Line: "ls -l /dev/infiniband", Plugin: "kbcollect", Prefetch: true},
		{Line: "ls /dev/infiniband", Plugin: "kbcollect"},
	}},
	{Name: "rdma_cm", Files: []ID{RDMACM}, Commands: []Command{
		{Line: "cma_roce_mode -d {ibdev} -p {port}", Plugin: "roce"},
		{Line: "cma_roce_tos -d {ibdev} -p {port}", Plugin: "roce"},
	}},
	{Name: "ibv_devinfo", Package: "ibverbs-utils/libibverbs-utils", Commands: []Command{
		{Line: "ibv_devinfo -v", Plugin: "infiniband", Prefetch: true},
		{Line: "ibv_devinfo", Plugin: "infiniband", Prefetch: true, Also: []string{"sos_commands/*/ibv_devinfo_-v"}},
	}},
	{Name: "ibstat", Package: "infiniband-diags", Commands: []Command{{Line: "ibstat", Plugin: "infiniband", Prefetch: true}}},
	{Name: "ibstatus", Package: "infiniband-diags", Commands: []Command{{Line: "ibstatus", Plugin: "infiniband", Prefetch: true}}},
	{Name: "rdma", Package: "iproute2/iproute", Commands: []Command{
		// Collectors name the same output rdma_link, rdma_link_show or
		// rdma_link_show_-d: the collector reads each one present.
		{Line: "rdma link show", Plugin: "rdma", Prefetch: true},
		{Line: "rdma dev show", Plugin: "rdma", Prefetch: true},
		{Line: "rdma link", Plugin: "rdma"},
		{Line: "rdma dev", Plugin: "rdma"},
		// NVIDIA's rdma plugin (doca-sosreport's sos/report/plugins/rdma.py)
		// runs MLNX iproute2's /opt/mellanox/iproute2/sbin/rdma where it is
		// installed, a path sos does not drop from the file's name.
		{Line: "rdma link show -d", Plugin: "rdma", Also: []string{"sos_commands/*/opt.mellanox.iproute2.sbin.rdma_link_show_-d"}},
		{Line: "rdma dev show -d", Plugin: "rdma", Also: []string{"sos_commands/*/opt.mellanox.iproute2.sbin.rdma_dev_show_-d"}},
		// Resources name the devices that have them, nothing more. The
		// summary ("0: mlx5_0: pd 3 cq 8 qp 5 …") lists every device; QPs
		// only those with a QP.
		{Line: "rdma res show", Plugin: "kbcollect"},
		{Line: "rdma res show qp", Plugin: "kbcollect"},
		// Each port's hardware counters, headed "link <dev>/<port>": like a
		// resource output, it names the devices and ports that exist.
		{Line: "rdma statistic show", Plugin: "kbcollect"},
		// The RDMA subsystem's network namespace mode: shared (every
		// namespace sees every device) or exclusive (a device is seen
		// only in the namespace it was moved to).
		{Line: "rdma system show", Plugin: "kbcollect", Prefetch: true},
		{Line: "rdma system", Plugin: "kbcollect"},
	}, Globs: []string{
		// NVIDIA's rdma plugin: "rdma resource show <qp|cm_id|cq|pd|mr|ctx|srq> -d",
		// by either binary.
		"sos_commands/*/rdma_resource_show_*", "sos_commands/*/opt.mellanox.iproute2.sbin.rdma_resource_show*",
		// sysinfo-snapshot --rdma_debug (rdma_tool_handler in sysinfo-snapshot.py):
		// "resource show", "resource show cm_id", "resource show qp" and
		// "res show cq" of /opt/mellanox/iproute2/sbin/rdma, each laid out at
		// its command line's sos name.
		"sos_commands/*/opt.mellanox.iproute2.sbin.rdma_res_show*",
	}},
	{Name: "ibdev2netdev", Commands: []Command{
		{Line: "ibdev2netdev", Plugin: "kbcollect", Prefetch: true},
		{Line: "ibdev2netdev -v", Plugin: "kbcollect"},
	}},
	{Name: "show_gids", Commands: []Command{{Line: "show_gids", Plugin: "kbcollect", Prefetch: true}}},
	{Name: "ibv_devices", Package: "ibverbs-utils/libibverbs-utils", Commands: []Command{{Line: "ibv_devices", Plugin: "infiniband", Prefetch: true}}},
	// rdma-core's old SoftRoCE script (removed in rdma-core v27 for rdma
	// link add); no sos plugin runs it. Plain rxe_cfg prints the status
	// table too. `rxe_cfg start` is never run (it loads modules and binds
	// devices), but a pasted capture of it ends with the same table after
	// its errors, so an sosreport's rxe_cfg_start file is read as well.
	{Name: "rxe_cfg", Commands: []Command{
		{Line: "rxe_cfg status", Plugin: "kbcollect", Prefetch: true, Also: []string{"sos_commands/*/rxe_cfg_start"}},
		{Line: "rxe_cfg", Plugin: "kbcollect"},
	}},
	// Netdevs of other network namespaces, as sos names their ethtool -i
	// (networking.py: "ip netns exec <ns> ethtool -i <dev>", in namespaces/<ns>/
	// since sosreport/sos commit 9118562c, 2021).
	// "ethtool <dev>" is the link as the driver sees it: speed, duplex, Link detected.
	{Name: "ethtool", Package: "ethtool", Commands: []Command{
		{Line: "ethtool -i {netdev}", Plugin: "networking", Prefetch: true},
		{Line: "ethtool {netdev}", Plugin: "networking", Prefetch: true},
	},
		Globs: []string{"sos_commands/networking/ip_netns_exec_*_ethtool_-i_*", "sos_commands/networking/namespaces/*/ip_netns_exec_*_ethtool_-i_*"}},
	// lshw's network nodes: the netdev, driver, firmware and link of each
	// PCI function, what ethtool -i tells (after it: ethtool wins). sos's
	// hardware plugin runs the whole tree (add_cmd_output("lshw")), whose
	// other nodes the parser skips. No Package: it only stands in for
	// ethtool -i, so kbcollect does not ask for it when it is absent.
	{Name: "lshw", Commands: []Command{
		{Line: "lshw -class network", Plugin: "kbcollect"},
		{Line: "lshw", Plugin: "hardware"},
	}},
	// ip's table of links: each netdev's flags, mtu, master and
	// operational state, after ethtool and lshw, whose fields win. sos's
	// networking plugin runs "ip -s -d link" (since sosreport/sos commit
	// e64e6407, 2017; "ip -s link" from 7f0f6366, 2016, "ip link" before)
	// and "ip -d address" ("ip address" before 66289f8e, 2017), whose
	// link lines are the same; -d adds the parent device, the PCI
	// function of a netdev.
	{Name: "ip", Package: "iproute2/iproute", Commands: []Command{
		{Line: "ip -s -d link", Plugin: "networking", Prefetch: true},
		{Line: "ip -s link", Plugin: "networking"},
		{Line: "ip link", Plugin: "networking"},
		{Line: "ip -d address", Plugin: "networking"},
		{Line: "ip address", Plugin: "networking"},
	}},
	// NVIDIA's firmware query: mlxfwmanager ships in MFT, mlxup is the
	// standalone updater, and both print the same blocks; no distribution
	// packages either. sos's mellanox_firmware plugin runs flint and
	// mstflint queries, not these, so no sosreport holds their output.
	// After ethtool: firmware from devlink, sysfs and ethtool wins.
	{Name: "mlxfwmanager", Commands: []Command{
		{Line: "mlxfwmanager --query", Plugin: "kbcollect", Prefetch: true},
		{Line: "mlxup --query", Plugin: "kbcollect"},
	}},
	// flint's and mstflint's query, one file per card. sos's
	// mellanox_firmware plugin runs "flint -d <BDF> q" where MFT is
	// installed and "mstflint -d <BDF> q" where it is not, for function 0
	// of each NVIDIA card (sos/report/plugins/mellanox_firmware.py), so
	// the device is in the file's name: flint_-d_0000_08_00.0_q. After
	// mlxfwmanager: firmware from devlink, sysfs and ethtool still wins.
	{Name: "flint", Globs: []string{
		"sos_commands/*/flint_-d_*_q", "sos_commands/*/mstflint_-d_*_q",
		"sos_commands/*/flint_-d_*_query", "sos_commands/*/mstflint_-d_*_query",
		"sos_commands/*/flint_-d_*_q_full", "sos_commands/*/mstflint_-d_*_q_full",
		"sos_commands/*/flint_-d_*_query_full", "sos_commands/*/mstflint_-d_*_query_full",
	}},
	// NVIDIA's configuration query, mlxconfig (MFT) or mstconfig
	// (mstflint), one file per device, named as sos names a command's
	// output (mlxconfig_-d_0000_3b_00.0_-e_q); a paste of it is filed
	// under that name. It holds the stored settings (LINK_TYPE_P<n>,
	// SRIOV_EN) that decide whether a port can carry RoCE.
	{Name: "mlxconfig", Globs: []string{
		"sos_commands/*/mlxconfig_-d_*", "sos_commands/*/mstconfig_-d_*",
	}},
	// Every place a snapshot keeps kernel messages; the collector reads
	// each one present and merges their events once. sos's kernel plugin
	// runs dmesg and dmesg -T and copies /var/log/dmesg; its logs plugin
	// runs journalctl --no-pager with --boot, --boot -1, --since, --catalog
	// (add_journal in sos/report/plugins/__init__.py and logs.py, sos 3.x
	// "journalctl --all --this-boot --no-pager") and copies
	// /var/log/{messages,kern.log,syslog}* with their rotations.
	// supportconfig keeps dmesg -T and the journal in boot.txt and the
	// syslog in messages.txt, read through their sections.
	// MFT's device table; sos's mellanox_firmware plugin runs "mst status
	// -v" (sos/report/plugins/mellanox_firmware.py). It ties each NVIDIA
	// function to its RDMA device and netdevs when sysfs was not copied.
	{Name: "mst", Commands: []Command{
		{Line: "mst status -v", Plugin: "mellanox_firmware"},
	}},
	// The PCI functions a Kubernetes device plugin logged as it scanned
	// the node (internal/deviceplugin): the RDMA shared device plugin,
	// which NVIDIA's network operator deploys, and the SR-IOV network
	// device plugin. Their pods' logs are all a cluster's support case may
	// hold of the node's adapters. sos's kubernetes plugin keeps them with
	// its podlogs option, one file per container ("<kube_cmd> --namespace=<ns>
	// logs <pod> -c <container>" under cluster-info/<ns>/podlogs/<pod>/, where
	// kube_cmd is kubectl, oc or "microk8s kubectl";
	// sos/report/plugins/kubernetes.py); a pasted `kubectl logs <pod>` or
	// `oc logs <pod>`, flags anywhere, is kept at its command line's sos
	// name. After the tools that read a function's own files: it names
	// functions and their ids, nothing else.
	{Name: "device-plugin", Globs: []string{
		"sos_commands/kubernetes/cluster-info/*/podlogs/*/*",
		"sos_commands/kbcollect/kubectl_*logs_*", "sos_commands/kbcollect/oc_*logs_*",
		"sos_commands/kbcollect/microk8s_kubectl_*logs_*",
	}},
	{Name: "kernel-log", Files: []ID{VarLogDmesg}, Commands: []Command{
		{Line: "dmesg", Plugin: "kernel", Prefetch: true},
		{Line: "dmesg -T", Plugin: "kernel"},
		{Line: "journalctl -k --no-pager", Plugin: "logs"},
		{Line: "journalctl -k -b --no-pager", Plugin: "logs"},
	}, Globs: []string{
		"sos_commands/logs/journalctl*", "sos_commands/kernel/journalctl*",
		"var/log/kern.log*", "var/log/messages*", "var/log/syslog*",
		// supportconfig's journals, as the snapshot lays its sections out
		// (boot.txt: journalctl --boot=0 and dmesg -T; messages.txt: the
		// journal or /var/log/messages).
		"sos_commands/boot/journalctl*", "sos_commands/messages/journalctl*",
	}},
	// The vectors each PCI function has a handler on, after every source of adapters; sos's hardware
	// plugin copies the file (add_copy_spec("/proc/interrupts"),
	// sos/report/plugins/hardware.py).
	{Name: "interrupts", Files: []ID{ProcInterrupts}},
	// sos before 3.5.1 ran the same "modinfo <every module>" with no
	// suggest_filename, so its file is named by the mangled command:
	// modinfo_<module>_<module>_…, cut at 255 bytes (sosreport/sos commit
	// 320a4140, "[kernel] Use modinfo_ALL_MODULES as filename", 2017). The
	// collector reads such files only when neither modinfo_ALL_MODULES nor
	// a modinfo of one module is there.
	{Name: "modinfo", Package: "kmod", Files: []ID{ModinfoAll}, Commands: []Command{{Line: "modinfo {module}", Plugin: "kernel", Prefetch: true}},
		Globs: []string{"sos_commands/kernel/modinfo_*"}},
	// What keeps a module from loading: modprobe.d configuration (kmod reads
	// *.conf in /etc, /run, /usr/local/lib, /usr/lib and /lib modprobe.d, a
	// file name in an earlier folder hiding the same name in a later one;
	// modprobe.d(5)), and the kernel command line's modprobe.blacklist=,
	// module_blacklist= and rd.driver.blacklist=. sos's kernel plugin copies
	// them (sos/report/plugins/kernel.py), and /etc/modprobe.conf too, which
	// kmod does not read (modprobe.d(5) of kmod names only the five folders),
	// so a line there blocks nothing and is not read. A pasted grep of the
	// folders is kept at its command line's sos name.
	{Name: "modprobe", Files: []ID{ProcCmdline}, Globs: []string{
		"etc/modprobe.d/*.conf", "run/modprobe.d/*.conf", "usr/local/lib/modprobe.d/*.conf",
		"usr/lib/modprobe.d/*.conf", "lib/modprobe.d/*.conf",
		"sos_commands/*/grep_*modprobe.d*",
	}},
	// The running kernel's build configuration: sos's kernel plugin copies
	// /boot/config-<uname -r> (sos/report/plugins/kernel.py,
	// f"/boot/config-{kernel_version}"); /proc/config.gz exists on kernels
	// built with CONFIG_IKCONFIG_PROC. The collector reads the config of the
	// record's kernel release only (a host keeps those of every installed
	// kernel), and a pasted one named for the running kernel
	// (BootConfigRunning).
	{Name: "kconfig", Files: []ID{ProcConfigGz}, Globs: []string{"boot/config-*"}},
}

// RDMAModules are the kernel modules whose modinfo and /sys/module
// attributes a live run and a capture collect when they are loaded.
var RDMAModules = []string{
	"ib_core", "ib_uverbs", "rdma_cm", "ib_cm", "iw_cm", "rdma_ucm", "mlx_compat",
	"mlx4_core", "mlx4_en", "mlx4_ib", "mlx5_core", "mlx5_ib",
	"bnxt_en", "bnxt_re", "ice", "irdma", "i40e", "i40iw",
	"enic", "enic_rdma", "usnic_verbs", "qed", "qede", "qedr",
	"hns3", "hns_roce_hw_v2", "hclge", "rdma_rxe", "siw", "efa", "erdma", "mana_ib", "ionic_rdma", "vmw_pvrdma",
}

// Placeholder reports whether a word of Command.Line stands for a name.
func Placeholder(word string) bool {
	return len(word) > 2 && word[0] == '{' && word[len(word)-1] == '}'
}

// Match reports whether a command line's words fit c.Line; ok judges each
// word that stands in for a placeholder ("{netdev}", "eth0"), and nil
// accepts any.
func (c Command) Match(words []string, ok func(placeholder, word string) bool) bool {
	pattern := lineWords(c.Line)
	if len(pattern) != len(words) {
		return false
	}
	for i, p := range pattern {
		switch {
		case Placeholder(p):
			if ok != nil && !ok(p, words[i]) {
				return false
			}
		case p != words[i]:
			return false
		}
	}
	return true
}

// lineFields holds the words of each command line Match has split: a
// record's every source is matched against the whole table (source.Of, once
// per source of every host a fleet build diagnoses), and the table's lines
// are few.
var lineFields sync.Map // Command.Line → []string

func lineWords(line string) []string {
	if w, ok := lineFields.Load(line); ok {
		return w.([]string)
	}
	w := strings.Fields(line)
	lineFields.Store(line, w)
	return w
}

// Find returns the table's command a command line fits, placeholders
// matching any word.
func Find(cmdline string) (Command, bool) {
	words := strings.Fields(cmdline)
	for _, t := range Tools {
		for _, c := range t.Commands {
			if c.Match(words, nil) {
				return c, true
			}
		}
	}
	return Command{}, false
}

// pluginOfWord is the sos plugin of each program the table runs: the
// plugin of its commands other than those sos does not run.
var pluginOfWord = func() map[string]string {
	m := map[string]string{}
	for _, t := range Tools {
		for _, c := range t.Commands {
			w, _, _ := strings.Cut(c.Line, " ")
			if old, ok := m[w]; !ok || old == "kbcollect" {
				m[w] = c.Plugin
			}
		}
	}
	return m
}()

// Plugin is the sos plugin folder for a command line: its row's, else that
// of the table's commands of the same program, else "kbcollect".
func Plugin(cmdline string) string {
	cmdline = strings.Join(strings.Fields(cmdline), " ")
	if c, ok := Find(cmdline); ok {
		return c.Plugin
	}
	word, _, _ := strings.Cut(cmdline, " ")
	if p, ok := pluginOfWord[path.Base(word)]; ok {
		return p
	}
	return "kbcollect"
}

// Also lists where else an sosreport may hold a command line's output.
func Also(cmdline string) []string {
	cmdline = strings.Join(strings.Fields(cmdline), " ")
	for _, t := range Tools {
		for _, c := range t.Commands {
			if c.Line == cmdline {
				return c.Also
			}
		}
	}
	return nil
}

// SosPath is where a command's output lives in the sos layout, and where a
// capture stores it: sos_commands/<plugin>/<SosName(cmdline)>.
func SosPath(cmdline string) string {
	return "sos_commands/" + Plugin(cmdline) + "/" + SosName(cmdline)
}

var (
	reBinPrefix = regexp.MustCompile(`^/(usr/|)(bin|sbin)/`)
	reNotName   = regexp.MustCompile(`[^\p{L}\p{N}_\-./]+`)
)

// SosName mangles a command line the way sos names its output files
// (_mangle_command in sos/report/plugins/__init__.py): a leading /bin,
// /sbin, /usr/bin or /usr/sbin is dropped, each run of characters other
// than word characters, '-', '.' and '/' becomes one '_', '/' becomes '.',
// and ' ', '.', '_' and '-' are trimmed from both ends. At most 255 bytes.
func SosName(cmdline string) string {
	m := reBinPrefix.ReplaceAllString(strings.TrimSpace(cmdline), "")
	m = reNotName.ReplaceAllString(m, "_")
	m = strings.ReplaceAll(m, "/", ".")
	m = strings.Trim(m, " ._-")
	if len(m) > 255 {
		m = strings.ToValidUTF8(m[:255], "")
	}
	return m
}

// Of returns the row a record source id belongs to: the row of its command
// line (placeholders matching any word), of its file, or of its Globs (a
// rotated syslog file, a journal variant: the kernel-log row). The engine
// uses it to ask "was any kernel log read" without matching ids by
// substring.
func Of(id ID) (Tool, bool) {
	if a, ok := ofMemo.Load(id); ok {
		r := a.(ofAnswer)
		return r.t, r.ok
	}
	t, ok := of(id)
	if ofMemoN.Load() < ofMemoMax {
		if _, dup := ofMemo.LoadOrStore(id, ofAnswer{t, ok}); !dup {
			ofMemoN.Add(1)
		}
	}
	return t, ok
}

// ofMemo holds Of's answers by id, up to ofMemoMax of them: a fleet build
// asks for every source of every record (diagnosis, twice per source), and
// records name the same few ids.
var (
	ofMemo  sync.Map // ID → ofAnswer
	ofMemoN atomic.Int32
)

const ofMemoMax = 4096

type ofAnswer struct {
	t  Tool
	ok bool
}

func of(id ID) (Tool, bool) {
	if line, ok := strings.CutPrefix(string(id), "cmd/"); ok {
		words := strings.Fields(line)
		for _, t := range Tools {
			for _, c := range t.Commands {
				if c.Match(words, nil) {
					return t, true
				}
			}
		}
		return Tool{}, false
	}
	for _, t := range Tools {
		for _, f := range t.Files {
			if f == id {
				return t, true
			}
		}
	}
	for _, t := range Tools {
		if t.Globbed(string(id)) {
			return t, true
		}
	}
	return Tool{}, false
}

// Globbed reports whether a snapshot path is one of the row's Globs and
// holds what the row reads: a journal in a format other than lines of
// text (verbose, export, json), one unit's or identifier's journal, or
// journalctl's disk usage is not a log of the kernel.
func (t Tool) Globbed(p string) bool {
	for _, g := range t.Globs {
		if ok, _ := path.Match(g, p); ok {
			base := path.Base(p)
			for _, not := range notLogs {
				if strings.Contains(base, not) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// notLogs are words of a journal file name that say it holds no kernel
// message lines.
var notLogs = []string{"verbose", "export", "json", "disk-usage", "--unit", "_-u_", "--identifier", "_-t_", "--list-boot", "--field"}
