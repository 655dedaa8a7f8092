package source

import (
	"strings"
	"sync"
	"sync/atomic"
)

// ID is a record source id ([[source]] id in a host record): "cmd/" and
// the command line for a command's output, or the snapshot path of a file
// or folder. Ids are compared with ==, never by substring: a new source
// with a similar name must not be mistaken for an old one.
type ID string

// Cmd is the id of a command line's output, e.g. Cmd("ethtool -i eth0").
func Cmd(cmdline string) ID { return ID("cmd/" + cmdline) }

// Ids of the sources whose id is fixed. Those of commands run once per
// netdev or module are made with Cmd ("ethtool -i ens1f0np0",
// "modinfo mlx5_core"), and the logs a row's Globs match keep their
// snapshot path.
const (
	EtcHostname      ID = "etc/hostname"
	SosHostname      ID = "hostname" // sos's top-level link to hostname's output
	ProcHostname     ID = "proc/sys/kernel/hostname"
	UnameR           ID = "cmd/uname -r"
	UnameA           ID = "cmd/uname -a"
	ProcOSRelease    ID = "proc/sys/kernel/osrelease" // the kernel release, when uname was not captured
	ProcVersion      ID = "proc/version"              // "Linux version <release> (…)", read after osrelease
	EtcOSRelease     ID = "etc/os-release"
	UsrOSRelease     ID = "usr/lib/os-release"
	EtcRedHatRelease ID = "etc/redhat-release" // the Red Hat family's release line, when os-release is absent

	Lsmod       ID = "cmd/lsmod"
	ProcModules ID = "proc/modules"
	SysModule   ID = "sys/module"
	OFEDInfoS   ID = "cmd/ofed_info -s"
	OFEDInfoN   ID = "cmd/ofed_info -n"

	SysPCIDevices ID = "sys/bus/pci/devices"
	SysClassNet   ID = "sys/class/net"
	LspciNNVV     ID = "cmd/lspci -nnvv"
	DevlinkInfoJ  ID = "cmd/devlink -j dev info"
	DevlinkInfo   ID = "cmd/devlink dev info"
	DevlinkParams ID = "cmd/devlink dev param show"

	SysInfiniBand     ID = "sys/class/infiniband"
	RDMACM            ID = "sys/kernel/config/rdma_cm"
	IbvDevinfoV       ID = "cmd/ibv_devinfo -v"
	IbvDevinfo        ID = "cmd/ibv_devinfo"
	Ibstat            ID = "cmd/ibstat"
	Ibstatus          ID = "cmd/ibstatus"
	RdmaLink          ID = "cmd/rdma link show"
	RdmaDev           ID = "cmd/rdma dev show"
	Ibdev2netdev      ID = "cmd/ibdev2netdev"
	Ibdev2netdevV     ID = "cmd/ibdev2netdev -v"
	ShowGIDs          ID = "cmd/show_gids"
	IbvDevices        ID = "cmd/ibv_devices"
	RdmaRes           ID = "cmd/rdma res show"
	RdmaResQP         ID = "cmd/rdma res show qp"
	RxeCfgStatus      ID = "cmd/rxe_cfg status"
	RxeCfg            ID = "cmd/rxe_cfg"
	MlxfwmanagerQuery ID = "cmd/mlxfwmanager --query"
	MlxupQuery        ID = "cmd/mlxup --query"
	MstStatusV        ID = "cmd/mst status -v"

	Dmesg       ID = "cmd/dmesg"
	VarLogDmesg ID = "var/log/dmesg"
	JournalK    ID = "cmd/journalctl -k --no-pager"
	ModinfoAll  ID = "sos_commands/kernel/modinfo_ALL_MODULES"

	ProcCmdline ID = "proc/cmdline" // the kernel command line: modprobe.blacklist=, module_blacklist=
	// ProcInterrupts is each IRQ's counts per CPU, chip and handler names.
	ProcInterrupts ID = "proc/interrupts"
	// ProcConfigGz is the running kernel's configuration, gzip-compressed
	// (CONFIG_IKCONFIG_PROC); a paste of zcat's output keeps it as text.
	ProcConfigGz ID = "proc/config.gz"
	// BootConfigRunning is where a paste keeps a configuration it read as
	// /boot/config-$(uname -r) (or `uname -r`): the running kernel's, its
	// release not spelled.
	BootConfigRunning ID = "boot/config-$(uname -r)"
)

// Path is where a source is looked for in a snapshot: a command's output
// at its sos path (SosPath), any other source at its own path. The
// snapshot layer records a command's path with it, and a record lists a
// source absent at it in [[absent]]. The table's command lines are
// computed once.
func (id ID) Path() string {
	cmdline, ok := strings.CutPrefix(string(id), "cmd/")
	if !ok {
		return string(id)
	}
	if p, ok := tablePaths()[id]; ok {
		return p
	}
	if p, ok := pathMemo.Load(id); ok {
		return p.(string)
	}
	p := SosPath(cmdline)
	if pathMemoN.Load() < pathMemoMax {
		if _, dup := pathMemo.LoadOrStore(ID(strings.Clone(string(id))), p); !dup {
			pathMemoN.Add(1)
		}
	}
	return p
}

// pathMemo holds Path's answers for the command lines the table does not
// name as they are (a command run once per device, port or interface), up
// to pathMemoMax of them: a fleet build asks for the path of every source a
// record lists absent, and records name the same few.
var (
	pathMemo  sync.Map // ID → string
	pathMemoN atomic.Int32
)

const pathMemoMax = 4096

var tablePaths = sync.OnceValue(func() map[ID]string {
	m := map[ID]string{}
	for _, t := range Tools {
		for _, c := range t.Commands {
			if !strings.Contains(c.Line, "{") {
				m[c.ID()] = SosPath(c.Line)
			}
		}
	}
	return m
})
