package collect

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
)

func sourceOf(h *record.Host, id string) (record.Source, bool) {
	for _, s := range h.Sources {
		if s.ID == id {
			return s, true
		}
	}
	return record.Source{}, false
}

// A parser panic is a bug, but it must not take the record down: the
// source is failed, a problem names the input, and collection goes on.
func TestParsePanicIsRecovered(t *testing.T) {
	t.Parallel()
	c := &collector{s: snapshot.FromFS(fstest.MapFS{}, record.KindRoot, "t"), h: &record.Host{}, sources: map[string]record.Source{}}
	c.noteStatus("cmd/ibstat", "sos_commands/infiniband/ibstat", record.StatusOK, "")
	ok := c.parse("cmd/ibstat", func() error { panic("index out of range") })
	if ok || c.sources["cmd/ibstat"].Status != record.StatusFailed || !strings.Contains(c.sources["cmd/ibstat"].Reason, "index out of range") {
		t.Errorf("source after panic: %+v", c.sources["cmd/ibstat"])
	}
	if len(c.problems) != 1 || c.problems[0].Source != "cmd/ibstat" || c.sources["cmd/ibstat"].Path != "sos_commands/infiniband/ibstat" {
		t.Errorf("problems: %+v", c.problems)
	}
	if c.parse("cmd/x", func() error { return errors.New("bad") }) || c.sources["cmd/x"].Status != record.StatusFailed {
		t.Errorf("parse error: %+v", c.sources["cmd/x"])
	}
}

// A file cut at the per-file cap is still parsed, and the record says so.
func TestTruncatedFileIsAProblem(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "captures", "dmesg", "mlx5-cx4lx-log_max_qp-probe-failed-22.txt"))
	if err != nil {
		t.Fatal(err)
	}
	s := snapshot.FromFS(fstest.MapFS{"sos_commands/kernel/dmesg": {Data: b}}, record.KindSosreport, "t")
	s.MaxFile = 400
	h, err := Collect(s)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range h.Problems {
		found = found || p.Source == "cmd/dmesg" && strings.Contains(p.Msg, "truncated")
	}
	if !found {
		t.Errorf("no truncation problem: %+v", h.Problems)
	}
	if src, _ := sourceOf(h, "cmd/dmesg"); src.Status != record.StatusOK {
		t.Errorf("truncated dmesg source: %+v", src)
	}
	if len(h.KernelLog) == 0 {
		t.Error("the part before the cap was not classified")
	}
}

// A copied tree may hold sys/class/net/<if> as a plain folder and driver
// links that dangle; neither stops collection.
func TestCopiedSysfsQuirks(t *testing.T) {
	t.Parallel()
	link := func(to string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(to), Mode: fs.ModeSymlink} }
	fsys := fstest.MapFS{
		"sys/class/net/enp194s0f0np0/device/uevent":            {Data: []byte("DRIVER=bnxt_en\nPCI_SLOT_NAME=0000:c2:00.0\n")},
		"sys/class/net/enp194s0f0np0/device/vendor":            {Data: []byte("0x14e4\n")},
		"sys/class/infiniband/bnxt_re0/device":                 link("../../../bus/pci/devices/0000:c2:00.0"),
		"sys/class/infiniband/bnxt_re0/ports/1/state":          {Data: []byte("4: ACTIVE\n")},
		"sys/bus/pci/devices/0000:c2:00.0/driver":              link("../../../../bus/pci/drivers/bnxt_en"),
		"sys/bus/pci/devices/0000:c2:00.0/infiniband/bnxt_re0": {Mode: fs.ModeDir | 0o555},
	}
	h, err := Collect(snapshot.FromFS(fsys, record.KindRoot, "t"))
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Adapters) != 1 {
		t.Fatalf("adapters: %+v", h.Adapters)
	}
	a := h.Adapters[0]
	if a.PCIAddress != "0000:c2:00.0" || a.Driver.Name != "bnxt_en" || a.Vendor != "14e4" || strings.Join(a.Netdevs, ",") != "enp194s0f0np0" || strings.Join(a.RDMADevices, ",") != "bnxt_re0" {
		t.Errorf("adapter: %+v", a)
	}
	if len(h.Devices) != 1 || h.Devices[0].Provider != "bnxt_re" || h.Devices[0].PCIAddress != "0000:c2:00.0" {
		t.Errorf("devices: %+v", h.Devices)
	}
}

// An empty snapshot is a valid record with no RDMA, every source absent.
func TestEmptySnapshot(t *testing.T) {
	t.Parallel()
	h, err := Collect(snapshot.FromFS(fstest.MapFS{}, record.KindRoot, "t"))
	if err != nil {
		t.Fatal(err)
	}
	if h.Host.HasRDMA || len(h.Adapters)+len(h.Devices)+len(h.Modules)+len(h.KernelLog) != 0 {
		t.Errorf("non-empty record: %+v", h)
	}
	var ids []string
	for _, s := range h.Sources {
		if s.Status != record.StatusAbsent {
			t.Errorf("source %s: %s", s.ID, s.Status)
		}
		ids = append(ids, s.ID)
	}
	if !sort.StringsAreSorted(ids) || len(ids) < 20 {
		t.Errorf("sources: %v", ids)
	}
}

// Binary garbage where a tool's output should be parses to nothing.
func TestGarbageInput(t *testing.T) {
	t.Parallel()
	junk := make([]byte, 1<<16)
	for i := range junk {
		junk[i] = byte(i*7 + i>>3)
	}
	fsys := fstest.MapFS{}
	for _, p := range []string{"sos_commands/infiniband/ibv_devinfo_-v", "sos_commands/infiniband/ibstat", "sos_commands/pci/lspci_-nnvv",
		"sos_commands/kernel/lsmod", "sos_commands/kernel/dmesg", "sos_commands/networking/devlink_dev_info", "sos_commands/networking/ethtool_-i_eth0",
		"etc/os-release", "sos_commands/kernel/uname_-r"} {
		fsys[p] = &fstest.MapFile{Data: junk}
	}
	h, err := Collect(snapshot.FromFS(fsys, record.KindSosreport, "t"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range h.Sources {
		if s.Status == record.StatusFailed {
			t.Errorf("garbage failed a source: %+v", s)
		}
	}
}

func BenchmarkCollect(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(hostsDir, "*.txtar"))
	biggest, size := "", int64(0)
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && fi.Size() > size {
			biggest, size = strings.TrimSuffix(filepath.Base(f), ".txtar"), fi.Size()
		}
	}
	b.Logf("fixture %s (%d bytes)", biggest, size)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Collect(loadHost(b, biggest)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCollectSosreportSized adds to the biggest fixture what makes a
// real sosreport big: a kernel log of about 2 MiB (every dmesg capture,
// repeated) and a long lspci -vvv.
func BenchmarkCollectSosreportSized(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "captures", "dmesg", "*.txt"))
	var log []byte
	for len(log) < 2<<20 {
		for _, f := range files {
			d, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			log = append(log, d...)
		}
	}
	lspci, err := os.ReadFile(filepath.Join("..", "..", "testdata", "captures", "lspci", "mlx5-cx4lx-hpe-vvv-wrapped-msix.txt"))
	if err != nil {
		b.Fatal(err)
	}
	s := loadHost(b, "multi-vendor-cx6dx-e810")
	fsys := fstest.MapFS{}
	if err := fs.WalkDir(s.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := fs.ReadFile(s.FS(), p)
			fsys[p] = &fstest.MapFile{Data: data}
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	fsys["sos_commands/kernel/dmesg"] = &fstest.MapFile{Data: log}
	fsys["sos_commands/pci/lspci_-vvv"] = &fstest.MapFile{Data: bytes.Repeat(lspci, 20)}
	b.Logf("kernel log %d bytes, lspci %d bytes", len(log), 20*len(lspci))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Collect(snapshot.FromFS(fsys, record.KindSosreport, "big")); err != nil {
			b.Fatal(err)
		}
	}
}
