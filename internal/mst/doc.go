// Package mst parses `mst status -v` and `mst status` of NVIDIA's MFT
// (and of the mellanox_firmware sos plugin). With -v, the device table
// under "PCI devices:", one row per PCI function with its device type,
// MST device node, PCI address, RDMA device, netdevs and NUMA node.
// Columns are found by what their values look like, not by position:
// rows leave the RDMA and NET columns empty on functions without them (a
// BlueField in DPU mode), list several netdevs with commas, wrap the NUMA
// column onto the next line, and print the PCI address with or without
// its domain. Without -v, the node list under "MST devices:", each node's
// PCI address and chip revision on the lines below it, and the cables'
// nodes under "Cables:", which are not functions. NodeDevice reads the PCI
// device id an MST node's name gives in decimal, TypeVendor the vendor a
// -v row's device type names (mst lists NVIDIA's GPUs too).
package mst
