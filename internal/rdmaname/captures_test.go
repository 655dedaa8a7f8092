package rdmaname

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// pairREs find a PCI address beside a device name in real output: a
// driver's kernel log line ("efa 0000:a0:1a.0 rdmap160s26: …") and a
// sysfs path (".../0000:2f:00.0/ice.roce.0/infiniband/rocep47s0f0").
var pairREs = []*regexp.Regexp{
	regexp.MustCompile(`\b([0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]) ([a-zA-Z]\w*):`),
	regexp.MustCompile(`/([0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7])/(?:[\w.-]+/)?infiniband/(\w+)`),
}

// TestAddressesInCaptures: wherever a capture prints a device name beside
// the PCI function it sits on, the name, read as rdma_rename's, gives
// that function. Names that give none (slot numbers, kernel names) are
// passed over.
func TestAddressesInCaptures(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "captures", "*", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no captures: %v", err)
	}
	checked := map[string]string{}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, re := range pairREs {
			for _, m := range re.FindAllStringSubmatch(string(b), -1) {
				n, ok := Parse(m[2])
				if !ok || n.Address() == "" {
					continue
				}
				if n.Address() != m[1] {
					t.Errorf("%s: %s is %s by its name, %s beside it", filepath.Base(p), m[2], n.Address(), m[1])
				}
				checked[m[2]] = m[1]
			}
		}
	}
	// The pairs known to be there: efa's log line (a Trainium host) and
	// irdma's udevadm walk, on rdma-core's domain-less bus form.
	for name, addr := range map[string]string{"rdmap160s26": "0000:a0:1a.0", "rocep47s0f0": "0000:2f:00.0"} {
		if checked[name] != addr {
			t.Errorf("%s beside %s not found in the captures (found %v)", name, addr, checked)
		}
	}
}
