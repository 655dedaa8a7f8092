package verdict

import (
	"testing"

	"github.com/rocekb/rocekb/internal/matrix"
)

// An OS list that does not name a distro release excludes it only when it
// names a release of its major line at or after it, or a later line of its
// family and none of its own; naming its line only below it, the list
// predates it; naming only earlier lines, versions cannot tell (RHEL 8 and
// 9 minors ship side by side, so versions order releases in time only
// within a line).
func TestPredatesList(t *testing.T) {
	for _, c := range []struct {
		list   []string
		family string
		d      string
		want   listAge
	}{
		{[]string{"rhel-8.6", "rhel-9.1"}, "rhel", "8.8", listPredates},   // 8.8 came after the list's 8.6
		{[]string{"rhel-8.6", "rhel-9.1"}, "rhel", "8.4", listExcludes},   // older than a listed 8.x: left out
		{[]string{"rhel-8.6", "rhel-9.1"}, "rhel", "9.0", listExcludes},   // 9.1 is listed, so 9.0 was out
		{[]string{"rhel-8.6", "rhel-9.1"}, "rhel", "9.4", listPredates},   // newer than the list's 9.1
		{[]string{"rhel-8.7", "rhel-9.1"}, "rhel", "8.8", listPredates},   // irdma 1.11.58's list and RHEL 8.8
		{[]string{"rhel-8.7", "rhel-9.1"}, "rhel", "10.0", listNewerLine}, // a line the list never saw
		{[]string{"rhel-9.1"}, "rhel", "8.8", listExcludes},               // a later line listed, none of 8: 8 was out
		{[]string{"rhel-9.1"}, "rhel", "7.9", listExcludes},
		{[]string{"rhel-8.6"}, "rhel", "9.4", listNewerLine},
		{[]string{"rhel-8"}, "rhel", "9.4", listNewerLine},
		{[]string{"rhel-7.3+"}, "rhel", "7.2", listExcludes},  // the list starts after it
		{[]string{"rhel-7.3+"}, "rhel", "6.10", listExcludes}, // line 6 was out and is left out
		{[]string{"rhel-7.3+"}, "rhel", "8.2", listNewerLine},
		{[]string{"sles-15-sp4", "rhel-9.1"}, "sles", "15-SP5", listPredates},   // SUSE's service packs are minors
		{[]string{"sles-15-sp4", "rhel-9.1"}, "sles", "15-SP3", listExcludes},   // SP3 was out
		{[]string{"sles-15-sp4", "rhel-9.1"}, "sles", "12-SP5", listExcludes},   // line 15 listed, none of 12
		{[]string{"debian-11", "ubuntu-22.04"}, "debian", "12", listNewerLine},  // a later Debian
		{[]string{"debian-11", "ubuntu-22.04"}, "debian", "10.0", listExcludes}, // Debian 10 was out
		{[]string{"debian-11", "ubuntu-22.04"}, "ubuntu", "24.04", listNewerLine},
		{[]string{"debian-11", "ubuntu-22.04"}, "ubuntu", "20.04", listExcludes},
		{[]string{"sles-15-sp5"}, "rhel", "8.8", listLacksFamily}, // none of its family
	} {
		d := &matrix.Distro{Family: c.family, Version: c.d}
		if got := predatesList(c.list, d); got != c.want {
			t.Errorf("predatesList(%v, %s %s) = %v, want %v", c.list, c.family, c.d, got, c.want)
		}
	}
}
