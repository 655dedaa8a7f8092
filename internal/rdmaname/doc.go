// Package rdmaname reads what an RDMA device name made by rdma-core's
// naming policy says (kernel-boot/rdma_rename.c, run by udev's
// rdma-persistent-naming.rules with NAME_FALLBACK): the link type from its
// prefix, and the PCI function (NAME_PCI: roceP2p1s0f1, ibp0s12f4), the
// physical slot, the onboard index (NAME_ONBOARD: opao3) or the node GUID
// (NAME_GUID: rocex525400c0fe123455) the name was made from.
package rdmaname
