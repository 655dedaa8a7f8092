// Package osinfo provides parsers for what identifies a host's OS and
// vendor stack: os-release(5) files, `uname -r` (or sos's `uname -a`), and
// MLNX_OFED's `ofed_info -s` (also -n).
package osinfo
