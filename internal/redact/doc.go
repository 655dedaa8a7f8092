// Package redact provides the replacement of identifiers in a host record
// (MAC, IPv4 and IPv6 addresses, node and port GUIDs, the interface-id half
// of GIDs, serial numbers and host names) by consistent, salted tokens.
package redact
