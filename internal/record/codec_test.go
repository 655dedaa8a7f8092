package record

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocekb/rocekb/internal/diag"
)

func sample() *Host {
	n, on := 8, true
	return &Host{
		Schema: Schema,
		Host:   HostInfo{ID: "host-1", KernelRelease: "5.14.0-427.13.1.el9_4.x86_64", SourceKind: KindRoot, HasRDMA: true},
		Adapters: []Adapter{{
			PCIAddress: "0000:3b:00.0", Vendor: "15b3", Device: "1017",
			Driver:   Driver{Name: "mlx5_core", Origin: OriginInbox},
			Firmware: Firmware{Running: "16.35.2000", Stored: "16.35.2000"},
			MSIX:     &MSIX{Count: &n, Enabled: &on},
			From:     map[string]string{"firmware.running": "sys/class/infiniband"},
		}},
		Devices: []RDMADevice{{Name: "mlx5_0", FwVer: "16.35.2000", Ports: []Port{{
			Number: 1, State: "ACTIVE", LinkLayer: "Ethernet",
			GIDCounts: GIDCounts{RoCEv1: 1, RoCEv2: 1},
		}}}},
		Sources: []Source{{ID: "sys/class/infiniband", Status: StatusOK}},
	}
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"toml", "json"} {
		var buf bytes.Buffer
		if err := Encode(&buf, sample(), format); err != nil {
			t.Fatal(err)
		}
		got, probs := Decode("h."+format, buf.Bytes())
		if len(probs) > 0 {
			t.Fatalf("%s: %s", format, probs)
		}
		if d := cmp.Diff(sample(), got); d != "" {
			t.Errorf("%s round trip (-want +got):\n%s", format, d)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ src, want string }{
		"unknown key": {"schema = 1\n[host]\nid = \"x\"\nkernal = \"5\"\n", `h.toml:4:1: unknown key "kernal"`},
		"newer":       {"schema = 99\n", "h.toml:1:1: record schema 99 is newer"},
		"no schema":   {"[host]\nid = \"x\"\n", "not a host record"},
	} {
		_, probs := Decode("h.toml", []byte(tc.src))
		if !strings.Contains(probs.String(), tc.want) {
			t.Errorf("%s: got %q, want %q", name, probs.String(), tc.want)
		}
	}
}

// TestDecodeFastAgreesWithStrict: the fast decoder accepts only what the
// positioned strict decoder accepts, and reads it alike (time zones
// included, which cmp compares by instant: the records are re-encoded).
func TestDecodeFastAgreesWithStrict(t *testing.T) {
	t.Parallel()
	srcs := []string{
		"schema = 2\nschema = 2\n",
		"schema = 2.0\n",
		"schema = 99999999999999999999\n",
		"schema = 2\n[host]\nhas_rdma = \"yes\"\n",
		"schema = 2\n[host]\ncollected_at = 2026-01-02T03:04:05\n",
		"schema = 2\n[host]\ncollected_at = 2026-01-02T03:04:05+02:00\n",
		"schema = 2\n[host]\ncollected_at = 2026-01-02\n",
		"schema = 2\n[[adapter]]\n[adapter.pcie]\nspeed_gtps = 8\nwidth = 8.5\n",
		"schema = 2\n[[adapter]]\n[adapter.msix]\ncount = -1\n",
		"schema = 2\n[host]\nid = 'x'\n[host]\nid = 'y'\n",
		"schema = 2\nhost = {id = 'x'}\nadapter = [{pci_address='x'}]\n",
		"schema = 2\n[host.from]\nx = 1\n",
		"schema = 2\n[[adapter]]\nfrom = {a = 'b', a = 'c'}\n",
		"schema = 2\nfw_verison = '1'\n",
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "hosts", "*.toml"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(b))
	}
	accepted := 0
	for _, src := range srcs {
		var fast, strict Host
		ok := decodeFast([]byte(src), &fast)
		_, probs := diag.DecodeTOML("h.toml", []byte(src), &strict)
		if !ok {
			continue
		}
		accepted++
		if probs.Errors() > 0 {
			t.Errorf("fast decoder accepts what the strict one rejects (%s):\n%s", probs, src)
			continue
		}
		var a, b bytes.Buffer
		if err := Encode(&a, &strict, "toml"); err != nil {
			t.Fatal(err)
		}
		if err := Encode(&b, &fast, "toml"); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(a.String(), b.String()); d != "" {
			t.Errorf("fast and strict decoders read alike differently (-strict +fast):\n%s", d)
		}
	}
	if accepted < len(files) {
		t.Errorf("fast decoder accepted %d inputs, fewer than the %d fixture records", accepted, len(files))
	}
}
