// Package lspci provides a parser for pciutils' lspci output: the verbose
// forms (-v, -vv, -vvv, with or without -nn, -k and -D) and the
// machine-readable form (-vmm, -vmmkn), yielding slot, ids, the kernel
// driver in use and the MSI-X capability (`MSI-X: Enable+ Count=N`),
// also from a paste whose line breaks a chat or a form turned into spaces.
package lspci
