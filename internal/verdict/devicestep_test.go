package verdict

import (
	"strings"
	"testing"
)

// TestDeviceStepShown: a verdict that rests on a distro_support row
// naming the driver, not the adapter, shows the device's own step (its
// first upstream kernel against the distro's kernel base) with the
// pci_kernel row it rests on, as it shows every other step.
func TestDeviceStepShown(t *testing.T) {
	m, err := realMatrix()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Plan{
		{Adapter: "connectx-3", Distro: "debian-12"},
		{Adapter: "bcm57414", Distro: "rhel-8.6"},
	} {
		v := Judge(m, p)
		if v.Verdict != Supported {
			t.Errorf("%s on %s: %s, want supported", p.Adapter, p.Distro, v.Verdict)
			continue
		}
		found := false
		for _, r := range v.Reasons {
			if strings.Contains(r.Text, "first upstream kernel") && len(r.Matrix) > 0 && strings.HasPrefix(r.Matrix[0].Entry, "pci_kernel ") {
				found = true
			}
		}
		if !found {
			t.Errorf("%s on %s: no reason states the device's first kernel with its pci_kernel row: %+v", p.Adapter, p.Distro, v.Reasons)
		}
	}
}
