// Package sysfs provides parsers for /sys/class/infiniband and related
// sysfs trees (Documentation/ABI/stable/sysfs-class-infiniband), read from
// an fs.FS rooted like / and never from the real host.
package sysfs
