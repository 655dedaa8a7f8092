// Package collect provides the collector: it turns a snapshot (live host,
// copied tree, sosreport or capture) into a host record, reconciling sysfs
// with the RDMA, PCI, devlink, ethtool and module tools, and recording
// every source it consulted as ok, absent or failed. It has one read step
// (the parser column) per row of source.Tools, in the table's order.
package collect
