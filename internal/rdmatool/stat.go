package rdmatool

import (
	"io"
	"strings"
)

// ParseStat reads `rdma statistic show` (`rdma stat show`, with `link
// <dev>/<port>`, and `rdma statistic qp show`) and lists the RDMA devices
// it names, in first-seen order: each port's counters are printed after
// its head "link <dev>/<port>", on the same line, or with -p one counter
// a line below it (iproute2 rdma/stat.c, commit "rdma: Add default counter
// show support"); `rdma -j statistic show` prints an array of objects whose
// "ifname" is the device. A port's counters are not kept: to a host record
// the output says which devices and ports exist. A mail's wrapping, which
// moves counters onto lines of their own, loses nothing a head names.
func ParseStat(r io.Reader) ([]string, error) {
	return devicesNamed(r, func(f []string) string {
		if len(f) < 2 || f[0] != "link" {
			return ""
		}
		if dev, port, ok := strings.Cut(f[1], "/"); ok && isNumber(port) {
			return dev
		}
		return ""
	})
}
