package collect

import (
	"github.com/rocekb/rocekb/internal/osinfo"
	"github.com/rocekb/rocekb/internal/record"
)

// host fills the host name, kernel release and OS.
func (c *collector) host() {
	if r, id, ok := c.firstFile("etc/hostname", "hostname", "proc/sys/kernel/hostname"); ok {
		c.parse(id, func() error {
			n, err := osinfo.ParseHostname(reader(r))
			c.h.Host.ID = n
			return err
		})
	}
	rel := ""
	if r, id, ok := c.firstCommand("uname -r", "uname -a"); ok {
		c.parse(id, func() (err error) { rel, err = osinfo.ParseUname(reader(r)); return })
	}
	if rel == "" {
		if r, id, ok := c.firstFile("proc/sys/kernel/osrelease"); ok {
			c.parse(id, func() (err error) { rel, err = osinfo.ParseUname(reader(r)); return })
		}
	}
	c.h.Host.KernelRelease = rel
	if r, id, ok := c.firstFile("etc/os-release", "usr/lib/os-release"); ok {
		c.parse(id, func() error {
			o, err := osinfo.ParseOSRelease(reader(r))
			c.h.Host.OS = record.OSRelease{ID: o.ID, VersionID: o.VersionID, PrettyName: o.PrettyName}
			return err
		})
	}
}
