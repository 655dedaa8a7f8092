package verdict

import (
	"testing"

	"github.com/rocekb/rocekb/internal/matrix"
)

// A release's OS list may predate a distro release: newer than every
// listed release of its major line (RHEL 8 and 9 minors ship side by
// side), or of its family when the list names none of its line.
func TestNewerThanList(t *testing.T) {
	for _, c := range []struct {
		list []string
		d    string
		want bool
	}{
		{[]string{"rhel-8.6", "rhel-9.1"}, "8.8", true},  // 8.8 came after the list's 8.6
		{[]string{"rhel-8.6", "rhel-9.1"}, "8.4", false}, // older than a listed 8.x
		{[]string{"rhel-8.6", "rhel-9.1"}, "9.0", false},
		{[]string{"rhel-8.6", "rhel-9.1"}, "9.4", true},
		{[]string{"rhel-9.1"}, "8.8", false}, // the list names only a later line
		{[]string{"rhel-8.6"}, "9.4", true},
		{[]string{"rhel-9"}, "9.4", false}, // the whole 9 line is listed
		{[]string{"rhel-8"}, "9.4", true},
		{[]string{"sles-15.5"}, "8.8", true}, // none of its family
	} {
		d := &matrix.Distro{Family: "rhel", Version: c.d}
		if got := newerThanList(c.list, d); got != c.want {
			t.Errorf("newerThanList(%v, rhel %s) = %v, want %v", c.list, c.d, got, c.want)
		}
	}
}
