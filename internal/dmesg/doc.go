// Package dmesg provides the one classifier of the kernel log, as printed
// by `dmesg` (plain, -T, -r, -x and --time-format iso), /var/log/dmesg,
// syslog files (messages, kern.log, syslog, with their host and
// identifier) and the journal (`journalctl` short, short-precise,
// short-iso, short-iso-precise, short-full, short-unix, short-monotonic,
// short-delta and cat, as systemd's src/shared/logs-show.c writes them):
// ParseLog undoes paste damage, keeps the
// RDMA-relevant lines (driver and firmware initialisation, RoCE
// enablement, symbol mismatches, probe failures, firmware problems and the
// failure kinds of classify.go: firmware command timeouts and failures,
// hardware queue and port failures, GID table errors, RoCE refused at
// probe, QP errors, resource exhaustion, reset and recovery, ULP failures,
// kernel warnings in RDMA code, and libibverbs' provider failures among
// the user-space lines of a journal) with their time, device and line,
// and reads what the log states about the hardware: driver bindings, PCI
// ids, PCIe bandwidth, netdev renames, RDMA device names, modules and
// kernel release.
package dmesg
