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
	Quote        string     `toml:"quote,omitempty"`         // a short verbatim quote from the source, so an offline reader can check the claim

	At Loc `toml:"-"` // where the entry was written
}

// Weak reports whether no source states the claim: it is unconfirmed, or
// only seen in the field. A weak "no" is a hint, never a verdict.
func (c Claim) Weak() bool { return c.Confidence == Unconfirmed || c.Confidence == FieldObserved }

// Loc is a position in a matrix file.
type Loc struct {
	File string
	Line int
	Col  int
	Path string // TOML key path, e.g. adapter.3
}

// Matrix is every matrix file merged.
type Matrix struct {
	Schema       int            `toml:"schema,omitempty"`
	Sources      []Source       `toml:"source"`
	Vendors      []Vendor       `toml:"vendor"`
	Drivers      []Driver       `toml:"driver"`
	Adapters     []Adapter      `toml:"adapter"`
	Stacks       []Stack        `toml:"stack"`
	Firmware     []FirmwareMin  `toml:"firmware_min"`
	Distros      []Distro       `toml:"distro"`
	RoCEDefaults []RoCEDefault  `toml:"roce_default"`
	Protocol     *Protocol      `toml:"protocol"`
	CMModes      []CMMode       `toml:"rdma_cm_mode"`
	PCIKernels   []PCIKernel    `toml:"pci_kernel"`
	DistroRows   []DistroRow    `toml:"distro_support"`
	StackRows    []StackRow     `toml:"stack_support"`
	Parts        []PartNumber   `toml:"part_number"`
	FWLines      []FirmwareLine `toml:"firmware_line"`
	// KernelOptions are the kernel build options that build each RDMA
	// module, from its Makefile and Kconfig.
	KernelOptions []KernelOption `toml:"kernel_option"`
	// StackDrivers tie a stack release to the version its drivers print
	// (DOCA 2.9.1's drivers are 24.10-1.1.4.0).
	StackDrivers []StackDriver `toml:"stack_driver"`
	// Releases written as top-level [[stack_release]] rows (with a stack
	// key); Load moves each into its stack's Releases.
	LooseReleases []StackRelease `toml:"stack_release"`

	locs map[string]*diag.Locator // file → key positions, for lint
	byID *ids                     // Load's index of the entries by id
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
	VFOf             []string     `toml:"vf_of,omitempty"`              // the adapters whose SR-IOV virtual function this model is
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
	ID       string   `toml:"id"`
	Text     string   `toml:"text"`
	Fix      string   `toml:"fix,omitempty"`
	Stacks   []string `toml:"stacks,omitempty"`   // stack ids ("inbox" too) it applies to; empty: every stack
	Platform string   `toml:"platform,omitempty"` // linux (default), windows or esxi: the OS the vendor's text is about
	Claim
}

// AppliesTo reports whether the note bears on a Linux host running stack
// (a stack id, or Inbox).
func (n Note) AppliesTo(stack string) bool {
	if n.Platform != "" && n.Platform != "linux" {
		return false
	}
	if len(n.Stacks) == 0 {
		return true
	}
	for _, s := range n.Stacks {
		if s == stack {
			return true
		}
	}
	return false
}

// SupportEnd records that a stack dropped, or will drop, an adapter.
type SupportEnd struct {
	Stack       string     `toml:"stack"`                  // stack id
	LastRelease string     `toml:"last_release,omitempty"` // last release that supports it
	DroppedIn   string     `toml:"dropped_in,omitempty"`   // first release without it
	Date        *time.Time `toml:"date,omitempty"`         // end-of-support date, where the vendor gives one
	Text        string     `toml:"text"`
	Claim
}

// Stack is a vendor driver stack installed instead of the inbox drivers.
type Stack struct {
	ID      string   `toml:"id"` // e.g. mlnx-ofed, doca-ofed, cisco-enic
	Name    string   `toml:"name"`
	Vendor  string   `toml:"vendor"`
	Kind    string   `toml:"kind"`    // ofed or vendor
	Modules []string `toml:"modules"` // kernel modules it replaces or adds
	// ReleaseModule is the module of Modules whose version names the
	// stack's releases (modinfo <module>), when its modules are numbered
	// apart: Intel's package is named by irdma's version, not ice's. The
	// stack named by another of its modules with a version ("ice 1.9.11")
	// names no release.
	ReleaseModule string         `toml:"release_module,omitempty"`
	Releases      []StackRelease `toml:"release,omitempty"`
	Claim
}

// StackRelease is one release of a stack.
type StackRelease struct {
	Stack   string     `toml:"stack,omitempty"` // stack id, in a top-level [[stack_release]] row; implied under [[stack.release]]
	Version string     `toml:"version"`
	LTS     bool       `toml:"lts,omitempty"`
	Date    *time.Time `toml:"date,omitempty"` // release date
	OS      []string   `toml:"os,omitempty"`   // distro ids the release notes list as supported
	// OSPartial says OS holds only the rows of the release's OS table that
	// were read (a copy cut short): a distro it names is supported, one it
	// does not name is unknown, never excluded.
	OSPartial bool `toml:"os_partial,omitempty"`
	// Adapters lists the adapter ids the release's own notes list as
	// supported ("Supported NICs", "General Support"); when set, the list is
	// complete for that release, and an adapter not in it is not supported by
	// it. Absent means the matrix lacks the list.
	Adapters []string `toml:"adapters,omitempty"`
	// OSWith lists OSes the release notes support only with a stated
	// action ("RHEL 7.6 + OFED 4.17-1"): on them the release is supported
	// with that condition.
	OSWith []OSWith `toml:"os_with,omitempty"`
	// AdaptersPartial says Adapters holds only the adapters the part of
	// the release's notes that was read names (a table cut short): an
	// adapter it names is supported, one it does not name is unknown.
	AdaptersPartial bool `toml:"adapters_partial,omitempty"`
	Claim
}

// ListedOS is every OS the release notes name as supported: os, then the
// OSes of os_with.
func (r *StackRelease) ListedOS() []string {
	out := append([]string(nil), r.OS...)
	for _, w := range r.OSWith {
		out = append(out, w.OS...)
	}
	return out
}

// OSWith is a set of OSes a stack release supports only when the plan
// takes the action Text states.
type OSWith struct {
	OS   []string `toml:"os"`   // distro ids, as a release's os
	Text string   `toml:"text"` // the action, e.g. "build irdma against OFED 4.17-1"
}

// FirmwareMin is the lowest firmware for a feature of an adapter, optionally
// tied to a stack release (for lint's monotonic check) or driver version.
type FirmwareMin struct {
	Adapter      string `toml:"adapter"`                 // adapter id
	Feature      string `toml:"feature"`                 // e.g. roce-v2, roce-v2-ipv4, roce-v2-ipv6
	Min          string `toml:"min"`                     // firmware version
	Rule         string `toml:"rule,omitempty"`          // minimum (default), exact or recommended, as VMware's firmware_version_match
	Stack        string `toml:"stack,omitempty"`         // stack id, or empty for any
	StackVersion string `toml:"stack_version,omitempty"` // stack release the minimum applies from
	DriverMin    string `toml:"driver_min,omitempty"`    // companion driver version needed with it
	DriverModule string `toml:"driver_module,omitempty"` // module DriverMin applies to
	Claim
}

// Distro is one distribution release with its kernel.
type Distro struct {
	ID         string `toml:"id"`     // e.g. rhel-9.4
	Family     string `toml:"family"` // rhel, ubuntu, sles
	Name       string `toml:"name"`
	Version    string `toml:"version"`
	Kernel     string `toml:"kernel"`                   // GA kernel release string
	KernelBase string `toml:"kernel_base"`              // upstream version it is based on
	Flavour    string `toml:"kernel_flavour,omitempty"` // ga (default) or hwe (Ubuntu's hardware-enablement kernel)
	// Rebuild names the rebuild of the family this release is (almalinux
	// of rhel): the family's distro_support rows of its version decide it
	// only when SameKernel says its kernel is the family release's, and
	// otherwise make a hint; a distro_support row naming the rebuild wins.
	Rebuild string `toml:"rebuild,omitempty"`
	// SameKernel is the rebuild's own statement, sourced, that its kernel
	// is its family release's (Oracle Linux's Red Hat Compatible Kernel).
	SameKernel *SameKernel `toml:"same_kernel,omitempty"`
	EOL        *time.Time  `toml:"eol,omitempty"` // end of the release's standard support
	Backports  []Backport  `toml:"backport,omitempty"`
	Claim
}

// SameKernel says a rebuild release's kernel is its family release's, so
// the family's distro_support rows decide it, as a source states it. A
// statement of binary (ABI) compatibility is not one: it says nothing of
// which drivers the kernel builds.
type SameKernel struct {
	Text string `toml:"text"`
	Claim
}

// FamilyRowsDecide reports whether the family's distro_support rows
// decide release d: always for the family's own releases, for a rebuild
// only with a sourced SameKernel that is not weak.
func (d *Distro) FamilyRowsDecide() bool {
	return d.Rebuild == "" || d.SameKernel != nil && !d.SameKernel.Weak()
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

// KernelOption says which kernel build option builds a module: its
// Makefile's "obj-$(CONFIG_X) += <module>.o". A kernel whose configuration
// leaves Option unset (or any of Requires) has no such module: modprobe
// cannot load it. Option =y builds it into the kernel image, =m as a
// module.
type KernelOption struct {
	Module   string   `toml:"module"`             // the module as lsmod names it, e.g. bnxt_re, ib_core
	Option   string   `toml:"option"`             // the tristate that builds it, e.g. CONFIG_INFINIBAND_BNXT_RE
	Requires []string `toml:"requires,omitempty"` // bool options the Makefile also needs set (ifdef CONFIG_INFINIBAND_HNS_HIP08)
	Claim
}

// KernelOption returns the row of a module, nil when the matrix has none.
func (m *Matrix) KernelOption(module string) *KernelOption {
	for i := range m.KernelOptions {
		if m.KernelOptions[i].Module == module {
			return &m.KernelOptions[i]
		}
	}
	return nil
}

// CMMode is one row of the RDMA_CM client/server RoCE mode table.
type CMMode struct {
	Client   string `toml:"client"` // v1 or v2
	Server   string `toml:"server"`
	Connects bool   `toml:"connects"`
	Claim
}

// Firmware rules, as VMware's firmware_version_match.
const (
	RuleMinimum     = "minimum"     // at least this version (the default)
	RuleExact       = "exact"       // exactly this version
	RuleRecommended = "recommended" // the version the vendor tested the release with
)

// PCIKernel is the first upstream kernel whose driver lists a PCI id in its
// device table. The driver's own first kernel says nothing about a device
// added to it later.
type PCIKernel struct {
	PCI         string `toml:"pci"`                    // vendor:device
	Subsystem   string `toml:"subsystem,omitempty"`    // subsystem vendor:device, when only it names the model
	Driver      string `toml:"driver"`                 // module whose PCI table gained the id, e.g. mlx5_core
	FirstKernel string `toml:"first_kernel,omitempty"` // first upstream release (x.y) listing the id; empty when unknown (then unconfirmed)
	Commit      string `toml:"commit,omitempty"`       // commit that added the id
	RoCEKernel  string `toml:"roce_kernel,omitempty"`  // first release where RoCE works on the id, when later than first_kernel
	Claim
}

// Distro support statuses.
const (
	StatusSupported   = "supported"
	StatusUnsupported = "unsupported" // disabled or removed
	StatusDeprecated  = "deprecated"  // still there, going away
	StatusTechPreview = "tech-preview"
)

// DistroRow says what a range of a distro family's releases supports
// inbox, whatever the kernel's number suggests (enterprise kernels carry
// backports).
type DistroRow struct {
	Family   string   `toml:"family"`             // rhel, sles, ubuntu, debian
	From     string   `toml:"from"`               // first release it applies to
	Until    string   `toml:"until,omitempty"`    // last release it applies to; empty: every later one
	Adapters []string `toml:"adapters,omitempty"` // adapter ids
	Drivers  []string `toml:"drivers,omitempty"`  // driver module ids
	Status   string   `toml:"status"`             // supported, unsupported, deprecated or tech-preview
	Text     string   `toml:"text"`
	// Rebuild limits the row to one rebuild of the family (almalinux);
	// for that rebuild's releases it wins over the family's rows.
	Rebuild string `toml:"rebuild,omitempty"`
	// Flavour limits the row to the releases with that kernel flavour
	// (ga or hwe): a configuration read from Ubuntu's GA kernel says
	// nothing of its HWE kernel. Empty: every flavour.
	Flavour string `toml:"kernel_flavour,omitempty"`
	// KernelBase limits the row to the releases with that kernel base:
	// Ubuntu's HWE kernels of one LTS share its version and flavour and
	// differ only by kernel, so a configuration read from one of them
	// (6.11) says nothing of the next (6.14). Empty: every kernel.
	KernelBase string `toml:"kernel_base,omitempty"`
	// DriverBase is the upstream release the row's drivers are aligned
	// with, as a vendor states it ("driver base upstream kernel v6.3"):
	// a driver row then covers a device whose sourced first kernel is at
	// or before it, instead of the release's kernel base. Driver rows only.
	DriverBase string `toml:"driver_base,omitempty"`
	Claim
}

// Entry names the row as verdicts and findings cite it: "distro_support
// debian 12", "distro_support rhel 9.0 to 9.3", "distro_support rhel 10.0
// and later". A rebuild's row is named by the rebuild ("distro_support
// rocky 9.4"): it is about that rebuild's kernel, not the family's.
func (r *DistroRow) Entry() string {
	span := r.From + " and later"
	switch r.Until {
	case "":
	case r.From:
		span = r.From
	default:
		span = r.From + " to " + r.Until
	}
	who := r.Family
	if r.Rebuild != "" {
		who = r.Rebuild
	}
	return "distro_support " + who + " " + span
}

// Base is the upstream release a driver row's drivers match on release d:
// the row's driver_base when it gives one, else d's kernel base.
func (r *DistroRow) Base(d *Distro) string {
	if r.DriverBase != "" {
		return r.DriverBase
	}
	return d.KernelBase
}

// KernelFlavour is the release's kernel flavour, ga when unset.
func (d *Distro) KernelFlavour() string {
	if d.Flavour == "" {
		return "ga"
	}
	return d.Flavour
}

// StackRow is the first and last release of a stack that supports adapters.
type StackRow struct {
	Stack    string   `toml:"stack"`            // stack id
	Adapters []string `toml:"adapters"`         // adapter ids
	First    string   `toml:"first,omitempty"`  // first release that supports them
	Last     string   `toml:"last,omitempty"`   // last release that supports them; empty: still supported
	Status   string   `toml:"status,omitempty"` // supported (default) or unsupported: no release in first..last supports them
	Text     string   `toml:"text,omitempty"`
	Claim
}

// FirmwareLine is a firmware line of a vendor: the leading number of a
// firmware version (NVIDIA's 16 in 16.35.2000) names the device it runs on,
// so a version of another line is not firmware for the adapter.
type FirmwareLine struct {
	Vendor   string   `toml:"vendor"`   // vendor id
	Major    string   `toml:"major"`    // the version's leading number, e.g. 16
	Adapters []string `toml:"adapters"` // adapter ids that run the line
	Claim
}

// StackDriver ties a stack release to the version of the drivers it
// ships, which is what a host prints and what people give: DOCA-OFED's
// releases are DOCA's (2.9.1), while ofed_info, its driver packages and
// NVIDIA's Network Operator driver containers carry the drivers' own YY.MM
// version (24.10-1.1.4.0). A plan or host naming the drivers' version is
// judged as the release a row ties it to; a version no row names is not
// placed among the releases.
type StackDriver struct {
	Stack   string `toml:"stack"`   // stack id, e.g. doca-ofed
	Release string `toml:"release"` // the release as the matrix numbers the stack's releases, e.g. 2.9.1
	Driver  string `toml:"driver"`  // the drivers' version, e.g. 24.10-1.1.4.0
	Claim
}

// PartNumber is a vendor's orderable part number or card name for an adapter.
type PartNumber struct {
	Number      string `toml:"number"`  // e.g. MCX516A-CCAT
	Adapter     string `toml:"adapter"` // adapter id
	Description string `toml:"description,omitempty"`
	Claim
}
