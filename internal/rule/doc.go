// Package rule reads the matrix rules that host diagnosis and
// planned-configuration verdicts share (the firmware minimums in force, a
// stack by name, a distro backport, version order) and cites each matrix
// entry with its sources.
package rule
