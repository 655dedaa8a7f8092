package collect

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/rocekb/rocekb/internal/dmesg"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/snapshot"
	"github.com/rocekb/rocekb/internal/source"
)

// kernelLog classifies the first kernel log the snapshot holds: dmesg
// (sos_commands/kernel/dmesg), /var/log/dmesg, then the journal.
func (c *collector) kernelLog() {
	r, id, ok := c.firstCommand("dmesg")
	if !ok {
		r, id, ok = c.firstFile(string(source.VarLogDmesg))
	}
	if !ok {
		r, id, ok = c.firstCommand("journalctl -k --no-pager")
	}
	if !ok {
		r, id, ok = c.sosJournal()
	}
	if !ok {
		return
	}
	c.parse(id, func() error {
		res, err := dmesg.Parse(reader(r))
		for _, e := range res.Events {
			c.h.KernelLog = append(c.h.KernelLog, record.LogEvent{
				Kind: e.Kind, Time: e.Time, Module: e.Module, Device: e.Device, Errno: e.Errno,
				Text: e.Text, Source: id, Line: e.Line,
			})
			if e.Kind == dmesg.DriverInit && e.Module != "" {
				if m := logVersionRE.FindStringSubmatch(e.Text); m != nil {
					ms := c.module(e.Module)
					if ms.logVer == "" {
						ms.logVer, ms.logSrc = m[1], fmt.Sprintf("%s line %d", id, e.Line)
					}
				}
			}
		}
		if res.Dropped > 0 {
			c.problem(id, "kept the first %d RDMA-relevant kernel log lines; %d more were dropped", dmesg.MaxEvents, res.Dropped)
		}
		return err
	})
}

// sosJournal finds sos's journal output of the kernel ring buffer under
// sos_commands/logs (journalctl … -k or --dmesg).
func (c *collector) sosJournal() (snapshot.Result, string, bool) {
	entries, _ := fs.ReadDir(c.s.FS(), source.KernelLogJournal)
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, "journalctl") && (strings.Contains(n, "_-k") || strings.Contains(n, "--dmesg")) {
			r, id, ok := c.firstFile(source.KernelLogJournal + "/" + n)
			return r, id, ok
		}
	}
	return snapshot.Result{}, "", false
}
