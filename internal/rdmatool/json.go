package rdmatool

import (
	"regexp"
	"strconv"
	"strings"
)

// jsonObjects reads the objects of rdma's JSON output (-j, pretty with
// -p): every form prints an array of flat objects whose "ifname" names
// the device, e.g. `[{"ifindex":0,"ifname":"mlx5_0","port":1,…}]`. The
// reading is by key and value, not by a JSON decoder, so a paste cut
// mid-object, or the hand-edited examples in iproute2's own commit
// messages ("sys_image_guid": 5254:00c0:fe12:3457", `"ifname": mlx5_1,`,
// iproute2 commit ef353e2e), still gives what it holds. Nested arrays
// (caps) are skipped. ok is false when the text is not JSON.
func jsonObjects(text string) (objs []map[string]string, ok bool) {
	t := strings.TrimSpace(text)
	if !isJSON(t) {
		return nil, false
	}
	for _, chunk := range strings.Split(t, "{")[1:] {
		m := map[string]string{}
		for _, kv := range reJSONPair.FindAllStringSubmatch(chunk, -1) {
			v := strings.Trim(kv[2], `"`)
			if v == "" || v == "[" {
				continue
			}
			m[kv[1]] = v
		}
		if m["ifname"] != "" {
			objs = append(objs, m)
		}
	}
	return objs, true
}

// isJSON reports whether an output begins as rdma's JSON does: an array
// of objects ("[{", "[ {", "[]"), not a "[user@host ~]$" prompt.
func isJSON(t string) bool {
	rest, ok := strings.CutPrefix(t, "[")
	rest = strings.TrimSpace(rest)
	return ok && (strings.HasPrefix(rest, "{") || rest == "]")
}

// reJSONPair is one "key": value pair: a string, or a bare word up to the
// next comma, brace or bracket.
var reJSONPair = regexp.MustCompile(`"([\w-]+)"\s*:\s*("[^"]*"|[^,\s}\]]+)`)

// jsonPort splits the "ifname" of a link object and reads its port: since
// iproute2 v5.5.0 "ifname" is the device and "port" the port; before,
// "ifname" was "<dev>/<port>" (iproute2 commit 7fc75744).
func jsonPort(o map[string]string) (dev string, port int, ok bool) {
	dev, p, slash := strings.Cut(o["ifname"], "/")
	if !slash {
		p = o["port"]
	}
	n, err := strconv.Atoi(p)
	return dev, n, err == nil && dev != ""
}

// linksJSON turns `rdma -j link` objects into links.
func linksJSON(objs []map[string]string) []Link {
	var out []Link
	for _, o := range objs {
		dev, port, ok := jsonPort(o)
		if !ok {
			continue
		}
		l := Link{Device: dev, Port: port, State: o["state"], PhysState: o["physical_state"], Netdev: o["netdev"]}
		for k, v := range o {
			switch k {
			case "ifindex", "ifname", "port", "state", "physical_state", "netdev", "netdev_index", "caps":
			default:
				if l.Attrs == nil {
					l.Attrs = map[string]string{}
				}
				l.Attrs[k] = v
			}
		}
		out = append(out, l)
	}
	return out
}

// devsJSON turns `rdma -j dev` objects into devices.
func devsJSON(objs []map[string]string) []Dev {
	var out []Dev
	for _, o := range objs {
		idx, _ := strconv.Atoi(o["ifindex"])
		out = append(out, Dev{Index: idx, Name: o["ifname"], NodeType: o["node_type"], Protocol: o["protocol"],
			FW: o["fw"], NodeGUID: o["node_guid"], SysImageGUID: o["sys_image_guid"]})
	}
	return out
}
