package matrix

import (
	"time"

	"github.com/rocekb/rocekb/internal/diag"
)

// Schema is the version of the matrix format. Each matrix file may state
// `schema = 1`; a newer number is rejected.
const Schema = 1

// Confidence tiers, strongest first.
const (
	VendorDocumented = "vendor-documented" // the vendor's own documentation says so
	UpstreamSource   = "upstream-source"   // kernel or rdma-core source, ABI docs, commits
	FieldObserved    = "field-observed"    // seen in real captures, not documented
	Unconfirmed      = "unconfirmed"       // plausible, not confirmed by any source
)

// Tiers lists the confidence tiers in order.
var Tiers = []string{VendorDocumented, UpstreamSource, FieldObserved, Unconfirmed}

// Claim is embedded in every entry: where the fact comes from and how sure
// we are of it.
type Claim struct {
	Sources      []string   `toml:"sources"`                 // ids of [[source]] entries
	Confidence   string     `toml:"confidence"`              // one of Tiers
	LastVerified *time.Time `toml:"last_verified,omitempty"` // when a person last checked it against the source
	Note         string     `toml:"note,omitempty"`          // anything a reader needs to weigh the claim

	At Loc `toml:"-"` // where the entry was written
}

// Loc is a position in a matrix file.
type Loc struct {
	File string
	Line int
	Col  int
	Path string // TOML key path, e.g. adapter.3
}

// Matrix is every matrix file merged.
type Matrix struct {
	Schema       int           `toml:"schema,omitempty"`
	Sources      []Source      `toml:"source"`
	Vendors      []Vendor      `toml:"vendor"`
	Drivers      []Driver      `toml:"driver"`
	Adapters     []Adapter     `toml:"adapter"`
	Stacks       []Stack       `toml:"stack"`
	Firmware     []FirmwareMin `toml:"firmware_min"`
	Distros      []Distro      `toml:"distro"`
	RoCEDefaults []RoCEDefault `toml:"roce_default"`
	Protocol     *Protocol     `toml:"protocol"`
	CMModes      []CMMode      `toml:"rdma_cm_mode"`

	locs map[string]*diag.Locator // file → key positions, for lint
}

// Source is a public document a claim rests on.
type Source struct {
	ID        string     `toml:"id"`                  // short stable id, referenced by Claim.Sources
	Title     string     `toml:"title"`               // document title
	URL       string     `toml:"url,omitempty"`       // URL, or repo:path@commit for repository files
	Publisher string     `toml:"publisher,omitempty"` // e.g. Cisco, NVIDIA, Red Hat, kernel.org
	Retrieved *time.Time `toml:"retrieved"`           // date the source was read

	At Loc `toml:"-"`
}

// Vendor kinds.
const (
	KindHardware = "hardware"
	KindSoftware = "software" // e.g. SoftRoCE (rdma_rxe)
	KindVirtual  = "virtual"  // e.g. vmw_pvrdma
)

// Vendor makes adapters or provides a software RDMA device.
type Vendor struct {
	ID         string   `toml:"id"`
	Name       string   `toml:"name"`
	Aliases    []string `toml:"aliases,omitempty"`     // e.g. Mellanox for NVIDIA
	PCIVendors []string `toml:"pci_vendors,omitempty"` // 4-hex-digit PCI vendor ids
	Kind       string   `toml:"kind"`                  // hardware, software or virtual
	Claim
}

// Driver is an RDMA provider kernel module.
type Driver struct {
	ID               string   `toml:"id"`                           // module name, e.g. mlx5_ib
	Name             string   `toml:"name"`                         // human name
	Vendor           string   `toml:"vendor,omitempty"`             // vendor id
	Kind             string   `toml:"kind"`                         // hardware, software or virtual
	Transports       []string `toml:"transports"`                   // roce, iwarp, ib, usnic, srd, raw
	RoCE             []string `toml:"roce,omitempty"`               // v1, v2
	EthDrivers       []string `toml:"eth_drivers,omitempty"`        // companion Ethernet/core drivers
	RDMACoreProvider string   `toml:"rdma_core_provider,omitempty"` // rdma-core provider (libibverbs plug-in)
	InTree           bool     `toml:"in_tree"`                      // shipped in the upstream kernel
	FirstKernel      string   `toml:"first_kernel,omitempty"`       // first upstream release with the driver
	FirstKernelBasis string   `toml:"first_kernel_basis,omitempty"` // documented, abi-doc or inferred
	RemovedKernel    string   `toml:"removed_kernel,omitempty"`     // release that removed it
	ReplacedBy       string   `toml:"replaced_by,omitempty"`        // driver id
	Claim
}

// PCIID identifies a PCI function, optionally narrowed by subsystem ids.
type PCIID struct {
	ID        string `toml:"id"`                  // vendor:device, e.g. 15b3:1017
	Subsystem string `toml:"subsystem,omitempty"` // subsystem vendor:device, e.g. 1137:0217
	Function  string `toml:"function,omitempty"`  // pf (default) or vf
	Name      string `toml:"name,omitempty"`      // the pci.ids name
}

// Adapter is a model (or family member) that people buy.
type Adapter struct {
	ID               string       `toml:"id"`     // stable slug, e.g. connectx-5
	Name             string       `toml:"name"`   // e.g. ConnectX-5
	Vendor           string       `toml:"vendor"` // vendor id
	Family           string       `toml:"family,omitempty"`
	Aliases          []string     `toml:"aliases,omitempty"` // other names people search for
	PCI              []PCIID      `toml:"pci"`
	RoCE             []string     `toml:"roce,omitempty"`     // v1, v2
	NotRoCE          string       `toml:"not_roce,omitempty"` // why the part is not a RoCE adapter (e.g. iWARP only)
	Transports       []string     `toml:"transports,omitempty"`
	EthDriver        string       `toml:"eth_driver,omitempty"`
	RDMADriver       string       `toml:"rdma_driver,omitempty"` // driver id
	RDMACoreProvider string       `toml:"rdma_core_provider,omitempty"`
	InboxKernel      string       `toml:"inbox_kernel,omitempty"`       // first upstream kernel with inbox RDMA support; defaults to the driver's
	InboxKernelBasis string       `toml:"inbox_kernel_basis,omitempty"` // documented, abi-doc or inferred, as for drivers
	Stacks           []string     `toml:"stacks,omitempty"`             // vendor stack ids that support it
	Interrupts       *Interrupts  `toml:"interrupts,omitempty"`
	Constraints      []Note       `toml:"constraint,omitempty"`
	KnownIssues      []Note       `toml:"known_issue,omitempty"`
	SupportEnd       []SupportEnd `toml:"support_end,omitempty"`
	Claim
}

// Interrupts states what the adapter's RDMA function needs.
type Interrupts struct {
	MSIXOnly   bool `toml:"msix_only"`
	MinVectors int  `toml:"min_vectors,omitempty"`
	Claim
}

// Note is a constraint or known issue attached to an adapter.
type Note struct {
	ID   string `toml:"id"`
	Text string `toml:"text"`
	Fix  string `toml:"fix,omitempty"`
	Claim
}

// SupportEnd records that a stack dropped, or will drop, an adapter.
type SupportEnd struct {
	Stack       string `toml:"stack"`                  // stack id
	LastRelease string `toml:"last_release,omitempty"` // last release that supports it
	DroppedIn   string `toml:"dropped_in,omitempty"`   // first release without it
	Text        string `toml:"text"`
	Claim
}

// Stack is a vendor driver stack installed instead of the inbox drivers.
type Stack struct {
	ID       string         `toml:"id"` // e.g. mlnx-ofed, doca-ofed, cisco-enic
	Name     string         `toml:"name"`
	Vendor   string         `toml:"vendor"`
	Kind     string         `toml:"kind"`    // ofed or vendor
	Modules  []string       `toml:"modules"` // kernel modules it replaces or adds
	Releases []StackRelease `toml:"release,omitempty"`
	Claim
}

// StackRelease is one release of a stack.
type StackRelease struct {
	Version string `toml:"version"`
	LTS     bool   `toml:"lts,omitempty"`
	Claim
}

// FirmwareMin is the lowest firmware for a feature of an adapter, optionally
// tied to a stack release (for lint's monotonic check) or driver version.
type FirmwareMin struct {
	Adapter      string `toml:"adapter"`                 // adapter id
	Feature      string `toml:"feature"`                 // e.g. roce-v2, roce-v2-ipv4, roce-v2-ipv6
	Min          string `toml:"min"`                     // firmware version
	Stack        string `toml:"stack,omitempty"`         // stack id, or empty for any
	StackVersion string `toml:"stack_version,omitempty"` // stack release the minimum applies from
	DriverMin    string `toml:"driver_min,omitempty"`    // companion driver version needed with it
	DriverModule string `toml:"driver_module,omitempty"` // module DriverMin applies to
	Claim
}

// Distro is one distribution release with its kernel.
type Distro struct {
	ID         string     `toml:"id"`     // e.g. rhel-9.4
	Family     string     `toml:"family"` // rhel, ubuntu, sles
	Name       string     `toml:"name"`
	Version    string     `toml:"version"`
	Kernel     string     `toml:"kernel"`      // GA kernel release string
	KernelBase string     `toml:"kernel_base"` // upstream version it is based on
	Backports  []Backport `toml:"backport,omitempty"`
	Claim
}

// Backport says a distro kernel carries a driver its upstream base lacks.
type Backport struct {
	Driver string `toml:"driver"`
	Text   string `toml:"text,omitempty"`
	Claim
}

// RoCEDefault is the RDMA_CM default RoCE mode for adapters on a distro family.
type RoCEDefault struct {
	Family   string   `toml:"family"`   // distro family, or "upstream"
	Since    string   `toml:"since"`    // release from which it applies
	Adapters []string `toml:"adapters"` // adapter ids
	Mode     string   `toml:"mode"`     // v1 or v2
	Claim
}

// Protocol holds RoCE wire facts.
type Protocol struct {
	RoCEv1Ethertype string `toml:"roce_v1_ethertype"` // e.g. 0x8915
	RoCEv2UDPPort   int    `toml:"roce_v2_udp_port"`  // 4791
	Claim
}

// CMMode is one row of the RDMA_CM client/server RoCE mode table.
type CMMode struct {
	Client   string `toml:"client"` // v1 or v2
	Server   string `toml:"server"`
	Connects bool   `toml:"connects"`
	Claim
}
