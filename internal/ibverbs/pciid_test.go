package ibverbs

import "testing"

// ibv_devinfo's vendor_id and vendor_part_id name the PCI function: a
// BCM57414 reports its PCI vendor and device in decimal (0x14e4, 5847), a
// ConnectX-5 NVIDIA's OUI and its device id (0x02c9, 4119); an unknown
// vendor or a part id that is no number names nothing.
func TestPCIID(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ vendor, part, want string }{
		{"0x14e4", "5847", "14e4:16d7"}, {"0x02c9", "4119", "15b3:1017"}, {"0x1d0f", "61344", "1d0f:efa0"},
		{"0x1dd8", "4098", "1dd8:1002"}, // ionic, as paste/ionic-ainic-chi2766-… prints it
		{"0x0000", "4119", ""}, {"0x02c9", "MT4119", ""}, {"", "", ""},
	} {
		if got := PCIID(tc.vendor, tc.part); got != tc.want {
			t.Errorf("PCIID(%q, %q) = %q, want %q", tc.vendor, tc.part, got, tc.want)
		}
	}
}
