// Package mlxfwmanager provides a parser for the query output of NVIDIA's
// firmware tools: `mlxfwmanager --query` (MFT) and `mlxup --query` (the
// standalone updater), which print the same per-device blocks.
package mlxfwmanager
