package collect

import (
	"regexp"

	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/rxecfg"
)

var rdmaCMDevRE = regexp.MustCompile(`rdma_cm/([A-Za-z0-9_.-]+)/`)

// rxeCfg reads rdma-core's old rxe_cfg table: each row is a netdev with
// its driver and link, and the rdma_rxe device bound to it; the messages
// around it (configfs failures, Perl warnings) are kept classified.
func (c *collector) rxeCfg() {
	r, id, ok := c.firstCommand("rxe_cfg status", "rxe_cfg")
	if !ok {
		return
	}
	c.parse(id, func() error {
		out, err := rxecfg.Parse(reader(r))
		for _, in := range out.Interfaces {
			n := c.addNetdev(in.Name, id)
			if n == nil {
				continue
			}
			fill(&n.Driver, in.Driver, &n.From, "driver", id)
			fill(&n.Link, netdevLink(in.Link), &n.From, "link", id)
			if in.RDEV == "" {
				continue
			}
			d := c.device(in.RDEV)
			fill(&d.Parent, in.Name, &d.From, "parent", id)
			if d.Provider == "" {
				// rxe_cfg manages rdma_rxe devices only, whatever their name.
				d.Provider = "rdma_rxe"
				setFrom(&d.From, "provider", id)
			}
		}
		for _, m := range out.Messages {
			tm := record.ToolMessage{Tool: "rxe_cfg", Kind: m.Kind, Text: m.Text, Source: id, Line: m.Line}
			if m.Kind == rxecfg.ConfigfsError {
				if sm := rdmaCMDevRE.FindStringSubmatch(m.Text); sm != nil {
					tm.Device = sm[1]
				}
			}
			c.h.ToolMessages = append(c.h.ToolMessages, tm)
		}
		return err
	})
}
