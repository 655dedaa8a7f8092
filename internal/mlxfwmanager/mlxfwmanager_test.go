package mlxfwmanager

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rocekb/rocekb/internal/capturetest"
)

func capture(t testing.TB, name string) []byte { return capturetest.Read(t, "mlxfwmanager", name) }

func TestParse(t *testing.T) {
	t.Parallel()
	const cx4 = "ConnectX-4 VPI adapter card; EDR IB (100Gb/s) and 100GbE; single-port QSFP28; PCIe3.0 x16; ROHS R6"
	for _, tc := range []struct {
		name string
		want Output
	}{
		{"mlx5-cx4-mcx455a-two-cards-same-psid-fw-12.28-and-12.17.txt", Output{Devices: []Device{
			{Number: 1, Line: 5, Type: "ConnectX4", PartNumber: "MCX455A-ECA_Ax", Description: cx4, PSID: "MT_2180110032",
				PCIName: "/dev/mst/mt4115_pciconf1", BaseGUID: "ec0d9a030044c158", Status: "No matching image found",
				Versions: []Version{{"FW", "12.28.2040", "", 15}, {"PXE", "3.6.0102", "", 16}, {"UEFI", "14.21.0017", "", 17}}},
			{Number: 2, Line: 21, Type: "ConnectX4", PartNumber: "MCX455A-ECA_Ax", Description: cx4, PSID: "MT_2180110032",
				PCIName: "/dev/mst/mt4115_pciconf0", BaseGUID: "506b4b0300eeae06", Status: "No matching image found",
				Versions: []Version{{"FW", "12.17.2046", "", 31}, {"PXE", "3.4.0903", "", 32}}},
		}}},
		{"mlx5-cx6lx-mlxup-query-bdf-domain-0002-update-required.txt", Output{Devices: []Device{
			{Number: 1, Line: 3, Type: "ConnectX6LX", PartNumber: "MCX631102AS-ADA_Ax",
				Description: "ConnectX-6 Lx EN adapter card; 25GbE; Dual-port SFP28; PCIe 4.0 x8; Secure Boot; No Crypto;",
				PSID:        "MT_0000000575", PCIName: "0002:01:00.0", BaseGUID: "e8ebd3030070cf12", BaseMAC: "e8ebd370cf12", Status: "Update required",
				Versions: []Version{{"FW", "26.33.1048", "26.43.1014", 14}, {"PXE", "3.6.0502", "3.7.0500", 15}, {"UEFI", "14.26.0017", "14.36.0016", 16}}},
		}}},
		// Prompts, lspci and which lines around the block; trailing spaces
		// after every version column; "FW (Running)" below the flash image.
		{"mlx5-cx7-mlxup-d-bdf-fw-running-differs-prompts.txt", Output{Devices: []Device{
			{Number: 1, Line: 11, Type: "ConnectX7", PartNumber: "MCX75310AAS-NEA_Ax",
				Description: "NVIDIA ConnectX-7 HHHL Adapter card; 400GbE / NDR IB (default mode); Single-port OSFP; PCIe 5.0 x16; Crypto Disabled; Secure Boot Enabled;",
				PSID:        "MT_0000000838", PCIName: "0000:8e:00.0", BaseGUID: "9c63c00300abed5a", BaseMAC: "9c63c0abed5a", Status: "Up to date",
				Versions: []Version{{"FW", "28.47.1026", "28.47.1026", 22}, {"FW (Running)", "28.46.3048", "", 23}, {"PXE", "3.8.0100", "", 24}, {"UEFI", "14.39.0014", "", 25}}},
		}}},
		{"mlx4-cx3-mcx354a-query-bdf-port-macs-prompts.txt", Output{Devices: []Device{
			{Number: 1, Line: 4, Type: "ConnectX3", PartNumber: "MCX354A-FCB_A2-A5",
				Description: "ConnectX-3 VPI adapter card; dual-port QSFP; FDR IB (56Gb/s) and 40GigE; PCIe3.0 x8 8GT/s; RoHS R6",
				PSID:        "MT_1090120019", PCIName: "0000:02:00.0", Status: "No matching image found",
				Ports:    []Port{{Number: 1, MAC: "248a0723bd75"}, {Number: 2, MAC: "248a0723bd76"}},
				Versions: []Version{{"FW", "2.42.5000", "", 15}, {"PXE", "3.4.0752", "", 16}}},
		}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(bytes.NewReader(capture(t, tc.name)))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestFirmwareRunning(t *testing.T) {
	t.Parallel()
	out, _ := Parse(bytes.NewReader(capture(t, "mlx5-cx7-mlxup-d-bdf-fw-running-differs-prompts.txt")))
	run, _ := out.Devices[0].FirmwareRunning()
	flash, _ := out.Devices[0].FirmwareFlash()
	if run.Current != "28.46.3048" || flash.Current != "28.47.1026" {
		t.Errorf("running %+v, flash %+v", run, flash)
	}
	out, _ = Parse(bytes.NewReader(capture(t, "mlx5-cx4-mcx455a-two-cards-same-psid-fw-12.28-and-12.17.txt")))
	if run, ok := out.Devices[1].FirmwareRunning(); !ok || run.Current != "12.17.2046" || run.Line != 31 {
		t.Errorf("running %+v", run)
	}
}

// Damage a paste does to a real capture: CRLF line ends, the indentation
// flattened or deepened, the tail cut mid-line.
func TestParseDamage(t *testing.T) {
	t.Parallel()
	raw := string(capture(t, "mlx5-cx4-mcx455a-two-cards-same-psid-fw-12.28-and-12.17.txt"))
	clean, _ := Parse(strings.NewReader(raw))
	var flat, deep []string
	for _, l := range strings.Split(raw, "\n") {
		flat = append(flat, strings.TrimLeft(l, " "))
		deep = append(deep, "        "+l)
	}
	for name, in := range map[string]string{
		"crlf": strings.ReplaceAll(raw, "\n", "\r\n"),
		"flat": strings.Join(flat, "\n"),
		"deep": strings.Join(deep, "\n"),
	} {
		got, err := Parse(strings.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(clean, got); d != "" {
			t.Errorf("%s (-clean +got):\n%s", name, d)
		}
	}
	// Cut inside Device #2's FW row: device 1 whole, device 2 up to its
	// half row, its FW version a prefix of the real one.
	cut := raw[:strings.Index(raw, "12.17.2046")+5]
	got, _ := Parse(strings.NewReader(cut))
	if len(got.Devices) != 2 || len(got.Devices[0].Versions) != 3 || got.Devices[1].PSID != "MT_2180110032" {
		t.Fatalf("truncated: %+v", got)
	}
	if v, _ := got.Devices[1].FirmwareRunning(); v.Current != "12.17" {
		t.Errorf("truncated FW row = %+v", v)
	}
}

// A paste filtered with egrep "FW|Device" keeps headers, Device Type, PCI
// Device Name and FW rows (the shape of Cray-HPE/docs-csm's example);
// headers still split it into devices and the FW rows still count.
func TestParseGrepFiltered(t *testing.T) {
	t.Parallel()
	in := "Device #1:\n  Device Type:      ConnectX4\n  PCI Device Name:  0000:42:00.0\n     FW             12.26.4012     N/A\n" +
		"Device #2:\n  Device Type:      ConnectX5\n  PCI Device Name:  0000:41:00.0\n     FW             16.28.4000     N/A\n"
	got, _ := Parse(strings.NewReader(in))
	if len(got.Devices) != 2 || got.Devices[1].PCIName != "0000:41:00.0" {
		t.Fatalf("%+v", got)
	}
	if v, ok := got.Devices[0].FirmwareRunning(); !ok || v.Current != "12.26.4012" {
		t.Errorf("FW = %+v", v)
	}
}

func TestParseMessages(t *testing.T) {
	t.Parallel()
	got, _ := Parse(strings.NewReader("-E- No devices found or specified, mst might be stopped, run 'mst start' to load MST modules\n"))
	if len(got.Devices) != 0 || len(got.Messages) != 1 {
		t.Errorf("%+v", got)
	}
}
