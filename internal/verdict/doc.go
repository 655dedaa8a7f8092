// Package verdict judges a planned configuration (adapter × kernel or
// distro × stack × firmware) against the matrix: supported,
// supported-with-conditions, unsupported or unknown, each reason tied to
// the matrix entry it rests on, with the nearest supported change.
//
// The rules, over the matrix tables: an upstream kernel (judged as
// released) is compared with the device's [[pci_kernel]] row (roce_kernel,
// else first_kernel, never before the RDMA driver); a distro release is
// judged by its [[distro_support]] rows (adapter rows beat driver rows, a
// later from wins) and without one never as plain supported (backporting
// families rhel, sles and oracle give unknown below the device kernel,
// ubuntu and debian unsupported); a vendor stack by its [[stack_support]]
// ranges, the adapter's support_end, the vendor and the OS list of the
// release in use; firmware by firmware_min rules (minimum, exact,
// recommended). A stack release numbered past every line the matrix holds
// for the stack (a DOCA-OFED driver version against DOCA's releases) is
// compared with none of them, and a distro kernel given with a release is
// judged as the release whose kernel it is, unless it is another flavour
// than the one the release's rows read (rule.UnreadFlavour: Ubuntu's azure
// or nvidia kernels, Debian's cloud-amd64), which is judged by its number
// alone as a vendor kernel. A custom build (a local version after the base
// that names no distro: 5.10.17-v8+, 4.4.302+) is a vendor kernel too;
// a linux-next build is upstream. A rebuild release (Rocky Linux,
// AlmaLinux, Oracle Linux RHCK) is decided by its own rows, and by its
// family's only when its entry's same_kernel sources that its kernel is the
// family's; otherwise the family's row is a hint.
package verdict
