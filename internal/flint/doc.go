// Package flint parses the firmware query of NVIDIA's flint and mstflint
// ("flint -d <device> query", "mstflint -d <device> q", with or without
// "full"), as sos's mellanox_firmware plugin stores it and as customers
// paste it: the image type, firmware in flash and running, PSID, part
// number and base GUID of each queried device.
package flint
