package collect

import (
	"path"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/ls"
	"github.com/rocekb/rocekb/internal/rdmatool"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
	"github.com/rocekb/rocekb/internal/source"
	"github.com/rocekb/rocekb/internal/sysfs"
)

// sysfsInfiniBandListing reads /sys/class/infiniband from its listing
// when the folder itself was not in the snapshot: a paste or a pod's log
// holds `ls /sys/class/infiniband`, whose names are the RDMA devices this
// network namespace sees ("ls -l" adds each device's PCI path). A live
// host's folder is the folder.
func (c *collector) sysfsInfiniBandListing() {
	if src, ok := c.sources[string(source.SysInfiniBand)]; !ok || src.Status != record.StatusAbsent {
		return // the folder was read (or could not be): it is the better source
	}
	if c.s.Kind == snapshot.KindLive || len(c.s.Commands()) > 0 {
		// kbcollect read this host (live, or the capture of its run): the
		// folder's absence is the answer, and no listing was taken.
		return
	}
	c.listing("/sys/class/infiniband", func(l ls.Listing, _ snapshot.Result, id string) {
		c.listedDevices(l, id, true)
	})
}

// listedDevices adds the RDMA devices a listing of /sys/class/infiniband
// names, with the PCI function a symlink's target ends in
// (../../devices/pci0000:c0/0000:c0:03.2/0000:c3:00.0/infiniband/mlx5_0).
// A listing of that folder alone prints no header (unnamed); one of several
// folders names it.
func (c *collector) listedDevices(l ls.Listing, id string, unnamed bool) {
	d, ok := l.Folder("/sys/class/infiniband")
	if !ok || d.Path == "" && !unnamed {
		return
	}
	for _, e := range d.Entries {
		if e.Type != 0 && e.Type != 'l' && e.Type != 'd' || e.Name == "" {
			continue
		}
		dev := c.device(e.Name)
		setFrom(&dev.From, "name", id)
		if parts := strings.Split(e.Target, "/"); len(parts) >= 3 && parts[len(parts)-2] == "infiniband" && path.Base(e.Target) == e.Name {
			if bdf := parts[len(parts)-3]; sysfs.IsPCIAddress(bdf) {
				fill(&dev.PCIAddress, bdf, &dev.From, "pci_address", id)
				c.adapter(bdf)
			}
		}
	}
}

// devInfiniBand reads the listing of /dev/infiniband: the character
// devices user space can open here. ls's "No such file or directory" is
// data too: the folder is missing (a container given none of it).
func (c *collector) devInfiniBand() {
	c.listing("/dev/infiniband", func(l ls.Listing, r snapshot.Result, id string) {
		if p, missing := l.Missing("/dev/infiniband"); missing {
			c.noteStatus(id, r.Path, record.StatusOK, "no /dev/infiniband: "+p.Text)
		}
		if d, ok := l.Folder("/dev/infiniband"); ok {
			for _, e := range d.Entries {
				if e.Type != 0 && e.Type != 'c' {
					continue // by-ibdev/, by-path/ and the like
				}
				c.h.CharDevices = append(c.h.CharDevices, record.CharDevice{Name: e.Name, Mode: e.Mode, Major: e.Major, Minor: e.Minor, Source: id, Line: e.Line})
			}
		}
		// `ls -l /dev/infiniband /sys/class/infiniband …` in one listing
		// (a device plugin's test pod prints that).
		c.listedDevices(l, id, false)
	})
	sort.SliceStable(c.h.CharDevices, func(i, j int) bool { return c.h.CharDevices[i].Name < c.h.CharDevices[j].Name })
}

// listing parses the first listing of folder the snapshot holds (ls -l
// or ls of it, lsFirst) and hands it to read.
func (c *collector) listing(folder string, read func(l ls.Listing, r snapshot.Result, id string)) {
	r, id, ok := c.lsFirst(folder, "ls -l "+folder, "ls "+folder)
	if !ok {
		return
	}
	c.parse(id, func() error {
		l, err := ls.Parse(reader(r))
		if err != nil {
			return err
		}
		read(l, r, id)
		return nil
	})
}

// lsFirst reads the first listing of a folder the snapshot holds. A live
// ls of a missing folder exits 2 and says "No such file or directory" on
// stderr, which the reason keeps: that is an answer, the folder is not
// there, so the source is ok (saying so) and no other form is tried; a
// capture replays the same result.
func (c *collector) lsFirst(folder string, cmdlines ...string) (snapshot.Result, string, bool) {
	for _, cl := range cmdlines {
		r, id := c.command(cl)
		if r.OK() {
			return r, id, true
		}
		if strings.Contains(r.Reason, "No such file or directory") {
			// Replaces the failed status command recorded.
			c.sources[id] = record.Source{ID: id, Path: r.Path, Status: record.StatusOK, Reason: "no " + folder + ": " + r.Reason}
			return r, id, false
		}
	}
	return snapshot.Result{}, "", false
}

// rdmaSystem reads `rdma system show`: the RDMA subsystem's network
// namespace mode. An iproute2 without the object ("Unknown object
// 'system'.") names none.
func (c *collector) rdmaSystem() {
	r, id, ok := c.firstCommand("rdma system show", "rdma system")
	if !ok {
		return
	}
	c.parse(id, func() error {
		s, ok, err := rdmatool.ParseSystem(reader(r))
		if err != nil || !ok {
			return err
		}
		c.h.RDMASystem = &record.RDMASystem{Netns: s.Netns, CopyOnFork: s.CopyOnFork, From: id}
		return nil
	})
}
