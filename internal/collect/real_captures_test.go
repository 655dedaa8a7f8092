package collect

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocekb/rocekb/internal/record"
)

// pcieFacts prints a link table with only the fields that are set.
func pcieFacts(p *record.PCIeLink) string {
	if p == nil {
		return "none"
	}
	f := func(v *float64) string {
		if v == nil {
			return "-"
		}
		return fmt.Sprint(*v)
	}
	i := func(v *int) string {
		if v == nil {
			return "-"
		}
		return fmt.Sprint(*v)
	}
	down := "-"
	if p.Downgraded != nil {
		down = fmt.Sprint(*p.Downgraded)
	}
	return fmt.Sprintf("%sGT/s x%s of %sGT/s x%s, %s of %s Gb/s, limited by %q, downgraded %s",
		f(p.SpeedGTps), i(p.Width), f(p.CapableSpeedGTps), i(p.CapableWidth), f(p.AvailableGbps), f(p.CapableGbps), p.LimitedBy, down)
}

// What the record holds from hosts whose only source is a real capture:
// adapters made from kernel log lines (driver, firmware, netdevs after a
// rename, PCI ids of the PCI core's enumeration line), the PCIe link table
// from lspci's LnkCap/LnkSta or the kernel's "limited by" line, and the
// log's events, each with the line that proves it.
func TestRealCaptureFacts(t *testing.T) {
	t.Parallel()
	type adapter struct {
		addr, vendor, device, driver, firmware string
		modules, netdevs                       []string
		pcie                                   string
		from                                   map[string]string // a few provenance keys
	}
	tests := []struct {
		host     string
		adapters []adapter
		netdevs  map[string]string // name → origin
		events   []string          // kind:device:line
	}{
		{
			host: "lspci-only-mlx5-cx4lx-vfio-pci-x4-downgraded",
			adapters: []adapter{{addr: "0000:08:00.0", driver: "vfio-pci", modules: []string{"mlx5_core"},
				pcie: `8GT/s x4 of 8GT/s x8, - of - Gb/s, limited by "", downgraded true`,
				from: map[string]string{"driver.name": "cmd/lspci -vv", "pcie": "cmd/lspci -vv"}}},
		},
		{
			host: "lspci-only-ice-e810xxv-vfio-pci",
			adapters: []adapter{{addr: "0000:01:00.0", driver: "vfio-pci", modules: []string{"ice"},
				pcie: `16GT/s x8 of 16GT/s x8, - of - Gb/s, limited by "", downgraded false`}},
		},
		{
			host: "dmesg-only-mlx5-cx4lx-renamed-from-eth0",
			adapters: []adapter{
				{addr: "0000:21:00.0", driver: "mlx5_core", firmware: "14.22.1002", netdevs: []string{"enp33s0f0np0"},
					pcie: `8GT/s x8 of -GT/s x-, 63.008 of - Gb/s, limited by "", downgraded -`,
					from: map[string]string{"driver.name": "cmd/dmesg line 1", "pcie.width": "cmd/dmesg line 2"}},
				{addr: "0000:21:00.1", driver: "mlx5_core", firmware: "14.22.1002",
					pcie: `8GT/s x8 of -GT/s x-, 63.008 of - Gb/s, limited by "", downgraded -`},
			},
			// The new name, from the rename line; the old eth0 is not kept.
			netdevs: map[string]string{"enp33s0f0np0": "cmd/dmesg line 17"},
			events:  []string{"firmware:0000:21:00.0:1", "firmware:0000:21:00.1:8"},
		},
		{
			host: "dmesg-only-mlx5-cx5-limited-by-x8",
			adapters: []adapter{{addr: "0001:43:00.0", driver: "mlx5_core", firmware: "16.35.4030",
				pcie: `8GT/s x8 of 8GT/s x16, 63.008 of 126.016 Gb/s, limited by "0001:42:01.0", downgraded true`,
				from: map[string]string{"pcie.downgraded": "cmd/dmesg line 2", "pcie.limited_by": "cmd/dmesg line 2"}}},
			events: []string{"firmware:0001:43:00.0:1", "pcie-limited:0001:43:00.0:2"},
		},
		{
			// The PCI core speaks, not a driver: the adapter comes from the
			// enumeration line's ids and class 0x020000, with no driver.
			host: "dmesg-only-pci-cx3pro-limited-5gts",
			adapters: []adapter{{addr: "0000:01:00.0", vendor: "15b3", device: "1007",
				pcie: `5GT/s x8 of 8GT/s x8, 32 of 63.008 Gb/s, limited by "0000:00:00.0", downgraded true`,
				from: map[string]string{"vendor": "cmd/dmesg line 21", "pcie.downgraded": "cmd/dmesg line 26"}}},
			events: []string{"pcie-limited:0000:01:00.0:26"},
		},
		{
			host: "dmesg-only-mlx5-cx5-quoted-printable-mail",
			adapters: []adapter{
				{addr: "0000:41:00.0", driver: "mlx5_core", firmware: "16.31.1014",
					pcie: `8GT/s x16 of -GT/s x-, 126.016 of - Gb/s, limited by "", downgraded -`,
					from: map[string]string{"firmware.running": "cmd/dmesg line 15", "pcie.width": "cmd/dmesg line 16"}},
				{addr: "0000:41:00.1", driver: "mlx5_core", firmware: "16.31.1014",
					pcie: `8GT/s x16 of -GT/s x-, 126.016 of - Gb/s, limited by "", downgraded -`},
			},
			events: []string{"firmware:0000:41:00.0:15", "probe-failure:0000:41:00.0:27", "probe-failure:0000:41:00.0:29",
				"firmware:0000:41:00.1:30", "probe-failure:0000:41:00.1:42", "probe-failure:0000:41:00.1:44"},
		},
		{
			// Line numbers of a viewer undone ("1701 [ …", and "1700[ …"
			// glued): each function cites the numbered line that names it,
			// counted in the pasted log, whose line 1 is blank.
			host: "dmesg-only-mlx5-grep-line-numbered",
			adapters: []adapter{
				{addr: "0000:13:00.0", driver: "mlx5_core", pcie: "none", from: map[string]string{"driver.name": "cmd/dmesg line 2"}},
				{addr: "0000:63:00.0", driver: "mlx5_core",
					pcie: `32GT/s x16 of -GT/s x-, 504.112 of - Gb/s, limited by "", downgraded -`,
					from: map[string]string{"pcie.width": "cmd/dmesg line 3"}},
				{addr: "0000:75:00.0", driver: "mlx5_core",
					pcie: `16GT/s x16 of -GT/s x-, 252.048 of - Gb/s, limited by "", downgraded -`,
					from: map[string]string{"pcie.width": "cmd/dmesg line 5"}},
				{addr: "0000:75:00.1", driver: "mlx5_core",
					pcie: `16GT/s x16 of -GT/s x-, 252.048 of - Gb/s, limited by "", downgraded -`,
					from: map[string]string{"driver.name": "cmd/dmesg line 11", "pcie.width": "cmd/dmesg line 11"}},
			},
		},
		{
			// mlxfw names no PCI function, so no adapter; the event is kept.
			host:   "dmesg-only-mlxfw-flash-failed",
			events: []string{"firmware-flash-failure::1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			t.Parallel()
			h := collectHost(t, tt.host)
			if len(h.Adapters) != len(tt.adapters) {
				t.Fatalf("%d adapters, want %d: %+v", len(h.Adapters), len(tt.adapters), h.Adapters)
			}
			for _, want := range tt.adapters {
				a := findAdapter(h, want.addr)
				got := adapter{addr: a.PCIAddress, vendor: a.Vendor, device: a.Device, driver: a.Driver.Name, firmware: a.Firmware.Running,
					modules: a.KernelModules, netdevs: a.Netdevs, pcie: pcieFacts(a.PCIe)}
				if want.from != nil {
					got.from = map[string]string{}
					for k := range want.from {
						got.from[k] = a.From[k]
					}
				}
				if d := cmp.Diff(want, got, cmp.AllowUnexported(adapter{})); d != "" {
					t.Errorf("adapter %s (-want +got):\n%s", want.addr, d)
				}
			}
			for name, origin := range tt.netdevs {
				n := findNetdev(h, name)
				if n.Name == "" || n.Origin != origin || n.PCIAddress == "" {
					t.Errorf("netdev %s: %+v, want origin %s", name, n, origin)
				}
			}
			if len(tt.netdevs) == 0 && len(h.Netdevs) != 0 {
				t.Errorf("netdevs %+v", h.Netdevs)
			}
			var events []string
			for _, e := range h.KernelLog {
				events = append(events, fmt.Sprintf("%s:%s:%d", e.Kind, e.Device, e.Line))
			}
			if d := cmp.Diff(tt.events, events); d != "" {
				t.Errorf("kernel log (-want +got):\n%s", d)
			}
		})
	}
}
