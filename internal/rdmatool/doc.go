// Package rdmatool provides parsers for iproute2's rdma tool: `rdma link
// show` (Ethernet and InfiniBand forms) and `rdma dev show`.
package rdmatool
