package mlxconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func parseFile(t *testing.T, name string) Output {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "captures", "mlxconfig", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, err := Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// param finds a parameter by name.
func param(d Device, name string) (Param, bool) {
	for _, p := range d.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

func TestParseNextBootOnly(t *testing.T) {
	t.Parallel()
	out := parseFile(t, "mlx5-cx7-mst-status-and-query-next-boot-link-type-ib-excerpts.txt")
	if len(out.Devices) != 1 {
		t.Fatalf("devices = %d, want 1 (the mst status lines are not parameters): %+v", len(out.Devices), out.Devices)
	}
	d := out.Devices[0]
	if diff := cmp.Diff([]string{"Next Boot"}, d.Columns); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
	p, ok := param(d, "LINK_TYPE_P1")
	if !ok {
		t.Fatal("no LINK_TYPE_P1")
	}
	want := Param{Name: "LINK_TYPE_P1", NextBoot: "IB(1)", Values: []string{"IB(1)"}, Line: 63}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("LINK_TYPE_P1 (-want +got):\n%s", diff)
	}
	if v, col := p.Value(); v != "IB(1)" || col != ColNextBoot {
		t.Errorf("Value() = %q, %q", v, col)
	}
	for _, p := range d.Params {
		if strings.HasPrefix(p.Name, "MST") {
			t.Errorf("mst status line read as a parameter: %+v", p)
		}
	}
}

func TestParseHeaderNoParams(t *testing.T) {
	t.Parallel()
	out := parseFile(t, "mlx5-cx4lx-mstconfig-q-header-and-grep-link-no-link-type.txt")
	// The grep's lines are the same device's parameters, without the
	// header that names their column.
	if len(out.Devices) != 1 {
		t.Fatalf("devices = %d, want 1", len(out.Devices))
	}
	g := out.Devices[0]
	want := Device{Number: 1, Line: 6, Type: "ConnectX4LX", Device: "0000:05:00.1"}
	if diff := cmp.Diff(want, g, cmpopts.IgnoreFields(Device{}, "Params")); diff != "" {
		t.Errorf("device (-want +got):\n%s", diff)
	}
	if len(g.Params) != 8 || g.Columns != nil {
		t.Fatalf("grep block: %d params, columns %v", len(g.Params), g.Columns)
	}
	if p := g.Params[0]; p.Name != "KEEP_ETH_LINK_UP_P1" || p.Current != "" || p.NextBoot != "" || p.Values[0] != "True(1)" {
		t.Errorf("headerless param took a column: %+v", p)
	}
}

func TestParseThreeColumns(t *testing.T) {
	t.Parallel()
	in := "Device #1:\n----------\n\nDevice type:    ConnectX5\nName:           MCX556A-ECA_Ax\nDescription:    N/A\nDevice:         0000:3b:00.0\n\n" +
		"Configurations:                              Default         Current         Next Boot\n" +
		"         LINK_TYPE_P1                        ETH(2)          ETH(2)          IB(1)\n" +
		"         PHY_FEC_OVERRIDE_P1                 DEVICE_DEFAULT(0) DEVICE_DEFAULT(0) DEVICE_DEFAULT(0)\n" +
		"*        SRIOV_EN                            False(0)        True(1)         True(1)\n"
	out, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Device{{
		Number: 1, Line: 1, Type: "ConnectX5", Name: "MCX556A-ECA_Ax", Device: "0000:3b:00.0",
		Columns: []string{"Default", "Current", "Next Boot"},
		Params: []Param{
			{Name: "LINK_TYPE_P1", Default: "ETH(2)", Current: "ETH(2)", NextBoot: "IB(1)", Line: 10},
			{Name: "PHY_FEC_OVERRIDE_P1", Default: "DEVICE_DEFAULT(0)", Current: "DEVICE_DEFAULT(0)", NextBoot: "DEVICE_DEFAULT(0)", Line: 11},
			{Name: "SRIOV_EN", Default: "False(0)", Current: "True(1)", NextBoot: "True(1)", Modified: true, Line: 12},
		},
	}}
	if diff := cmp.Diff(want, out.Devices, cmpopts.IgnoreFields(Param{}, "Values")); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestParseModifiedTruncated(t *testing.T) {
	t.Parallel()
	out := parseFile(t, "mlx5-cx5-query-e-three-columns-roce-control-modified-truncated.txt")
	if len(out.Devices) != 1 {
		t.Fatalf("devices = %d", len(out.Devices))
	}
	d := out.Devices[0]
	last := d.Params[len(d.Params)-1]
	if last.Name != "ROCE_CONTROL" || !last.Modified || len(last.Values) != 0 {
		t.Errorf("cut-off modified row = %+v", last)
	}
	if p, _ := param(d, "PHY_FEC_OVERRIDE_P1"); len(p.Values) != 3 {
		t.Errorf("single-spaced values = %q", p.Values)
	}
}
