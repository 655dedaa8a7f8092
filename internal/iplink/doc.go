// Package iplink provides a parser for what iproute2's `ip link show`
// prints, with -d (details: parentbus and parentdev, the PCI function of
// a netdev), -s (statistics, skipped), -o (one line per link, its
// lines joined by a backslash) and -br (one brief line per link: name,
// state, address, flags), and for the link lines of `ip address` (of
// `ip -o address`, whose lines give an address's link by name only):
// each netdev's flags (LOWER_UP is the carrier), mtu, master, operational
// state, link-layer address, alternative names and the VF lines of an
// SR-IOV PF (MAC, VLAN, spoof checking, link-state, trust).
package iplink
