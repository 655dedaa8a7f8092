// Package dmesg provides a classifier for the kernel log as printed by
// `dmesg` (plain, -T and --time-format iso), /var/log/dmesg, syslog files
// and `journalctl -k`: it keeps the RDMA-relevant lines (driver and
// firmware initialisation, RoCE enablement, symbol version mismatches,
// unknown symbols, probe failures and firmware problems) with their
// timestamps and line numbers. ParseLog also undoes paste damage and
// reads what the log states about the hardware: driver bindings, PCI ids,
// PCIe bandwidth, netdev renames, RDMA device names, modules and kernel
// release, and RDMA error kinds.
package dmesg
