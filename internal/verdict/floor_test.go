package verdict

import (
	"strings"
	"testing"
)

// TestSourcedDriverFloorIsCited checks that when the RDMA driver's sourced
// first release (not the adapter's unconfirmed [[pci_kernel]] rows) is what
// excludes an older kernel, the unsupported reason names that driver
// release and cites the driver entry.
func TestSourcedDriverFloorIsCited(t *testing.T) {
	m, err := realMatrix()
	if err != nil {
		t.Fatal(err)
	}
	v := Judge(m, Plan{Adapter: "e810-c", Kernel: "5.13", Stack: "inbox"})
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
