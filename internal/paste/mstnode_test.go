package paste

import "testing"

// TestMstNodeFirmware: mlxup names the card by its MST node
// (/dev/mst/mt4103_pci_cr0) and mst status lists that node at
// 0000:02:00.0: the firmware, PSID and part number land on that function,
// not in the table of devices no function is known for, and the
// configuration query of the same card's other node gets its address.
func TestMstNodeFirmware(t *testing.T) {
	t.Parallel()
	h := collectPaste(t, "mlx4-cx3pro-hp544-mlxup-mst-node-then-mst-status-list-mlxconfig-guide.txt")
	if len(h.Adapters) != 1 {
		t.Fatalf("adapters %+v, want the one function mst status lists", h.Adapters)
	}
	a := h.Adapters[0]
	if a.PCIAddress != "0000:02:00.0" || a.Firmware.Running != "2.42.5700" || a.Firmware.PSID != "HP_1380110017" || a.PartNumber != "764285-B21_Ax" {
		t.Errorf("adapter %s: firmware %+v, part number %q; want 2.42.5700, HP_1380110017, 764285-B21_Ax on 0000:02:00.0", a.PCIAddress, a.Firmware, a.PartNumber)
	}
	if a.From["firmware.running"] != "cmd/mlxfwmanager --query" {
		t.Errorf("firmware.running from %q, want the query that read it", a.From["firmware.running"])
	}
	if len(h.FirmwareDevices) != 0 {
		t.Errorf("firmware devices %+v, want none: mst status placed the node", h.FirmwareDevices)
	}
	for _, m := range h.MlxConfig {
		if m.Device == "/dev/mst/mt4103_pciconf0" && m.PCIAddress != "0000:02:00.0" {
			t.Errorf("mlxconfig of %s at %q, want 0000:02:00.0", m.Device, m.PCIAddress)
		}
	}
}
