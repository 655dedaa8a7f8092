package interrupts

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func parse(t *testing.T, name string) Interrupts {
	t.Helper()
	x, err := Parse(bytes.NewReader(capturetest.Read(t, "interrupts", name)))
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// summary is each function with its vector count and first and last
// vector names, and the CPU count.
func summary(x Interrupts) string {
	var b strings.Builder
	fmt.Fprintf(&b, "cpus=%d", x.CPUs)
	for _, f := range x.Functions() {
		fmt.Fprintf(&b, " %s:%d[%s..%s]", f.Address, len(f.Names), f.Names[0], f.Names[len(f.Names)-1])
	}
	return b.String()
}

// Every layout of the captures: a per-device IR-PCI-MSIX chip (its hwirq
// the vector's index), the shared IR-PCI-MSI and PCI-MSI chips whose
// hwirq encodes the function (PCI domain 0001 included), Hyper-V's chip
// name with spaces, the old PCI-MSI-edge column in a quoted-printable
// mail, a grep behind "|" quote marks; IO-APIC lines are not vectors.
func TestCaptures(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"igb-enp2s0-grep-pipe-quoted-commit.txt", "cpus=2 0000:02:00.0:5[enp2s0..enp2s0-TxRx-3]"},
		{"mlx5-two-functions-ir-pci-msix-grep-mlx-12-cpus.txt",
			"cpus=12 0000:01:00.0:13[mlx5_async0@pci:0000:01:00.0..mlx5_comp11@pci:0000:01:00.0] 0000:01:00.1:2[mlx5_async0@pci:0000:01:00.1..mlx5_comp0@pci:0000:01:00.1]"},
		{"ice-e810-ir-pci-msi-16-cpus-truncated.txt",
			"cpus=16 0000:65:00.0:1[ice-0000:65:00.0:ctrl-TxRx-0..ice-0000:65:00.0:ctrl-TxRx-0] 0000:65:00.1:4[ice-0000:65:00.1:misc..ice-lan1-TxRx-2]"},
		{"i40e-virtio-pci-msi-domain-0001-vfio-guest-truncated.txt",
			"cpus=4 0000:00:01.0:2[virtio1-config..virtio1-req.0] 0001:00:00.0:2[virtio0-config..virtio0-virtqueues] 0001:00:0f.0:5[i40e-0001:00:0f.0:misc..i40e-enP1s15-Tx]"},
		// GICv3 ITS on arm64: WiFi at 0000:01:00.0 behind PCIe0, NVMe at
		// 0001:01:00.0 behind PCIe1 (the patch enables BDF 1:0.0 on both).
		{"its-msi-gicv3-wifi-and-nvme-two-pcie-domains-arm64-patch.txt", "cpus=8 0000:01:00.0:15[bhi..DP_EXT_IRQ] 0001:01:00.0:9[nvme0q0..nvme0q8]"},
		{"mlx4-azure-hyperv-pcie-msi-8-cpus-truncated.txt", "cpus=8 0001:00:02.0:7[mlx4-async@pci:0001:00:02.0..mlx4-6@0001:00:02.0]"},
		{"mlx5-azure-two-vfs-pci-msi-edge-el7-quoted-printable-mail.txt",
			"cpus=8 83a4:00:02.0:11[mlx5_pages_eq@pci:83a4:00:02.0..mlx5_comp7@pci:83a4:00:02.0] 8b76:00:02.0:11[mlx5_pages_eq@pci:8b76:00:02.0..mlx5_comp7@pci:8b76:00:02.0]"},
	} {
		if got := summary(parse(t, tc.file)); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.file, got, tc.want)
		}
	}
}

// The fields of one line of each chip layout, as read.
func TestLine(t *testing.T) {
	x := parse(t, "ice-e810-ir-pci-msi-16-cpus-truncated.txt")
	v := x.Vectors[0]
	if v.IRQ != 66 || v.Chip != "IR-PCI-MSI" || v.HWIRQ != "52953105" || v.Trigger != "edge" || v.Function != "0000:65:00.0" {
		t.Errorf("%+v", v)
	}
	x = parse(t, "mlx5-azure-two-vfs-pci-msi-edge-el7-quoted-printable-mail.txt")
	v = x.Vectors[0]
	if v.IRQ != 24 || v.Chip != "PCI-MSI" || v.HWIRQ != "" || v.Trigger != "edge" || v.Name != "mlx5_pages_eq@pci:8b76:00:02.0" {
		t.Errorf("%+v", v)
	}
	x = parse(t, "mlx4-azure-hyperv-pcie-msi-8-cpus-truncated.txt")
	if v := x.Vectors[1]; v.Chip != "Hyper-V PCIe MSI" || v.HWIRQ != "134250497" || v.Name != "mlx4-1@0001:00:02.0" {
		t.Errorf("%+v", v)
	}
}

// The hardware IRQ of the shared PCI-MSI domain decodes to the function
// its vector's handler names, where the handler names one.
func TestHWIRQAgreesWithNames(t *testing.T) {
	for _, name := range []string{"ice-e810-ir-pci-msi-16-cpus-truncated.txt", "i40e-virtio-pci-msi-domain-0001-vfio-guest-truncated.txt", "mlx4-azure-hyperv-pcie-msi-8-cpus-truncated.txt"} {
		checked := 0
		for _, v := range parse(t, name).Vectors {
			m := reFunction.FindStringSubmatch(v.Name)
			if m == nil || v.HWIRQ == "" {
				continue
			}
			checked++
			if v.Function != m[1] {
				t.Errorf("%s: irq %d: hwirq %s gives %s, its name %s", name, v.IRQ, v.HWIRQ, v.Function, m[1])
			}
		}
		if checked == 0 {
			t.Errorf("%s: no vector names its function", name)
		}
	}
}

// Lines of other chips and of the architecture's counters are no vectors;
// a line cut before its chip is none either.
func TestNotVectors(t *testing.T) {
	in := "           CPU0       CPU1\n  0:         22          0  IR-IO-APIC    2-edge      timer\n" +
		" 16:          0          0   IO-APIC  16-fasteoi   ahci[0000:02:00.0]\nNMI:          0          0   Non-maskable interrupts\n 40:          0\n"
	x, err := Parse(strings.NewReader(in))
	if err != nil || len(x.Vectors) != 0 || x.CPUs != 2 {
		t.Fatalf("%+v %v", x, err)
	}
}

func FuzzParse(f *testing.F) {
	capturetest.Seed(f, "interrupts")
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if len(x.Vectors) > len(b) {
			t.Fatalf("%d vectors from %d bytes", len(x.Vectors), len(b))
		}
		n := 0
		for _, fn := range x.Functions() {
			n += len(fn.Names)
		}
		if n > len(x.Vectors) {
			t.Fatalf("%d names from %d vectors", n, len(x.Vectors))
		}
	})
}
