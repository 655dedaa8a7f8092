package diagnose

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/rocekb/rocekb/internal/record"
)

// scaleHost is a record with n of each thing a check or a finding's
// links look up by name or address: adapters on their own functions, RDMA
// devices all on one card (half of them ACTIVE), and kernel log lines
// about one of them.
func scaleHost(n int) *record.Host {
	h := &record.Host{Host: record.HostInfo{ID: "scale", HasRDMA: true}}
	for i := range n {
		h.Adapters = append(h.Adapters, record.Adapter{PCIAddress: fmt.Sprintf("0000:%02x:%02x.%d", i>>8&0xff, i&0x1f, i%8), Vendor: "15b3", Device: "1017", Driver: record.Driver{Name: "mlx5_core"}})
		state := "DOWN"
		if i%2 == 1 {
			state = "ACTIVE"
		}
		h.Devices = append(h.Devices, record.RDMADevice{Name: fmt.Sprintf("mlx5_%d", i), Provider: "mlx5_ib", PCIAddress: "0000:3b:00.0",
			Ports: []record.Port{{Number: 1, State: state, PhysState: "LinkUp", LinkLayer: "Ethernet"}}})
		h.KernelLog = append(h.KernelLog, record.LogEvent{Kind: "probe-failure", Module: "mlx5_core", Device: "0000:3b:00.0", Text: fmt.Sprintf("mlx5_core 0000:3b:00.0: probe failed %d", i), Source: "dmesg", Line: i + 1})
	}
	return h
}

// TestDiagnoseGrowsLinearly: diagnosing a record twice the size
// allocates about twice as much. A record is at most 16 MiB, which holds
// tens of thousands of adapters or devices; a check or a link that reads
// every one of them for each one grows as the square (a 60,000-adapter
// record took minutes to diagnose, a 20,000-device card never finished).
// Bytes allocated, unlike time, do not depend on the machine.
func TestDiagnoseGrowsLinearly(t *testing.T) {
	d := New(tm(t), nil)
	alloc := func(n int) uint64 {
		h := scaleHost(n)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		d.Diagnose(h)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	alloc(100) // the matrix's lazy indexes
	small, large := alloc(1000), alloc(4000)
	ratio := float64(large) / float64(small)
	t.Logf("1,000 of each: %d bytes; 4,000: %d (%.1f×)", small, large, ratio)
	if ratio > 6 {
		t.Errorf("diagnosing 4,000 of each allocates %.1f× what 1,000 do (%d against %d bytes), want about 4×", ratio, large, small)
	}
}
