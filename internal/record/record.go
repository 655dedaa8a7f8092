package record

import (
	"slices"
	"strings"
	"time"
)

// Schema is the version of the host record written by this code. A reader
// rejects records with a newer schema instead of misreading them, and reads
// every older one: schema 2 only added fields to schema 1, so a schema-1
// record decodes unchanged, its new fields absent; schema 3 writes the
// sources found absent where they are looked for as [[absent]] lists (see
// Absent), which a reader expands into Sources.
const Schema = 3

// Source kinds: where a snapshot came from.
const (
	KindLive      = "live"      // kbcollect on the running host
	KindSosreport = "sosreport" // an sosreport folder or tarball
	KindCapture   = "capture"   // a kbcollect capture tarball
	KindRoot      = "root"      // a copied tree given with --root
	// KindSupportconfig is a SUSE supportconfig folder or tarball.
	KindSupportconfig = "supportconfig"
	// KindSysinfoSnapshot is an NVIDIA sysinfo-snapshot folder or tarball.
	KindSysinfoSnapshot = "sysinfo-snapshot"
)

// Source statuses.
const (
	StatusOK     = "ok"     // read and parsed
	StatusAbsent = "absent" // not on the host or not in the snapshot: data, not failure
	StatusFailed = "failed" // present but unreadable or unparsable; Reason says why
)

// Driver origins.
const (
	OriginInbox   = "inbox"   // shipped with the kernel
	OriginOFED    = "ofed"    // MLNX_OFED or DOCA-OFED
	OriginVendor  = "vendor"  // another vendor kmod (e.g. Cisco enic/enic_rdma)
	OriginUnknown = "unknown" // not enough evidence
)

// Host is one host record. Every slice is sorted so that the same snapshot
// always gives byte-identical output.
type Host struct {
	Schema    int          `toml:"schema" json:"schema"`
	Host      HostInfo     `toml:"host" json:"host"`
	Adapters  []Adapter    `toml:"adapter,omitempty" json:"adapters,omitempty"`
	Devices   []RDMADevice `toml:"rdma_device,omitempty" json:"rdma_devices,omitempty"`
	Modules   []Module     `toml:"module,omitempty" json:"modules,omitempty"`
	Stack     *Stack       `toml:"stack,omitempty" json:"stack,omitempty"`
	KernelLog []LogEvent   `toml:"kernel_log,omitempty" json:"kernel_log,omitempty"`
	// Schema 2.
	Netdevs      []Netdev      `toml:"netdev,omitempty" json:"netdevs,omitempty"`
	ModulesSeen  []ModuleSeen  `toml:"module_seen,omitempty" json:"modules_seen,omitempty"`
	ToolMessages []ToolMessage `toml:"tool_message,omitempty" json:"tool_messages,omitempty"`
	// FirmwareDevices are the devices of mlxfwmanager --query (or mlxup)
	// that name no PCI function, so they complete no adapter.
	FirmwareDevices []FirmwareDevice `toml:"firmware_device,omitempty" json:"firmware_devices,omitempty"`
	Sources         []Source         `toml:"source,omitempty" json:"sources,omitempty"`
	// Absent holds, in a record, what Sources holds in memory: the
	// sources absent at their own path (see Absent). Decode moves it into
	// Sources and Encode back out, so it is empty everywhere else.
	// Schema 3.
	Absent   []Absent  `toml:"absent,omitempty" json:"absent,omitempty"`
	Problems []Problem `toml:"problem,omitempty" json:"problems,omitempty"`
	// CharDevices are the entries of /dev/infiniband (schema 3, additive).
	CharDevices []CharDevice `toml:"char_device,omitempty" json:"char_devices,omitempty"`
	// RDMASystem is `rdma system show` (schema 3, additive).
	RDMASystem *RDMASystem `toml:"rdma_system,omitempty" json:"rdma_system,omitempty"`
	// ModuleBlocks are the host's rules that keep an RDMA module from
	// loading (schema 3, additive).
	ModuleBlocks []ModuleBlock `toml:"module_block,omitempty" json:"module_blocks,omitempty"`
	// KernelConfig is the running kernel's build configuration, its RDMA
	// options only (schema 3, additive).
	KernelConfig *KernelConfig `toml:"kernel_config,omitempty" json:"kernel_config,omitempty"`
	// MlxConfig are the devices of NVIDIA's configuration query,
	// mlxconfig or mstconfig (schema 3, additive).
	MlxConfig []MlxConfig `toml:"mlxconfig,omitempty" json:"mlxconfig,omitempty"`

	// File is the name of the file the record was loaded from, without
	// its extension and with what it hides escaped; set by the records
	// loader, never written. A record without a host id is called by it.
	File string `toml:"-" json:"-"`
}

// Unnamed reports whether the record names no host: the loader then gives
// it the id "(<File>)", so every host in the output can be told apart.
func (h *Host) Unnamed() bool {
	return h.Host.ID == "" || (h.File != "" && h.Host.ID == "("+h.File+")")
}

// HostInfo identifies the host and the snapshot.
type HostInfo struct {
	ID            string `toml:"id" json:"id"`                                             // hostname, or its token when redacted
	KernelRelease string `toml:"kernel_release,omitempty" json:"kernel_release,omitempty"` // uname -r
	// KernelReleaseFrom is where KernelRelease was read (schema 2): a source
	// id, or "<id> line N (how)" for the kernel log and modinfo.
	KernelReleaseFrom string     `toml:"kernel_release_from,omitempty" json:"kernel_release_from,omitempty"`
	OS                OSRelease  `toml:"os" json:"os"`                                         // /etc/os-release
	CollectedAt       *time.Time `toml:"collected_at,omitempty" json:"collected_at,omitempty"` // snapshot time, when known
	SourceKind        string     `toml:"source_kind" json:"source_kind"`                       // live, sosreport, capture or root
	Collector         string     `toml:"collector,omitempty" json:"collector,omitempty"`       // kbcollect version that wrote it
	Redacted          bool       `toml:"redacted" json:"redacted"`                             // identifiers replaced by tokens
	HasRDMA           bool       `toml:"has_rdma" json:"has_rdma"`                             // at least one RDMA device was seen
}

// OSRelease holds the /etc/os-release fields the engine needs.
type OSRelease struct {
	ID         string `toml:"id,omitempty" json:"id,omitempty"`                   // ID, e.g. rhel, ubuntu, sles
	VersionID  string `toml:"version_id,omitempty" json:"version_id,omitempty"`   // VERSION_ID, e.g. 9.4
	PrettyName string `toml:"pretty_name,omitempty" json:"pretty_name,omitempty"` // PRETTY_NAME
}

// Adapter is one PCI function that carries a network or RDMA device.
type Adapter struct {
	PCIAddress      string   `toml:"pci_address" json:"pci_address"`                               // domain:bus:dev.fn, e.g. 0000:3b:00.0
	Vendor          string   `toml:"vendor" json:"vendor"`                                         // PCI vendor id, 4 lower-case hex digits
	Device          string   `toml:"device" json:"device"`                                         // PCI device id
	SubsystemVendor string   `toml:"subsystem_vendor,omitempty" json:"subsystem_vendor,omitempty"` // PCI subsystem vendor id
	SubsystemDevice string   `toml:"subsystem_device,omitempty" json:"subsystem_device,omitempty"` // PCI subsystem device id
	Name            string   `toml:"name,omitempty" json:"name,omitempty"`                         // lspci description
	Netdevs         []string `toml:"netdevs,omitempty" json:"netdevs,omitempty"`                   // /sys/bus/pci/devices/<bdf>/net/*
	RDMADevices     []string `toml:"rdma_devices,omitempty" json:"rdma_devices,omitempty"`         // /sys/bus/pci/devices/<bdf>/infiniband/*
	Driver          Driver   `toml:"driver" json:"driver"`
	Firmware        Firmware `toml:"firmware" json:"firmware"`
	MSIX            *MSIX    `toml:"msix,omitempty" json:"msix,omitempty"`
	EnableRoCE      *bool    `toml:"enable_roce,omitempty" json:"enable_roce,omitempty"` // devlink dev param enable_roce (runtime)
	// Schema 2.
	SubsystemName string     `toml:"subsystem_name,omitempty" json:"subsystem_name,omitempty"` // lspci "Subsystem:" text
	ProductName   string     `toml:"product_name,omitempty" json:"product_name,omitempty"`     // VPD Product Name (lspci -vv), or ibdev2netdev -v's description
	PartNumber    string     `toml:"part_number,omitempty" json:"part_number,omitempty"`       // VPD [PN] (lspci -vv) or ibdev2netdev -v; never a serial
	KernelModules []string   `toml:"kernel_modules,omitempty" json:"kernel_modules,omitempty"` // lspci "Kernel modules": modules that can drive it
	PCIe          *PCIeLink  `toml:"pcie,omitempty" json:"pcie,omitempty"`
	MLX4Ports     []MLX4Port `toml:"mlx4_port,omitempty" json:"mlx4_ports,omitempty"`
	// HealthReporters are its devlink health reporters, the device's and
	// its ports' (schema 3, additive).
	HealthReporters []HealthReporter `toml:"health_reporter,omitempty" json:"health_reporters,omitempty"`
	// From maps a field path (e.g. "firmware.running") to the source id it came from.
	From map[string]string `toml:"from,omitempty" json:"from,omitempty"`
}

// HealthReporter is one reporter of `devlink health show`: its state and
// counts since the driver loaded; a state of "error", or more errors than
// recoveries, is a fault the driver saw and did not recover from.
type HealthReporter struct {
	Name     string `toml:"name" json:"name"`                             // "fw", "fw_fatal", "tx", "rx", "vnic" (mlx5)
	Port     *int   `toml:"port,omitempty" json:"port,omitempty"`         // the devlink port index of a port's reporter
	State    string `toml:"state,omitempty" json:"state,omitempty"`       // "healthy" or "error"
	Errors   *int   `toml:"errors,omitempty" json:"errors,omitempty"`     // "error N"
	Recovers *int   `toml:"recovers,omitempty" json:"recovers,omitempty"` // "recover N"
}

// Driver is the Ethernet (or core) driver bound to the PCI function.
type Driver struct {
	Name       string `toml:"name,omitempty" json:"name,omitempty"`             // ethtool -i driver, or the sysfs driver link
	Version    string `toml:"version,omitempty" json:"version,omitempty"`       // ethtool -i version, or /sys/module/<m>/version
	SrcVersion string `toml:"srcversion,omitempty" json:"srcversion,omitempty"` // /sys/module/<m>/srcversion
	Origin     string `toml:"origin,omitempty" json:"origin,omitempty"`         // inbox, ofed, vendor or unknown
	OriginWhy  string `toml:"origin_why,omitempty" json:"origin_why,omitempty"` // the evidence for Origin
}

// Firmware versions. Stored differs from Running when an update is pending.
type Firmware struct {
	Running string `toml:"running,omitempty" json:"running,omitempty"`   // devlink fw.version running, ethtool firmware-version, or fw_ver
	Stored  string `toml:"stored,omitempty" json:"stored,omitempty"`     // devlink fw.version stored
	PSID    string `toml:"psid,omitempty" json:"psid,omitempty"`         // devlink fw.psid, or ibv_devinfo board_id on mlx
	BoardID string `toml:"board_id,omitempty" json:"board_id,omitempty"` // devlink board.id, or /sys/class/infiniband/<dev>/board_id
	// Schema 2.
	SummaryKey string              `toml:"summary_key,omitempty" json:"summary_key,omitempty"` // the devlink key Running and Stored were taken from, e.g. fw.bundle_id on ice
	Components []FirmwareComponent `toml:"component,omitempty" json:"components,omitempty"`    // every devlink dev info version
}

// FirmwareComponent is one version line of `devlink dev info`.
type FirmwareComponent struct {
	Section string `toml:"section" json:"section"` // fixed, running or stored
	Key     string `toml:"key" json:"key"`         // e.g. fw.mgmt, fw.undi, fw.bundle_id, board.id
	Version string `toml:"version" json:"version"` // as printed, trailing annotations cut
}

// PCIeLink is the PCIe link of a function: from lspci -vv LnkSta (what it
// trained to) and LnkCap (what it can do), else the kernel log's bandwidth
// line. Optional values are absent when no source printed them.
type PCIeLink struct {
	Speed            string   `toml:"speed,omitempty" json:"speed,omitempty"`                           // LnkSta speed as printed, e.g. "8GT/s"
	SpeedGTps        *float64 `toml:"speed_gtps,omitempty" json:"speed_gtps,omitempty"`                 // the speed in GT/s
	Width            *int     `toml:"width,omitempty" json:"width,omitempty"`                           // lanes (x8 is 8)
	CapableSpeed     string   `toml:"capable_speed,omitempty" json:"capable_speed,omitempty"`           // LnkCap speed as printed
	CapableSpeedGTps *float64 `toml:"capable_speed_gtps,omitempty" json:"capable_speed_gtps,omitempty"` // LnkCap speed, or the log's "capable of" speed
	CapableWidth     *int     `toml:"capable_width,omitempty" json:"capable_width,omitempty"`           // LnkCap lanes
	Downgraded       *bool    `toml:"downgraded,omitempty" json:"downgraded,omitempty"`                 // runs below its capable speed or width
	AvailableGbps    *float64 `toml:"available_gbps,omitempty" json:"available_gbps,omitempty"`         // kernel log "N Gb/s available PCIe bandwidth"
	CapableGbps      *float64 `toml:"capable_gbps,omitempty" json:"capable_gbps,omitempty"`             // kernel log "(capable of N Gb/s …)"
	LimitedBy        string   `toml:"limited_by,omitempty" json:"limited_by,omitempty"`                 // kernel log: PCI address of the limiting link
}

// MLX4Port is a ConnectX-3 port's link type,
// /sys/bus/pci/devices/<bdf>/mlx4_port<N>.
type MLX4Port struct {
	Port int    `toml:"port" json:"port"`
	Type string `toml:"type" json:"type"` // as read: "ib", "eth", "auto (eth)"
}

// MSIX is the MSI-X capability of the function.
type MSIX struct {
	Count   *int  `toml:"count,omitempty" json:"count,omitempty"`     // lspci "MSI-X: Enable+ Count=N": table size
	Enabled *bool `toml:"enabled,omitempty" json:"enabled,omitempty"` // lspci Enable+ / Enable-
	Vectors *int  `toml:"vectors,omitempty" json:"vectors,omitempty"` // /sys/bus/pci/devices/<bdf>/msi_irqs entries in use
	Used    *int  `toml:"used,omitempty" json:"used,omitempty"`       // /proc/interrupts lines of the function's message-signalled vectors: those with a handler (schema 3)
}

// RDMADevice is one entry of /sys/class/infiniband, reconciled with the
// RDMA tools' view of it.
type RDMADevice struct {
	Name       string `toml:"name" json:"name"`                                   // mlx5_0, rocep59s0f0, rxe0 …
	Provider   string `toml:"provider,omitempty" json:"provider,omitempty"`       // kernel module: mlx5_ib, bnxt_re, irdma, rdma_rxe …
	NodeType   string `toml:"node_type,omitempty" json:"node_type,omitempty"`     // node_type, e.g. "1: CA"
	FwVer      string `toml:"fw_ver,omitempty" json:"fw_ver,omitempty"`           // fw_ver
	HCAType    string `toml:"hca_type,omitempty" json:"hca_type,omitempty"`       // hca_type, e.g. MT4119
	BoardID    string `toml:"board_id,omitempty" json:"board_id,omitempty"`       // board_id
	NodeGUID   string `toml:"node_guid,omitempty" json:"node_guid,omitempty"`     // node_guid
	PCIAddress string `toml:"pci_address,omitempty" json:"pci_address,omitempty"` // the device link's PCI function, or the one its rdma-core name gives; empty for software devices
	Parent     string `toml:"parent,omitempty" json:"parent,omitempty"`           // netdev a software device (rxe, siw) rides on
	// Schema 2.
	Protocol     string            `toml:"protocol,omitempty" json:"protocol,omitempty"`             // rdma dev protocol: roce, ib, iw
	VendorID     string            `toml:"vendor_id,omitempty" json:"vendor_id,omitempty"`           // ibv_devinfo vendor_id as printed (an IEEE OUI, e.g. 0x02c9)
	VendorPartID string            `toml:"vendor_part_id,omitempty" json:"vendor_part_id,omitempty"` // ibv_devinfo vendor_part_id as printed (decimal)
	PCIID        string            `toml:"pci_id,omitempty" json:"pci_id,omitempty"`                 // vvvv:dddd the device's PCI function has, read from vendor_id and vendor_part_id
	Ports        []Port            `toml:"port,omitempty" json:"ports,omitempty"`
	From         map[string]string `toml:"from,omitempty" json:"from,omitempty"`
}

// Port is /sys/class/infiniband/<dev>/ports/<n>.
type Port struct {
	Number          int       `toml:"number" json:"number"`
	State           string    `toml:"state,omitempty" json:"state,omitempty"`                         // ACTIVE, DOWN, INIT … (state, without the "4: " prefix)
	PhysState       string    `toml:"phys_state,omitempty" json:"phys_state,omitempty"`               // LinkUp, Disabled, Polling …
	LinkLayer       string    `toml:"link_layer,omitempty" json:"link_layer,omitempty"`               // Ethernet or InfiniBand
	Rate            string    `toml:"rate,omitempty" json:"rate,omitempty"`                           // rate, e.g. "100 Gb/sec (4X EDR)"
	RateGbps        *float64  `toml:"rate_gbps,omitempty" json:"rate_gbps,omitempty"`                 // Rate parsed
	Netdev          string    `toml:"netdev,omitempty" json:"netdev,omitempty"`                       // the netdev of the port's GIDs
	GIDCounts       GIDCounts `toml:"gid_counts" json:"gid_counts"`                                   // non-zero GIDs by type
	GIDs            []GID     `toml:"gid,omitempty" json:"gids,omitempty"`                            // non-zero GIDs only
	DefaultRoCEMode string    `toml:"default_roce_mode,omitempty" json:"default_roce_mode,omitempty"` // rdma_cm configfs default_roce_mode
	DefaultRoCETOS  *int      `toml:"default_roce_tos,omitempty" json:"default_roce_tos,omitempty"`   // rdma_cm configfs default_roce_tos
	// Schema 2.
	NetdevLink string `toml:"netdev_link,omitempty" json:"netdev_link,omitempty"` // the netdev's link as ibdev2netdev prints it: Up or Down (not the verbs state)
	Note       string `toml:"note,omitempty" json:"note,omitempty"`               // an assumption made reading the port, e.g. its number
}

// GIDCounts counts the populated GID table entries of a port by type.
type GIDCounts struct {
	RoCEv1 int `toml:"roce_v1" json:"roce_v1"` // type "IB/RoCE v1" on an Ethernet port
	RoCEv2 int `toml:"roce_v2" json:"roce_v2"` // type "RoCE v2"
	IB     int `toml:"ib" json:"ib"`           // type "IB/RoCE v1" on an InfiniBand port
	Other  int `toml:"other" json:"other"`     // type missing or unrecognised
	IPv4   int `toml:"ipv4" json:"ipv4"`       // IPv4-mapped GIDs (::ffff:a.b.c.d), any type
}

// GID is one populated GID table entry. When redacted, the interface-id
// half (and an IPv4 address) is tokenised but Type and IPv4Mapped survive.
type GID struct {
	Index      int    `toml:"index" json:"index"`
	GID        string `toml:"gid" json:"gid"`                           // gids/<index>
	Type       string `toml:"type,omitempty" json:"type,omitempty"`     // gid_attrs/types/<index>: "RoCE v2" or "IB/RoCE v1"
	Netdev     string `toml:"netdev,omitempty" json:"netdev,omitempty"` // gid_attrs/ndevs/<index>
	IPv4Mapped bool   `toml:"ipv4_mapped" json:"ipv4_mapped"`           // ::ffff:0:0/96
}

// Module is a loaded kernel module.
type Module struct {
	Name       string   `toml:"name" json:"name"`
	Size       int64    `toml:"size,omitempty" json:"size,omitempty"`             // lsmod or /proc/modules
	UsedBy     []string `toml:"used_by,omitempty" json:"used_by,omitempty"`       // lsmod's "Used by"
	Version    string   `toml:"version,omitempty" json:"version,omitempty"`       // /sys/module/<m>/version or modinfo version
	SrcVersion string   `toml:"srcversion,omitempty" json:"srcversion,omitempty"` // /sys/module/<m>/srcversion
	Filename   string   `toml:"filename,omitempty" json:"filename,omitempty"`     // modinfo filename (…/updates/ or /extra/ means out of tree)
	Taint      string   `toml:"taint,omitempty" json:"taint,omitempty"`           // /sys/module/<m>/taint, e.g. "OE"
	Origin     string   `toml:"origin,omitempty" json:"origin,omitempty"`         // inbox, ofed, vendor or unknown
}

// Module presence values of ModuleSeen.Loaded.
const (
	LoadedNotKnown   = "not known"   // modinfo describes it; no list of loaded modules was read
	LoadedWhenLogged = "when logged" // a kernel log "Modules linked in:" line lists it
)

// ModuleSeen is a module a source names without proving it is loaded now
// (schema 2). The modules in Host.Modules are the loaded ones.
type ModuleSeen struct {
	Name       string `toml:"name" json:"name"`
	Loaded     string `toml:"loaded" json:"loaded"`                             // LoadedNotKnown or LoadedWhenLogged
	Version    string `toml:"version,omitempty" json:"version,omitempty"`       // modinfo version
	SrcVersion string `toml:"srcversion,omitempty" json:"srcversion,omitempty"` // modinfo srcversion
	Filename   string `toml:"filename,omitempty" json:"filename,omitempty"`     // modinfo filename
	Source     string `toml:"source" json:"source"`                             // source id
	Line       int    `toml:"line,omitempty,omitzero" json:"line,omitempty"`    // 1-based line, for the kernel log
}

// Netdev is one network interface any source named (schema 2): PCI
// functions' netdevs, virtual ones (bonds, VLANs, veth) and the parents of
// software RDMA devices.
type Netdev struct {
	Name       string            `toml:"name" json:"name"`
	Driver     string            `toml:"driver,omitempty" json:"driver,omitempty"`           // ethtool -i driver, sysfs device/driver, rxe_cfg Driver
	Version    string            `toml:"version,omitempty" json:"version,omitempty"`         // ethtool -i version
	PCIAddress string            `toml:"pci_address,omitempty" json:"pci_address,omitempty"` // the PCI function; empty when virtual or not known
	Virtual    bool              `toml:"virtual,omitempty" json:"virtual,omitempty"`         // a source showed it has no device (no sysfs device link, no ethtool bus-info)
	Link       string            `toml:"link,omitempty" json:"link,omitempty"`               // up or down, as ibdev2netdev or rxe_cfg printed it, or lshw's link=yes/no
	Speed      string            `toml:"speed,omitempty" json:"speed,omitempty"`             // ethtool <netdev>'s Speed as printed, e.g. 25000Mb/s; absent when it printed Unknown!
	MTU        *int              `toml:"mtu,omitempty" json:"mtu,omitempty"`                 // ip link's mtu (schema 3)
	State      string            `toml:"state,omitempty" json:"state,omitempty"`             // ip link's state, the operational state as printed: UP, DOWN, UNKNOWN, LOWERLAYERDOWN … (schema 3)
	Master     string            `toml:"master,omitempty" json:"master,omitempty"`           // ip link's master: the bond, bridge or VRF it is enslaved to (schema 3)
	Origin     string            `toml:"origin" json:"origin"`                               // the source id that first named it
	From       map[string]string `toml:"from,omitempty" json:"from,omitempty"`
}

// Tool message kinds are those of the tool: ibv_devinfo's no-device,
// provider-missing, provider-config-missing, abi-mismatch, open-failed and
// other (ibv_devices' libibverbs lines are classified alike);
// rxe_cfg's perl-warning, configfs-error, write-error (a failed echo into
// rdma_rxe's add or remove parameter), module-not-loaded and other.

// ToolMessage is an error or warning line a tool printed about the host,
// classified (schema 2).
type ToolMessage struct {
	Tool   string `toml:"tool" json:"tool"`                                // the source.Tools row, e.g. ibv_devinfo, rxe_cfg
	Kind   string `toml:"kind" json:"kind"`                                // the tool's classification
	Device string `toml:"device,omitempty" json:"device,omitempty"`        // the device the line names (uverbs0, rxe0)
	Driver string `toml:"driver,omitempty" json:"driver,omitempty"`        // the provider driver the line names (rxe, mlx4)
	Text   string `toml:"text" json:"text"`                                // the line, trimmed
	Count  int    `toml:"count,omitempty,omitzero" json:"count,omitempty"` // times the line appeared, when more than once
	Source string `toml:"source" json:"source"`                            // source id
	Line   int    `toml:"line" json:"line"`                                // 1-based line where it first appeared
}

// FirmwareDevice is one device of `mlxfwmanager --query` or `mlxup
// --query` (or a flint query) whose "PCI Device Name" is an mst device
// such as /dev/mst/mt4115_pciconf0, not a PCI address, and that no `mst
// status` of the snapshot lists at a PCI function, so it cannot be placed
// on an adapter (schema 2). A device named by its PCI address, or by a
// node mst status lists, fills that adapter's firmware and part number
// instead.
type FirmwareDevice struct {
	Name        string                  `toml:"name" json:"name"`                                     // PCI Device Name as printed
	DeviceType  string                  `toml:"device_type,omitempty" json:"device_type,omitempty"`   // Device Type, e.g. ConnectX4
	PartNumber  string                  `toml:"part_number,omitempty" json:"part_number,omitempty"`   // Part Number, e.g. MCX455A-ECA_Ax
	Description string                  `toml:"description,omitempty" json:"description,omitempty"`   // Description
	PSID        string                  `toml:"psid,omitempty" json:"psid,omitempty"`                 // PSID
	BaseGUID    string                  `toml:"base_guid,omitempty" json:"base_guid,omitempty"`       // Base GUID; a token when redacted
	FWCurrent   string                  `toml:"fw_current,omitempty" json:"fw_current,omitempty"`     // the FW row's Current: the image in flash
	FWAvailable string                  `toml:"fw_available,omitempty" json:"fw_available,omitempty"` // the FW row's Available: the image the tool would burn
	FWRunning   string                  `toml:"fw_running,omitempty" json:"fw_running,omitempty"`     // the "FW (Running)" row, printed only when it differs from the flash image
	Status      string                  `toml:"status,omitempty" json:"status,omitempty"`             // Status, e.g. "No matching image found"
	Versions    []FirmwareDeviceVersion `toml:"version,omitempty" json:"versions,omitempty"`          // every row of the versions table
	Source      string                  `toml:"source" json:"source"`                                 // source id
	Line        int                     `toml:"line,omitempty,omitzero" json:"line,omitempty"`        // 1-based line of the "Device #N:" header
}

// FirmwareDeviceVersion is one row of mlxfwmanager's versions table; "N/A"
// is absent.
type FirmwareDeviceVersion struct {
	Name      string `toml:"name" json:"name"`                               // FW, PXE, UEFI, "FW (Running)" …
	Current   string `toml:"current,omitempty" json:"current,omitempty"`     // the version on the device
	Available string `toml:"available,omitempty" json:"available,omitempty"` // the version the tool would burn
	Line      int    `toml:"line" json:"line"`                               // 1-based line in the source
}

// Stack is a vendor RDMA stack found on the host.
type Stack struct {
	Name    string `toml:"name" json:"name"`                           // MLNX_OFED, DOCA-OFED, cisco-enic …
	Version string `toml:"version,omitempty" json:"version,omitempty"` // e.g. 5.8-1.0.1.1
	Raw     string `toml:"raw,omitempty" json:"raw,omitempty"`         // the line it was read from, e.g. MLNX_OFED_LINUX-5.8-1.0.1.1
	From    string `toml:"from,omitempty" json:"from,omitempty"`       // source id
}

// CharDevice is one entry of /dev/infiniband as `ls -l /dev/infiniband`
// (or `ls`) lists it: the character devices user space opens, uverbsN for
// verbs, rdma_cm for librdmacm, umadN and issmN for MAD tools.
type CharDevice struct {
	Name   string `toml:"name" json:"name"`                              // uverbs0, rdma_cm, umad0, issm0
	Mode   string `toml:"mode,omitempty" json:"mode,omitempty"`          // as ls -l prints it, e.g. crw-rw-rw-; absent from a plain ls
	Major  *int   `toml:"major,omitempty" json:"major,omitempty"`        // the device's major number
	Minor  *int   `toml:"minor,omitempty" json:"minor,omitempty"`        // the device's minor number
	Source string `toml:"source" json:"source"`                          // source id
	Line   int    `toml:"line,omitempty,omitzero" json:"line,omitempty"` // 1-based line in that source
}

// ModuleBlock is one rule of the host's configuration that keeps a module
// of source.RDMAModules from loading: a modprobe.d blacklist line, an
// install line whose command never loads the module, or a word of the
// kernel command line.
type ModuleBlock struct {
	Module    string `toml:"module" json:"module"`                          // as kmod compares it, '-' as '_'
	Directive string `toml:"directive" json:"directive"`                    // blacklist, install, modprobe.blacklist, module_blacklist or rd.driver.blacklist
	Command   string `toml:"command,omitempty" json:"command,omitempty"`    // an install line's command, e.g. /bin/false
	Text      string `toml:"text" json:"text"`                              // the line or command-line word as written
	File      string `toml:"file,omitempty" json:"file,omitempty"`          // the file a pasted grep line named
	Source    string `toml:"source" json:"source"`                          // source id
	Line      int    `toml:"line,omitempty,omitzero" json:"line,omitempty"` // 1-based line in that source, when known
}

// RDMASystem is the RDMA subsystem's settings, `rdma system show`.
type RDMASystem struct {
	Netns      string `toml:"netns" json:"netns"`                                   // shared or exclusive: who sees an RDMA device
	CopyOnFork string `toml:"copy_on_fork,omitempty" json:"copy_on_fork,omitempty"` // on or off, when printed
	From       string `toml:"from" json:"from"`                                     // source id
}

// KernelConfig is the running kernel's build configuration:
// /boot/config-<release> of the record's kernel release, or /proc/config.gz,
// or a paste of either (grep INFINIBAND /boot/config-$(uname -r)). Only the
// options of RDMA and of the Ethernet drivers RDMA providers sit on are
// kept (kconfig.Relevant). A whole file lists every option its kernel
// knows, so a relevant option missing from it is not built; one pasted
// through a filter (the source's filter) says nothing of the options the
// filter would not show.
type KernelConfig struct {
	Release string         `toml:"release,omitempty" json:"release,omitempty"` // the kernel release the file is named for (config-<release>); empty when its name says only "the running kernel" (/proc/config.gz, config-$(uname -r))
	Source  string         `toml:"source" json:"source"`                       // source id
	Options []KernelOption `toml:"option,omitempty" json:"options,omitempty"`  // in file order
}

// KernelOption is one line of a kernel configuration.
type KernelOption struct {
	Name  string `toml:"name" json:"name"`                              // e.g. CONFIG_INFINIBAND_BNXT_RE
	Value string `toml:"value" json:"value"`                            // y (built in), m (module), n ("# CONFIG_X is not set"), or the value as written
	Line  int    `toml:"line,omitempty,omitzero" json:"line,omitempty"` // 1-based line in the source
}

// MlxConfig is one device of `mlxconfig -d <device> query` (or mstconfig,
// with or without -e): the stored settings that decide whether its ports
// can carry RoCE. Only the parameters of MlxConfigKept are kept; the query
// prints a few hundred.
type MlxConfig struct {
	Device     string           `toml:"device,omitempty" json:"device,omitempty"`           // "Device:" as printed: a PCI address or an mst device (/dev/mst/mt4129_pciconf0); empty when the paste lost the header
	PCIAddress string           `toml:"pci_address,omitempty" json:"pci_address,omitempty"` // the PCI function Device names, domain:bus:dev.fn; empty for an mst device
	DeviceType string           `toml:"device_type,omitempty" json:"device_type,omitempty"` // "Device type:", e.g. ConnectX7
	Name       string           `toml:"name,omitempty" json:"name,omitempty"`               // "Name:", the part number
	Columns    []string         `toml:"columns,omitempty" json:"columns,omitempty"`         // the header's columns: "Next Boot"; "Current"; or "Default", "Current", "Next Boot" (-e); absent when the paste lost the header
	Params     []MlxConfigParam `toml:"param,omitempty" json:"params,omitempty"`
	Source     string           `toml:"source" json:"source"`                          // source id
	Line       int              `toml:"line,omitempty,omitzero" json:"line,omitempty"` // 1-based line of the device's header
}

// MlxConfigParam is one parameter line of the query, its values under the
// header's columns as printed ("IB(1)", "True(1)", "8").
type MlxConfigParam struct {
	Name     string `toml:"name" json:"name"`                               // e.g. LINK_TYPE_P1
	Default  string `toml:"default,omitempty" json:"default,omitempty"`     // the Default column (-e)
	Current  string `toml:"current,omitempty" json:"current,omitempty"`     // the Current column: what the device runs with
	NextBoot string `toml:"next_boot,omitempty" json:"next_boot,omitempty"` // the Next Boot column: what it loads after a reset or power cycle
	Value    string `toml:"value,omitempty" json:"value,omitempty"`         // the value of a line with no header to name its column (a grep of the query)
	Modified bool   `toml:"modified,omitempty" json:"modified,omitempty"`   // mlxconfig's "*": set, not the device default
	Line     int    `toml:"line,omitempty,omitzero" json:"line,omitempty"`  // 1-based line in the source
}

// MlxConfigKept reports whether a record keeps a parameter of the
// configuration query: the port link types (LINK_TYPE_P<n>: IB(1) or
// ETH(2), which decides whether the port can carry RoCE), ROCE_CONTROL,
// and SR-IOV (SRIOV_EN, NUM_OF_VFS), which decides whether VFs exist.
func MlxConfigKept(name string) bool {
	switch name {
	case "SRIOV_EN", "NUM_OF_VFS", "ROCE_CONTROL":
		return true
	}
	if n, ok := strings.CutPrefix(name, "LINK_TYPE_P"); ok && n != "" {
		for _, c := range n {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	return false
}

// Kernel log event kinds.
const (
	LogDriverInit      = "driver-init"      // a provider or core driver initialised
	LogFirmware        = "firmware"         // firmware version or init reported
	LogRoCEEnabled     = "roce-enabled"     // e.g. enic_rdma: IPv4 RoCEv2 enabled
	LogSymbolMismatch  = "symbol-mismatch"  // disagrees about version of symbol
	LogUnknownSymbol   = "unknown-symbol"   // Unknown symbol … (err -22)
	LogProbeFailure    = "probe-failure"    // probe of … failed with error -N
	LogFirmwareProblem = "firmware-problem" // firmware too old, mismatched or failed
	// Schema 2.
	LogQPError       = "qp-error"               // a QP could not be created or modified
	LogAsyncError    = "async-error"            // an asynchronous, CQ or work-queue error event
	LogCommandError  = "command-error"          // a firmware command failed, with its status and syndrome
	LogFlashFailure  = "firmware-flash-failure" // mlxfw or a driver failed to flash or activate firmware
	LogULPFailure    = "ulp-failure"            // an RDMA upper-layer protocol failed to attach or connect
	LogKernelWarning = "kernel-warning"         // a WARNING or BUG block in RDMA code
	LogPCIeLimited   = "pcie-limited"           // available PCIe bandwidth limited by a slower link
	LogBARUnassigned = "bar-unassigned"         // a BAR could not be assigned
	// Failure kinds (schema 2, additive).
	LogCommandTimeout    = "command-timeout"    // a firmware command timed out, or the firmware stalled (pre-init, no response)
	LogQueueFailure      = "queue-failure"      // a hardware queue (EQ, CQ, NQ, CQP, cmdq …) or a port could not be created, opened or queried
	LogGIDError          = "gid-error"          // a GID could not be added to or updated in the GID table
	LogRoCEDisabled      = "roce-disabled"      // the provider refused or disabled RoCE when it probed the function
	LogResourceExhausted = "resource-exhausted" // memory, pages or another resource ran out
	LogResetRecovery     = "reset-recovery"     // the device was reset, or its driver entered error recovery
	LogUserspaceProvider = "userspace-provider" // libibverbs could not load or use a provider (a user-space line of the journal)
	// Schema 3, additive.
	LogFirmwareMismatch = "firmware-mismatch" // a driver says its firmware (NVM, command interface, DDP package) is newer or older than it supports
	LogMRFailure        = "mr-failure"        // a provider could not pin or register a user memory region (ibv_reg_mr failed in the kernel)
)

// LogEvent is one classified RDMA-relevant kernel log line.
type LogEvent struct {
	Kind   string `toml:"kind" json:"kind"`
	Time   string `toml:"time,omitempty" json:"time,omitempty"`     // timestamp as printed ("12.345678" or an ISO time)
	Module string `toml:"module,omitempty" json:"module,omitempty"` // the module that printed it
	Device string `toml:"device,omitempty" json:"device,omitempty"` // PCI address or device name, when printed
	Errno  *int   `toml:"errno,omitempty" json:"errno,omitempty"`   // the error code of a failure, e.g. -22
	Text   string `toml:"text" json:"text"`                         // the line, without its timestamp
	Source string `toml:"source" json:"source"`                     // source id
	Line   int    `toml:"line" json:"line"`                         // 1-based line in that source
	// Context are lines that show the cause (schema 2): of the same
	// device before a probe failure, of the block of a kernel warning, or
	// the syndrome line after an mlx5 error completion.
	Context []LogLine `toml:"context,omitempty" json:"context,omitempty"`
}

// LogLine is one kernel log line kept as context.
type LogLine struct {
	Text string `toml:"text" json:"text"`
	Line int    `toml:"line" json:"line"`
}

// Source is one file or command the collector consulted.
type Source struct {
	ID     string `toml:"id" json:"id"`                             // e.g. "sys/class/infiniband", "cmd/ibv_devinfo -v"
	Path   string `toml:"path,omitempty" json:"path,omitempty"`     // where in the snapshot it was read
	Status string `toml:"status" json:"status"`                     // ok, absent or failed
	Reason string `toml:"reason,omitempty" json:"reason,omitempty"` // why absent or failed
	// Filter is the pipeline a pasted output went through after its
	// command ("grep mlx" of "lsmod | grep mlx"): the output holds only
	// the lines it let through, so what is missing from it may not be
	// missing from the host (schema 3).
	Filter string `toml:"filter,omitempty" json:"filter,omitempty"`
}

// Absent lists, by the reason they are absent, the ids of sources that
// were looked for at their own path (DefaultPath) and not found. Most of a
// record's sources are absent ("not captured" in an sosreport), and each
// as its own [[source]] table was nine in ten of a record's keys.
type Absent struct {
	Reason string `toml:"reason,omitempty" json:"reason,omitempty"`
	IDs    IDList `toml:"ids" json:"ids"`
}

// Problem is something wrong with the snapshot itself: a truncated file, a
// cap hit, a member that tried to escape the archive.
type Problem struct {
	Source string `toml:"source" json:"source"`
	Msg    string `toml:"msg" json:"msg"`
}

// RDMADevicesOf lists the RDMA devices of one of the host's adapters,
// sorted: those the adapter names, and those whose PCI address is the
// adapter's.
func (h *Host) RDMADevicesOf(a *Adapter) []string {
	names := slices.Clone(a.RDMADevices)
	for _, d := range h.Devices {
		if d.PCIAddress != "" && d.PCIAddress == a.PCIAddress && !slices.Contains(names, d.Name) {
			names = append(names, d.Name)
		}
	}
	slices.Sort(names)
	return names
}
