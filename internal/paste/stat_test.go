package paste

import (
	"strings"
	"testing"
)

// TestRdmaStatistic: rdma statistic show, after its command line in any
// spelling ("rdma stat show -p", MLNX iproute2's full path) or recognised
// by its "link <dev>/<port> <counter> <n>" lines, is filed as "rdma
// statistic show" and names the devices. Before: "no command output
// recognised".
func TestRdmaStatistic(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file string
		devs int
	}{
		{"mlx5-stat-show-and-p-wrapped-iproute2-cover-letter.txt", 1},
		{"mlx5-statistic-show-four-ports-mellanox-iproute2-zh-notes-fenced.txt", 4},
	} {
		text := body(t, "rdma", tc.file)
		// With and without its command lines.
		var bare []string
		for _, l := range strings.Split(text, "\n") {
			if !strings.Contains(l, " stat") {
				bare = append(bare, l)
			}
		}
		for i, in := range []string{text, strings.Join(bare, "\n")} {
			secs, _, err := Split(strings.NewReader(in))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range secs {
				if s.Command != "rdma statistic show" {
					t.Errorf("%s (%d): section %q at %s", tc.file, i, s.Command, s.Path)
				}
			}
			h := collectText(t, in)
			if len(h.Devices) != tc.devs || h.Devices[0].From["name"] != "cmd/rdma statistic show" {
				t.Errorf("%s (%d): devices %+v", tc.file, i, h.Devices)
			}
		}
	}
}
