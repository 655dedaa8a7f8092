// Package kconfig parses a Linux kernel's build configuration: the .config
// that "make" writes and distributions install as /boot/config-<release>
// (sos's kernel plugin copies /boot/config-$(uname -r)), the same text
// /proc/config.gz holds when the kernel has CONFIG_IKCONFIG_PROC, and the
// lines of either that "grep PATTERN /boot/config-…" or "zcat
// /proc/config.gz | grep PATTERN" print (with grep's "<file>:" prefix when
// it read several files). A line sets an option (CONFIG_X=y, =m, a number
// or a "string") or says it is off ("# CONFIG_X is not set"); scripts/kconfig
// omits options whose dependencies are off, so an option missing from a
// whole file is off too, but one missing from a grep's lines is not known.
package kconfig
