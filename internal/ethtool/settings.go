package ethtool

import (
	"io"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// Settings is one `ethtool <netdev>` block: the link as the driver
// reports it.
type Settings struct {
	Netdev string // the name of its "Settings for <netdev>:" line
	Speed  string // Speed, as printed ("25000Mb/s", "Unknown!")
	Duplex string // Duplex, as printed ("Full", "Unknown! (255)")
	Link   string // Link detected: yes or no
}

// ParseSettings reads every `ethtool <netdev>` block in r. A block starts
// at its "Settings for <netdev>:" line; its keys may be indented or not
// (a mail's flowed text loses the indentation), and a poster's prompt,
// quote marks ("> ", "| ") or "# " before each line are skipped. Lines of
// no key it keeps (link modes, wake-on, message level) are ignored.
func ParseSettings(r io.Reader) ([]Settings, error) {
	var out []Settings
	err := lines.Each(r, func(line string) {
		trim := strings.TrimSpace(line)
		for {
			t := strings.TrimSpace(strings.TrimLeft(trim, ">|#"))
			if t == trim {
				break
			}
			trim = t
		}
		if name, ok := strings.CutPrefix(trim, "Settings for "); ok && strings.HasSuffix(name, ":") {
			out = append(out, Settings{Netdev: strings.TrimSpace(strings.TrimSuffix(name, ":"))})
			return
		}
		if len(out) == 0 {
			return
		}
		cur := &out[len(out)-1]
		key, val, ok := strings.Cut(trim, ":")
		if !ok {
			return
		}
		val = strings.TrimSpace(val)
		switch key {
		case "Speed":
			cur.Speed = val
		case "Duplex":
			cur.Duplex = val
		case "Link detected":
			cur.Link = val
		}
	})
	return out, err
}
