// Package devlink provides parsers for `devlink dev info` (text and
// `devlink -j dev info`) and `devlink dev param show` (text, `-j`, and the
// param events of `devlink monitor`), as printed by iproute2's devlink.
package devlink
