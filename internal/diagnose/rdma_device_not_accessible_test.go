package diagnose

import (
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/record"
)

// rdma-device-not-accessible on real records: a container's ibv_devinfo
// opening one VF of nine (hustcat/k8s-rdma-device-plugin#8), a pod given
// one erdma device's uverbs file of two (kvcache-ai/Mooncake#102), a guest
// whose only device cannot be opened (OSLL/ntb-cxl#90), a pod given both
// devices (Mellanox/k8s-rdma-shared-dev-plugin#64); and, on those records
// changed in the one field the check reads, a listing with no uverbs file,
// a missing /dev/infiniband and exclusive netns mode.
func TestDeviceAccess(t *testing.T) {
	t.Parallel()
	pod := golden(t, "container-mlx5-shared-dev-plugin-pod")
	runCases(t, "rdma-device-not-accessible", []checkCase{
		{"golden mlx4-cx3-vf-container: 8 open failures, mlx4_2 opened", golden(t, "mlx4-cx3-vf-container"), Found, Warning, "host"},
		{"golden container-erdma-partial-uverbs: 1 uverbs file for 2 devices", golden(t, "container-erdma-partial-uverbs"), Found, Warning, "host"},
		{"golden verbs-iwp0s3-qemu-failed-to-open: none opened", golden(t, "verbs-iwp0s3-qemu-failed-to-open"), Found, Error, "host"},
		{"golden container-mlx5-shared-dev-plugin-pod: 2 uverbs files for 2 devices", pod, Pass, "", ""},
		{"golden log-mlx5-cx6-health-compromised-irisc-not-responding: nothing read", golden(t, "log-mlx5-cx6-health-compromised-irisc-not-responding"), Unknown, "", ""},
		{"the pod without its uverbs files", with(pod, func(h *record.Host) {
			h.CharDevices = slicesDeleteUverbs(h.CharDevices)
		}), Found, Error, "host"},
		{"the pod with no /dev/infiniband", with(pod, func(h *record.Host) {
			h.CharDevices = nil
			for i := range h.Sources {
				if h.Sources[i].ID == "cmd/ls -l /dev/infiniband" {
					h.Sources[i].Reason = "no /dev/infiniband: ls: cannot access '/dev/infiniband': No such file or directory"
				}
			}
		}), Found, Error, "host"},
		{"exclusive netns, no device here", with(pod, func(h *record.Host) {
			h.Devices, h.CharDevices = nil, nil
			h.RDMASystem = &record.RDMASystem{Netns: "exclusive", From: "cmd/rdma system show"}
		}), Found, Warning, "host"},
		{"shared netns", with(pod, func(h *record.Host) {
			h.RDMASystem = &record.RDMASystem{Netns: "shared", From: "cmd/rdma system show"}
		}), Pass, "", ""},
	})
	r, _ := Evaluate(tm(t), golden(t, "container-erdma-partial-uverbs")(), "rdma-device-not-accessible")
	if f := r.Findings[0]; !strings.Contains(f.Message, "erdma_1") || strings.Contains(f.Message, "erdma_0 has") {
		t.Errorf("message %q, want erdma_1 named as the device without its file", f.Message)
	}
	r, _ = Evaluate(tm(t), golden(t, "mlx4-cx3-vf-container")(), "rdma-device-not-accessible")
	if f := r.Findings[0]; !strings.Contains(f.Message, "mlx4_2") || !strings.Contains(f.Message, "8 other") || f.Evidence[1].Source != "cmd/ibv_devinfo" {
		t.Errorf("finding %+v, want mlx4_2 opened and 8 others not, citing ibv_devinfo", f)
	}
}

func slicesDeleteUverbs(cs []record.CharDevice) []record.CharDevice {
	var out []record.CharDevice
	for _, c := range cs {
		if !strings.HasPrefix(c.Name, "uverbs") {
			out = append(out, c)
		}
	}
	return out
}
