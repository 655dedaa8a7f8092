package verdict

import (
	"testing"

	"github.com/rocekb/rocekb/internal/matrix"
)

// A release whose OS table was read only in part (os_partial) supports the
// distros it names and leaves the others unknown; a complete list excludes
// them. A rebuild (Oracle Linux RHCK) and an Ubuntu HWE kernel are not
// covered by their family's row, nor excluded by it: unknown.
func TestOSStepPartialList(t *testing.T) {
	rhel := &matrix.Distro{ID: "rhel-8.4", Family: "rhel", Version: "8.4", Name: "RHEL 8.4"}
	rhel2 := &matrix.Distro{ID: "rhel-8.2", Family: "rhel", Version: "8.2", Name: "RHEL 8.2"}
	olRHCK := &matrix.Distro{ID: "oracle-8.4-rhck", Family: "rhel", Rebuild: "oracle", Version: "8.4", Name: "Oracle Linux 8.4 (RHCK)"}
	hwe := &matrix.Distro{ID: "ubuntu-20.04-hwe", Family: "ubuntu", Version: "20.04", Flavour: "hwe", Name: "Ubuntu 20.04 HWE"}
	newer := &matrix.Distro{ID: "rhel-9.4", Family: "rhel", Version: "9.4", Name: "RHEL 9.4"}
	for _, c := range []struct {
		partial bool
		d       *matrix.Distro
		want    Level
	}{
		{true, rhel, Supported},
		{true, rhel2, Undecided},
		{true, olRHCK, Undecided},
		{true, hwe, Undecided},
		{false, rhel, Supported},
		{false, rhel2, Unsupported},
		{false, olRHCK, Undecided},
		{false, &matrix.Distro{ID: "oracle-8.2-rhck", Family: "rhel", Rebuild: "oracle", Version: "8.2", Name: "Oracle Linux 8.2 (RHCK)"}, Unsupported}, // the list names 8.4 and no 8.2 at all
		{false, hwe, Undecided},
		{false, newer, Unsupported}, // not the newest release with an OS list: its list is binding
	} {
		ms := &matrix.Stack{ID: "s", Name: "S", Releases: []matrix.StackRelease{
			{Version: "5.4-1.0.3.0", OS: []string{"rhel-8.4", "rhel-7.9", "ubuntu-20.04"}, OSPartial: c.partial},
			{Version: "5.8-1.0.1.1", OS: []string{"rhel-8.6"}},
		}}
		s := stackSteps{m: &matrix.Matrix{}, ms: ms, d: c.d}
		rel := &ms.Releases[0]
		if got := s.osStep(rel.Version, rel); got.Verdict != c.want {
			t.Errorf("partial=%v %s: %v (%s), want %v", c.partial, c.d.ID, got.Verdict, got.Text, c.want)
		}
	}
}

// A later release whose OS list the matrix lacks does not make an older
// list binding on a line that list predates: only a later list could, so
// the older release stays the newest judged by its list (unknown, not no).
// A line the older list was written with and left out is a no either way.
func TestOSStepLaterReleaseWithoutList(t *testing.T) {
	rhel9 := &matrix.Distro{ID: "rhel-9.4", Family: "rhel", Version: "9.4", Name: "RHEL 9.4"}
	rhel6 := &matrix.Distro{ID: "rhel-6.10", Family: "rhel", Version: "6.10", Name: "RHEL 6.10"}
	for _, c := range []struct {
		later []string // the later release's OS list
		d     *matrix.Distro
		want  Level
	}{
		{nil, rhel9, Undecided},
		{[]string{"rhel-8.6"}, rhel9, Unsupported},
		{nil, rhel6, Unsupported},
	} {
		ms := &matrix.Stack{ID: "s", Name: "S", Releases: []matrix.StackRelease{
			{Version: "5.4-1.0.3.0", OS: []string{"rhel-8.4", "rhel-7.9"}},
			{Version: "5.8-1.0.1.1", OS: c.later},
		}}
		s := stackSteps{m: &matrix.Matrix{}, ms: ms, d: c.d}
		rel := &ms.Releases[0]
		if got := s.osStep(rel.Version, rel); got.Verdict != c.want {
			t.Errorf("later list %v, %s: %v (%s), want %v", c.later, c.d.ID, got.Verdict, got.Text, c.want)
		}
	}
}

// A release whose adapter table was read only in part (adapters_partial)
// supports the adapters it names and leaves the others unknown; a
// complete list excludes them.
func TestAdapterStepsPartialList(t *testing.T) {
	cx5 := &matrix.Adapter{ID: "connectx-5", Name: "ConnectX-5"}
	cx4 := &matrix.Adapter{ID: "connectx-4", Name: "ConnectX-4"}
	for _, c := range []struct {
		partial bool
		a       *matrix.Adapter
		want    Level
	}{
		{true, cx5, Supported},
		{true, cx4, Undecided},
		{false, cx5, Supported},
		{false, cx4, Unsupported},
	} {
		ms := &matrix.Stack{ID: "s", Name: "S", Releases: []matrix.StackRelease{
			{Version: "5.8-1.0.1.1", Adapters: []string{"connectx-5", "connectx-7"}, AdaptersPartial: c.partial},
		}}
		s := stackSteps{m: &matrix.Matrix{}, ms: ms, a: c.a}
		rel := &ms.Releases[0]
		if got := worst(s.adapterSteps(rel.Version, rel)); got.Verdict != c.want {
			t.Errorf("partial=%v %s: %v (%s), want %v", c.partial, c.a.ID, got.Verdict, got.Text, c.want)
		}
	}
}
