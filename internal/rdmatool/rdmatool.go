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
// follow the "link dev/port" head in any order. iproute2 before v5.5.0
// headed each line "<index>/<port>: <dev>/<port>:" instead ("0/1:
// mlx5_0/1: state ACTIVE …"; the head became "link" in iproute2 commit
// b0a688a5, "rdma: Rewrite custom JSON and prints logic to use common
// API"), and hosts with an older iproute2 still print it.
//
// `rdma -j link` prints the same as JSON, which is read too.
func ParseLink(r io.Reader) ([]Link, error) {
	text, err := readAll(r)
	if err != nil {
		return nil, err
	}
	if objs, ok := jsonObjects(text); ok {
		return linksJSON(objs), nil
	}
	var out []Link
	err = lines.Each(strings.NewReader(text), func(raw string) {
		f := strings.Fields(raw)
		if len(f) < 2 {
			return
		}
		switch {
		case f[0] == "link":
		case oldLinkHead(f[0]) && strings.HasSuffix(f[1], ":"):
			f[1] = strings.TrimSuffix(f[1], ":")
		default:
			return
		}
		dev, port, ok := strings.Cut(f[1], "/")
		n, err := strconv.Atoi(port)
		if !ok || err != nil || dev == "" || isResource(f) {
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

// oldLinkHead reports whether a word is the "<index>/<port>:" that begins
// a line of `rdma link` from iproute2 before v5.5.0.
func oldLinkHead(w string) bool {
	idx, port, ok := strings.Cut(strings.TrimSuffix(w, ":"), "/")
	if !ok || !strings.HasSuffix(w, ":") {
		return false
	}
	_, err1 := strconv.ParseUint(idx, 10, 32)
	_, err2 := strconv.ParseUint(port, 10, 32)
	return err1 == nil && err2 == nil
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

// ParseDev reads `rdma dev show` (or `rdma dev`) output, or its JSON
// form (`rdma -j dev`).
func ParseDev(r io.Reader) ([]Dev, error) {
	text, err := readAll(r)
	if err != nil {
		return nil, err
	}
	if objs, ok := jsonObjects(text); ok {
		return devsJSON(objs), nil
	}
	var out []Dev
	err = lines.Each(strings.NewReader(text), func(raw string) {
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

// isResource reports whether a "link dev/port …" line is a resource line
// of `rdma res show qp` (it has lqpn): its state is a QP state (RTS,
// INIT …), never a port state.
func isResource(f []string) bool {
	for _, w := range f[2:] {
		if w == "lqpn" {
			return true
		}
	}
	return false
}

// QP is one line of `rdma res show qp`. Only the device names matter to a
// host record; State is the QP's state, not the port's.
type QP struct {
	Device string // RDMA device
	Port   int    // 0 when printed as "-" (a QP not bound to a port)
	LQPN   int
	Type   string // SMI, GSI, UD, RC, XRC_TGT …
	State  string // QP state: RESET, INIT, RTR, RTS, SQD, SQE, ERR
	Comm   string // owner, "[ib_core]" for kernel owners
}

// ParseResQP reads `rdma res show qp` (or `rdma resource show qp`).
func ParseResQP(r io.Reader) ([]QP, error) {
	var out []QP
	err := lines.Each(r, func(raw string) {
		f := strings.Fields(raw)
		if len(f) < 2 || f[0] != "link" || !isResource(f) {
			return
		}
		dev, port, _ := strings.Cut(f[1], "/")
		if dev == "" {
			return
		}
		q := QP{Device: dev}
		q.Port, _ = strconv.Atoi(port)
		for i := 2; i+1 < len(f); i += 2 {
			switch k, v := f[i], f[i+1]; k {
			case "lqpn":
				q.LQPN, _ = strconv.Atoi(v)
			case "type":
				q.Type = v
			case "state":
				q.State = v
			case "comm":
				q.Comm = strings.Join(f[i+1:], " ")
			}
		}
		out = append(out, q)
	})
	return out, err
}

// Devices lists the distinct device names of QPs, in first-seen order.
func Devices(qps []QP) []string {
	var out []string
	seen := map[string]bool{}
	for _, q := range qps {
		if !seen[q.Device] {
			seen[q.Device] = true
			out = append(out, q.Device)
		}
	}
	return out
}
