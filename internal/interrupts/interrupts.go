package interrupts

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// Vector is one line of /proc/interrupts whose chip is a message-signalled
// one (its name holds "MSI").
type Vector struct {
	IRQ      int    // the line's IRQ number
	Chip     string // the irq_chip's name as printed: "IR-PCI-MSIX-0000:01:00.0", "PCI-MSI", "Hyper-V PCIe MSI"
	HWIRQ    string // the hardware IRQ number before the trigger; empty in the old "PCI-MSI-edge" column
	Trigger  string // edge, level, fasteoi … as printed
	Name     string // the names the handlers were requested by, as printed ("mlx5_comp0@pci:0000:01:00.0")
	Function string // the PCI function the vector belongs to, lower case; empty when the line does not say
	Line     int    // 1-based line of the input
}

// Interrupts is what Parse read.
type Interrupts struct {
	CPUs    int      // CPU columns of the header line, else the counts of the first IRQ line (a grep drops the header)
	Vectors []Vector // the message-signalled vectors, in input order
}

// Function is one PCI function's vectors.
type Function struct {
	Address string   // the PCI function, lower case
	Names   []string // each vector's name, in input order
}

var (
	// An IRQ line: its number, then one count per CPU. Lines of the
	// architecture's counters (NMI:, LOC:) have no number and are skipped.
	reIRQ = regexp.MustCompile(`^(\d+):((?:\s+\d+)*)\s+(\S.*)$`)
	// The chip, then the hardware IRQ and trigger: "IR-PCI-MSI 524288-edge",
	// "IR-PCI-MSIX-0000:02:00.0   0-edge", "Hyper-V PCIe MSI 134250496-edge",
	// or a GIC's "ITS-MSI 524288 Edge"; the handlers' names after.
	reChipHW = regexp.MustCompile(`^(.+?)\s+(\d+)[- ]([A-Za-z]+)(?:\s+(.*))?$`)
	// The old column of the chip and trigger joined, with no hardware IRQ
	// (kernels before the hierarchical irq domains: 3.10's "PCI-MSI-edge").
	reChipOld = regexp.MustCompile(`^(\S+)-(edge|level|fasteoi)(?:\s+(.*))?$`)
	reHeader  = regexp.MustCompile(`^(?:CPU\d+\s*)+$`)
	// A PCI function written in a chip's or a handler's name:
	// "IR-PCI-MSIX-0000:01:00.0", "mlx5_comp0@pci:0000:01:00.0",
	// "mlx4-1@0001:00:02.0", "ice-0000:65:00.1:misc".
	reFunction = regexp.MustCompile(`(?:^|[-@:_\[ ])(?:pci:)?([0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])(?:$|[^0-9a-fA-F])`)
)

// Parse reads /proc/interrupts. Prompts, fences, mail quote marks and
// lines of other tools are skipped; a quoted-printable body is decoded
// first. A line cut before its chip (a truncated paste) is skipped.
func Parse(r io.Reader) (Interrupts, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return Interrupts{}, fmt.Errorf("read /proc/interrupts: %w", err)
	}
	if quotedPrintable(b) {
		b = decodeQP(b)
	}
	var out Interrupts
	n, header := 0, false
	err = lines.Each(bytes.NewReader(b), func(line string) {
		n++
		t := unmark(line)
		if reHeader.MatchString(t) {
			out.CPUs, header = len(strings.Fields(t)), true
			return
		}
		if !strings.Contains(t, "MSI") && !strings.Contains(t, "msi") {
			return // no vector: IO-APIC, GIC and the counters' lines
		}
		if v, counts, ok := parseLine(t); ok {
			if !header && out.CPUs == 0 {
				out.CPUs = counts
			}
			v.Line = n
			out.Vectors = append(out.Vectors, v)
		}
	})
	return out, err
}

// unmark drops what a paste puts before a line: mail quote marks ("> ",
// "| "), an inline code span's backtick.
func unmark(line string) string {
	t := strings.TrimSpace(line)
	t = strings.TrimLeft(t, ">| \t`")
	return strings.TrimSpace(strings.TrimRight(t, "`"))
}

// parseLine reads an IRQ line of a message-signalled chip, and how many
// per-CPU counts it has.
func parseLine(t string) (Vector, int, bool) {
	m := reIRQ.FindStringSubmatch(t)
	if m == nil {
		return Vector{}, 0, false
	}
	irq, err := strconv.Atoi(m[1])
	if err != nil {
		return Vector{}, 0, false
	}
	v := Vector{IRQ: irq}
	rest := m[3]
	if c := reChipHW.FindStringSubmatch(rest); c != nil && !strings.HasSuffix(c[1], "-edge") {
		v.Chip, v.HWIRQ, v.Trigger, v.Name = c[1], c[2], c[3], strings.TrimSpace(c[4])
	} else if c := reChipOld.FindStringSubmatch(rest); c != nil {
		v.Chip, v.Trigger, v.Name = c[1], c[2], strings.TrimSpace(c[3])
	} else {
		return Vector{}, 0, false
	}
	if !strings.Contains(strings.ToUpper(v.Chip), "MSI") {
		return Vector{}, 0, false // an IO-APIC or GIC line: a wired interrupt, shared
	}
	v.Function = function(v)
	return v, len(strings.Fields(m[2])), true
}

// function is the PCI function a vector belongs to: the one a per-device
// chip names; else, for a PCI MSI chip, the one its hardware IRQ encodes;
// else the one its handler's name carries.
func function(v Vector) string {
	if m := reFunction.FindStringSubmatch(v.Chip); m != nil {
		return strings.ToLower(m[1])
	}
	if v.HWIRQ != "" && pciMSIChip(v.Chip) {
		if hw, err := strconv.ParseUint(v.HWIRQ, 10, 64); err == nil {
			return hwirqFunction(hw)
		}
	}
	if m := reFunction.FindStringSubmatch(v.Name); m != nil {
		return strings.ToLower(m[1])
	}
	return ""
}

// pciMSIChip reports whether a chip is one of PCI functions' MSI and
// MSI-X vectors whose hardware IRQ the PCI-MSI domain numbers: x86's
// "PCI-MSI" and "IR-PCI-MSI", Hyper-V's "Hyper-V PCIe MSI", and the GICv3
// ITS's "ITS-MSI", which takes PCI devices only (its_pci_msi_prepare in
// drivers/irqchip/irq-gic-v3-its-pci-msi.c returns -EINVAL for any other;
// its platform and fsl-mc chips are "ITS-pMSI" and "ITS-fMSI").
func pciMSIChip(chip string) bool {
	return strings.Contains(strings.ToUpper(chip), "PCI") || chip == "ITS-MSI"
}

// hwirqFunction decodes the hardware IRQ number of a vector of the shared
// PCI-MSI domain: the kernel makes it from the vector's index, the
// function's bus, device and function numbers and its PCI domain
// (pci_msi_domain_calc_hwirq in drivers/pci/msi/irqdomain.c:
// "desc->msi_index | pci_dev_id(dev) << 11 | (pci_domain_nr(dev->bus) &
// 0xFFFFFFFF) << 27", pci_dev_id being bus << 8 | devfn).
func hwirqFunction(hw uint64) string {
	id := (hw >> 11) & 0xFFFF
	domain := hw >> 27
	bus, devfn := id>>8, id&0xFF
	return fmt.Sprintf("%04x:%02x:%02x.%d", domain, bus, devfn>>3, devfn&7)
}

// Functions groups the vectors by PCI function, sorted by address;
// vectors of no known function are left out.
func (x Interrupts) Functions() []Function {
	var out []Function
	for _, v := range x.Vectors {
		if v.Function == "" {
			continue
		}
		i := slices.IndexFunc(out, func(f Function) bool { return f.Address == v.Function })
		if i < 0 {
			out = append(out, Function{Address: v.Function})
			i = len(out) - 1
		}
		out[i].Names = append(out[i].Names, v.Name)
	}
	slices.SortFunc(out, func(a, b Function) int { return strings.Compare(a.Address, b.Address) })
	return out
}

// quotedPrintable reports whether the input is a mail body sent
// quoted-printable with soft line breaks: lines ending in "=" and encoded
// newlines ("=0A=").
func quotedPrintable(b []byte) bool {
	return bytes.Count(b, []byte("=0A=\n"))+bytes.Count(b, []byte("=0A=\r\n")) >= 2
}

// decodeQP joins soft breaks ("=" at a line's end) and decodes "=XX"
// escapes; an encoded newline ends a line.
func decodeQP(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	var out []byte
	for i := 0; i < len(b); i++ {
		if b[i] != '=' {
			out = append(out, b[i])
			continue
		}
		if i+1 < len(b) && b[i+1] == '\n' {
			i++ // a soft break
			continue
		}
		if i+2 < len(b) {
			if v, err := strconv.ParseUint(string(b[i+1:i+3]), 16, 8); err == nil {
				out = append(out, byte(v))
				i += 2
				continue
			}
		}
		out = append(out, b[i])
	}
	return out
}
