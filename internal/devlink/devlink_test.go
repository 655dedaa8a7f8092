package devlink

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rocekb/rocekb/internal/capturetest"

	"github.com/google/go-cmp/cmp"
)

func capture(t testing.TB, name string) []byte { return capturetest.Read(t, "devlink", name) }

func TestParseInfo(t *testing.T) {
	t.Parallel()
	cx7 := func(h, uid string) DevInfo {
		return DevInfo{Handle: h, Driver: "mlx5_core", SerialNumber: "e4397f872caeed218000846daa7d2f49", BoardSerialNumber: "MT2314XZ00YA",
			Fixed:   map[string]string{"fw.psid": "MT_0000000894"},
			Running: map[string]string{"fw.version": "28.41.1000", "fw": "28.41.1000"},
			Stored:  map[string]string{"fw.version": "28.41.1000", "fw": "28.41.1000"}}
	}
	for _, tc := range []struct {
		file string
		want InfoOutput
	}{
		{"mlx5-cx5-dev-info-kernel-doc-example.txt", InfoOutput{Devices: []DevInfo{{Handle: "pci/0000:00:06.0", Driver: "mlx5_core",
			Fixed: map[string]string{"fw.psid": "MT_0000000009"}, Running: map[string]string{"fw.version": "16.26.0100"}, Stored: map[string]string{"fw.version": "16.26.0100"}}}}},
		{"mlx5-cx6dx-dev-info-stored-fw-255-placeholder.txt", InfoOutput{Devices: []DevInfo{{Handle: "pci/0000:00:06.0", Driver: "mlx5_core", SerialNumber: "xxx...", BoardSerialNumber: "MT2225300179",
			Fixed: map[string]string{"fw.psid": "MT_0000000436"}, Running: map[string]string{"fw.version": "22.41.0188", "fw": "22.41.0188"}, Stored: map[string]string{"fw.version": "255.255.65535", "fw": "255.255.65535"}}}}},
		{"mlx5-cx7-dev-info-serials-function-uid.txt", InfoOutput{Devices: []DevInfo{
			cx7("pci/0000:08:00.0", ""), {Handle: "auxiliary/mlx5_core.eth.0", Driver: "mlx5_core.eth"},
			cx7("pci/0000:08:00.1", ""), {Handle: "auxiliary/mlx5_core.eth.1", Driver: "mlx5_core.eth"},
		}}},
		{"bnxt_en-bcm57414-dev-info-board-serial-roce.txt", InfoOutput{Devices: []DevInfo{{Handle: "pci/0000:af:00.1", Driver: "bnxt_en", SerialNumber: "00-10-18-FF-FE-AD-1A-00", BoardSerialNumber: "433551F+172300000",
			Fixed:   map[string]string{"board.id": "7339763 Rev 0.", "asic.id": "16D7", "asic.rev": "1"},
			Running: map[string]string{"fw": "216.1.216.0", "fw.psid": "0.0.0", "fw.mgmt": "216.1.192.0", "fw.mgmt.api": "1.10.1", "fw.ncsi": "0.0.0.0", "fw.roce": "216.1.16.0"}}}}},
		{"ice-e810-early-dev-info-serial-number-space.txt", InfoOutput{Devices: []DevInfo{{Handle: "pci/0000:3b:00.0", Driver: "ice", SerialNumber: "00-01-ab-ff-ff-ca-05-68",
			Running: map[string]string{"fw.mgmt": "2.1.7", "fw.mgmt.api": "1.5", "fw.mgmt.build": "0x305d955f", "fw.undi": "1.2581.0", "fw.psid.api": "0.80", "fw.bundle_id": "0x80002ec0", "fw.app.name": "ICE OS Default Package", "fw.app": "1.3.1.0"}}}}},
		// The kernel's ionic documentation: a "$ " prompt, two-space indent.
		{"ionic-dev-info-kernel-doc-asic-id.txt", InfoOutput{Devices: []DevInfo{{Handle: "pci/0000:b5:00.0", Driver: "ionic", SerialNumber: "FLM18420073",
			Fixed: map[string]string{"asic.id": "0x0", "asic.rev": "0x0"}, Running: map[string]string{"fw": "1.8.0-28"}}}}},
		{"mlx5-dev-info-kernel-answers-no-data.txt", InfoOutput{Messages: []string{"kernel answers: No data available"}}},
	} {
		got, err := ParseInfo(bytes.NewReader(capture(t, tc.file)))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, d)
		}
	}
}

func TestAccessors(t *testing.T) {
	t.Parallel()
	out, _ := ParseInfo(bytes.NewReader(capture(t, "mlx5-cx6dx-dev-info-stored-fw-255-placeholder.txt")))
	d := out.Devices[0]
	if d.PCIAddress() != "0000:00:06.0" || d.FirmwareRunning() != "22.41.0188" || d.FirmwareStored() != "255.255.65535" || d.PSID() != "MT_0000000436" {
		t.Errorf("accessors: %q %q %q %q", d.PCIAddress(), d.FirmwareRunning(), d.FirmwareStored(), d.PSID())
	}
	out, _ = ParseInfo(bytes.NewReader(capture(t, "bnxt_en-bcm57508-dev-info-partno.txt")))
	if d := out.Devices[0]; d.FirmwareRunning() != "216.0.286.0" || d.PSID() != "0.0.6" || d.FirmwareStored() != "" || d.Fixed["board.id"] != "BCM957508-P2100G" {
		t.Errorf("bnxt accessors: %+v", d)
	}
}

// The JSON shape is iproute2's. The one real -j capture is a patch's
// example (bnxt_en, -jp); the mlx5 input restates the kernel
// documentation's text example as JSON.
func TestParseInfoJSON(t *testing.T) {
	t.Parallel()
	// Its first line is the poster's command line, not JSON.
	bnxt, err := ParseInfoJSON(bytes.NewReader(capture(t, "bnxt_en-bcm57414-dev-info-jp-board-serial.txt")))
	if err != nil {
		t.Fatal(err)
	}
	want := InfoOutput{Devices: []DevInfo{{Handle: "pci/0000:af:00.0", Driver: "bnxt_en", SerialNumber: "00-10-18-FF-FE-AD-1A-00", BoardSerialNumber: "433551F+172300000",
		Fixed:   map[string]string{"board.id": "7339763 Rev 0.", "asic.id": "16D7", "asic.rev": "1"},
		Running: map[string]string{"fw": "216.1.216.0", "fw.psid": "0.0.0", "fw.mgmt": "216.1.192.0", "fw.mgmt.api": "1.10.1", "fw.ncsi": "0.0.0.0", "fw.roce": "216.1.16.0"}}}}
	if d := cmp.Diff(want, bnxt); d != "" {
		t.Errorf("bnxt_en -jp (-want +got):\n%s", d)
	}
	in := `{"info":{"pci/0000:00:06.0":{"driver":"mlx5_core","versions":{"fixed":{"fw.psid":"MT_0000000009"},"running":{"fw.version":"16.26.0100"},"stored":{"fw.version":"16.26.0100"}}}}}`
	got, err := ParseInfoJSON(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	text, _ := ParseInfo(bytes.NewReader(capture(t, "mlx5-cx5-dev-info-kernel-doc-example.txt")))
	if d := cmp.Diff(text, got); d != "" {
		t.Errorf("json differs from text (-text +json):\n%s", d)
	}
	if _, err := ParseInfoJSON(strings.NewReader("{")); err == nil {
		t.Error("truncated JSON: want an error")
	}
}

func TestParseParams(t *testing.T) {
	t.Parallel()
	got, err := ParseParams(bytes.NewReader(capture(t, "mlx5-param-show-enable_roce-kernel-doc.txt")))
	if err != nil {
		t.Fatal(err)
	}
	want := []Param{{Handle: "pci/0000:06:00.0", Name: "enable_roce", Type: "generic", Values: []ParamValue{{CMode: "driverinit", Value: "true"}}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("param show (-want +got):\n%s", d)
	}
	got, err = ParseParams(bytes.NewReader(capture(t, "mlx5-monitor-params-enable_roce.txt")))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 10 {
		t.Fatalf("monitor: got %d params, want 10: %+v", len(got), got)
	}
	if v, ok := got[3].Value("driverinit"); got[3].Name != "enable_roce" || got[3].Handle != "pci/0000:00:09.0" || !ok || v != "true" {
		t.Errorf("monitor enable_roce: %+v", got[3])
	}
	if len(got[0].Values) != 0 || got[5].Values[0] != (ParamValue{CMode: "runtime", Value: "dmfs"}) {
		t.Errorf("monitor values: %+v / %+v", got[0], got[5])
	}
	j, err := ParseParamsJSON(strings.NewReader(`{"param":{"pci/0000:06:00.0":[{"name":"enable_roce","type":"generic","values":[{"cmode":"driverinit","value":true}]}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, j); d != "" {
		t.Errorf("param json (-want +got):\n%s", d)
	}
}

// ice reports no fw.version: every component is kept, the summary is the
// NVM image id, and the poster's "<--- …" note is not part of a value.
func TestIceComponentsAndSummary(t *testing.T) {
	t.Parallel()
	out, _ := ParseInfo(bytes.NewReader(capture(t, "ice-e810-dev-info-annotated-fw-mgmt-api.txt")))
	if len(out.Devices) != 1 {
		t.Fatalf("%+v", out)
	}
	d := out.Devices[0]
	if d.Running["fw.mgmt.api"] != "1.7" {
		t.Errorf("annotation kept: %q", d.Running["fw.mgmt.api"])
	}
	comps := d.Components()
	if len(comps) != 1+13+7 || comps[0] != (Component{"fixed", "board.id", "K91258-000"}) || comps[1] != (Component{"running", "fw.app", "1.3.27.0"}) {
		t.Errorf("%d components: %+v", len(comps), comps)
	}
	if v, k := d.Summary("running"); v != "0x800085cc" || k != "fw.bundle_id" {
		t.Errorf("running summary %q %q", v, k)
	}
	if v, k := d.Summary("stored"); v != "0x800085cc" || k != "fw.bundle_id" {
		t.Errorf("stored summary %q %q", v, k)
	}
	if d.FirmwareRunning() != "" {
		t.Errorf("FirmwareRunning kept its fw.version/fw meaning: %q", d.FirmwareRunning())
	}
	bn, _ := ParseInfo(bytes.NewReader(capture(t, "bnxt_en-bcm57508-dev-info-partno.txt")))
	if v, k := bn.Devices[0].Summary("running"); v != "216.0.286.0" || k != "fw" {
		t.Errorf("bnxt summary %q %q", v, k)
	}
	mx, _ := ParseInfo(bytes.NewReader(capture(t, "mlx5-cx5-dev-info-kernel-doc-example.txt")))
	if v, k := mx.Devices[0].Summary("stored"); v != "16.26.0100" || k != "fw.version" {
		t.Errorf("mlx5 summary %q %q", v, k)
	}
}
