package sysfs

import (
	"io"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// MLX4Port is the link type of one ConnectX-3 port, from
// /sys/bus/pci/devices/<bdf>/mlx4_port<N>: "ib", "eth" or "auto (eth)".
type MLX4Port struct {
	PCIAddress string
	Port       int
	Type       string // as read: "ib", "eth", "auto (ib)" …
}

// MLX4Ports reads the mlx4_port<N> attributes of one PCI function under
// fsys (rooted like /); none is data, not a failure.
func MLX4Ports(fsys fs.FS, bdf string) []MLX4Port {
	dir := path.Join("sys/bus/pci/devices", bdf)
	entries, _ := fs.ReadDir(fsys, dir)
	var out []MLX4Port
	for _, e := range entries {
		n, ok := mlx4PortNumber(e.Name())
		if !ok {
			continue
		}
		if v := attr(fsys, dir, e.Name()); v != "" {
			out = append(out, MLX4Port{PCIAddress: bdf, Port: n, Type: v})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Port < out[j].Port })
	return out
}

func mlx4PortNumber(name string) (int, bool) {
	s, ok := strings.CutPrefix(name, "mlx4_port")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0 && n < 64
}

// ParseMLX4Ports reads `find /sys/bus/pci/devices/*/mlx4_port[0-9] -print
// -exec cat {} \;` output: a path line, then its value.
func ParseMLX4Ports(r io.Reader) ([]MLX4Port, error) {
	var out []MLX4Port
	var cur *MLX4Port
	err := lines.Each(r, func(raw string) {
		line := strings.TrimSpace(raw)
		if strings.HasPrefix(line, "/") && strings.Contains(line, "/mlx4_port") {
			cur = nil
			n, ok := mlx4PortNumber(path.Base(line))
			bdf := path.Base(path.Dir(line))
			if ok && IsPCIAddress(bdf) {
				out = append(out, MLX4Port{PCIAddress: bdf, Port: n})
				cur = &out[len(out)-1]
			}
			return
		}
		if cur != nil && line != "" && cur.Type == "" {
			cur.Type = line
		}
	})
	return out, err
}
