package collect

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/dmesg"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
	"github.com/rocekb/rocekb/internal/source"
)

// logFirmware is a firmware version a driver printed for a PCI function.
type logFirmware struct {
	addr, version, src string
}

// kernelLog classifies every kernel log the snapshot holds, in the
// table's order: dmesg, dmesg -T, journalctl -k, /var/log/dmesg, then the
// row's Globs (sos's journal variants, the syslog files and their
// rotations, supportconfig's boot.txt and messages.txt). A live run (and
// a capture of one) reads the first ring-buffer source that answers and
// no file. The same message
// read from several places counts once: an event is kept from a later
// log only past the number of times the logs before it held it, so each
// keeps the source and line where it was first read. Besides its events,
// a log states what is bound to which PCI function, so a host with only a
// kernel log still gets adapters; earlier logs win there.
func (c *collector) kernelLog() {
	row, _ := source.Of(source.Dmesg)
	seen := map[string]int{} // event key → times the logs read so far held it
	read := 0
	// A live run, and a capture that replays one, read the first
	// ring-buffer source that answers.
	first := c.s.Kind == snapshot.KindLive || c.s.Kind == snapshot.KindCapture
	for _, cmd := range row.Commands {
		if first && read > 0 {
			break
		}
		if r, id := c.command(cmd.Line); r.OK() {
			c.readLog(id, r, seen)
			read++
		}
	}
	if first && read > 0 {
		return
	}
	for _, f := range row.Files {
		if r := c.file(string(f)); r.OK() {
			c.readLog(string(f), r, seen)
		}
	}
	for _, p := range c.globbed(row) {
		r := c.file(p)
		if !r.OK() {
			continue
		}
		if strings.HasSuffix(p, ".gz") {
			r = c.gunzip(p, r)
			if !r.OK() {
				continue
			}
		}
		c.readLog(p, r, seen)
	}
}

// globbed lists the snapshot files the row's Globs match, in the order of
// the Globs and by name within each (an older rotation after the current
// file), each once.
func (c *collector) globbed(row source.Tool) []string {
	var out []string
	done := map[string]bool{}
	for _, g := range row.Globs {
		matches, _ := fs.Glob(c.s.FS(), g)
		sort.Strings(matches)
		for _, m := range matches {
			if fi, err := fs.Stat(c.s.FS(), m); err != nil || fi.IsDir() || done[m] || !row.Globbed(m) {
				continue
			}
			done[m] = true
			out = append(out, m)
		}
	}
	return out
}

// eachGlobbed reads each snapshot file the row's Globs match, in globbed's
// order, and calls fn with each that was read.
func (c *collector) eachGlobbed(row source.Tool, fn func(p string, r snapshot.Result)) {
	for _, p := range c.globbed(row) {
		if r := c.file(p); r.OK() {
			fn(p, r)
		}
	}
}

// gunzip decompresses a rotated log, at most the snapshot's per-file cap.
func (c *collector) gunzip(p string, r snapshot.Result) snapshot.Result {
	zr, err := gzip.NewReader(bytes.NewReader(r.Data))
	if err != nil {
		c.fail(p, "gzip: "+err.Error())
		return snapshot.Result{Path: p, Status: snapshot.StatusFailed}
	}
	limit := c.s.MaxFile
	if limit <= 0 {
		limit = snapshot.DefaultMaxFile
	}
	data, err := io.ReadAll(io.LimitReader(zr, limit+1))
	if err != nil && len(data) == 0 {
		c.fail(p, "gzip: "+err.Error())
		return snapshot.Result{Path: p, Status: snapshot.StatusFailed}
	}
	if int64(len(data)) > limit {
		data = data[:limit]
		c.problem(p, "truncated: decompressed past the per-file cap of %d bytes", limit)
	}
	r.Data = data
	return r
}

// eventKey is what makes two log events the same message: read from two
// places, a message keeps its kind and text (timestamps are stripped).
func eventKey(kind, text string) string { return kind + "\x00" + text }

// readLog classifies one kernel log, keeping the events that logs read
// before it did not hold (seen counts them).
func (c *collector) readLog(id string, r snapshot.Result, seen map[string]int) {
	c.parse(id, func() error {
		lg, err := dmesg.ParseLog(reader(r))
		at := func(line int) string { return fmt.Sprintf("%s line %d", id, line) }
		here := map[string]int{}
		for i, e := range lg.Events {
			k := eventKey(e.Kind, e.Text)
			here[k]++
			if here[k] <= seen[k] {
				continue // read from an earlier source already
			}
			ev := record.LogEvent{
				Kind: e.Kind, Time: e.Time, Module: e.Module, Device: e.Device, Errno: e.Errno,
				Text: e.Text, Source: id, Line: e.Line,
			}
			for _, cl := range lg.Context[i] {
				ev.Context = append(ev.Context, record.LogLine{Text: cl.Text, Line: cl.Line})
			}
			c.h.KernelLog = append(c.h.KernelLog, ev)
			if e.Kind == dmesg.DriverInit && e.Module != "" {
				if m := logVersionRE.FindStringSubmatch(e.Text); m != nil {
					ms := c.module(e.Module)
					if ms.logVer == "" {
						ms.logVer, ms.logSrc = m[1], at(e.Line)
					}
				}
			}
		}
		for k, n := range here {
			seen[k] = max(seen[k], n)
		}
		if lg.Dropped > 0 {
			c.problem(id, "kept the first %d RDMA-relevant kernel log lines; %d more were dropped", dmesg.MaxEvents, lg.Dropped)
		}
		c.logHardware(lg, at)
		if c.h.Host.KernelRelease == "" && lg.KernelRelease != "" {
			c.h.Host.KernelRelease = lg.KernelRelease
			c.h.Host.KernelReleaseFrom = fmt.Sprintf("%s (%s)", at(lg.KernelReleaseLine), lg.KernelReleaseFrom)
		}
		for _, m := range lg.Modules {
			c.seeModule(m, record.LoadedWhenLogged, id, lg.ModulesLine)
		}
		return err
	})
}

// logHardware reads what the log states about the PCI functions: their
// ids, bound drivers with their netdevs, RDMA devices and firmware, PCIe
// bandwidth and renames. Other sources read before it win.
func (c *collector) logHardware(lg dmesg.Log, at func(int) string) {
	for _, p := range lg.PCIIDs {
		addr := strings.ToLower(p.PCIAddress)
		if _, ok := c.adapters[addr]; !ok && !strings.HasPrefix(p.Class, "02") {
			continue
		}
		if _, ok := c.adapters[addr]; !ok {
			setFrom(&c.adapter(addr).From, "pci_address", at(p.Line))
		}
		a := c.adapter(addr)
		fill(&a.Vendor, p.Vendor, &a.From, "vendor", at(p.Line))
		fill(&a.Device, p.Device, &a.From, "device", at(p.Line))
	}
	renamed := map[string]bool{} // "<addr> <old name>"
	for _, rn := range lg.Renames {
		renamed[strings.ToLower(rn.PCIAddress)+" "+rn.From] = true
	}
	// RDMA devices come from the log only when nothing else listed them:
	// the log tells what existed when it was written, not now.
	logDevices := len(c.devices) == 0 && c.sources[string(source.SysInfiniBand)].Status != record.StatusOK
	if logDevices {
		for _, n := range lg.RDMANames {
			d := c.device(n.Device)
			setFrom(&d.From, "name", at(n.Line))
		}
	}
	for _, b := range lg.Bindings {
		addr := strings.ToLower(b.PCIAddress)
		_, known := c.adapters[addr]
		// A function is an adapter when its network driver or an RDMA
		// provider speaks for it ("mlx4_core 0000:05:00.0: mlx4_ib: …").
		if !known && !netDriver(b.Driver) && !providerModule(b.Driver) && len(b.Netdevs) == 0 && len(b.RDMADevices) == 0 {
			continue
		}
		a := c.adapter(addr)
		if !known {
			setFrom(&a.From, "pci_address", at(b.Line))
		}
		// An RDMA provider speaking about a function (enic_rdma on enic,
		// qedr on qede) is not the function's PCI driver.
		if !providerModule(b.Driver) {
			fill(&a.Driver.Name, b.Driver, &a.From, "driver.name", at(b.Line))
		}
		for i, name := range b.Netdevs {
			if renamed[addr+" "+name] {
				continue
			}
			line := b.Line
			if i < len(b.NetdevLines) {
				line = b.NetdevLines[i]
			}
			a.Netdevs = append(a.Netdevs, name)
			n := c.addNetdev(name, at(line))
			fill(&n.PCIAddress, addr, &n.From, "pci_address", at(line))
		}
		for _, name := range b.RDMADevices {
			if d, ok := c.devices[name]; ok {
				fill(&d.PCIAddress, addr, &d.From, "pci_address", at(b.Line))
			}
		}
		if b.Firmware != "" {
			c.logFW = append(c.logFW, logFirmware{addr: addr, version: b.Firmware, src: at(b.FirmwareLine)})
		}
	}
	for _, rn := range lg.Renames {
		addr := strings.ToLower(rn.PCIAddress)
		if _, ok := c.adapters[addr]; !ok {
			continue
		}
		a := c.adapter(addr)
		a.Netdevs = append(a.Netdevs, rn.To)
		n := c.addNetdev(rn.To, at(rn.Line))
		fill(&n.PCIAddress, addr, &n.From, "pci_address", at(rn.Line))
	}
	for _, bw := range lg.Bandwidth {
		a, ok := c.adapters[strings.ToLower(bw.PCIAddress)]
		if !ok {
			continue
		}
		c.logBandwidth(a, bw, at(bw.Line))
	}
}

// logBandwidth fills the adapter's PCIe link from a bandwidth line where
// lspci gave nothing.
func (c *collector) logBandwidth(a *record.Adapter, bw dmesg.Bandwidth, src string) {
	if a.PCIe == nil {
		a.PCIe = &record.PCIeLink{}
	}
	p := a.PCIe
	setF := func(dst **float64, v float64, field string) {
		if *dst == nil && v > 0 {
			*dst = &v
			setFrom(&a.From, "pcie."+field, src)
		}
	}
	setI := func(dst **int, v int, field string) {
		if *dst == nil && v > 0 {
			*dst = &v
			setFrom(&a.From, "pcie."+field, src)
		}
	}
	setF(&p.AvailableGbps, bw.AvailableGbps, "available_gbps")
	setF(&p.SpeedGTps, bw.SpeedGTps, "speed_gtps")
	setI(&p.Width, bw.Width, "width")
	if bw.LimitedBy != "" {
		fill(&p.LimitedBy, bw.LimitedBy, &a.From, "pcie.limited_by", src)
		setF(&p.CapableGbps, bw.CapableGbps, "capable_gbps")
		setF(&p.CapableSpeedGTps, bw.CapableGTps, "capable_speed_gtps")
		setI(&p.CapableWidth, bw.CapableWidth, "capable_width")
		if p.Downgraded == nil {
			t := true
			p.Downgraded = &t
			setFrom(&a.From, "pcie.downgraded", src)
		}
	}
}

// applyLogFirmware gives an adapter the firmware its driver printed, when
// no better source (devlink, ethtool, sysfs fw_ver) gave one.
func (c *collector) applyLogFirmware() {
	for _, f := range c.logFW {
		a := c.adapter(f.addr)
		fill(&a.Firmware.Running, f.version, &a.From, "firmware.running", f.src)
	}
}

// providerModule reports whether a module is an RDMA provider that rides
// on another PCI driver, rather than a PCI driver itself.
func providerModule(name string) bool {
	if netDriver(name) {
		return false
	}
	for _, p := range providers {
		if slices.Contains(p.modules, name) {
			return true
		}
	}
	for _, mods := range byPCIDriver {
		if slices.Contains(mods, name) {
			return true
		}
	}
	return false
}
