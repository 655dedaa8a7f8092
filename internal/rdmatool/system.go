package rdmatool

import (
	"io"
	"strings"
)

// System is `rdma system show` (`rdma system`, `rdma sys`): the RDMA
// subsystem's settings. iproute2's rdma/sys.c prints "netns %s " (shared
// or exclusive; "netns %s\n" before copy-on-fork was added), then, where
// the kernel reports them, "privileged-qkey on|off ", "monitor on|off " and
// "copy-on-fork on|off"; with -j the same keys as JSON.
type System struct {
	Netns      string            // shared or exclusive (rdma_dev_access_netns): who sees an RDMA device
	CopyOnFork string            // on or off; "" when not printed
	Attrs      map[string]string // every key/value pair printed
}

// ParseSystem reads `rdma system show`. ok is false when the output names
// no namespace mode: an iproute2 too old for the object ("Unknown object
// 'system'."), or a kernel that reports none.
func ParseSystem(r io.Reader) (s System, ok bool, err error) {
	text, err := readAll(r)
	if err != nil {
		return System{}, false, err
	}
	s.Attrs = map[string]string{}
	if isJSON(strings.TrimSpace(text)) {
		// The system object names no device, so it is read by its pairs.
		for _, kv := range reJSONPair.FindAllStringSubmatch(text, -1) {
			s.Attrs[kv[1]] = strings.Trim(kv[2], `"`)
		}
	} else {
		for _, line := range strings.Split(text, "\n") {
			f := strings.Fields(line)
			for i := 0; i+1 < len(f); i++ {
				switch f[i] {
				case "netns", "copy-on-fork", "privileged-qkey", "monitor":
					s.Attrs[f[i]] = f[i+1]
					i++
				}
			}
		}
	}
	switch cof := s.Attrs["copy-on-fork"]; cof {
	case "true":
		s.CopyOnFork = "on"
	case "false":
		s.CopyOnFork = "off"
	default:
		s.CopyOnFork = cof
	}
	s.Netns = s.Attrs["netns"]
	if s.Netns != "shared" && s.Netns != "exclusive" {
		return System{}, false, nil
	}
	return s, true, nil
}
