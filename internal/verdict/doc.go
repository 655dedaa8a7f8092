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
// compared with none of them, unless a [[stack_driver]] row ties those
// drivers to a release, which is then judged, and a distro kernel given with a release is
// judged as the release whose kernel it is. Limitation: AlmaLinux resolves to RHEL, so RHEL rows that
// AlmaLinux reverses (the RHEL 10 mlx4 ids) also apply to it.
package verdict
