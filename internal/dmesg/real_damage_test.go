package dmesg

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// A kernel log as a mail client sent it: quoted-printable where every line
// ends in an encoded newline and a soft break ("…1014=0A="), so the body is
// one soft-broken run that only the encoded newlines cut into lines.
func TestParseLogQuotedPrintableMail(t *testing.T) {
	t.Parallel()
	lg, err := ParseLog(bytes.NewReader(capture(t, "mlx5-cx5-probe-failed-22-quoted-printable-mail.txt")))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range lg.Events {
		got = append(got, fmt.Sprintf("%s %s %s line %d", e.Kind, e.Time, e.Device, e.Line))
	}
	want := []string{
		"firmware 13.409473 0000:41:00.0 line 15",
		"probe-failure 18.686204 0000:41:00.0 line 27",
		"probe-failure 18.701352 0000:41:00.0 line 29",
		"firmware 18.727364 0000:41:00.1 line 30",
		"probe-failure 23.544747 0000:41:00.1 line 42",
		"probe-failure 23.555071 0000:41:00.1 line 44",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
	// The soft break inside "mlx5_load_o=" / "ne failed" is joined.
	if e := lg.Events[1]; e.Text != "mlx5_core 0000:41:00.0: init_one:1371:(pid 803): mlx5_load_one failed with error code -22" || e.Errno == nil || *e.Errno != -22 {
		t.Errorf("decoded event %+v", e)
	}
	wantB := []Binding{
		{Driver: "mlx5_core", PCIAddress: "0000:41:00.0", Firmware: "16.31.1014", FirmwareLine: 15, Line: 15},
		{Driver: "mlx5_core", PCIAddress: "0000:41:00.1", Firmware: "16.31.1014", FirmwareLine: 30, Line: 30},
	}
	if d := cmp.Diff(wantB, lg.Bindings); d != "" {
		t.Errorf("bindings (-want +got):\n%s", d)
	}
	wantBW := []Bandwidth{
		{PCIAddress: "0000:41:00.0", AvailableGbps: 126.016, SpeedGTps: 8, Width: 16, Line: 16},
		{PCIAddress: "0000:41:00.1", AvailableGbps: 126.016, SpeedGTps: 8, Width: 16, Line: 31},
	}
	if d := cmp.Diff(wantBW, lg.Bandwidth); d != "" {
		t.Errorf("bandwidth (-want +got):\n%s", d)
	}
	// The probe failure quotes the device's lines before it, decoded.
	ctx := lg.Context[1]
	if len(ctx) != 7 || ctx[len(ctx)-1] != (ContextLine{Text: "mlx5_core 0000:41:00.0: E-Switch: cleanup", Line: 26}) ||
		ctx[4].Text != "mlx5_core 0000:41:00.0: Port module event: module 0, Cable plugged" {
		t.Errorf("context %+v", ctx)
	}
	if lg.Repairs["quoted-printable"] != 46 {
		t.Errorf("repairs %v", lg.Repairs)
	}
}

// Encoded CRLF, encoded newlines in mid-line, hard line breaks, and a soft
// break at the very end of the input all decode to the same event.
func TestParseLogQuotedPrintableEdges(t *testing.T) {
	t.Parallel()
	for name, in := range map[string]string{
		"CRLF encoded":      "[    5.6] mlx5_core: probe of 0000:41:00.0 failed with e=\nrror -22=0D=0A=\n=0D=0A\n",
		"soft break at EOF": "x=3Dy\n[    5.6] mlx5_core: probe of 0000:41:00.0 failed with e=\nrror -22=",
		"hard line break":   "x=3Dy\n[    5.6] mlx5_core: probe of 0000:41:00.0 failed with e=\nrror -22\n",
		"newline mid-line":  "a=3Db=0A[    5.6] mlx5_core: probe of 0000:41:00.0 failed with e=\nrror -22=0A=0A\n",
	} {
		lg, _ := ParseLog(bytes.NewReader([]byte(in)))
		if len(lg.Events) != 1 || lg.Events[0].Kind != ProbeFailure || lg.Events[0].Text != "mlx5_core: probe of 0000:41:00.0 failed with error -22" {
			t.Errorf("%s: %+v", name, lg.Events)
		}
	}
}

// A flash failure as mlxfw prints it, and its follow-up line, which is not
// an event of its own.
func TestParseLogFlashFailure(t *testing.T) {
	t.Parallel()
	lg, err := ParseLog(bytes.NewReader(capture(t, "mlx5-mlxfw-flash-failed-key-not-applicable-commit-msg.txt")))
	if err != nil {
		t.Fatal(err)
	}
	want := []Event{{Kind: FlashFailure, Module: "mlxfw", Text: "mlxfw: Firmware flash failed: key not applicable, err (7)", Line: 1}}
	if d := cmp.Diff(want, lg.Events); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// A netdev named after the address cites the line that names it, not the
// binding's first line: the rename comes 16 lines after the firmware line.
func TestParseLogNetdevLines(t *testing.T) {
	t.Parallel()
	lg, _ := ParseLog(bytes.NewReader(capture(t, "mlx5-cx4lx-renamed-from-eth0-netdev-mail.txt")))
	b := lg.Bindings[0]
	if b.PCIAddress != "0000:21:00.0" || b.Line != 1 || !cmp.Equal(b.Netdevs, []string{"enp33s0f0np0"}) || !cmp.Equal(b.NetdevLines, []int{17}) {
		t.Errorf("binding %+v", b)
	}
	en, _ := ParseLog(bytes.NewReader(capture(t, "enic_rdma-vic-rocev2-enabled.txt")))
	if b := en.Bindings[1]; !cmp.Equal(b.Netdevs, []string{"eth2"}) || !cmp.Equal(b.NetdevLines, []int{4}) {
		t.Errorf("enic binding %+v", b)
	}
}

// A kernel log pasted with a viewer's line numbers (grep output numbered
// 1700…1708): "1701 [ …" with a space, the first as "1700[ …" with none,
// and two long lines wrapped onto unnumbered, indented rows. Undone, the
// four mlx5 functions and three bandwidth lines are read at their lines;
// the wrapped rows join the message before them and start none.
func TestParseLogLineNumberedViewer(t *testing.T) {
	t.Parallel()
	lg, err := ParseLog(bytes.NewReader(capture(t, "mlx5-gen5-x16-grep-line-numbered-truncated.txt")))
	if err != nil {
		t.Fatal(err)
	}
	wantB := []Binding{
		{Driver: "mlx5_core", PCIAddress: "0000:13:00.0", Line: 2},
		{Driver: "mlx5_core", PCIAddress: "0000:63:00.0", Line: 3},
		{Driver: "mlx5_core", PCIAddress: "0000:75:00.0", Line: 5},
		{Driver: "mlx5_core", PCIAddress: "0000:75:00.1", Line: 11},
	}
	if d := cmp.Diff(wantB, lg.Bindings, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("bindings (-want +got):\n%s", d)
	}
	wantBW := []Bandwidth{
		{PCIAddress: "0000:63:00.0", AvailableGbps: 504.112, SpeedGTps: 32, Width: 16, Line: 3},
		{PCIAddress: "0000:75:00.0", AvailableGbps: 252.048, SpeedGTps: 16, Width: 16, Line: 5},
		{PCIAddress: "0000:75:00.1", AvailableGbps: 252.048, SpeedGTps: 16, Width: 16, Line: 11},
	}
	if d := cmp.Diff(wantBW, lg.Bandwidth); d != "" {
		t.Errorf("bandwidth (-want +got):\n%s", d)
	}
	// Nine numbered lines; the two wrapped rows are not numbered.
	if d := cmp.Diff(map[string]int{"line-numbers": 9}, lg.Repairs); d != "" || lg.Lines != 12 || len(lg.Events) != 0 {
		t.Errorf("repairs (-want +got):\n%s; lines %d, events %+v", d, lg.Lines, lg.Events)
	}
}
