package record

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/diag"
)

// TestValidate: each field format, one good and one bad value.
func TestValidate(t *testing.T) {
	t.Parallel()
	base := func() *Host {
		return &Host{Schema: Schema, Host: HostInfo{ID: "h1", SourceKind: KindRoot},
			Adapters: []Adapter{{PCIAddress: "0000:3b:00.0", Vendor: "15b3", Device: "1017", Driver: Driver{Name: "mlx5_core", Version: "5.8-1.0.1"}, Firmware: Firmware{Running: "16.35.2000"}}}}
	}
	for _, tc := range []struct {
		name string
		edit func(h *Host)
		bad  string // the path of the one invalid field; "" when valid
	}{
		{"valid", func(*Host) {}, ""},
		{"script host id is text", func(h *Host) { h.Host.ID = "<script>window.__xss=1</script>" }, ""},
		{"VMD domain", func(h *Host) { h.Adapters[0].PCIAddress = "10000:e1:00.0" }, ""},
		{"firmware with words", func(h *Host) { h.Adapters[0].Firmware.Running = "mfw 8.25.7.0 storm 8.20.0.0" }, ""},
		{"firmware with psid", func(h *Host) { h.Adapters[0].Firmware.Running = "16.35.2000 (MT_0000000012)" }, ""},
		{"kernel release", func(h *Host) { h.Host.KernelRelease = "5.1.0-rc7-next-20190430+" }, ""},
		{"javascript pci address", func(h *Host) { h.Adapters[0].PCIAddress = "javascript:alert(1)" }, "adapter.0.pci_address"},
		{"missing pci address", func(h *Host) { h.Adapters[0].PCIAddress = "" }, "adapter.0.pci_address"},
		{"short pci address", func(h *Host) { h.Adapters[0].PCIAddress = "3b:00.0" }, "adapter.0.pci_address"},
		{"function 8", func(h *Host) { h.Adapters[0].PCIAddress = "0000:3b:00.8" }, "adapter.0.pci_address"},
		{"vendor id", func(h *Host) { h.Adapters[0].Vendor = "15b3x" }, "adapter.0.vendor"},
		{"device id", func(h *Host) { h.Adapters[0].Device = "<b>" }, "adapter.0.device"},
		{"javascript version", func(h *Host) { h.Adapters[0].Firmware.Running = "javascript:alert(1)" }, "adapter.0.firmware.running"},
		{"version markup", func(h *Host) { h.Adapters[0].Driver.Version = `1.0"><script>` }, "adapter.0.driver.version"},
		{"version without digit", func(h *Host) { h.Adapters[0].Driver.Version = "latest" }, "adapter.0.driver.version"},
		{"module name", func(h *Host) { h.Adapters[0].Driver.Name = "mlx5 core" }, "adapter.0.driver.name"},
		{"netdev name", func(h *Host) { h.Adapters[0].Netdevs = []string{"../etc"} }, "adapter.0.netdevs.0"},
		{"rdma device pci", func(h *Host) { h.Devices = []RDMADevice{{Name: "mlx5_0", PCIAddress: "x"}} }, "rdma_device.0.pci_address"},
		{"software rdma device", func(h *Host) { h.Devices = []RDMADevice{{Name: "rxe0", Parent: "eth0"}} }, ""},
		{"os id", func(h *Host) { h.Host.OS.ID = "RHEL 9" }, "host.os.id"},
		// openEuler's os-release says ID="openEuler", against os-release(5)'s
		// lower case; a record keeps what the host wrote.
		{"os id with capitals", func(h *Host) { h.Host.OS.ID = "openEuler" }, ""},
		{"source kind", func(h *Host) { h.Host.SourceKind = "guess" }, "host.source_kind"},
		{"control character", func(h *Host) { h.Host.ID = "a\x1b[31mb" }, "host.id"},
		{"bidi override in host id", func(h *Host) { h.Host.ID = "host\u202egnp.exe" }, "host.id"},
		{"zero width in product name", func(h *Host) { h.Adapters[0].ProductName = "ConnectX\u200b-6" }, "adapter.0.product_name"},
		{"terminal attack in source id", func(h *Host) {
			h.Sources = []Source{{ID: "\u001b]0;PWNED\u0007\u001b[2J\u001b[31mFAKE: all checks passed", Status: "ok"}}
		}, "source.0.id"},
		{"C1 in source reason", func(h *Host) { h.Sources = []Source{{ID: "cmd/lspci", Status: "failed", Reason: "x\u009b2J"}} }, "source.0.reason"},
		{"bidi isolate in adapter.from", func(h *Host) { h.Adapters[0].From = map[string]string{"driver": "sys\u2066x"} }, "adapter.0.from.driver"},
		{"newline and tab in a log line are text", func(h *Host) { h.Sources = []Source{{ID: "cmd/dmesg", Status: "ok", Reason: "a\tb"}} }, ""},
		{"firmware device", func(h *Host) {
			h.FirmwareDevices = []FirmwareDevice{{Name: "/dev/mst/mt4115_pciconf0", PSID: "MT_2180110032", FWCurrent: "12.17.2046", Versions: []FirmwareDeviceVersion{{Name: "FW", Current: "12.17.2046"}}}}
		}, ""},
		{"firmware device version", func(h *Host) {
			h.FirmwareDevices = []FirmwareDevice{{Name: "/dev/mst/mt4115_pciconf0", Versions: []FirmwareDeviceVersion{{Name: "FW", Current: "javascript:alert(1)"}}}}
		}, "firmware_device.0.version.0.current"},
		{"stack version", func(h *Host) { h.Stack = &Stack{Name: "MLNX_OFED", Version: "http://x"} }, "stack.version"},
	} {
		h := base()
		tc.edit(h)
		got := Validate(h)
		switch {
		case tc.bad == "" && len(got) > 0:
			t.Errorf("%s: want valid, got %v", tc.name, got)
		case tc.bad != "" && (len(got) != 1 || got[0].Path != tc.bad):
			t.Errorf("%s: want one invalid %s, got %v", tc.name, tc.bad, got)
		}
	}
}

// TestCheckPositions: a problem names the file, line and column of the field.
func TestCheckPositions(t *testing.T) {
	t.Parallel()
	src := "schema = 2\n[host]\nid = \"h\"\nsource_kind = \"root\"\n\n[[adapter]]\npci_address = \"0000:01:00.0\"\nvendor = \"15b3\"\n\n[[adapter]]\n  pci_address = \"javascript:alert(1)\"\n"
	h, probs := Decode("bad.toml", []byte(src))
	if h == nil {
		t.Fatal(probs)
	}
	got := Check("bad.toml", []byte(src), h).String()
	if want := `bad.toml:11:3: adapter.1.pci_address = "javascript:alert(1)": want a PCI address`; !strings.HasPrefix(got, want) {
		t.Errorf("got %q, want prefix %q", got, want)
	}
	js := "{\n  \"schema\": 2,\n  \"host\": {\"id\": \"h\", \"source_kind\": \"root\", \"os\": {}, \"redacted\": false, \"has_rdma\": false},\n  \"adapters\": [{\"pci_address\": \"<x>\", \"vendor\": \"15b3\", \"device\": \"1017\", \"driver\": {}, \"firmware\": {}}]\n}\n"
	h, probs = Decode("bad.json", []byte(js))
	if h == nil {
		t.Fatal(probs)
	}
	if got, want := Check("bad.json", []byte(js), h).String(), `bad.json:4:32: adapter.0.pci_address = "<x>"`; !strings.HasPrefix(got, want) {
		t.Errorf("got %q, want prefix %q", got, want)
	}
	// A long value is quoted cut (diag.Quote): a 20,000-byte id must
	// not flood the terminal.
	if got, want := (Invalid{Path: "host.id", Value: strings.Repeat("A", 20000), Want: "text"}).String(), `host.id = "`+strings.Repeat("A", 80)+`"… (20000 bytes): want text`; got != want {
		t.Errorf("long value: got %q, want %q", got, want)
	}
}

// TestValidateFixtures: every record kbcollect wrote from a real capture is valid.
func TestValidateFixtures(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "hosts", "*.golden.toml"))
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		h, probs := Decode(f, src)
		if h == nil {
			t.Fatalf("%s", probs)
		}
		if ps := Check(f, src, h); len(ps) > 0 {
			t.Errorf("%s", ps)
		}
	}
}

// TestEscapeHidden: a record whose log line holds an escape sequence and a
// bidi override validates once escaped, and says what was there.
func TestEscapeHidden(t *testing.T) {
	t.Parallel()
	h := &Host{Schema: Schema, Host: HostInfo{ID: "h1", SourceKind: KindRoot},
		KernelLog: []LogEvent{{Kind: LogFirmware, Text: "mlx5_core: \x1b[31mred\x1b[0m host\u202egnp", Source: "cmd/dmesg"}},
		Sources:   []Source{{ID: "cmd/dmesg", Status: StatusOK, Reason: "bad \xff byte"}}}
	if len(Validate(h)) == 0 {
		t.Fatal("the raw record validates")
	}
	EscapeHidden(h)
	if bad := Validate(h); len(bad) > 0 {
		t.Errorf("escaped record: %v", bad)
	}
	if got := h.KernelLog[0].Text; got != `mlx5_core: \x1b[31mred\x1b[0m host\u202egnp` {
		t.Errorf("text %q", got)
	}
}

// TestCheckPlainSource: a record whose source cannot spell a hidden
// character is not walked string by string, and every record that can is:
// each way a TOML or JSON record spells one (an escape, a raw control or
// a byte past ASCII) is still reported where it is, and the fixture
// records check the same both ways.
func TestCheckPlainSource(t *testing.T) {
	t.Parallel()
	const head = "schema = 3\n[host]\nsource_kind = \"root\"\nid = \"h1\"\n[[source]]\nstatus = \"ok\"\nid = "
	for _, tc := range []struct {
		id    string // as the record writes it
		plain bool
	}{
		{`"cmd/dmesg"`, true},
		{`"tab\tand\\u200b, \"quoted\", line\n"`, true}, // an escaped backslash before u is no escape
		{`'literal \u202e'`, false},                     // plain would be right, but a backslash not known to be escaped is not
		{`"a\u202eb"`, false},
		{`"a\U0000200Bb"`, false},
		{`"a\u001b[2J"`, false},
		{`"a\rb"`, false},
		{`"a\bb"`, false},
		{`"a\fb"`, false},
		{`"a\eb"`, false},
		{`"a\x1bb"`, false},
		{"\"a\x1bb\"", false},
		{"\"a\x7fb\"", false},
		{"'a\u202eb'", false},
		{"\"host\xffname\"", false},
		{"\"crlf\"\r", false},
	} {
		src := []byte(head + tc.id + "\n")
		if got := plainSource(src); got != tc.plain {
			t.Errorf("plainSource(%q) = %v, want %v", tc.id, got, tc.plain)
		}
		h, probs := Decode("h.toml", src)
		if h == nil {
			continue // TOML 1.0 refuses \e, \x and a raw control: nothing to check
		}
		if got, want := Check("h.toml", src, h), checkEvery("h.toml", src, h); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Check %v, walking every string %v (decode: %v)", tc.id, got, want, probs)
		}
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "hosts", "*.toml"))
	if len(files) < 50 {
		t.Fatalf("%d fixture records", len(files))
	}
	plain := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		h, _ := Decode(f, src)
		if h == nil {
			continue
		}
		if plainSource(src) {
			plain++
		}
		if got, want := Check(f, src, h), checkEvery(f, src, h); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Check %v, walking every string %v", f, got, want)
		}
	}
	if plain == 0 {
		t.Error("no fixture record is plain: the fast path is never taken")
	}
}

// checkEvery is Check walking every string, as Validate does.
func checkEvery(name string, src []byte, h *Host) diag.List {
	return positioned(name, src, Validate(h))
}
