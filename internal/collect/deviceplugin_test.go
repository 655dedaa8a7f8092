package collect

import (
	"testing"
	"testing/fstest"

	"github.com/rocekb/rocekb/internal/capturetest"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
)

// An sosreport of a Kubernetes node whose kubernetes plugin ran with
// podlogs keeps each container's log under cluster-info/<ns>/podlogs/<pod>/:
// the SR-IOV device plugin's names the node's network functions, with
// their ids where it added them to a pool; a function of another class
// (an accelerator) and other pods' logs give nothing.
func TestDevicePluginPodLogs(t *testing.T) {
	t.Parallel()
	const dir = "sos_commands/kubernetes/cluster-info/kube-system/podlogs/"
	log := dir + "kube-sriov-device-plugin-amd64-2ctzb/kubectl_--namespace_kube-system_logs_kube-sriov-device-plugin-amd64-2ctzb_-c_kube-sriovdp"
	fsys := fstest.MapFS{
		log: {Data: append(capturetest.Read(t, "deviceplugin", "mlx5-cx6-vfs-sriov-dp-fenced-one-space-after-cut-vendor-truncated.txt"),
			[]byte("I1122 07:13:08.300000       1 accelDeviceProvider.go:71] accelerator AddTargetDevices(): device found: 0000:af:00.0\t12          \tIntel Corporation   \tDevice 0d5c\n"+
				"I1122 07:13:08.400000       1 factory.go:108] device added: [pciAddr: 0000:c3:00.2, vendor: 15b3, device: 101c, driver: mlx5_core]\n")...)},
		dir + "coredns-1/kubectl_--namespace_kube-system_logs_coredns-1_-c_coredns": {Data: []byte("[INFO] plugin/reload: Running configuration SHA512\n")},
	}
	h, err := Collect(snapshot.FromFS(fsys, record.KindSosreport, "t"))
	if err != nil {
		t.Fatal(err)
	}
	byAddr := map[string]record.Adapter{}
	for _, a := range h.Adapters {
		byAddr[a.PCIAddress] = a
	}
	if len(h.Adapters) != 7 {
		t.Errorf("%d adapters, want the 7 network functions", len(h.Adapters))
	}
	if a := byAddr["0000:c3:00.0"]; a.Name != "Mellanox Technolo... MT28908 Family [ConnectX-6]" || a.From["name"] != log {
		t.Errorf("0000:c3:00.0: %q from %q", a.Name, a.From["name"])
	}
	if a := byAddr["0000:c3:00.2"]; a.Vendor != "15b3" || a.Device != "101c" || a.Driver.Name != "mlx5_core" || a.From["vendor"] != log {
		t.Errorf("0000:c3:00.2: %s:%s driver %q from %v", a.Vendor, a.Device, a.Driver.Name, a.From)
	}
	if _, ok := byAddr["0000:af:00.0"]; ok {
		t.Error("the accelerator (class 12) became an adapter")
	}
}
