package rdmatool

import (
	"io"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// ParseRes reads any output of `rdma resource` (`rdma res`, `rdma res show`,
// `rdma resource show qp|cm_id|cq|pd|mr|ctx|srq`, with -d, and their JSON
// forms) and lists the RDMA devices it names, in first-seen order: to a
// host record a resource line says only that the device exists. Its lines
// are headed
//
//   - "<index>: <dev>: pd 3 cq 5 qp 4 …", the summary (iproute2 commit 923aa825);
//   - "link <dev>/<port> lqpn …", QPs and CM ids, the port "-" when none is
//     bound (commits 8ecac46a, 9a362cc7);
//   - "dev <dev> …", CQs, MRs, PDs, contexts and SRQs (b0b8e32c, 8958a15c,
//     96f59e7f, 42789412, 9b272e13);
//   - "ifindex <n> ifname <dev> …" or "link <dev>/lqpn …", as iproute2
//     printed them between its JSON rewrite (b0a688a5) and the fix of
//     db6d6bec (2020);
//
// and `rdma -j res …` prints an array of objects whose "ifname" is the device.
func ParseRes(r io.Reader) ([]string, error) {
	return devicesNamed(r, func(f []string) string {
		if len(f) < 3 {
			return ""
		}
		switch {
		case f[0] == "link":
			if dev, port, ok := strings.Cut(f[1], "/"); ok && (port == "-" || port == "lqpn" || isNumber(port)) {
				return dev
			}
		case f[0] == "dev" && resourceKey(f[2]):
			return f[1]
		case f[0] == "ifindex" && len(f) > 4 && isNumber(f[1]) && f[2] == "ifname":
			return f[3]
		case strings.HasSuffix(f[0], ":") && strings.HasSuffix(f[1], ":") && isNumber(strings.TrimSuffix(f[0], ":")) && summaryKey(f[2]):
			return strings.TrimSuffix(f[1], ":")
		}
		return ""
	})
}

// devicesNamed lists the RDMA devices an rdma output names, in first-seen
// order: with -j, each object's "ifname" (its device before a "/port");
// else the device devOf reads from a line's fields ("" for none).
func devicesNamed(r io.Reader, devOf func(fields []string) string) ([]string, error) {
	text, err := readAll(r)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	add := func(dev string) {
		if dev != "" && !seen[dev] {
			seen[dev] = true
			out = append(out, dev)
		}
	}
	if objs, ok := jsonObjects(text); ok {
		for _, o := range objs {
			dev, _, _ := strings.Cut(o["ifname"], "/")
			add(dev)
		}
		return out, nil
	}
	err = lines.Each(strings.NewReader(text), func(raw string) { add(devOf(strings.Fields(raw))) })
	return out, err
}

// resourceKey reports whether a word is one that follows "dev <name>" on
// a resource line (the object's number or its first field).
func resourceKey(w string) bool {
	switch w {
	case "cqn", "cqe", "mrn", "rkey", "lkey", "iova", "mrlen", "pdn", "users", "local_dma_lkey", "ctxn", "srqn", "pid", "comm":
		return true
	}
	return false
}

// summaryKey reports whether a word is a resource name of the summary
// (the kernel names them: nldev.c's names table).
func summaryKey(w string) bool {
	switch w {
	case "pd", "cq", "qp", "cm_id", "mr", "ctx", "srq":
		return true
	}
	return false
}

func isNumber(s string) bool {
	_, err := strconv.ParseUint(s, 10, 32)
	return err == nil
}

// readAll reads a whole output: the JSON forms may be one long line.
func readAll(r io.Reader) (string, error) {
	b, err := io.ReadAll(r)
	return string(b), err
}
