package checkid

import "slices"

// The check ids. A check passes ("ok") when its problem is absent.
const (
	AdapterUnknown          = "adapter-unknown"            // no matrix adapter matches the PCI ids
	DeviceReset             = "device-reset"               // the kernel log shows a device reset or error recovery
	DevlinkHealthError      = "devlink-health-error"       // a devlink health reporter is in the error state, or reported errors
	FWCommandFailed         = "fw-command-failed"          // a firmware command failed with a status or syndrome
	FWCommandTimeout        = "fw-command-timeout"         // a firmware command timed out, or the firmware stalled
	FWDriverMismatch        = "fw-driver-mismatch"         // a driver says its firmware, NVM or DDP package is newer or older than it supports
	GIDTableError           = "gid-table-error"            // a GID could not be written to the GID table
	HWQueueFailed           = "hw-queue-failed"            // a hardware queue or port could not be created or opened
	KernelWarning           = "kernel-warning"             // a kernel WARNING or BUG in RDMA, devlink or driver code
	QPCreateFailed          = "qp-create-failed"           // the provider rejected creating or modifying a QP
	ResourceExhausted       = "resource-exhausted"         // memory, pages or another device resource ran out
	RoCEDisabled            = "roce-disabled"              // the provider refused or disabled RoCE at probe
	ULPFailure              = "ulp-failure"                // an RDMA ULP (NVMe-oF, NFS/RDMA, iSER, SRP, SMB Direct) failed on a device
	UserspaceNoDevice       = "userspace-no-device"        // libibverbs sees no device while the kernel has some
	BoundToVFIO             = "bound-to-vfio"              // an RDMA-capable adapter is bound to vfio-pci
	DriverProbeFailed       = "driver-probe-failed"        // the kernel log shows a driver probe failure
	EnicRDMAUnmatched       = "enic-rdma-unmatched"        // Cisco enic_rdma loaded against an inbox enic
	FWBelowMin              = "fw-below-min"               // running firmware is below the matrix minimum, off an exact firmware, or older than a stack release was tested with
	FWFlashFailed           = "fw-flash-failed"            // a firmware flash or activation failed, or the stored image is unreadable
	FWMismatch              = "fw-mismatch"                // adapters with one PSID or board id run different firmware
	FWUpdatePending         = "fw-update-pending"          // stored firmware differs from running: reboot or reset pending
	GIDLinkLocalOnly        = "gid-link-local-only"        // a RoCE port has only link-local GIDs: its netdev has no IP address
	GIDNoRoCEv2             = "gid-no-roce-v2"             // a RoCE port has no RoCE v2 GIDs
	GIDTableEmpty           = "gid-table-empty"            // a RoCE port has no populated GIDs
	LinkTypeInfiniBand      = "link-type-infiniband"       // a VPI port runs, or is set to run, as InfiniBand, so it carries no RoCE
	KernelTooOld            = "kernel-too-old"             // the kernel predates inbox support for the adapter
	ModuleBlocked           = "module-blocked"             // a modprobe.d line or kernel command-line word blocks a module a RoCE adapter needs
	ModuleNotBuilt          = "module-not-built"           // the running kernel's configuration does not build the adapter's provider, ib_core or ib_uverbs
	ModuleNotLoaded         = "module-not-loaded"          // the adapter's RDMA provider module is not loaded
	MSIXDisabled            = "msix-disabled"              // MSI-X capability present but not enabled
	MSIXTooFew              = "msix-too-few"               // fewer MSI-X vectors than the adapter needs
	NoActivePort            = "no-active-port"             // no RDMA port is ACTIVE
	NoRDMADevice            = "no-rdma-device"             // RoCE adapters or an rxe configuration, but verbs sees no device
	PCIeDegraded            = "pcie-degraded"              // the PCIe link runs below its capable speed or width
	PortDown                = "port-down"                  // a port is DOWN beside an ACTIVE port of the same adapter
	ProviderMissing         = "provider-missing"           // libibverbs cannot load the userspace provider
	RDMADeviceNotAccessible = "rdma-device-not-accessible" // user space here cannot open an RDMA device the namespace lists (container without its uverbs file, exclusive netns)
	RDMALogError            = "rdma-log-error"             // asynchronous errors, unassigned BARs, refused memory registrations
	RoCEModeNotSet          = "roce-mode-not-set"          // configfs rdma_cm missing, or a default_roce_mode write failed
	RoCEModeV1              = "roce-mode-v1"               // RDMA_CM default_roce_mode is RoCE v1
	RXEInUse                = "rxe-in-use"                 // SoftRoCE (rxe) is configured
	RXEWithHardware         = "rxe-with-hardware"          // SoftRoCE rides on a netdev that has hardware RDMA
	StackMixed              = "stack-mixed"                // vendor OFED modules mixed with inbox ones
	StackRelease            = "stack-release"              // the installed stack release is unsupported for the host's OS and adapters
)

// Check is one registered check id, the question the check answers, and
// the FAQ pages that explain its findings.
type Check struct {
	ID    string
	Title string
	FAQ   []Link
}

// Link is a FAQ page (content/faq/<Slug>.md) that explains a check's
// findings. Drivers, when set, limits it to findings about an adapter or
// device of one of those drivers: a vendor's page never explains another
// vendor's finding. A page that is not in the content is not linked.
type Link struct {
	Slug    string
	Drivers []string
}

var (
	mlx5 = []string{"mlx5_core", "mlx5_ib"}
	bnxt = []string{"bnxt_en", "bnxt_re"}
)

func faq(slug string, drivers ...string) Link { return Link{Slug: slug, Drivers: drivers} }

// checks lists every check, sorted by id.
var checks = []Check{
	{AdapterUnknown, "Is every network and RDMA adapter in the matrix?", nil},
	{BoundToVFIO, "Is every RDMA-capable adapter bound to its kernel driver rather than vfio-pci?", nil},
	{DeviceReset, "Did every RDMA device run without a reset or error recovery in the kernel log?", []Link{faq("mlx5-health", mlx5...), faq("bnxt-re-known-issues", bnxt...)}},
	{DevlinkHealthError, "Are the devlink health reporters of each adapter healthy, with no error left unrecovered?", nil},
	{DriverProbeFailed, "Did every driver probe its device without a failure in the kernel log?", []Link{faq("firmware-pre-init", mlx5...)}},
	{EnicRDMAUnmatched, "Is enic_rdma loaded with its matched Cisco enic?", nil},
	{FWBelowMin, "Is the firmware at or above the matrix minimum?", nil},
	{FWCommandFailed, "Did every firmware command the drivers sent succeed?", []Link{faq("mlx5-command-failures", mlx5...), faq("bnxt-re-known-issues", bnxt...)}},
	{FWCommandTimeout, "Did the firmware answer every command in time?", []Link{faq("firmware-command-timeout"), faq("firmware-pre-init", mlx5...), faq("bnxt-re-known-issues", bnxt...)}},
	{FWDriverMismatch, "Does every driver accept the firmware its device runs (no driver says the firmware, NVM image or DDP package is newer or older than it supports)?", []Link{faq("driver-firmware-mismatch"), faq("ice-ddp-safe-mode", "ice", "irdma")}},
	{FWFlashFailed, "Did every firmware flash and activation in the kernel log succeed?", nil},
	{FWMismatch, "Do adapters with the same PSID or board id run the same firmware?", nil},
	{FWUpdatePending, "Does the stored firmware equal the running firmware?", nil},
	{GIDLinkLocalOnly, "Does each Ethernet RDMA port have a GID of an IP address, not only the link-local GIDs every port has (an IPv4 or routable IPv6 address on its netdev)?", []Link{faq("gid-index-rtr")}},
	{GIDNoRoCEv2, "Does each Ethernet port of a v2-capable adapter have RoCE v2 GIDs?", nil},
	{GIDTableEmpty, "Does each Ethernet RDMA port have GIDs?", nil},
	{GIDTableError, "Could every GID be written to its port's GID table?", []Link{faq("gid-table-errors")}},
	{HWQueueFailed, "Could every provider create its hardware queues and open its ports?", []Link{faq("ib-core-port-errors"), faq("mlx5-command-failures", mlx5...), faq("bnxt-re-known-issues", bnxt...)}},
	{KernelTooOld, "Is the kernel new enough for the adapter's inbox driver?", nil},
	{KernelWarning, "Is the kernel log free of WARNINGs and BUGs in RDMA, devlink and driver code?", []Link{faq("kernel-warning-rdma")}},
	{LinkTypeInfiniBand, "Is every port of an NVIDIA VPI adapter Ethernet, now and after the next reset, so it can carry RoCE (verbs link_layer, mlxconfig LINK_TYPE_P<n>)?", []Link{faq("roce-disabled-at-probe")}},
	{ModuleBlocked, "Does the host's configuration (modprobe.d, the kernel command line) let every module a RoCE adapter needs load?", []Link{faq("kernel-modules")}},
	{ModuleNotBuilt, "Does the running kernel build ib_core, ib_uverbs and the provider module of each RoCE adapter (its own configuration, /boot/config-<release>)?", []Link{faq("kernel-modules")}},
	{ModuleNotLoaded, "Are ib_core and the provider module loaded for each RoCE adapter?", nil},
	{MSIXDisabled, "Is MSI-X enabled on each RoCE adapter?", nil},
	{MSIXTooFew, "Does each adapter have the MSI-X vectors the matrix requires?", nil},
	{NoActivePort, "Does each RDMA device have an ACTIVE port?", []Link{faq("port-down")}},
	{NoRDMADevice, "Does verbs see an RDMA device on a host with RoCE adapters or SoftRoCE?", nil},
	{PCIeDegraded, "Does each adapter's PCIe link run at its capable speed and width?", []Link{faq("pcie-link-bandwidth")}},
	{PortDown, "Is every port ACTIVE on an adapter that has an ACTIVE port?", []Link{faq("port-down")}},
	{ProviderMissing, "Can libibverbs load a userspace provider for every RDMA device?", []Link{faq("userspace-provider")}},
	{QPCreateFailed, "Did the providers accept every QP the host created?", []Link{faq("qp-creation-fails")}},
	{RDMADeviceNotAccessible, "Can user space here open every RDMA device it is shown (a uverbs file for each, no open refused, the device in this network namespace)?", []Link{faq("rdma-in-containers")}},
	{RDMALogError, "Is the kernel log free of asynchronous RDMA errors, unassigned BARs and refused memory registrations?", []Link{faq("mlx5-health", mlx5...), faq("memory-registration")}},
	{ResourceExhausted, "Did the RDMA drivers have the memory and device resources they asked for?", []Link{faq("bnxt-re-known-issues", bnxt...)}},
	{RoCEDisabled, "Did every RDMA provider enable RoCE when it probed its function?", []Link{faq("roce-disabled-at-probe")}},
	{RoCEModeNotSet, "Could the RDMA_CM default RoCE mode be set (configfs rdma_cm present, writes succeeded)?", nil},
	{RoCEModeV1, "Is the RDMA_CM default RoCE mode v2 on v2-capable ports?", nil},
	{RXEInUse, "Is SoftRoCE (rxe) absent, or on a plain netdev with GIDs?", nil},
	{RXEWithHardware, "Is SoftRoCE (rxe) absent from hosts with hardware RoCE?", nil},
	{StackMixed, "Are inbox and vendor RDMA stacks kept apart?", []Link{faq("ofed-after-kernel-update")}},
	{StackRelease, "Does the matrix support the installed RDMA stack release on this OS and these adapters?", []Link{faq("ofed-after-kernel-update")}},
	{ULPFailure, "Did every RDMA ULP (NVMe-oF, NFS/RDMA, iSER, SRP, SMB Direct) connect on its device?", []Link{faq("ulp-connection-failures"), faq("rdma-cm-events")}},
	{UserspaceNoDevice, "Does user space see the RDMA devices the kernel has?", []Link{faq("userspace-provider")}},
}

// All returns every check, sorted by id.
func All() []Check { return slices.Clone(checks) }

// IDs returns every check id, sorted.
func IDs() []string {
	ids := make([]string, len(checks))
	for i, c := range checks {
		ids[i] = c.ID
	}
	return ids
}

// Known reports whether id is a check id.
func Known(id string) bool {
	_, ok := slices.BinarySearchFunc(checks, id, func(c Check, id string) int {
		switch {
		case c.ID < id:
			return -1
		case c.ID > id:
			return 1
		}
		return 0
	})
	return ok
}
