package hosttest

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
)

// Root is the repository root, found from this file so that tests in any
// package read the same testdata.
var Root = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}()

// LoadMatrix loads the test matrix (testdata/matrix), once.
var LoadMatrix = sync.OnceValues(func() (*matrix.Matrix, error) {
	dir := filepath.Join(Root, "testdata", "matrix")
	m, probs := matrix.Load(os.DirFS(dir), "testdata/matrix")
	if probs.Errors() > 0 {
		return nil, probs.Err()
	}
	return m, nil
})

// LoadBundled loads the repository's own matrix (matrix/), once: for
// tests of what the engine answers on the shipped data.
var LoadBundled = sync.OnceValues(func() (*matrix.Matrix, error) {
	m, probs := matrix.Load(os.DirFS(filepath.Join(Root, "matrix")), "matrix")
	if probs.Errors() > 0 {
		return nil, probs.Err()
	}
	return m, nil
})

// Bundled is LoadBundled for a test: it fails the test on an error.
func Bundled(t testing.TB) *matrix.Matrix {
	t.Helper()
	m, err := LoadBundled()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Matrix is LoadMatrix for a test: it fails the test on an error.
func Matrix(t testing.TB) *matrix.Matrix {
	t.Helper()
	m, err := LoadMatrix()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Ptr returns a pointer to v.
func Ptr[T any](v T) *T { return &v }

// Healthy is a ConnectX-5 host on which every check passes.
func Healthy() *record.Host {
	return &record.Host{
		Schema: 1,
		Host: record.HostInfo{ID: "cx5", KernelRelease: "5.14.0-427.13.1.el9_4.x86_64", SourceKind: "root",
			OS: record.OSRelease{ID: "rhel", VersionID: "9.4"}},
		Adapters: []record.Adapter{{
			PCIAddress: "0000:3b:00.0", Vendor: "15b3", Device: "1017", Name: "MT27800 Family [ConnectX-5]",
			Netdevs: []string{"ens1f0np0"}, RDMADevices: []string{"mlx5_0"},
			Driver:   record.Driver{Name: "mlx5_core", Origin: record.OriginInbox},
			Firmware: record.Firmware{Running: "16.35.2000", Stored: "16.35.2000"},
			MSIX:     &record.MSIX{Count: Ptr(64), Enabled: Ptr(true)},
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

// Cisco is a Cisco VIC 1455 host with Cisco's enic and enic_rdma.
func Cisco() *record.Host {
	h := Healthy()
	h.Host.ID = "vic"
	h.Adapters = []record.Adapter{{
		PCIAddress: "0000:62:00.1", Vendor: "1137", Device: "0043", SubsystemVendor: "1137", SubsystemDevice: "0217",
		Netdevs: []string{"eth1"}, RDMADevices: []string{"enic_rdma_eth1"},
		Driver:   record.Driver{Name: "enic", Version: "4.0.0.10-802.34", Origin: record.OriginVendor},
		Firmware: record.Firmware{Running: "5.1(2a)"},
		MSIX:     &record.MSIX{Count: Ptr(16), Enabled: Ptr(true)},
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

// GoldenPaths lists the golden records (testdata/hosts/*.golden.toml).
func GoldenPaths() []string {
	files, _ := filepath.Glob(filepath.Join(Root, "testdata", "hosts", "*.golden.toml"))
	return files
}

// Golden decodes a record kbcollect wrote from a real capture
// (testdata/hosts/<name>.golden.toml) and returns a builder of fresh copies.
func Golden(t testing.TB, name string) func() *record.Host {
	t.Helper()
	path := filepath.Join(Root, "testdata", "hosts", name+".golden.toml")
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

// With returns a host builder that applies edits to a base host.
func With(base func() *record.Host, edits ...func(h *record.Host)) func() *record.Host {
	return func() *record.Host {
		h := base()
		for _, e := range edits {
			e(h)
		}
		return h
	}
}
