package paste

import (
	"strings"
	"testing"
)

// TestLspciTree: lspci -t's diagram is filed as "lspci -tv" (sos's
// sos_commands/pci/lspci_-tv), after its command line in any spelling or
// recognised by its host bridges' marks, and names the functions other
// sources find.
func TestLspciTree(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ tool, file string }{
		{"lspci", "mlx5-cx7-igx-tv-tree-domains-0005-doc-indented.txt"},         // no command line, indented
		{"lspci", "mthca-infinihost3-tv-tree-old-pciutils-no-domains-lkml.txt"}, // "-+-[80]-+-": no domains
		{"lspci", "hns-kunpeng-cx5-vfs-tv-tree-PP-cheese-prompt.txt"},           // behind a "🧀  " prompt
		{"lspci", "mlx5-cx5-vt-tree-grep-mellanox.txt"},                         // "$ lspci -vt | grep Mellanox"
		{"lspci", "mlx5-cx5-tv-tree-x722-nccl-excerpt-truncated.txt"},           // an excerpt from mid-tree
	} {
		secs, _, err := Split(strings.NewReader(body(t, tc.tool, tc.file)))
		if err != nil {
			t.Fatal(err)
		}
		if len(secs) != 1 || secs[0].Command != "lspci -tv" || secs[0].Path != "sos_commands/pci/lspci_-tv" {
			var got []string
			for _, s := range secs {
				got = append(got, s.Command+" at "+s.Path)
			}
			t.Errorf("%s: sections %q, want one lspci -tv", tc.file, got)
		}
	}

	// The tree, lspci -vx of one function, then the kernel log after a
	// line of prose: the log is read as a log (before: it was lspci -vx's
	// lines), and the function lspci -vx left out, 0000:82:00.1, which the
	// log names, is named by the tree.
	h := collectPaste(t, "mlx5-cx4lx-tv-tree-vx-dmesg-probe-failed-17-mail-quoted.txt")
	byAddr := map[string]int{}
	for i, a := range h.Adapters {
		byAddr[a.PCIAddress] = i
	}
	i, ok := byAddr["0000:82:00.1"]
	if !ok {
		t.Fatalf("adapters %v, want 0000:82:00.1 from the kernel log", byAddr)
	}
	a := h.Adapters[i]
	if a.Name != "Mellanox Technologies MT27710 Family [ConnectX-4 Lx]" || a.From["name"] != "cmd/lspci -tv" || a.Firmware.Running != "14.22.1002" {
		t.Errorf("0000:82:00.1: name %q from %q, firmware %q", a.Name, a.From["name"], a.Firmware.Running)
	}
	if a := h.Adapters[byAddr["0000:82:00.0"]]; a.From["name"] != "cmd/lspci -vvvxxxxx" || a.Vendor != "15b3" {
		t.Errorf("0000:82:00.0: name from %q, vendor %q: lspci -vx's listing comes first", a.From["name"], a.Vendor)
	}
	if got := findings(t, "mlx5-cx4lx-tv-tree-vx-dmesg-probe-failed-17-mail-quoted.txt", "driver-probe-failed"); !strings.Contains(got, "0000:82:00.1") {
		t.Errorf("driver-probe-failed: %q", got)
	}

	// A tree alone names no adapter: it prints no class, and which of its
	// functions are network adapters is not guessed from their names.
	if h := collectText(t, body(t, "lspci", "mlx5-cx5-vt-tree-grep-mellanox.txt")); len(h.Adapters) != 0 {
		t.Errorf("adapters %+v from a tree alone", h.Adapters)
	}
}
