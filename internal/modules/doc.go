// Package modules provides parsers for loaded-module listings (`lsmod` and
// /proc/modules), `modinfo` output (one module or sos's modinfo_ALL_MODULES
// concatenation), and /sys/module/<m>/{version,srcversion,taint,initstate}
// (Documentation/ABI/stable/sysfs-module) read from an fs.FS.
package modules
