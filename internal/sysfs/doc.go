// Package sysfs provides readers for the sysfs and configfs trees the
// collector needs, from an fs.FS rooted like / and never from the real
// host: /sys/class/infiniband (Documentation/ABI/stable/sysfs-class-infiniband),
// /sys/bus/pci/devices (Documentation/ABI/testing/sysfs-bus-pci),
// /sys/class/net (Documentation/ABI/testing/sysfs-class-net) and
// /sys/kernel/config/rdma_cm (Documentation/ABI/testing/configfs-rdma_cm).
// Symlinks are followed inside the FS with a hop limit; a tree copied
// without them (plain folders, dangling links) still reads.
package sysfs
