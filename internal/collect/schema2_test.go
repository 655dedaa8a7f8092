package collect

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/redact"
)

func collectHost(t *testing.T, name string) *record.Host {
	t.Helper()
	h, err := Collect(loadHost(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func findAdapter(h *record.Host, addr string) *record.Adapter {
	for i := range h.Adapters {
		if h.Adapters[i].PCIAddress == addr {
			return &h.Adapters[i]
		}
	}
	return &record.Adapter{}
}

func findDevice(h *record.Host, name string) *record.RDMADevice {
	for i := range h.Devices {
		if h.Devices[i].Name == name {
			return &h.Devices[i]
		}
	}
	return &record.RDMADevice{}
}

func findNetdev(h *record.Host, name string) record.Netdev {
	for _, n := range h.Netdevs {
		if n.Name == name {
			return n
		}
	}
	return record.Netdev{}
}

func kinds(ms []record.ToolMessage) string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Tool+":"+m.Kind+":"+m.Device)
	}
	return strings.Join(out, " ")
}

// The schema-2 facts each real capture states, named one by one so that a
// regression says which fact was lost (the golden records hold them too).
func TestSchema2Facts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		host  string
		check func(h *record.Host) string // "" when the facts are there
	}{
		{"mlx5-ibdev2netdev-v-mixed", func(h *record.Host) string {
			p := findDevice(h, "mlx5_0").Ports
			if len(p) != 1 || p[0].NetdevLink != "Down" || p[0].State != "DOWN" {
				return fmt.Sprintf("mlx5_0 port: %+v", p)
			}
			if a := findAdapter(h, "0000:4b:00.0"); a.PartNumber != "MCX515A-CCAT" || a.ProductName != "CX515A - ConnectX-5 QSFP28" || a.Firmware.Running != "16.27.1016" {
				return fmt.Sprintf("0000:4b:00.0: %+v", a)
			}
			// The fourth VPD string of a CX4121A is a serial: never a part number.
			if a := findAdapter(h, "0000:31:00.0"); a.PartNumber != "" {
				return "serial kept as part number: " + a.PartNumber
			}
			if n := findNetdev(h, "ens6"); n.Link != "up" {
				return fmt.Sprintf("ens6: %+v", n)
			}
			return ""
		}},
		{"dmesg-only-mlx5-cx5-arm-bandwidth", func(h *record.Host) string {
			a := findAdapter(h, "0004:01:00.1")
			if len(h.Adapters) != 2 || a.Driver.Name != "mlx5_core" || a.Firmware.Running != "16.27.2048" || a.From["firmware.running"] != "cmd/dmesg line 12" {
				return fmt.Sprintf("%d adapters; 0004:01:00.1 %+v", len(h.Adapters), a)
			}
			if a.PCIe == nil || *a.PCIe.AvailableGbps != 63.008 || *a.PCIe.Width != 8 || *a.PCIe.SpeedGTps != 8 {
				return fmt.Sprintf("pcie %+v", a.PCIe)
			}
			return ""
		}},
		{"dmesg-only-mlx5_ib-warning-modules-linked-in", func(h *record.Host) string {
			if h.Host.KernelRelease != "6.14.0-rc4-dirty" || !strings.HasPrefix(h.Host.KernelReleaseFrom, "cmd/dmesg line 3") {
				return fmt.Sprintf("kernel %q from %q", h.Host.KernelRelease, h.Host.KernelReleaseFrom)
			}
			if len(h.ModulesSeen) != 22 || h.ModulesSeen[0].Loaded != record.LoadedWhenLogged {
				return fmt.Sprintf("modules seen: %+v", h.ModulesSeen)
			}
			if len(h.KernelLog) == 0 || h.KernelLog[0].Kind != record.LogKernelWarning || len(h.KernelLog[0].Context) < 3 {
				return fmt.Sprintf("log: %+v", h.KernelLog)
			}
			return ""
		}},
		{"mlx5-cx4lx-hpe-probe-failed", func(h *record.Host) string {
			for _, e := range h.KernelLog {
				if e.Kind == record.LogProbeFailure && e.Device == "0000:0b:00.0" {
					if len(e.Context) == 0 || !strings.Contains(e.Context[len(e.Context)-1].Text, "Failed to create EQs") {
						return fmt.Sprintf("context %+v", e.Context)
					}
					a := findAdapter(h, "0000:0b:00.0")
					if a.SubsystemName != "Hewlett Packard Enterprise Device 028a" || !slices.Equal(a.KernelModules, []string{"mlx5_core"}) || a.PCIe == nil || *a.PCIe.Downgraded {
						return fmt.Sprintf("lspci facts: %+v", a)
					}
					return ""
				}
			}
			return "no probe failure"
		}},
		{"verbs-pib-no-userspace-driver", func(h *record.Host) string {
			if got := kinds(h.ToolMessages); got != "ibv_devinfo:provider-missing:uverbs1 ibv_devinfo:provider-missing:uverbs0 ibv_devinfo:no-device:" {
				return got
			}
			return ""
		}},
		{"verbs-no-config-directory", func(h *record.Host) string {
			if got := kinds(h.ToolMessages); got != "ibv_devinfo:provider-config-missing: ibv_devinfo:no-device:" {
				return got
			}
			return ""
		}},
		{"bnxt_re-devinfo-elided-port", func(h *record.Host) string {
			if p := findDevice(h, "bnxt_re2").Ports; len(p) != 1 || !strings.Contains(p[0].Note, "port 1 assumed") {
				return fmt.Sprintf("%+v", p)
			}
			return ""
		}},
		{"azure-renamed-unknown-provider", func(h *record.Host) string {
			if d := findDevice(h, "ibP57247p0s2"); d.VendorID != "0x02c9" || d.VendorPartID != "4120" {
				return fmt.Sprintf("%+v", d)
			}
			return ""
		}},
		{"ice-e810-devlink-bundle-id", func(h *record.Host) string {
			fw := findAdapter(h, "0000:3b:00.0").Firmware
			if fw.Running != "0x800085cc" || fw.SummaryKey != "fw.bundle_id" || !slices.Contains(fw.Components, record.FirmwareComponent{Section: "running", Key: "fw.mgmt.api", Version: "1.7"}) {
				return fmt.Sprintf("%+v", fw)
			}
			return ""
		}},
		{"rxe-cfg-start-configfs-not-permitted", func(h *record.Host) string {
			if d := findDevice(h, "rxe0"); d.Parent != "eth0" || d.Provider != "rdma_rxe" {
				return fmt.Sprintf("%+v", d)
			}
			if got := kinds(h.ToolMessages); !strings.Contains(got, "rxe_cfg:configfs-error:rxe0") {
				return got
			}
			return ""
		}},
		{"rxe-cfg-status-vif-aws", func(h *record.Host) string {
			if n := findNetdev(h, "eth0"); n.Driver != "vif" || n.Link != "up" {
				return fmt.Sprintf("%+v", n)
			}
			return ""
		}},
		{"modinfo-only-mlx5_ib-rhel79", func(h *record.Host) string {
			if h.Host.KernelRelease != "3.10.0-1160.62.1.el7.x86_64" || !strings.HasSuffix(h.Host.KernelReleaseFrom, "(vermagic)") || len(h.Modules) != 0 ||
				len(h.ModulesSeen) != 1 || h.ModulesSeen[0].Loaded != record.LoadedNotKnown {
				return fmt.Sprintf("%+v %+v", h.Host, h.ModulesSeen)
			}
			return ""
		}},
		{"mlx4-cx3-port-types", func(h *record.Host) string {
			if got := findAdapter(h, "0000:0c:00.0").MLX4Ports; !reflect.DeepEqual(got, []record.MLX4Port{{Port: 1, Type: "ib"}, {Port: 2, Type: "eth"}}) {
				return fmt.Sprintf("%+v", got)
			}
			return ""
		}},
		{"mlx5-res-show-qp-only", func(h *record.Host) string {
			// Device names only: a QP state is never a port state.
			if d := findDevice(h, "ibp0s9"); len(h.Devices) != 1 || d.Name == "" || len(d.Ports) != 0 {
				return fmt.Sprintf("%+v", h.Devices)
			}
			return ""
		}},
		{"veth-pod-ethtool", func(h *record.Host) string {
			if n := findNetdev(h, "eth0"); n.Driver != "veth" || !n.Virtual || n.PCIAddress != "" || len(h.Adapters) != 0 {
				return fmt.Sprintf("%+v", n)
			}
			return ""
		}},
		{"cisco-vic-enic-rdma", func(h *record.Host) string {
			// A log-only host gets adapters from its bindings; enic_rdma
			// is the provider, not the PCI driver.
			a := findAdapter(h, "0000:62:00.1")
			if len(h.Adapters) != 2 || !slices.Equal(a.Netdevs, []string{"eth1"}) || a.Driver.Name != "" {
				return fmt.Sprintf("%+v", h.Adapters)
			}
			return ""
		}},
		{"bnxt_re-port-disabled", func(h *record.Host) string {
			for _, d := range h.Devices {
				if d.Protocol == "roce" {
					return ""
				}
			}
			return "no rdma dev protocol"
		}},
	} {
		t.Run(tc.host, func(t *testing.T) {
			t.Parallel()
			if msg := tc.check(collectHost(t, tc.host)); msg != "" {
				t.Error(msg)
			}
		})
	}
}

// Redaction keeps the schema-2 versions, part numbers and link facts (a
// component version such as 1.3.27.0 looks like an IPv4 address) and
// scrubs identifiers in the new free-text fields.
func TestSchema2Redaction(t *testing.T) {
	t.Parallel()
	for _, name := range hostNames(t) {
		h := collectHost(t, name)
		before := *h
		red := collectHost(t, name)
		redact.New("salt").Host(red)
		for i, a := range before.Adapters {
			b := red.Adapters[i]
			if !reflect.DeepEqual(a.Firmware.Components, b.Firmware.Components) || a.PartNumber != b.PartNumber || a.ProductName != b.ProductName ||
				!reflect.DeepEqual(a.PCIe, b.PCIe) || !reflect.DeepEqual(a.MLX4Ports, b.MLX4Ports) || a.Firmware.SummaryKey != b.Firmware.SummaryKey {
				t.Errorf("%s: redaction changed adapter %s facts:\n%+v\n%+v", name, a.PCIAddress, a, b)
			}
		}
		for i, d := range before.Devices {
			b := red.Devices[i]
			if d.VendorID != b.VendorID || d.VendorPartID != b.VendorPartID || d.Protocol != b.Protocol {
				t.Errorf("%s: redaction changed device %s ids", name, d.Name)
			}
		}
		for i, n := range before.Netdevs {
			if b := red.Netdevs[i]; n.Version != b.Version || n.Link != b.Link || n.Driver != b.Driver {
				t.Errorf("%s: redaction changed netdev %s: %+v", name, n.Name, b)
			}
		}
		if before.Host.KernelRelease != red.Host.KernelRelease {
			t.Errorf("%s: kernel release redacted", name)
		}
	}
	// The splat's context lines are free text and are scrubbed like text:
	// an IPv4 address printed in one does not survive.
	h := &record.Host{Schema: record.Schema, KernelLog: []record.LogEvent{{Kind: record.LogQPError, Text: "x",
		Context: []record.LogLine{{Text: "rdma_cm: peer 192.0.2.17 unreachable", Line: 1}}}},
		ToolMessages: []record.ToolMessage{{Tool: "rxe_cfg", Kind: "other", Text: "eth0 192.0.2.18"}}}
	redact.New("salt").Host(h)
	if strings.Contains(h.KernelLog[0].Context[0].Text, "192.0.2.17") || strings.Contains(h.ToolMessages[0].Text, "192.0.2.18") {
		t.Errorf("addresses survived redaction: %+v %+v", h.KernelLog[0].Context, h.ToolMessages)
	}
}
