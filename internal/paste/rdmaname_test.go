package paste

import (
	"testing"

	"github.com/rocekb/rocekb/internal/record"
)

// TestNameGivesPCIFunction: a device named by rdma-core's naming policy,
// which no output ties to a PCI function, is tied to the one its name
// was made from when something says it is that function's device (its
// PCI id, from ibv_devinfo); a software device the policy named after
// its netdev's function is not.
func TestNameGivesPCIFunction(t *testing.T) {
	t.Parallel()
	addrs := func(h *record.Host) map[string]string {
		m := map[string]string{}
		for _, d := range h.Devices {
			m[d.Name] = d.PCIAddress
		}
		return m
	}
	// ConnectX-7 in PCI domains 0 and 2 (roceP2p1s0f0): ibv_devinfo gives
	// each its PCI id, nothing its function.
	h := collectPaste(t, "mlx5-cx7-roceP2-domain-ibdev2netdev-glued-heading-netplan-devinfo-notes.txt")
	want := map[string]string{"rocep1s0f0": "0000:01:00.0", "rocep1s0f1": "0000:01:00.1", "roceP2p1s0f0": "0002:01:00.0", "roceP2p1s0f1": "0002:01:00.1"}
	if got := addrs(h); len(got) != 4 || got["roceP2p1s0f1"] != want["roceP2p1s0f1"] || got["rocep1s0f0"] != want["rocep1s0f0"] {
		t.Errorf("addresses %v, want %v", got, want)
	}
	if len(h.Adapters) != 4 || h.Adapters[3].PCIAddress != "0002:01:00.1" || h.Adapters[3].Vendor+":"+h.Adapters[3].Device != "15b3:1021" ||
		len(h.Adapters[3].RDMADevices) != 1 || h.Adapters[3].RDMADevices[0] != "roceP2p1s0f1" {
		t.Errorf("adapters %+v, want four ConnectX-7 functions (15b3:1021), one device each", h.Adapters)
	}
	if d := h.Devices[0]; d.From["pci_address"] == "" {
		t.Errorf("%s: no source for its pci_address", d.Name)
	}
	// An rxe device udev renamed rocep0s8 after enp0s8's function: its
	// vendor_id 0x0000 is no PCI id, and no adapter is there.
	h = collectPaste(t, "rxe-renamed-rocep0s8-ibv_devices-devinfo-inline-hash-and-slash-comments.txt")
	if len(h.Devices) != 1 || h.Devices[0].PCIAddress != "" || len(h.Adapters) != 0 {
		t.Errorf("rxe rocep0s8: devices %+v adapters %+v, want no PCI function", h.Devices, h.Adapters)
	}
	// lspci names the ConnectX-5 Ex's two functions with no ids or
	// driver; ibv_devinfo gives rocep1s0f0's PCI id, so it is tied, and
	// rocep1s0f1, of which only rdma link speaks, is not.
	h = collectPaste(t, "mlx5-cx5ex-env-check-report-markdown-headings-per-command.txt")
	if got := addrs(h); got["rocep1s0f0"] != "0000:01:00.0" || got["rocep1s0f1"] != "" {
		t.Errorf("addresses %v, want rocep1s0f0 at 0000:01:00.0 and rocep1s0f1 untied", got)
	}
}
