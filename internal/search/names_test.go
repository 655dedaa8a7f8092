package search

import (
	"slices"
	"testing"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/verdict"
)

// TestQueryNames: a known name inside a longer identifier, split in two
// tokens, or a firmware version of a line names its thing in both
// engines; the parts of an identifier with no such run, two words that
// are no name written as one, and versions of other forms name nothing.
func TestQueryNames(t *testing.T) {
	_, al, _ := loadBundled(t)
	an := &Analyzer{Aliases: al}
	st, _, _ := loadStatic(t)
	for _, tc := range []struct {
		q       string
		want    []string // alias terms the query must have
		without []string // and must not
	}{
		{"kernel: enable CONFIG_INFINIBAND_BNXT_RE", []string{"bnxt_re"}, nil},
		{"MLNX_OFED_LINUX-4.1-1.0.2.0-ubuntu14.04-x86_64", []string{"mlnx-ofed"}, nil},
		{"hns-roce-hw-v2", []string{"hns_roce"}, nil},
		{"Connect x6 driver option", []string{"connectx-6"}, nil},
		{"Connect-X 6", []string{"connectx-6"}, nil},
		// The rdma-core library of a driver's provider.
		{"libhns: Add RoCE VF device ID", []string{"hns_roce"}, nil},
		// A link speed glued to a part number, as a listing writes it.
		{"能否添加Mellanox 25GMCX4421A-ACQN驱动", []string{"connectx-4-lx"}, nil},
		{"25GbE 10Gbase-T", nil, []string{"connectx-4-lx"}},
		{"firmware version: 14.32.1010", []string{"connectx-4-lx"}, nil},
		{"fw_ver: 16.35.2000", []string{"connectx-5", "connectx-5-ex"}, nil},
		// An Ubuntu release, a kernel and an OFED release are no firmware.
		{"Ubuntu 16.04 and 20.04", nil, []string{"connectx-5", "connectx-6"}},
		{"5.14.0-427.13.1.el9_4.x86_64", nil, []string{"connectx-5"}},
		{"MLNX_OFED 5.8-1.1.2.1", nil, []string{"connectx-5"}},
		{"failed to create qp", nil, []string{"mlx5_ib"}},
		// One model-like part of a two-part identifier (openucx/ucx#2195);
		// a word part or a number alone names nothing.
		{"UCP worker can't be initialized with CX5-ROCE out of the box", []string{"connectx-5"}, nil},
		{"cx-roce 5-roce", nil, []string{"connectx-5"}},
		// Not when the whole token is a name: the E810-XXV only.
		{"E810-XXVDA2", []string{"e810-xxv"}, []string{"e810-c"}},
	} {
		for name, qts := range map[string][]QueryTerm{"analyzer": an.QueryTerms(Normalize(tc.q)), "static": st.StaticTerms(Normalize(tc.q))} {
			has := func(term string) bool {
				return slices.ContainsFunc(qts, func(qt QueryTerm) bool { return qt.Term == term })
			}
			for _, w := range tc.want {
				if !has(w) {
					t.Errorf("%s: %q has no term %s: %v", name, tc.q, w, qts)
				}
			}
			for _, w := range tc.without {
				if has(w) {
					t.Errorf("%s: %q names %s: %v", name, tc.q, w, qts)
				}
			}
		}
	}
}

// TestFirmwareVersionsHaveLineForm: every firmware version the matrix
// gives an adapter of a firmware line has the form fwVersionPattern reads
// and that line's major, so a query's version of that form names the
// line's adapters.
func TestFirmwareVersionsHaveLineForm(t *testing.T) {
	loadBundled(t)
	m := bundled.m
	n := 0
	for _, f := range m.Firmware {
		l := verdict.FirmwareLineOf(m, f.Adapter)
		if l == nil {
			continue
		}
		n++
		if got := firmwareLine(f.Min); got != l.Major {
			t.Errorf("firmware_min %s of %s: line %q by its form, want %s (fwVersionPattern %s)", f.Min, f.Adapter, got, l.Major, fwVersionPattern)
		}
	}
	if n == 0 {
		t.Fatal("no firmware minimum of an adapter with a firmware line")
	}
}

// TestAppendCompact: appendCompact appends what compact returns.
func TestAppendCompact(t *testing.T) {
	for _, s := range []string{"", "mlx5_core", "ConnectX-6 Dx", "CONFIG_INFINIBAND_BNXT_RE", "Façade-É", "\u212a", "15b3:1017", "a\xffb", "网卡", "5.1(2x)"} {
		if got := string(appendCompact([]byte("x"), s)); got != "x"+compact(s) {
			t.Errorf("appendCompact(%q) = %q, want %q", s, got[1:], compact(s))
		}
	}
}

// TestDistroNames: a distro family written as one word, and family and
// major naming the latest release of that major (not every minor release,
// nor a release whose own name it is).
func TestDistroNames(t *testing.T) {
	t.Parallel()
	ds := []matrix.Distro{
		{ID: "rocky-8.10", Name: "Rocky Linux 8.10"},
		{ID: "rocky-10.0", Name: "Rocky Linux 10.0"},
		{ID: "rocky-10.1", Name: "Rocky Linux 10.1"},
		{ID: "debian-11", Name: "Debian 11 (bullseye)"},
		{ID: "debian-11.3", Name: "Debian 11.3"},
		{ID: "sles-15-sp5", Name: "SLES 15 SP5"},
	}
	taken := map[string]bool{}
	for _, d := range ds {
		taken[compact(d.ID)], taken[compact(d.Name)] = true, true
	}
	latest := latestMinors(ds)
	want := map[string][]string{
		"rocky-8.10":  {"RockyLinux 8.10", "Rocky Linux 8", "RockyLinux 8", "rocky 8"},
		"rocky-10.0":  {"RockyLinux 10.0"},
		"rocky-10.1":  {"RockyLinux 10.1", "Rocky Linux 10", "RockyLinux 10", "rocky 10"},
		"debian-11":   nil,
		"debian-11.3": nil,
		"sles-15-sp5": nil,
	}
	for _, d := range ds {
		if got := distroNames(d.ID, d.Name, taken, latest); !slices.Equal(got, want[d.ID]) {
			t.Errorf("%s: got %q, want %q", d.ID, got, want[d.ID])
		}
	}
}
