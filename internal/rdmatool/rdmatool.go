package rdmatool

import (
	"io"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// Link is one "link <dev>/<port> …" line of `rdma link show`.
type Link struct {
	Device    string
	Port      int
	State     string            // e.g. ACTIVE, DOWN
	PhysState string            // physical_state, e.g. LINK_UP, DISABLED, POLLING
	Netdev    string            // netdev; absent on InfiniBand ports
	Attrs     map[string]string // every other key/value pair, e.g. lid, sm_lid, subnet_prefix
}

// ParseLink reads `rdma link show` (or `rdma link`) output. Key/value pairs
// follow the "link dev/port" head in any order.
func ParseLink(r io.Reader) ([]Link, error) {
	var out []Link
	err := lines.Each(r, func(raw string) {
		f := strings.Fields(raw)
		if len(f) < 2 || f[0] != "link" {
			return
		}
		dev, port, ok := strings.Cut(f[1], "/")
		n, err := strconv.Atoi(port)
		if !ok || err != nil || dev == "" {
			return
		}
		l := Link{Device: dev, Port: n}
		for i := 2; i+1 < len(f); i += 2 {
			switch k, v := f[i], f[i+1]; k {
			case "state":
				l.State = v
			case "physical_state":
				l.PhysState = v
			case "netdev":
				l.Netdev = v
			default:
				if l.Attrs == nil {
					l.Attrs = map[string]string{}
				}
				l.Attrs[k] = v
			}
		}
		out = append(out, l)
	})
	return out, err
}

// Dev is one line of `rdma dev show`.
type Dev struct {
	Index        int
	Name         string
	NodeType     string // node_type, e.g. ca
	Protocol     string // protocol, e.g. roce, ib, iw (newer iproute2)
	FW           string // fw
	NodeGUID     string // node_guid
	SysImageGUID string // sys_image_guid
}

// ParseDev reads `rdma dev show` (or `rdma dev`) output.
func ParseDev(r io.Reader) ([]Dev, error) {
	var out []Dev
	err := lines.Each(r, func(raw string) {
		f := strings.Fields(raw)
		if len(f) < 2 || !strings.HasSuffix(f[0], ":") || !strings.HasSuffix(f[1], ":") {
			return
		}
		idx, err := strconv.Atoi(strings.TrimSuffix(f[0], ":"))
		if err != nil {
			return
		}
		d := Dev{Index: idx, Name: strings.TrimSuffix(f[1], ":")}
		for i := 2; i+1 < len(f); i += 2 {
			switch k, v := f[i], f[i+1]; k {
			case "node_type":
				d.NodeType = v
			case "protocol":
				d.Protocol = v
			case "fw":
				d.FW = v
			case "node_guid":
				d.NodeGUID = v
			case "sys_image_guid":
				d.SysImageGUID = v
			}
		}
		out = append(out, d)
	})
	return out, err
}
