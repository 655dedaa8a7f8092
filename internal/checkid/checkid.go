package checkid

import "slices"

// The check ids. A check passes ("ok") when its problem is absent.
const (
	AdapterUnknown    = "adapter-unknown"     // no matrix adapter matches the PCI ids
	BoundToVFIO       = "bound-to-vfio"       // an RDMA-capable adapter is bound to vfio-pci
	DriverProbeFailed = "driver-probe-failed" // the kernel log shows a driver probe failure
	EnicRDMAUnmatched = "enic-rdma-unmatched" // Cisco enic_rdma loaded against an inbox enic
	FWBelowMin        = "fw-below-min"        // running firmware is below the matrix minimum
	FWFlashFailed     = "fw-flash-failed"     // a firmware flash or activation failed, or the stored image is unreadable
	FWMismatch        = "fw-mismatch"         // adapters with one PSID or board id run different firmware
	FWUpdatePending   = "fw-update-pending"   // stored firmware differs from running: reboot or reset pending
	GIDNoRoCEv2       = "gid-no-roce-v2"      // a RoCE port has no RoCE v2 GIDs
	GIDTableEmpty     = "gid-table-empty"     // a RoCE port has no populated GIDs
	KernelTooOld      = "kernel-too-old"      // the kernel predates inbox support for the adapter
	ModuleNotLoaded   = "module-not-loaded"   // the adapter's RDMA provider module is not loaded
	MSIXDisabled      = "msix-disabled"       // MSI-X capability present but not enabled
	MSIXTooFew        = "msix-too-few"        // fewer MSI-X vectors than the adapter needs
	NoActivePort      = "no-active-port"      // no RDMA port is ACTIVE
	NoRDMADevice      = "no-rdma-device"      // RoCE adapters or an rxe configuration, but verbs sees no device
	PCIeDegraded      = "pcie-degraded"       // the PCIe link runs below its capable speed or width
	PortDown          = "port-down"           // a port is DOWN beside an ACTIVE port of the same adapter
	ProviderMissing   = "provider-missing"    // libibverbs cannot load the userspace provider
	RDMALogError      = "rdma-log-error"      // QP, async, command or ULP errors, or kernel warnings in RDMA code
	RoCEModeNotSet    = "roce-mode-not-set"   // configfs rdma_cm missing, or a default_roce_mode write failed
	RoCEModeV1        = "roce-mode-v1"        // RDMA_CM default_roce_mode is RoCE v1
	RXEInUse          = "rxe-in-use"          // SoftRoCE (rxe) is configured
	RXEWithHardware   = "rxe-with-hardware"   // SoftRoCE rides on a netdev that has hardware RDMA
	StackMixed        = "stack-mixed"         // vendor OFED modules mixed with inbox ones
)

// Check is one registered check id and the question the check answers.
type Check struct {
	ID    string
	Title string
}

// checks lists every check, sorted by id.
var checks = []Check{
	{AdapterUnknown, "Is every network and RDMA adapter in the matrix?"},
	{BoundToVFIO, "Is every RDMA-capable adapter bound to its kernel driver rather than vfio-pci?"},
	{DriverProbeFailed, "Did every driver probe its device without a failure in the kernel log?"},
	{EnicRDMAUnmatched, "Is enic_rdma loaded with its matched Cisco enic?"},
	{FWBelowMin, "Is the firmware at or above the matrix minimum?"},
	{FWFlashFailed, "Did every firmware flash and activation in the kernel log succeed?"},
	{FWMismatch, "Do adapters with the same PSID or board id run the same firmware?"},
	{FWUpdatePending, "Does the stored firmware equal the running firmware?"},
	{GIDNoRoCEv2, "Does each Ethernet port of a v2-capable adapter have RoCE v2 GIDs?"},
	{GIDTableEmpty, "Does each Ethernet RDMA port have GIDs?"},
	{KernelTooOld, "Is the kernel new enough for the adapter's inbox driver?"},
	{ModuleNotLoaded, "Are ib_core and the provider module loaded for each RoCE adapter?"},
	{MSIXDisabled, "Is MSI-X enabled on each RoCE adapter?"},
	{MSIXTooFew, "Does each adapter have the MSI-X vectors the matrix requires?"},
	{NoActivePort, "Does each RDMA device have an ACTIVE port?"},
	{NoRDMADevice, "Does verbs see an RDMA device on a host with RoCE adapters or SoftRoCE?"},
	{PCIeDegraded, "Does each adapter's PCIe link run at its capable speed and width?"},
	{PortDown, "Is every port ACTIVE on an adapter that has an ACTIVE port?"},
	{ProviderMissing, "Can libibverbs load a userspace provider for every RDMA device?"},
	{RDMALogError, "Is the kernel log free of QP, async and ULP errors and RDMA kernel warnings?"},
	{RoCEModeNotSet, "Could the RDMA_CM default RoCE mode be set (configfs rdma_cm present, writes succeeded)?"},
	{RoCEModeV1, "Is the RDMA_CM default RoCE mode v2 on v2-capable ports?"},
	{RXEInUse, "Is SoftRoCE (rxe) absent, or on a plain netdev with GIDs?"},
	{RXEWithHardware, "Is SoftRoCE (rxe) absent from hosts with hardware RoCE?"},
	{StackMixed, "Are inbox and vendor RDMA stacks kept apart?"},
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
