// Package lshw provides a parser for what `lshw -class network` (and a
// whole `lshw` tree, or a grep of either) prints about a network
// function: its PCI bus info, its netdev ("logical name") and the
// configuration line's driver, driverversion, firmware and link; and for
// the rows of `lshw -businfo`, the PCI function of each netdev.
package lshw
