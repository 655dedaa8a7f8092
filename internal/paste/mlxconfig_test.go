package paste

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rocekb/rocekb/internal/record"
)

// mlxconfig and mstconfig queries from real issues reach the record: by
// their command line (filed under the name sos gives a command's output,
// the device from the line) or by what they print when the paste has no
// command line (the Configurations header, or rows of its enums), after
// an mst status table in another block. Only the kept parameters stay.
func TestMlxconfigPastes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file string
		want []record.MlxConfig
	}{
		{"mlx5-cx7-mst-status-and-query-next-boot-link-type-ib-excerpts.txt", []record.MlxConfig{{
			Columns: []string{"Next Boot"}, Source: "sos_commands/kbcollect/mlxconfig_-d_pasted_query", Line: 1,
			Params: []record.MlxConfigParam{{Name: "LINK_TYPE_P1", NextBoot: "IB(1)", Line: 33}},
		}}},
		{"mlx5-cx4lx-mstconfig-q-header-and-grep-link-no-link-type.txt", []record.MlxConfig{{
			Device: "0000:05:00.1", PCIAddress: "0000:05:00.1", DeviceType: "ConnectX4LX",
			Source: "sos_commands/kbcollect/mstconfig_-d_0000_05_00.1_q", Line: 2,
		}}},
		{"mlx5-cx5-query-e-three-columns-roce-control-modified-truncated.txt", []record.MlxConfig{{
			Source: "sos_commands/kbcollect/mlxconfig_-d_pasted_query", Line: 1,
			Params: []record.MlxConfigParam{{Name: "ROCE_CONTROL", Modified: true, Line: 15}},
		}}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			h := collectText(t, body(t, "mlxconfig", tc.file))
			if diff := cmp.Diff(tc.want, h.MlxConfig); diff != "" {
				t.Errorf("mlxconfig (-want +got):\n%s", diff)
			}
		})
	}
}
