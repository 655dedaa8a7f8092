package rdmaname

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func ip(v int) *int { return &v }

// TestParse reads the names of rdma_rename.c's and
// rdma-persistent-naming.rules' own examples (rdma-core
// kernel-boot/, at 691953d8d502f54088f776c5ba2aeed0a5ac945d), the forms
// by_pci composes (domain, slot number, ARI function, VF, SF), and names
// it cannot have made.
func TestParse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name           string
		want           Name
		parent, addr   string
		absentNonEmpty bool
	}{
		// "pci = 0000:00:0c.4, Device type = IB, mlx5_0 -> ibp0s12f4"
		{"ibp0s12f4", Name{Prefix: "ib", Link: "InfiniBand", Policy: PCI, Slot: 12, Function: ip(4)}, "0000:00:0c.4", "0000:00:0c.4", false},
		// "parent pci = 0000:c1:00.0, sfnum = 88 … mlx5_5 -> rocep193s0f0S88"
		{"rocep193s0f0S88", Name{Prefix: "roce", Link: "RoCE", Policy: PCI, Bus: 193, Function: ip(0), SF: ip(88)}, "0000:c1:00.0", "", true},
		// "parent pci = 0000:c1:00.4 (VF of 0000:c1:00.0), sfnum = 99 … mlx5_6 -> rocep193s0f0v0S99"
		{"rocep193s0f0v0S99", Name{Prefix: "roce", Link: "RoCE", Policy: PCI, Bus: 193, Function: ip(0), VF: ip(0), SF: ip(99)}, "0000:c1:00.0", "", true},
		// "GUID = 5254:00c0:fe12:3455 … mlx5_0 -> rocex525400c0fe123455"
		{"rocex525400c0fe123455", Name{Prefix: "roce", Link: "RoCE", Policy: GUID, NodeGUID: "5254:00c0:fe12:3455"}, "", "", true},
		// "Index = 3, Device type = OPA, hfi1_1 -> opao3"
		{"opao3", Name{Prefix: "opa", Link: "OPA", Policy: Onboard, Index: 3}, "", "", true},
		// The bus in decimal, the address in hex.
		{"rocep59s0f0", Name{Prefix: "roce", Link: "RoCE", Policy: PCI, Bus: 59, Function: ip(0)}, "0000:3b:00.0", "0000:3b:00.0", false},
		// P<domain> before the bus, written only for a domain above 0.
		{"roceP2p1s0f1", Name{Prefix: "roce", Link: "RoCE", Policy: PCI, Domain: 2, Bus: 1, Function: ip(1)}, "0002:01:00.1", "0002:01:00.1", false},
		{"ibP65536p0s0", Name{Prefix: "ib", Link: "InfiniBand", Policy: PCI, Domain: 65536}, "10000:00:00.0", "10000:00:00.0", false},
		// No f: a single-function device, function 0.
		{"ibp75s0", Name{Prefix: "ib", Link: "InfiniBand", Policy: PCI, Bus: 75}, "0000:4b:00.0", "0000:4b:00.0", false},
		{"iwp24s0f1", Name{Prefix: "iw", Link: "iWARP", Policy: PCI, Bus: 24, Function: ip(1)}, "0000:18:00.1", "0000:18:00.1", false},
		{"rdmap175s0f0", Name{Prefix: "rdma", Link: "unknown", Policy: PCI, Bus: 175, Function: ip(0)}, "0000:af:00.0", "0000:af:00.0", false},
		// ARI: function 10 on slot 1 is 01.2.
		{"rocep59s1f10", Name{Prefix: "roce", Link: "RoCE", Policy: PCI, Bus: 59, Slot: 1, Function: ip(10)}, "0000:3b:01.2", "0000:3b:01.2", false},
		{"rocep59s0f10", Name{Prefix: "roce", Link: "RoCE", Policy: PCI, Bus: 59, Function: ip(10)}, "", "", true},
		// A physical slot's number in place of bus and slot.
		{"roces2f0", Name{Prefix: "roce", Link: "RoCE", Policy: PCI, Slot: 2, SlotNumber: true, Function: ip(0)}, "", "", true},
		{"roceP1s3", Name{Prefix: "roce", Link: "RoCE", Policy: PCI, Domain: 1, Slot: 3, SlotNumber: true}, "", "", true},
		{"rocep59s0f0v3", Name{Prefix: "roce", Link: "RoCE", Policy: PCI, Bus: 59, Function: ip(0), VF: ip(3)}, "0000:3b:00.0", "", true},
	} {
		got, ok := Parse(tc.name)
		if !ok {
			t.Errorf("Parse(%q) not a name", tc.name)
			continue
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("Parse(%q) (-want +got):\n%s", tc.name, d)
		}
		if p, a := got.Parent(), got.Address(); p != tc.parent || a != tc.addr {
			t.Errorf("%s: Parent %q Address %q, want %q %q", tc.name, p, a, tc.parent, tc.addr)
		}
		if ab := got.Absent(); (ab != "") != tc.absentNonEmpty {
			t.Errorf("%s: Absent %q", tc.name, ab)
		}
	}
	for _, s := range []string{
		"mlx5_0", "rxe0", "hfi1_0", "irdma0", "bnxt_re0", "ib0", "ib1.8001", "iwlwifi", "roce", "ibp", "rocep", "rocep1", "rocep1s",
		"rocep0s08",             // %u prints no leading zero
		"roceP0p1s0",            // no P for domain 0
		"rocep256s0",            // a bus is 8 bits
		"rocep1s32",             // a slot is 5 bits
		"roces0f0",              // find_sun gives a slot above 0
		"rocep1s0f256",          // a function is 8 bits with ARI
		"rocep1s0v1",            // v follows f
		"roceo16384",            // past ONBOARD_INDEX_MAX
		"rocex525400c0fe12345",  // 15 hex digits
		"rocex525400C0FE123455", // %04x prints lower case
		"rocep1s0f0 ", "rocep1s0f0x", "rocep-1s0", "rocep+1s0", "rocep99999999999s0",
	} {
		if n, ok := Parse(s); ok {
			t.Errorf("Parse(%q) = %+v, want not a name", s, n)
		}
	}
}

// FuzzParse: Parse never panics, and a name it reads with a PCI address
// is one rdma_rename's by_pci could have printed for that address: the
// address parses back to the name's numbers.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"ibp0s12f4", "rocep193s0f0v0S99", "rocex525400c0fe123455", "opao3", "roceP2p1s0f1", "rocep59s1f10", "roces2f0", "mlx5_0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := Parse(s)
		if !ok {
			if n != (Name{}) {
				t.Fatalf("Parse(%q) not a name but %+v", s, n)
			}
			return
		}
		if !strings.HasPrefix(s, n.Prefix) || n.Link == "" {
			t.Fatalf("Parse(%q): prefix %q link %q", s, n.Prefix, n.Link)
		}
		if a := n.Address(); a != "" && a != n.Parent() {
			t.Fatalf("%s: Address %q, Parent %q", s, a, n.Parent())
		}
		p := n.Parent()
		if p == "" {
			if n.Absent() == "" {
				t.Fatalf("%s: no address and nothing said absent", s)
			}
			return
		}
		var dom, bus, slot, fn int
		if _, err := fmt.Sscanf(p, "%x:%x:%x.%x", &dom, &bus, &slot, &fn); err != nil || dom != n.Domain || bus != n.Bus || slot != n.Slot || fn > 7 {
			t.Fatalf("%s: Parent %q (%v) is not domain %d bus %d slot %d", s, p, err, n.Domain, n.Bus, n.Slot)
		}
	})
}
