package verdict

import (
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/matrix"
)

// TestReleaseNames: a run of three or more releases that follow one
// another in the matrix is a range with its count; a gap (a release of the
// matrix not in the set) ends a run; releases the matrix lacks are named.
func TestReleaseNames(t *testing.T) {
	ms := &matrix.Stack{ID: "s", Releases: []matrix.StackRelease{
		{Version: "5.0"}, {Version: "4.9"}, {Version: "5.2"}, {Version: "5.1"}, {Version: "5.3"}, {Version: "5.4"}, {Version: "6.0"},
	}}
	byV := map[string]*matrix.StackRelease{}
	for i := range ms.Releases {
		byV[ms.Releases[i].Version] = &ms.Releases[i]
	}
	set := func(vs ...string) []*matrix.StackRelease {
		var out []*matrix.StackRelease
		for _, v := range vs {
			if r := byV[v]; r != nil {
				out = append(out, r)
			} else {
				out = append(out, &matrix.StackRelease{Version: v})
			}
		}
		return out
	}
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"5.2", "4.9", "5.0", "5.1"}, "4.9 to 5.2 (4 releases)"},
		{[]string{"5.0", "4.9"}, "4.9, 5.0"},
		{[]string{"4.9", "5.0", "5.1", "5.3", "5.4", "6.0"}, "4.9 to 5.1 (3 releases), 5.3 to 6.0 (3 releases)"},
		{[]string{"6.0", "4.9", "5.3"}, "4.9, 5.3, 6.0"},
		{[]string{"5.1", "7.1", "5.0", "4.9"}, "4.9 to 5.1 (3 releases), 7.1"},
		{nil, ""},
	} {
		if got := releaseNames(ms, set(c.in...)); got != c.want {
			t.Errorf("releaseNames(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestStackVersionAsPasted: a release given apart from the stack's name is
// read as one joined to it: a DOCA-Host package's version, as dpkg -l lists
// doca-host (3.3.0-088000-26.01-ubuntu2404), is its DOCA release, so a
// release the matrix lacks is named by its number, not the package's.
func TestStackVersionAsPasted(t *testing.T) {
	m, err := realMatrix()
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"3.3.0-088000-26.01-ubuntu2404": "3.3.0",
		"3.3.0-088000-26.01":            "3.3.0",
		"2.9.1-018000-24.10-ubuntu2204": "2.9.1",
		"3.3.0":                         "3.3.0",
	} {
		v := Judge(m, Plan{Adapter: "connectx-7", Distro: "ubuntu-24.04", Stack: "doca-ofed", StackVersion: in})
		if v.StackVersion != want {
			t.Errorf("%s: judged as release %q, want %q", in, v.StackVersion, want)
		}
		for _, r := range v.Reasons {
			if strings.Contains(r.Text, "088000") || strings.Contains(r.Text, "018000") {
				t.Errorf("%s: a reason names the package's version: %s", in, r.Text)
			}
		}
	}
	// A MLNX_OFED release's own suffix stays.
	if v := Judge(m, Plan{Adapter: "connectx-6-dx", Distro: "rocky-8.10", Stack: "mlnx-ofed", StackVersion: "23.10-2.1.3.1-201"}); v.StackVersion != "23.10-2.1.3.1-201" {
		t.Errorf("23.10-2.1.3.1-201 judged as %q", v.StackVersion)
	}
}

// TestReleaseLineInOrder: a version naming a line of releases lists them
// in version order, whatever order the matrix holds them in.
func TestReleaseLineInOrder(t *testing.T) {
	s := stackSteps{ms: &matrix.Stack{ID: "s", Name: "S", Releases: []matrix.StackRelease{
		{Version: "23.10-2.1.3.1-201"}, {Version: "23.10-1.1.9.0"}, {Version: "23.10-0.5.5.0"}, {Version: "23.10-2.1.3.1"}, {Version: "23.10-6.1.6.1"}, {Version: "24.04-0.6.6.0"},
	}}}
	want := " (S 23.10 names a line of releases whose lists may differ: 23.10-0.5.5.0, 23.10-1.1.9.0, 23.10-2.1.3.1, 23.10-2.1.3.1-201, 23.10-6.1.6.1; name one)"
	if got := s.nearestKnown("23.10"); got != want {
		t.Errorf("nearestKnown(23.10) =\n%q, want\n%q", got, want)
	}
}
