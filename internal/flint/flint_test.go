package flint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func capture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../../testdata/captures/flint", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// What each real query states: the device of the command line shown
// before it, the firmware running and in flash, the PSID (and the
// original one of an OEM card) and the base GUID.
func TestRealQueries(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file                                             string
		device, image, running, stored, psid, orig, guid string
	}{
		{"cx4lx-dell-psid-flint-query-mst-device.txt", "/dev/mst/mt4117_pciconf0", "FS3", "14.24.1000", "", "DEL0000000006", "", "b8599f0300b3d7dc"},
		{"cx5-mstflint-q-short-bdf-with-prompt.txt", "18:00.0", "FS4", "16.25.1020", "", "MT_0000000248", "", "1c34da0300682e10"},
		{"spectrum-switch-mstflint-query-issu-no-rom.txt", "03:00.0", "FS3", "13.2010.3146", "", "MT_2860113033", "", "900a8403004c03c0"},
		{"cx3-flint-query-full-fs2-running-differs-truncated.txt", "/dev/mst/mt4099_pci_cr0", "FS2", "2.35.5100", "2.42.5000", "", "", ""},
		{"cx3pro-mstflint-q-fs2-running-differs-truncated.txt", "01:00.0", "FS2", "2.40.5032", "2.42.5000", "", "", ""},
		{"cx4lx-oem-orig-psid-flint-q-full-bdf.txt", "0000:18:00.0", "FS3", "14.22.1002", "", "MT_2420110034", "HUA0000000001", "0c42a103008c51a8"},
		{"cx4lx-mstflint-q-orig-base-guid-na.txt", "01:00.0", "FS3", "14.32.1900", "", "MT_0000000267", "", "000030e3c0021f7a"},
		{"cx3-flint-ext-freebsd-running-only-single-spaces.txt", "pci0:1:0:0", "FS2", "2.36.5000", "", "MT_1080120023", "", ""},
		// MFT 4.x on a BlueField-2, queried by its RDMA device name.
		{"bf2-flint-d-mlx5_0-q-secure-fw-four-rom-lines.txt", "mlx5_0", "FS4", "24.33.1048", "", "MT_0000000723", "", "08c0eb030053eaec"},
		// Pasted as an issue's text: the poster made the FW Version line bold.
		{"cx5-innova2-fs4-markdown-bold-fw-version.txt", "", "FS4", "16.28.2006", "", "MT_0000000158", "", "e41d2d0300e70f8e"},
	} {
		out, err := Parse(strings.NewReader(capture(t, tc.file)))
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Queries) != 1 {
			t.Errorf("%s: %d queries %+v", tc.file, len(out.Queries), out.Queries)
			continue
		}
		q := out.Queries[0]
		got := []string{q.Device, q.ImageType, q.Running(), q.Stored(), q.PSID, q.OrigPSID, q.BaseGUID}
		want := []string{tc.device, tc.image, tc.running, tc.stored, tc.psid, tc.orig, tc.guid}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s:\n got %q\nwant %q", tc.file, got, want)
		}
		if q.Description != "" {
			t.Errorf("%s: the UID table header read as a description: %q", tc.file, q.Description)
		}
	}
}

// Two queries pasted one after the other are two devices; "query full"
// gives the part number; the tool's errors are kept.
func TestSeveralQueriesAndFull(t *testing.T) {
	t.Parallel()
	in := "# flint -d 0000:3b:00.0 q full\nImage type: FS4\nFW Version: 22.36.1010\nPart Number: MCX623106AN-CDA_Ax\nDescription: ConnectX-6 Dx EN adapter card\nPSID: MT_0000000359\n" +
		"# flint -d 0000:af:00.0 q\nImage type: FS4\nFW Version: 22.36.1010\nPSID: MT_0000000359\n-E- Cannot open Device: 0000:d8:00.0. No such file or directory. MFE_UNSUPPORTED_DEVICE\n"
	out, _ := Parse(strings.NewReader(in))
	if len(out.Queries) != 2 || out.Queries[0].Device != "0000:3b:00.0" || out.Queries[1].Device != "0000:af:00.0" ||
		out.Queries[0].PartNumber != "MCX623106AN-CDA_Ax" || out.Queries[0].Description == "" || out.Queries[1].Line != 8 || len(out.Messages) != 1 {
		t.Errorf("%+v", out)
	}
}
