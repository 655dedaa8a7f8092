package paste

import (
	"testing"
)

// TestBrokenHostPastes: pastes from public reports of a broken RoCE host
// (testdata/captures/paste, each with its report's address) keep what the
// text holds.
func TestBrokenHostPastes(t *testing.T) {
	t.Parallel()
	// show_gids rows that stop after the GID or its IPv4 cell (no VER, no
	// netdev) under the full header: both GIDs of qedr0 are kept.
	h := collectPaste(t, "qedr-show_gids-no-ver-column-two-gids.txt")
	if len(h.Devices) != 1 || h.Devices[0].Name != "qedr0" || len(h.Devices[0].Ports) != 1 || len(h.Devices[0].Ports[0].GIDs) != 2 {
		t.Fatalf("devices %+v, want qedr0 with two GIDs on port 1", h.Devices)
	}
	if g := h.Devices[0].Ports[0].GIDs; g[0].Index != 0 || g[1].Index != 1 || !g[1].IPv4Mapped || g[0].IPv4Mapped {
		t.Errorf("GIDs %+v, want index 0 link-local, index 1 IPv4-mapped", g)
	}
}
