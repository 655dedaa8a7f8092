package compat

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
)

var testMatrix = sync.OnceValues(func() (*matrix.Matrix, error) {
	m, probs := matrix.Load(os.DirFS("testdata/matrix"), "testdata/matrix")
	if probs.Errors() > 0 {
		return nil, probs.Err()
	}
	return m, nil
})

func tm(t *testing.T) *matrix.Matrix {
	t.Helper()
	m, err := testMatrix()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func ptr[T any](v T) *T { return &v }

// healthy is a ConnectX-5 host on which every check passes.
func healthy() *record.Host {
	return &record.Host{
		Schema: 1,
		Host: record.HostInfo{ID: "cx5", KernelRelease: "5.14.0-427.13.1.el9_4.x86_64", SourceKind: "root",
			OS: record.OSRelease{ID: "rhel", VersionID: "9.4"}},
		Adapters: []record.Adapter{{
			PCIAddress: "0000:3b:00.0", Vendor: "15b3", Device: "1017", Name: "MT27800 Family [ConnectX-5]",
			Netdevs: []string{"ens1f0np0"}, RDMADevices: []string{"mlx5_0"},
			Driver:   record.Driver{Name: "mlx5_core", Origin: record.OriginInbox},
			Firmware: record.Firmware{Running: "16.35.2000", Stored: "16.35.2000"},
			MSIX:     &record.MSIX{Count: ptr(64), Enabled: ptr(true)},
			From:     map[string]string{"firmware": "cmd/devlink dev info", "msix": "cmd/lspci -vvv"},
		}},
		Devices: []record.RDMADevice{{
			Name: "mlx5_0", Provider: "mlx5_ib", PCIAddress: "0000:3b:00.0",
			From: map[string]string{"port.1.gid": "sys/class/infiniband/mlx5_0/ports/1/gids"},
			Ports: []record.Port{{Number: 1, State: "ACTIVE", PhysState: "LinkUp", LinkLayer: "Ethernet", Netdev: "ens1f0np0",
				GIDCounts: record.GIDCounts{RoCEv1: 2, RoCEv2: 2}, DefaultRoCEMode: "RoCE v2"}},
		}},
		Modules: []record.Module{
			{Name: "ib_core", Origin: record.OriginInbox},
			{Name: "mlx5_core", Origin: record.OriginInbox},
			{Name: "mlx5_ib", Origin: record.OriginInbox},
		},
		Sources: []record.Source{
			{ID: "cmd/lsmod", Status: record.StatusOK},
			{ID: "sys/class/infiniband", Status: record.StatusOK},
			{ID: "cmd/devlink dev info", Status: record.StatusOK},
		},
	}
}

// cisco is a Cisco VIC 1455 host with Cisco's enic and enic_rdma.
func cisco() *record.Host {
	h := healthy()
	h.Host.ID = "vic"
	h.Adapters = []record.Adapter{{
		PCIAddress: "0000:62:00.1", Vendor: "1137", Device: "0043", SubsystemVendor: "1137", SubsystemDevice: "0217",
		Netdevs: []string{"eth1"}, RDMADevices: []string{"enic_rdma_eth1"},
		Driver:   record.Driver{Name: "enic", Version: "4.0.0.10-802.34", Origin: record.OriginVendor},
		Firmware: record.Firmware{Running: "5.1(2a)"},
		MSIX:     &record.MSIX{Count: ptr(16), Enabled: ptr(true)},
	}}
	h.Devices = []record.RDMADevice{{
		Name: "enic_rdma_eth1", Provider: "enic_rdma", PCIAddress: "0000:62:00.1",
		Ports: []record.Port{{Number: 1, State: "ACTIVE", LinkLayer: "Ethernet", GIDCounts: record.GIDCounts{RoCEv2: 2}, DefaultRoCEMode: "RoCE v2"}},
	}}
	h.Modules = []record.Module{
		{Name: "enic", Version: "4.0.0.10-802.34", Origin: record.OriginVendor},
		{Name: "enic_rdma", Version: "1.0.0.10-802.34", Origin: record.OriginVendor},
		{Name: "ib_core", Origin: record.OriginInbox},
	}
	return h
}

type checkCase struct {
	name    string
	host    func() *record.Host
	status  Status
	sev     Severity // worst severity when status is Found
	subject string   // subject of the first finding, when status is Found
}

func runCases(t *testing.T, id string, cases []checkCase) {
	t.Helper()
	m := tm(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r, ok := Evaluate(m, c.host(), id)
			if !ok {
				t.Fatalf("no check %q", id)
			}
			if r.Status != c.status {
				t.Fatalf("status = %s, want %s; findings %+v notes %+v", r.Status, c.status, r.Findings, r.Notes)
			}
			if c.status != Found {
				return
			}
			f := r.Findings[0]
			if f.Severity != c.sev || f.Subject != c.subject {
				t.Errorf("finding %s %s, want %s %s: %s", f.Severity, f.Subject, c.sev, c.subject, f.Message)
			}
			if f.Check != id || f.Message == "" || f.Explanation == "" || f.Fix == "" || len(f.Evidence) == 0 {
				t.Errorf("finding is missing parts: %+v", f)
			}
		})
	}
}

// golden decodes a record kbcollect wrote from a real capture
// (testdata/hosts/<name>.golden.toml at the repository root).
func golden(t *testing.T, name string) func() *record.Host {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "hosts", name+".golden.toml")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, probs := record.Decode(path, src); probs.Errors() > 0 {
		t.Fatal(probs)
	}
	return func() *record.Host {
		h, _ := record.Decode(path, src)
		return h
	}
}

// with returns a host builder that applies edits to a base host.
func with(base func() *record.Host, edits ...func(h *record.Host)) func() *record.Host {
	return func() *record.Host {
		h := base()
		for _, e := range edits {
			e(h)
		}
		return h
	}
}
