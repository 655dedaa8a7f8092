package paste

import (
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/source"
)

// TestDevicePluginLog: a Kubernetes device plugin's log (the RDMA shared
// device plugin's, the SR-IOV network device plugin's) is filed under
// its kubectl logs command line, or as "kubectl logs pasted" when no
// command line is before it, at a path the device-plugin row reads, and
// each network function it names becomes an adapter. Before, these
// pastes gave "no command output recognised".
func TestDevicePluginLog(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tool, file, command string
		adapters            int
	}{
		{"paste", "irdma-e810xxv-rdma-shared-dev-plugin-kubectl-logs-device-found-truncated.txt", "kubectl logs rdma-shared-dp-ds-5gpr9 -n kube-system", 4},
		{"paste", "mlx5-cx5-rdma-shared-dev-plugin-network-operator-logs-device-found-truncated.txt", "kubectl logs pasted", 1},
		{"deviceplugin", "bnxt-x722-sriov-dp-discoverdevices-glog-tabs-truncated.txt", "kubectl logs kube-sriov-device-plugin-amd64-2ctzb -n kube-system", 9},
		{"deviceplugin", "mlx5-cx5ex-vfs-sriov-dp-netdevice-addtargetdevices-truncated.txt", "kubectl logs pasted", 7},
		{"deviceplugin", "x710-vfio-sriov-dp-device-added-pciaddr-truncated.txt", "kubectl logs pasted", 10},
		{"deviceplugin", "xxv710-sriov-operator-dp-backtick-spaces-truncated.txt", "kubectl logs sriov-device-plugin-4mdbw -n sriov-network-operator", 2},
		{"deviceplugin", "mlx5-cx5-i350-x710-sriov-dp-issue-template-truncated.txt", "kubectl logs pasted", 3},
		{"deviceplugin", "mlx5-cx6-vfs-sriov-dp-fenced-one-space-after-cut-vendor-truncated.txt", "kubectl logs pasted", 7},
		{"deviceplugin", "iavf-x710-vfs-ocp-oc-logs-snip-device-added.txt", "oc logs sriov-device-plugin-gbhz2", 8},
		{"deviceplugin", "intel-unknown-name-sriov-dp-discoverdevices-error-driver-readlink-truncated.txt", "kubectl logs kube-sriov-device-plugin-amd64-f7tcr -n kube-system", 1},
	} {
		text := body(t, tc.tool, tc.file)
		secs, _, err := Split(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range secs {
			got = append(got, s.Command+" at "+s.Path)
		}
		if len(secs) != 1 || strings.Join(strings.Fields(secs[0].Command), " ") != tc.command {
			t.Errorf("%s: sections %q, want one %q", tc.file, got, tc.command)
			continue
		}
		if row, ok := source.Of(source.ID(secs[0].Path)); !ok || row.Name != "device-plugin" {
			t.Errorf("%s: %s is read by row %q, want device-plugin", tc.file, secs[0].Path, row.Name)
		}
		if h := collectText(t, text); len(h.Adapters) != tc.adapters {
			t.Errorf("%s: %d adapters, want %d", tc.file, len(h.Adapters), tc.adapters)
		}
	}

	// Flags before "logs", and microk8s's wrapper: still the plugin's command.
	for _, cmd := range []string{"kubectl -n kube-system logs rdma-shared-dp-ds-5gpr9", "oc -n openshift-sriov-network-operator logs sriov-device-plugin-x", "microk8s kubectl logs sriov-dp"} {
		lines := strings.Split(body(t, "paste", "irdma-e810xxv-rdma-shared-dev-plugin-kubectl-logs-device-found-truncated.txt"), "\n")
		lines[0] = "$ " + cmd
		secs, _, err := Split(strings.NewReader(strings.Join(lines, "\n")))
		if err != nil {
			t.Fatal(err)
		}
		if len(secs) != 1 || secs[0].Command != cmd {
			t.Errorf("%s: sections %+v", cmd, secs)
		}
	}

	// The "found" line's names as lspci prints them, cut where the plugin
	// cut them; the "added" line's ids and driver.
	h := collectPaste(t, "mlx5-cx5-rdma-shared-dev-plugin-network-operator-logs-device-found-truncated.txt")
	if a := h.Adapters[0]; a.PCIAddress != "0000:07:00.0" || a.Name != "Mellanox Technolo... MT27800 Family [ConnectX-5]" ||
		a.From["pci_address"] != "sos_commands/kbcollect/kubectl_logs_pasted" {
		t.Errorf("adapter %s %q from %v", a.PCIAddress, a.Name, a.From)
	}
	h = collectText(t, body(t, "deviceplugin", "x710-vfio-sriov-dp-device-added-pciaddr-truncated.txt"))
	if a := h.Adapters[0]; a.PCIAddress != "0000:3b:11.6" || a.Vendor != "8086" || a.Device != "1565" || a.Driver.Name != "vfio-pci" {
		t.Errorf("adapter %s %s:%s driver %q", a.PCIAddress, a.Vendor, a.Device, a.Driver.Name)
	}

	// The log after lspci: lspci's name and ids win, the log only names
	// the functions lspci did not list.
	text := "$ lspci -nn | grep Mellanox\n" +
		"07:00.0 Ethernet controller [0200]: Mellanox Technologies MT27800 Family [ConnectX-5] [15b3:1017]\n\n" +
		body(t, "paste", "mlx5-cx5-rdma-shared-dev-plugin-network-operator-logs-device-found-truncated.txt")
	h = collectText(t, text)
	if len(h.Adapters) != 1 {
		t.Fatalf("adapters %+v", h.Adapters)
	}
	if a := h.Adapters[0]; a.Name != "Mellanox Technologies MT27800 Family [ConnectX-5]" || a.Vendor != "15b3" || a.From["pci_address"] == "sos_commands/kbcollect/kubectl_logs_pasted" {
		t.Errorf("adapter %q %s from %v: lspci's listing comes first", a.Name, a.Vendor, a.From)
	}
}
