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
// A line that starts with a key of the line before goes on with it (a
// line wrapped in a commit message or a mail); -d's caps line is read
// past.
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
	last := -1 // the link a continuation line adds to
	err = lines.Each(strings.NewReader(text), func(raw string) {
		f := strings.Fields(raw)
		if len(f) == 0 {
			last = -1
			return
		}
		if last >= 0 && continues(f, linkKeys) {
			out[last].pairs(f)
			return
		}
		if len(f) < 2 {
			last = -1
			return
		}
		switch {
		case f[0] == "link":
		case oldLinkHead(f[0]) && strings.HasSuffix(f[1], ":"):
			f[1] = strings.TrimSuffix(f[1], ":")
		default:
			if !indented(raw) && f[0] != "caps:" {
				last = -1
			}
			return
		}
		dev, port, ok := strings.Cut(f[1], "/")
		n, err := strconv.Atoi(port)
		if !ok || err != nil || dev == "" || isResource(f) {
			last = -1
			return
		}
		l := Link{Device: dev, Port: n}
		l.pairs(f[2:])
		out = append(out, l)
		last = len(out) - 1
	})
	return out, err
}

// linkKeys are the keys of a link line, which a continuation line starts
// with.
var linkKeys = map[string]bool{"state": true, "physical_state": true, "netdev": true, "netdev_index": true,
	"subnet_prefix": true, "lid": true, "sm_lid": true, "lmc": true}

// continues reports whether a line goes on with the device or link line
// before it: a line that starts with one of its keys, as a message or a
// mail wraps a long line ("11: mlx5_0: node_type ca protocol roce fw
// 12.28.2006" then "    node_guid 248a:… sys_image_guid …"). -d's
// "    caps: <…>" line, and the caps it wraps, start with no key.
func continues(f []string, keys map[string]bool) bool {
	return len(f) >= 2 && keys[f[0]] && !strings.HasSuffix(f[1], ":")
}

func indented(raw string) bool { return raw != "" && (raw[0] == ' ' || raw[0] == '\t') }

// pairs reads "key value" pairs into the link.
func (l *Link) pairs(f []string) {
	for i := 0; i+1 < len(f); i += 2 {
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
// form (`rdma -j dev`). A wrapped line goes on with the device before it,
// as in ParseLink.
func ParseDev(r io.Reader) ([]Dev, error) {
	text, err := readAll(r)
	if err != nil {
		return nil, err
	}
	if objs, ok := jsonObjects(text); ok {
		return devsJSON(objs), nil
	}
	var out []Dev
	last := -1 // the device a continuation line adds to
	err = lines.Each(strings.NewReader(text), func(raw string) {
		f := strings.Fields(raw)
		if last >= 0 && continues(f, devKeys) {
			out[last].pairs(f)
			return
		}
		if len(f) < 2 || !strings.HasSuffix(f[0], ":") || !strings.HasSuffix(f[1], ":") {
			if len(f) == 0 || !indented(raw) && f[0] != "caps:" {
				last = -1
			}
			return
		}
		idx, err := strconv.Atoi(strings.TrimSuffix(f[0], ":"))
		if err != nil {
			last = -1
			return
		}
		d := Dev{Index: idx, Name: strings.TrimSuffix(f[1], ":")}
		d.pairs(f[2:])
		out = append(out, d)
		last = len(out) - 1
	})
	return out, err
}

// devKeys are the keys of a device line, which a continuation line
// starts with.
var devKeys = map[string]bool{"node_type": true, "protocol": true, "fw": true, "node_guid": true, "sys_image_guid": true}

// pairs reads "key value" pairs into the device.
func (d *Dev) pairs(f []string) {
	for i := 0; i+1 < len(f); i += 2 {
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
