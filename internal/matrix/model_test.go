package matrix

import "testing"

// An OS-list entry covers the family releases it names; a rebuild
// (Oracle Linux with RHCK, AlmaLinux) or an HWE-kernel release is its own
// distro id, covered only by an entry naming that id: OSCoversBase tells
// apart a list that names the release it derives from.
func TestOSMatches(t *testing.T) {
	rhel := &Distro{ID: "rhel-9.4", Family: "rhel", Version: "9.4"}
	rhck := &Distro{ID: "oracle-9.4-rhck", Family: "rhel", Version: "9.4", Rebuild: "oracle"}
	alma := &Distro{ID: "almalinux-10.0", Family: "rhel", Version: "10.0", Rebuild: "almalinux"}
	ga := &Distro{ID: "ubuntu-22.04", Family: "ubuntu", Version: "22.04"}
	hwe := &Distro{ID: "ubuntu-22.04-hwe", Family: "ubuntu", Version: "22.04", Flavour: "hwe"}
	for _, c := range []struct {
		entry       string
		d           *Distro
		match, base bool
	}{
		{"rhel-9.4", rhel, true, false},
		{"rhel-9", rhel, true, false},
		{"rhel-9.2+", rhel, true, false},
		{"rhel-9.5+", rhel, false, false},
		{"rhel-8", rhel, false, false},
		{"rhel-9.4", rhck, false, true},
		{"rhel-9", rhck, false, true},
		{"oracle-9.4-rhck", rhck, true, false},
		{"rhel-10", alma, false, true},
		{"almalinux-10.0", alma, true, false},
		{"rhel-9", alma, false, false},
		{"ubuntu-22.04", ga, true, false},
		{"ubuntu-22.04", hwe, false, true},
		{"ubuntu-22.04-hwe", hwe, true, false},
		{"ubuntu-24.04", hwe, false, false},
	} {
		if got := OSMatches(c.entry, c.d); got != c.match {
			t.Errorf("OSMatches(%q, %s) = %v, want %v", c.entry, c.d.ID, got, c.match)
		}
		if got := OSCoversBase(c.entry, c.d); got != c.base {
			t.Errorf("OSCoversBase(%q, %s) = %v, want %v", c.entry, c.d.ID, got, c.base)
		}
	}
}
