// Package deviceplugin reads the PCI functions Kubernetes device plugins
// log as they discover a node: the RDMA shared device plugin
// (Mellanox/k8s-rdma-shared-dev-plugin, "DiscoverHostDevices(): device
// found: <address> <class> <vendor> <device>", which NVIDIA's network
// operator deploys) and the SR-IOV network device plugin
// (k8snetworkplumbingwg/sriov-network-device-plugin, "discoverDevices():",
// "netdevice AddTargetDevices():", "auxnetdevice AddTargetDevices():" and
// "accelerator AddTargetDevices(): device found: …", then "device added:
// [pciAddr: <address>, vendor: <id>, device: <id>, driver: <module>]"), as
// `kubectl logs <pod>` (or `oc logs`) prints them, behind Go's log or
// glog's prefix, and as sos's kubernetes plugin keeps them (podlogs).
//
// Both print the "found" line with
// fmt "%-12s\t%-12s\t%-20s\t%-40s": the address, the class id (ghw's
// two hex digits), the pci.ids vendor name cut to 17 characters and "..."
// past 20, and the device name likewise past 40. A paste turns the tabs
// into spaces, or one space, so the two names are kept as one description,
// as lspci prints them. The "added" line gives the PCI ids and the driver.
package deviceplugin
