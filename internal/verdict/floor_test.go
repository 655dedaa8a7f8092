package verdict

import (
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/matrix"
)

// TestSourcedDriverFloorIsCited checks that when the RDMA driver's sourced
// first release (not the adapter's unconfirmed [[pci_kernel]] rows) is what
// excludes an older kernel, the unsupported reason names that driver
// release and cites the driver entry. The bundled E810-C rows are sourced,
// so the test judges a copy of the matrix whose E810-C rows are marked
// unconfirmed: only irdma's sourced 5.14 can then exclude 5.13.
func TestSourcedDriverFloorIsCited(t *testing.T) {
	bundled, err := realMatrix()
	if err != nil {
		t.Fatal(err)
	}
	m := *bundled
	m.PCIKernels = append([]matrix.PCIKernel(nil), bundled.PCIKernels...)
	unconfirmed := 0
	for i, k := range m.PCIKernels {
		switch k.PCI {
		case "8086:1591", "8086:1592", "8086:1593":
			m.PCIKernels[i].Confidence = matrix.Unconfirmed
			unconfirmed++
		}
	}
	if unconfirmed != 3 {
		t.Fatalf("found %d of the 3 E810-C [[pci_kernel]] rows", unconfirmed)
	}
	v := Judge(&m, Plan{Adapter: "e810-c", Kernel: "5.13", Stack: "inbox"})
	if v.Verdict != Unsupported {
		t.Fatalf("E810-C on 5.13: got %s, want unsupported", v.Verdict)
	}
	var found bool
	for _, r := range v.Reasons {
		if r.Verdict != Unsupported || !strings.Contains(r.Text, "irdma is in the kernel from 5.14") {
			continue
		}
		for _, ref := range r.Matrix {
			if ref.Entry == "driver irdma" {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("E810-C on 5.13: no unsupported reason names and cites irdma's sourced first release 5.14; reasons: %+v", v.Reasons)
	}
}
