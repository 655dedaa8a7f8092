// Package ethtool provides a parser for the driver information that
// `ethtool -i <interface>` prints (driver, version, firmware-version,
// expansion-rom-version, bus-info), one or more blocks per input.
package ethtool
