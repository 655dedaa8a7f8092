// Package mlxconfig parses the configuration query of NVIDIA's mlxconfig
// and mstconfig ("mlxconfig -d <device> query", "mstconfig -d <device> q",
// with or without -e): each "Device #N:" block's type, name and device,
// and its parameters with the columns the "Configurations:" header names
// (Next Boot alone, Current, or Default, Current and Next Boot with -e).
package mlxconfig
