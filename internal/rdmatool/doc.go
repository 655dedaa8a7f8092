// Package rdmatool provides parsers for iproute2's rdma tool: `rdma link
// show` (Ethernet and InfiniBand forms), `rdma dev show`, `rdma res show`,
// `rdma statistic show` and `rdma system show`.
package rdmatool
