package collect

import (
	"github.com/rocekb/rocekb/internal/osinfo"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/source"
)

// hostname fills the host name.
func (c *collector) hostname() {
	r, id, ok := c.firstFile(string(source.EtcHostname), string(source.SosHostname), string(source.ProcHostname))
	if !ok {
		// The command's output where a collector keeps it: sos's host
		// plugin, a supportconfig's network.txt. Recorded only when
		// present: the files above already say where the name was sought.
		if cr := c.s.Command("hostname"); cr.OK() {
			r, id, ok = cr, string(source.Cmd("hostname")), true
			c.note(id, cr)
		}
	}
	if ok {
		c.parse(id, func() error {
			n, err := osinfo.ParseHostname(reader(r))
			c.h.Host.ID = n
			return err
		})
	}
}

// kernelRelease fills the kernel release: uname, else the kernel's own file.
func (c *collector) kernelRelease() {
	rel, from := "", ""
	if r, id, ok := c.firstCommand("uname -r", "uname -a"); ok {
		c.parse(id, func() (err error) { rel, err = osinfo.ParseUname(reader(r)); return })
		from = id
	}
	if rel == "" {
		if r, id, ok := c.firstFile(string(source.ProcOSRelease), string(source.ProcVersion)); ok {
			c.parse(id, func() (err error) { rel, err = osinfo.ParseUname(reader(r)); return })
			from = id
		}
	}
	// Without either, the kernel log and modinfo steps fill it later.
	c.h.Host.KernelRelease = rel
	if rel != "" {
		c.h.Host.KernelReleaseFrom = from
	}
}

// osRelease fills the distribution from os-release.
func (c *collector) osRelease() {
	if r, id, ok := c.firstFile(string(source.EtcOSRelease), string(source.UsrOSRelease)); ok {
		c.parse(id, func() error {
			o, err := osinfo.ParseOSRelease(reader(r))
			c.h.Host.OS = record.OSRelease{ID: o.ID, VersionID: o.VersionID, PrettyName: o.PrettyName}
			return err
		})
		return
	}
	// Older Red Hat family hosts (RHEL 6, CentOS 6) have no os-release.
	if r, id, ok := c.firstFile(string(source.EtcRedHatRelease)); ok {
		c.parse(id, func() error {
			o, err := osinfo.ParseRedHatRelease(reader(r))
			c.h.Host.OS = record.OSRelease{ID: o.ID, VersionID: o.VersionID, PrettyName: o.PrettyName}
			return err
		})
	}
}
