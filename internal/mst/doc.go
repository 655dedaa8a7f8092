// Package mst parses `mst status -v` of NVIDIA's MFT (and of the
// mellanox_firmware sos plugin): the device table under "PCI devices:",
// one row per PCI function with its device type, MST device node, PCI
// address, RDMA device, netdevs and NUMA node. Columns are found by what
// their values look like, not by position: rows leave the RDMA and NET
// columns empty on functions without them (a BlueField in DPU mode), list
// several netdevs with commas, wrap the NUMA column onto the next line,
// and print the PCI address with or without its domain. PCIID reads the
// PCI id an MST device node's name gives in decimal.
package mst
