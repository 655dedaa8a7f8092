// Package version provides one version type that parses and orders the
// version strings of the RoCE world — adapter firmware (16.35.2000), Cisco
// releases (5.1(2x)), Cisco driver builds (4.0.0.10-802.34), MLNX_OFED and
// DOCA releases (MLNX_OFED_LINUX-5.8-1.0.1.1, 2.9.2) and upstream or distro
// kernel releases (v2.6.24, 5.14.0-427.13.1.el9_4) — and splits a distro
// kernel into its upstream base and its distro release.
package version
