package readiness

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/hosttest"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/verdict"
)

func engine(t *testing.T) (*verdict.Engine, *matrix.Matrix) {
	t.Helper()
	// The bundled matrix: readiness is the engine's answer on the shipped data.
	m := hosttest.Bundled(t)
	return verdict.NewEngine(m), m
}

// host is a one-adapter RHEL 9.4 host on the inbox stack.
func host(id, vendor, device, name, fw string) *record.Host {
	return &record.Host{Schema: 2,
		Host: record.HostInfo{ID: id, KernelRelease: "5.14.0-427.13.1.el9_4.x86_64", OS: record.OSRelease{ID: "rhel", VersionID: "9.4"}},
		Adapters: []record.Adapter{
			{PCIAddress: "0000:3b:00.0", Vendor: vendor, Device: device, Name: name, Firmware: record.Firmware{Running: fw}},
			{PCIAddress: "0000:3b:00.1", Vendor: vendor, Device: device, Name: name, Firmware: record.Firmware{Running: fw}},
		}}
}

func TestTargets(t *testing.T) {
	e, m := engine(t)
	cx4 := host("cx4", "15b3", "1013", "MT27700 Family [ConnectX-4]", "12.28.2006")
	e810 := host("e810", "8086", "159b", "Ethernet Controller E810-XXV for SFP", "4.40")
	cx6dx := host("cx6dx", "15b3", "101d", "MT2892 Family [ConnectX-6 Dx]", "22.20.1000")
	doca3 := Target{Distro: "rhel-9.4", Stack: "doca-ofed", StackVersion: "3.0.0"}
	r := Judge(e, m, doca3, []*record.Host{e810, cx6dx, cx4}, nil)

	byHost := map[string]Host{}
	for _, h := range r.Hosts {
		byHost[h.Host] = h
	}
	// NVIDIA: "DOCA 2.9.0 (and its LTS branch) is the final software
	// version to support NVIDIA ConnectX-4 device" (stack-support.toml).
	if h := byHost["cx4"]; h.Status != Blocked {
		t.Errorf("ConnectX-4 on DOCA-OFED 3.0.0: %s, want blocked: %+v", h.Status, h.Adapters)
	}
	if r.Hosts[0].Host != "cx4" || !r.Blocked() {
		t.Errorf("the blocked host is not first: %v", r.Hosts)
	}
	// The two functions of one card are judged once.
	if h := byHost["cx4"]; len(h.Adapters) != 1 || !slices.Equal(h.Adapters[0].OtherPCI, []string{"0000:3b:00.1"}) {
		t.Errorf("two functions of one card: %+v", h.Adapters)
	}
	// DOCA-OFED does not drive an Intel E810: that host stays on its own
	// stack, it is not blocked by a target that is not for it.
	if h := byHost["e810"]; h.Status == Blocked || h.Adapters[0].Verdict.Stack != "inbox" {
		t.Errorf("E810 under a DOCA-OFED target: %s on %q, want judged on inbox", h.Status, h.Adapters[0].Verdict.Stack)
	}
	// Moving a ConnectX-6 Dx from inbox to DOCA-OFED is an action, and so
	// is firmware older than what the release was tested with: never a block.
	h := byHost["cx6dx"]
	if h.Status == Blocked || h.Status == Ready {
		t.Errorf("ConnectX-6 Dx inbox → DOCA-OFED 3.0.0: %s, want needs action or unknown: %+v", h.Status, h.Adapters)
	}
	acts := strings.Join(h.Adapters[0].Actions, "\n")
	if !strings.Contains(acts, "install DOCA-OFED 3.0.0 (now inbox)") || !strings.Contains(acts, "22.20.1000") {
		t.Errorf("actions lack the stack install or the firmware update:\n%s", acts)
	}
	if n := r.Totals[Blocked] + r.Totals[Unknown] + r.Totals[NeedsAction] + r.Totals[Ready]; n != 3 {
		t.Errorf("totals count %d hosts, want 3: %v", n, r.Totals)
	}
	// Groups: worst first, one per model, firmware and current stack.
	gs := r.Groups()
	if len(gs) != 3 || gs[0].Status != Blocked || gs[0].Hosts[0] != "cx4" {
		t.Errorf("groups: %+v", gs)
	}
}

// TestAgreesWithEngine: over every example record and several targets, a
// ready adapter is one the engine calls supported, a blocked one is one it
// calls unsupported, and a host is its worst adapter.
func TestAgreesWithEngine(t *testing.T) {
	e, m := engine(t)
	files, _ := filepath.Glob(filepath.Join(hosttest.Root, "testdata", "hosts", "*.golden.toml"))
	var hosts []*record.Host
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if h, probs := record.Decode(filepath.Base(f), b); h != nil && probs.Errors() == 0 {
			hosts = append(hosts, h)
		}
	}
	if len(hosts) < 20 {
		t.Fatalf("only %d example records decoded", len(hosts))
	}
	judged := 0
	for _, tg := range []Target{{}, {Distro: "rhel-9.4"}, {Distro: "rhel-8.6", Stack: "mlnx-ofed", StackVersion: "5.8-1.0.1.1"},
		{Distro: "ubuntu-22.04", Stack: "doca-ofed", StackVersion: "2.9.2"}, {Kernel: "6.8", Stack: "inbox"}} {
		r := Judge(e, m, tg, hosts, nil)
		for _, h := range r.Hosts {
			worst := Ready
			for _, a := range h.Adapters {
				judged++
				if a.Status.Rank() > worst.Rank() {
					worst = a.Status
				}
				if a.Adapter == "" {
					continue
				}
				switch v := a.Verdict.Verdict; {
				case a.Status == Ready && v != verdict.Supported:
					t.Errorf("%s %s %s: ready, engine says %s", tg.Label(), h.Host, a.PCI, v)
				case a.Status == Blocked && v != verdict.Unsupported:
					t.Errorf("%s %s %s: blocked, engine says %s", tg.Label(), h.Host, a.PCI, v)
				case v == verdict.Supported && a.Status != Ready && a.Status != NeedsAction:
					t.Errorf("%s %s %s: engine says supported, readiness %s", tg.Label(), h.Host, a.PCI, a.Status)
				}
			}
			if len(h.Adapters) > 0 && h.Status != worst {
				t.Errorf("%s %s: host %s, worst adapter %s", tg.Label(), h.Host, h.Status, worst)
			}
			if len(h.Adapters) == 0 && (h.Status != Unknown || h.Reason == "") {
				t.Errorf("%s %s: no adapter judged, yet %s without a reason", tg.Label(), h.Host, h.Status)
			}
		}
	}
	if judged == 0 {
		t.Fatal("no adapter judged in any example record")
	}
}

// A record made from ibv_devinfo alone (testdata/hosts/irdma-e810-xxv) has
// no adapter entry, yet each RDMA device names its PCI id: the host is
// judged by it, its devices of one model as one adapter, not left unknown
// as naming no RoCE adapter. An adapter entry without a PCI id takes its
// RDMA device's.
func TestRDMADevicePCIID(t *testing.T) {
	e, m := engine(t)
	h := &record.Host{Schema: 3,
		Host: record.HostInfo{ID: "ibv", KernelRelease: "6.8.0-31-generic", OS: record.OSRelease{ID: "ubuntu", VersionID: "24.04"}},
		Devices: []record.RDMADevice{
			{Name: "irdma0", Provider: "irdma", PCIID: "8086:159b"},
			{Name: "irdma1", Provider: "irdma", PCIID: "8086:159b"},
		}}
	got := JudgeHost(e, m, Target{Distro: "ubuntu-24.04"}, h)
	if len(got.Adapters) != 1 || got.Adapters[0].Adapter != "e810-xxv" || got.Adapters[0].PCI != "irdma0" || !slices.Equal(got.Adapters[0].OtherPCI, []string{"irdma1"}) {
		t.Fatalf("ibv_devinfo-only host: %+v, want one e810-xxv adapter irdma0 also on irdma1", got)
	}
	if got.Status == Unknown && got.Reason != "" {
		t.Errorf("ibv_devinfo-only host: %s (%s), want it judged", got.Status, got.Reason)
	}
	h2 := &record.Host{Schema: 3, Host: h.Host,
		Adapters: []record.Adapter{{PCIAddress: "0000:3b:00.0", RDMADevices: []string{"irdma0"}}},
		Devices:  []record.RDMADevice{{Name: "irdma0", Provider: "irdma", PCIID: "8086:159b", PCIAddress: "0000:3b:00.0"}}}
	got = JudgeHost(e, m, Target{Distro: "ubuntu-24.04"}, h2)
	if len(got.Adapters) != 1 || got.Adapters[0].Adapter != "e810-xxv" || got.Adapters[0].PCI != "0000:3b:00.0" {
		t.Errorf("adapter without a PCI id: %+v, want e810-xxv at 0000:3b:00.0 by its RDMA device's id", got)
	}
}
