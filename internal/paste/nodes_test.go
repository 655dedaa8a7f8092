package paste

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestNodes: a parallel shell's node prefixes are found; the real pastes
// of testdata/captures/paste, all of one host, have none but the xCAT
// one, whose lines are all behind one node.
func TestNodes(t *testing.T) {
	t.Parallel()
	two := "$ pdsh -w node[1-2] ibv_devinfo\nnode1: hca_id:\tmlx5_0\nnode1: \ttransport:\t\t\tInfiniBand (0)\nnode2: hca_id:\tmlx5_0\nnode2: \ttransport:\t\t\tInfiniBand (0)\n"
	if got := Nodes([]byte(two)); !slices.Equal(got, []string{"node1", "node2"}) {
		t.Errorf("Nodes(pdsh) = %q, want node1, node2", got)
	}
	if got := string(StripNode([]byte(two), "node2")); !strings.Contains(got, "\nhca_id:\tmlx5_0\n\ttransport:") || !strings.Contains(got, "node1: hca_id") {
		t.Errorf("StripNode(node2) = %q", got)
	}
	// Two ethtool -i outputs: their keys are no nodes.
	ethtool := "$ ethtool -i eth0\ndriver: mlx5_core\nversion: 5.8-1.0.1\nbus-info: 0000:3b:00.0\n$ ethtool -i eth1\ndriver: mlx5_core\nversion: 5.8-1.0.1\nbus-info: 0000:3b:00.1\n"
	if got := Nodes([]byte(ethtool)); len(got) != 0 {
		t.Errorf("Nodes(ethtool) = %q, want none", got)
	}
	// Real captures behind one node's name: pdsh-style dmesg
	// (openucx/ucx#7738) and xCAT's updatenode (xcat2/xcat-core#4044).
	for file, want := range map[string]string{
		"kernellog/mlx5-create-dct-no-done-completion-pdsh-host-prefix-truncated.txt": "b1360",
		"ibdev2netdev/mlx5-cx5-ibm-edr-xcat-node-prefix-v-fw-before-port.txt":         "mid05tor12cn02",
	} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "captures", file))
		if err != nil {
			t.Fatal(err)
		}
		if got := Nodes(b); !slices.Equal(got, []string{want}) {
			t.Errorf("%s: nodes %q, want %s", file, got, want)
		}
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "captures", "paste", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no pastes")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := Nodes(b); len(got) > 1 {
			t.Errorf("%s: nodes %q, want at most one", filepath.Base(f), got)
		}
	}
}

func FuzzNodes(f *testing.F) {
	f.Add([]byte("node1: hca_id:\tmlx4_0\nnode1: \tfw_ver:\t\t\t\t2.42.5000\n"))
	f.Add([]byte("b1360: [14280.445220] mlx5_core 0000:61:00.0: wait_func: cmd\nb1360: [14280.445224] mlx5_core 0000:61:00.0: x\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		nodes := Nodes(b)
		if !slices.IsSorted(nodes) || len(slices.Compact(slices.Clone(nodes))) != len(nodes) {
			t.Fatalf("nodes %q not sorted and unique", nodes)
		}
		for _, n := range nodes {
			if s := StripNode(b, n); len(s) > len(b) {
				t.Fatalf("StripNode(%q) grew the text", n)
			}
		}
	})
}
