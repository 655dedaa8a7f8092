// Package interrupts provides a parser for /proc/interrupts (read whole,
// a grep of it, or pasted in a mail, quoted-printable included): the
// message-signalled vectors of each PCI function, their IRQ numbers and
// the names their drivers requested them by, across the layouts kernels
// print (a per-device "IR-PCI-MSIX-<function>  <index>-edge" chip, a
// shared "PCI-MSI <hwirq>-edge" chip whose hwirq encodes the function, the
// old "PCI-MSI-edge" column, and names such as mlx5_comp0@pci:<function>).
package interrupts
