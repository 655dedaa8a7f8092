package content

// KnownChecks are the compatibility engine's check ids that trees (node
// `check`) and pages (`checks`) may name. A check passes ("ok") when its
// problem is absent. This is the one list lint validates against; the
// engine's own registry is expected to replace it.
var KnownChecks = []string{
	"adapter-unknown",     // no matrix adapter matches the PCI ids
	"driver-probe-failed", // the kernel log shows a driver probe failure
	"fw-below-min",        // running firmware is below the matrix minimum
	"fw-update-pending",   // stored firmware differs from running: reboot or reset pending
	"stack-mixed",         // vendor OFED modules mixed with inbox ones
	"enic-rdma-unmatched", // Cisco enic_rdma loaded against an inbox enic
	"module-not-loaded",   // the adapter's RDMA provider module is not loaded
	"no-active-port",      // no RDMA port is ACTIVE
	"gid-table-empty",     // a RoCE port has no populated GIDs
	"gid-no-roce-v2",      // a RoCE port has no RoCE v2 GIDs
	"msix-disabled",       // MSI-X capability present but not enabled
	"msix-too-few",        // fewer MSI-X vectors than the adapter needs
	"roce-mode-v1",        // RDMA_CM default_roce_mode is RoCE v1
	"rxe-with-hardware",   // SoftRoCE rides on a netdev that has hardware RDMA
	"kernel-too-old",      // the kernel predates inbox support for the adapter
}

// knownCheck reports whether id is in KnownChecks.
func knownCheck(id string) bool {
	for _, c := range KnownChecks {
		if c == id {
			return true
		}
	}
	return false
}
