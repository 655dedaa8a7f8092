package paste

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestJoinedLspci: lspci's output whose line breaks a chat client or a
// ticket form turned into spaces, the prompt's command line and all, is
// filed under the command its layout shows and gives the adapters the
// output as printed gives.
func TestJoinedLspci(t *testing.T) {
	t.Parallel()
	for _, f := range []string{
		"mlx5-cx6dx-grep-net.txt",                        // a prompt, then one line a device
		"ice-e810xxv-nn-grep-truncated.txt",              // -nn with domains, cut short
		"mlx5-cx4lx-vf-hyperv-k-long-slot.txt",           // -k's lines under each device, no command line
		"mlx5-cx4lx-vfio-pci-vv-width-x4-downgraded.txt", // -vv: the link, the VPD
	} {
		src := body(t, "lspci", f)
		joined := strings.Join(strings.Fields(src), " ")
		want, got := sections(t, src), sections(t, joined)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s joined: sections (-as printed +joined):\n%s", f, d)
		}
		if d := cmp.Diff(collectText(t, src).Adapters, collectText(t, joined).Adapters); d != "" {
			t.Errorf("%s joined: adapters (-as printed +joined):\n%s", f, d)
		}
	}
}

// sections are the commands a paste's sections are filed as, with their
// filters.
func sections(t *testing.T, text string) []string {
	t.Helper()
	secs, _, err := Split(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range secs {
		out = append(out, s.Command+" | "+s.Filter)
	}
	return out
}
