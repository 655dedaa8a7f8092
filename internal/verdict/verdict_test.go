package verdict

import (
	"slices"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/hosttest"
)

func TestJudge(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		plan    Plan
		want    Level
		nearest []string // substrings, in order
	}{
		{"unknown adapter", Plan{Adapter: "connectx-99", Kernel: "6.8"}, Undecided, nil},
		{"unknown pci id", Plan{Adapter: "15b3:9999"}, Undecided, nil},
		{"cx5 distro kernel, distro unknown: not judged by its number", Plan{Adapter: "connectx-5", Kernel: "5.14.0-427.13.1.el9_4.x86_64"}, Undecided, nil},
		{"cx5 upstream at its first kernel", Plan{Adapter: "connectx-5", Kernel: "4.6"}, Supported, nil},
		{"cx5 upstream before its first kernel", Plan{Adapter: "MT27800", Kernel: "4.4"}, Unsupported, []string{"Linux 4.6 or later"}},
		{"cx5 shorthand", Plan{Adapter: "CX-5", Kernel: "6.8"}, Supported, nil},
		{"shared pci id", Plan{Adapter: "1137:0043", Kernel: "6.8"}, Undecided, nil},
		{"distro by name, device kernel inferred", Plan{Adapter: "e810", Distro: "Debian 11.3"}, Undecided, []string{"Linux 5.14 or later"}},
		{"cx3: neither the id nor the driver dated", Plan{Adapter: "connectx-3", Kernel: "6.8"}, Undecided, nil},
		{"cx5 by pci id, no distro row: judged by number only", Plan{Adapter: "15b3:1017", Distro: "debian-11.3"}, Undecided, nil},
		{"cx5 no kernel", Plan{Adapter: "connectx-5"}, Conditional, []string{"Linux 4.6 or later"}},
		{"cx5 old kernel", Plan{Adapter: "ConnectX-5", Kernel: "3.10.0"}, Unsupported, []string{"Linux 4.6 or later"}},
		{"e810 distro backport of the driver, not the device", Plan{Adapter: "e810", Distro: "oldrpm-1"}, Undecided, nil},
		{"e810 old debian, first kernel inferred", Plan{Adapter: "e810", Distro: "debian-11.3"}, Undecided, []string{"Linux 5.14 or later"}},
		{"unknown distro", Plan{Adapter: "e810", Distro: "nope-1"}, Undecided, nil},
		{"cx3 ofed 5.8", Plan{Adapter: "connectx-3", Stack: "mlnx-ofed", StackVersion: "5.8-1.0.1.1"}, Unsupported, []string{"ConnectX-3: MLNX_OFED 4.9 LTS, since 5.1 dropped it"}},
		{"cx3 ofed 4.9-4.0.8.0, not in the matrix", Plan{Adapter: "connectx-3", Stack: "mlnx-ofed@4.9-4.0.8.0"}, Undecided, nil},
		{"cx3 ofed no version: no release lists it", Plan{Adapter: "connectx-3", Stack: "MLNX_OFED"}, Undecided, nil},
		{"unknown stack", Plan{Adapter: "connectx-5", Stack: "foo-ofed"}, Undecided, nil},
		{"ofed with a kernel: no adapter or OS list", Plan{Adapter: "connectx-5", Stack: "mofed", Kernel: "5.14.0"}, Undecided, nil},
		{"another vendor's stack", Plan{Adapter: "e810", Stack: "mlnx-ofed"}, Unsupported, nil},
		{"cisco inbox", Plan{Adapter: "1137:0043/1137:0217", Kernel: "5.14.0"}, Unsupported, []string{"cisco-enic"}},
		{"cisco ipv4 only firmware", Plan{Adapter: "cisco-vic-1400", Stack: "cisco-enic", Firmware: "5.1(1b)"}, Conditional, []string{"firmware ≥ 5.1(2x) for IPv6"}},
		{"cisco old firmware", Plan{Adapter: "cisco-vic-1400", Stack: "cisco-enic", Firmware: "4.5(1a)"}, Unsupported, []string{"firmware ≥ 5.1(1x) for IPv4", "firmware ≥ 5.1(2x) for IPv6"}},
		{"cisco good firmware", Plan{Adapter: "cisco-vic-1400", Stack: "cisco-enic", Firmware: "5.2(3a)"}, Conditional, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			v := Judge(hosttest.Matrix(t), c.plan)
			if v.Verdict != c.want {
				t.Fatalf("verdict %s, want %s: %+v", v.Verdict, c.want, v.Reasons)
			}
			for _, n := range c.nearest {
				if !slices.ContainsFunc(v.Nearest, func(s string) bool { return strings.Contains(s, n) }) {
					t.Errorf("nearest %q lacks %q", v.Nearest, n)
				}
			}
			if c.plan.Adapter == "cisco-vic-1400" && !slices.ContainsFunc(v.Reasons, func(r Reason) bool {
				return r.Verdict == Conditional && strings.Contains(r.Text, "needs MSI-X interrupt mode and at least 8 interrupts")
			}) {
				t.Errorf("no interrupt condition: %+v", v.Reasons)
			}
			if v.Verdict == Supported && len(v.Nearest) > 0 {
				t.Errorf("supported with nearest %v", v.Nearest)
			}
			for _, r := range v.Reasons {
				if r.Verdict != Undecided && len(r.Matrix) == 0 {
					t.Errorf("reason without a matrix entry: %+v", r)
				}
			}
		})
	}
}

func TestJudgeFirmwareWithoutMinimum(t *testing.T) {
	t.Parallel()
	v := Judge(hosttest.Matrix(t), Plan{Adapter: "connectx-5", Kernel: "5.14.0", Firmware: "16.35.2000"})
	if v.Verdict != Supported {
		t.Fatalf("verdict %s", v.Verdict)
	}
	if !slices.ContainsFunc(v.Reasons, func(r Reason) bool {
		return r.Verdict == Undecided && strings.Contains(r.Text, "firmware 16.35.2000 not judged")
	}) {
		t.Errorf("unjudged firmware not said: %+v", v.Reasons)
	}
}

func TestJudgeUnknownNeverGuesses(t *testing.T) {
	t.Parallel()
	v := Judge(hosttest.Matrix(t), Plan{Adapter: "connectx-99", Kernel: "6.8", Firmware: "16.35.2000"})
	if v.Verdict != Undecided || len(v.Reasons) != 1 || v.Adapter != "" || len(v.Nearest) != 0 {
		t.Errorf("unknown adapter got %+v", v)
	}
}

func TestNilMatrix(t *testing.T) {
	t.Parallel()
	if v := Judge(nil, Plan{Adapter: "connectx-5"}); v.Verdict != Undecided {
		t.Errorf("verdict without a matrix: %s", v.Verdict)
	}
}

// TestSoftRoCEAsAdapter: people ask whether SoftRoCE works on a kernel or a
// distro without naming a NIC; every name they type means the stack.
func TestSoftRoCEAsAdapter(t *testing.T) {
	t.Parallel()
	m, err := realMatrix()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"softroce", "soft-roce", "SoftRoCE", "rxe", "RXE", "rdma_rxe"} {
		if SoftwareDevice(m, name) == nil {
			t.Errorf("%q does not name the software stack", name)
		}
		v := Judge(m, Plan{Adapter: name, Kernel: "6.8"})
		if v.Adapter == "" || v.Stack != "softroce" {
			t.Errorf("%q: judged as adapter %q on stack %q", name, v.Adapter, v.Stack)
		}
		if v.Verdict == Supported {
			t.Errorf("%q: plain supported, though the device must be created (rdma link add)", name)
		}
	}
	for _, name := range []string{"connectx-5", "", "e810"} {
		if SoftwareDevice(m, name) != nil {
			t.Errorf("%q taken for the software stack", name)
		}
	}
}

// TestShipsKernel: a distro release whose kernel the matrix records is
// said to ship it; one of which the matrix names only the upstream base
// says so, never a placeholder for the missing release.
func TestShipsKernel(t *testing.T) {
	for _, tc := range []struct{ kernel, base, want string }{
		{"5.10.0-13-amd64", "5.10", "Debian 11.3 ships kernel 5.10.0-13-amd64 (upstream 5.10)"},
		{"", "6.1", "Debian 11.3 ships a Linux 6.1 kernel (its release is not recorded)"},
		{"5.10.0-13-amd64", "", "Debian 11.3 ships kernel 5.10.0-13-amd64"},
	} {
		if got := ships("Debian 11.3", tc.kernel, tc.base); got != tc.want {
			t.Errorf("ships(%q, %q) = %q, want %q", tc.kernel, tc.base, got, tc.want)
		}
	}
	m := hosttest.Matrix(t)
	for _, d := range m.Distros {
		if d.Kernel != "" {
			continue
		}
		v := Judge(m, Plan{Adapter: "connectx-5", Distro: d.ID})
		for _, r := range v.Reasons {
			if strings.Contains(r.Text, "ships kernel -") {
				t.Errorf("%s: %q", d.ID, r.Text)
			}
		}
	}
}
