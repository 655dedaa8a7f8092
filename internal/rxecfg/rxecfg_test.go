package rxecfg

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rocekb/rocekb/internal/capturetest"
)

func capture(t *testing.T, name string) []byte { return capturetest.Read(t, "rxe_cfg", name) }

func TestParse(t *testing.T) {
	t.Parallel()
	perl := func(line int, text string) Message { return Message{Kind: PerlWarning, Text: text, Line: line} }
	for _, tc := range []struct {
		file string
		want Output
	}{
		// Empty Link, Driver and IPv4 cells; RMTU overflows its column.
		{"rxe-start-configfs-mkdir-not-permitted.txt", Output{
			Interfaces: []Interface{{Name: "eth0", NMTU: "1500", RDEV: "rxe0", RMTU: "1024  (3)", Line: 7}},
			Messages: []Message{
				{Kind: ConfigfsError, Text: "mkdir: cannot create directory `/sys/kernel/config/rdma_cm': Operation not permitted", Line: 2},
				{Kind: ConfigfsError, Text: "tee: /sys/kernel/config/rdma_cm/rxe0/default_roce_mode: No such file or directory", Line: 3},
				{Kind: Other, Text: "IBOE V2", Line: 4},
				perl(5, "Use of uninitialized value within %eth_driver in string at /bin/rxe_cfg line 361."),
			},
		}},
		// The pasted row is shifted against its header; cells still land
		// in their columns. The ibv_devices table after it is not a row.
		{"rxe-plain-perl-warning-rxe0-e1000e.txt", Output{
			Interfaces: []Interface{{Name: "eth0", Link: "yes", Driver: "e1000e", NMTU: "1500", IPv4Addr: "10.103.72.14", RDEV: "rxe0", Line: 4}},
			Messages:   []Message{perl(2, "Use of uninitialized value $rmtu in string at /bin/rxe_cfg line 371.")},
		}},
		{"rxe-status-no-rdev-st_gmac-arm.txt", Output{
			Interfaces: []Interface{{Name: "eth0", Link: "yes", Driver: "st_gmac", NMTU: "1500", IPv4Addr: "10.0.1.25", Line: 3}},
		}},
		{"rxe-start-echo-invalid-argument-no-rdev.txt", Output{
			Interfaces: []Interface{
				{Name: "p4p2", Link: "yes", Driver: "r8169", NMTU: "1500", IPv4Addr: "192.168.3.2", Line: 5},
				{Name: "wlan0", Link: "no", Driver: "ath9k", NMTU: "1500", Line: 6},
			},
			Messages: []Message{
				{Kind: WriteError, Text: "sh: line 0: echo: write error: Invalid argument", Line: 2},
				{Kind: WriteError, Text: "sh: line 0: echo: write error: Invaild argument", Line: 3},
				{Kind: WriteError, Text: "sh: line 0: echo: write error: Invalid argument", Line: 9},
			},
		}},
	} {
		got, err := Parse(bytes.NewReader(capture(t, tc.file)))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, d)
		}
	}
}

// start then status: two tables for one interface give one row, the last.
func TestRepeatedTable(t *testing.T) {
	t.Parallel()
	got, _ := Parse(bytes.NewReader(capture(t, "rxe-start-echo-io-error.txt")))
	if len(got.Interfaces) != 1 || got.Interfaces[0].Line != 18 || got.Interfaces[0].Driver != "e1000" || got.Interfaces[0].RDEV != "rxe0" {
		t.Errorf("%+v", got.Interfaces)
	}
	if got.ConfigfsFailed() {
		t.Error("no configfs error in this capture")
	}
	var writes int
	for _, m := range got.Messages {
		if m.Kind == WriteError {
			writes++
		}
	}
	if writes != 5 {
		t.Errorf("%d write errors", writes)
	}
	if up := got.Interfaces[0].Up(); up == nil || !*up {
		t.Errorf("Up() = %v", up)
	}
}

func TestConfigfsFailed(t *testing.T) {
	t.Parallel()
	got, _ := Parse(bytes.NewReader(capture(t, "rxe-start-configfs-mkdir-not-permitted.txt")))
	if !got.ConfigfsFailed() || got.Interfaces[0].Up() != nil {
		t.Errorf("%+v", got)
	}
}

// A paste that dropped rxe_cfg's indent from its header dropped it from
// the rows too (SoftRoCE/rxe-dev#47, in a markdown fence): the rows are
// read against the header's offsets all the same. Before, no row was read.
func TestFlushLeftTable(t *testing.T) {
	t.Parallel()
	out, err := Parse(bytes.NewReader(capturetest.Read(t, "paste", "rxe-rxe_cfg-status-rxe0-then-ibv_rc_pingpong-g0-link-local-gids-hang.txt")))
	if err != nil {
		t.Fatal(err)
	}
	want := []Interface{{Name: "eth0", Link: "yes", Driver: "e1000", NMTU: "1500", IPv4Addr: "192.168.122.219", RDEV: "rxe0", RMTU: "1024  (3)", Line: 5}}
	if d := cmp.Diff(want, out.Interfaces); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
