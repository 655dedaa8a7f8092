package devlink

import (
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// Reporter is one health reporter of `devlink health show` (iproute2
// devlink/devlink.c pr_out_health): a device's ("pci/0000:08:00.0", mlx5's
// fw and fw_fatal) or a port's ("pci/0000:08:00.0/32768", mlx5's tx, rx and
// vnic).
type Reporter struct {
	Handle   string // the devlink handle, the port's index included
	Port     *int   // the port index of a port reporter; nil for the device's
	Name     string // "reporter fw" (iproute2 4.x printed "name fw")
	State    string // "healthy" or "error"
	Errors   *int   // "error N": errors reported since the driver loaded
	Recovers *int   // "recover N": recoveries that succeeded
}

// PCIAddress is the reporter's PCI function, or "" when its handle names
// no PCI device (an auxiliary device's).
func (r Reporter) PCIAddress() string {
	rest, ok := strings.CutPrefix(r.Handle, "pci/")
	if !ok {
		return ""
	}
	addr, _, _ := strings.Cut(rest, "/")
	return addr
}

var (
	// A handle line, a port's with its index; devlink monitor prints
	// "[health,status] " before it.
	healthHandleRE = regexp.MustCompile(`^(?:\[health,\w+\]\s+)?((?:pci|auxiliary)/[^\s/]+?)(?:/(\d+))?:\s*$`)
	reporterRE     = regexp.MustCompile(`^(?:reporter|name)\s+(\S+)\s*$`)
)

// ParseHealth reads the text of `devlink health show` (or `devlink
// health`, `devlink port health show` and the health events of `devlink
// monitor`). Indentation is not trusted, and a reporter's attributes may
// run on over lines a mail wrapped ("last_dump_time …" on its own line).
// A reporter printed twice (monitor events, then `devlink health`; or
// `devlink health` and then one device's) is kept once, as last printed,
// in the place it was first printed.
func ParseHealth(r io.Reader) ([]Reporter, error) {
	var out []Reporter
	seen := map[string]int{} // handle and name → index in out
	handle := ""
	var port *int
	cur := -1
	err := lines.Each(r, func(raw string) {
		line := strings.TrimSpace(unquoteAll(raw))
		if m := healthHandleRE.FindStringSubmatch(line); m != nil {
			handle, port, cur = m[1], nil, -1
			if m[2] != "" {
				n, _ := strconv.Atoi(m[2])
				port = &n
				handle += "/" + m[2]
			}
			return
		}
		if m := reporterRE.FindStringSubmatch(line); m != nil && handle != "" {
			key := handle + " " + m[1]
			i, ok := seen[key]
			if !ok {
				out = append(out, Reporter{})
				i = len(out) - 1
				seen[key] = i
			}
			out[i] = Reporter{Handle: handle, Port: port, Name: m[1]}
			cur = i
			return
		}
		if cur < 0 {
			return
		}
		f := strings.Fields(line)
		for i := 0; i+1 < len(f); i += 2 {
			rep := &out[cur]
			switch f[i] {
			case "state":
				rep.State = f[i+1]
			case "error", "recover":
				n, err := strconv.Atoi(f[i+1])
				if err != nil {
					continue
				}
				if f[i] == "error" {
					rep.Errors = &n
				} else {
					rep.Recovers = &n
				}
			case "grace_period", "auto_recover", "auto_dump", "last_dump_date", "last_dump_time":
			default:
				return // not a reporter's attributes
			}
		}
	})
	return out, err
}

// unquoteAll removes a mail's quote marks ("> ", ">> ", "> > ").
func unquoteAll(line string) string {
	for {
		t := strings.TrimLeft(line, " \t")
		rest, ok := strings.CutPrefix(t, ">")
		if !ok {
			return line
		}
		line = rest
	}
}
