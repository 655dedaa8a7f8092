package diagnose

import (
	"slices"

	"github.com/rocekb/rocekb/internal/record"
)

// logRead reports whether a kernel log was read, so that a log without an
// event of some kind means the event did not happen (while the log reaches).
func (v view) logRead() bool { return v.readOf("kernel-log") != nil || len(v.h.KernelLog) > 0 }

// noLogNote is the note of a log check on a record without a kernel log.
func noLogNote(what string) Note {
	return Note{Subject: "host", Status: Unknown, Text: "no kernel log was read (dmesg, /var/log/dmesg or journalctl -k), so " + what + " cannot be judged"}
}

// logEvidence quotes a kernel log event and the context lines the
// collector kept with it (the lines before a probe failure, the block of a
// warning), in log order, each with its line.
func logEvidence(e record.LogEvent) []Evidence {
	var ev []Evidence
	for _, c := range e.Context {
		if c.Line == e.Line && c.Text == e.Text {
			continue
		}
		if c.Line > e.Line && e.Line > 0 {
			break
		}
		ev = append(ev, Evidence{Fact: "kernel log (context): " + c.Text, Source: e.Source, Line: c.Line})
	}
	ev = append(ev, Evidence{Fact: "kernel log: " + e.Text, Source: e.Source, Line: e.Line})
	for _, c := range e.Context {
		if c.Line > e.Line && e.Line > 0 {
			ev = append(ev, Evidence{Fact: "kernel log (context): " + c.Text, Source: e.Source, Line: c.Line})
		}
	}
	return ev
}

// logSubject names what a log event is about: its device (a PCI address or
// an RDMA device), else its module, else the host.
func logSubject(e record.LogEvent) string {
	switch {
	case e.Device != "":
		return e.Device
	case e.Module != "":
		return e.Module
	}
	return "host"
}

// failureSubject names the device a failure line is about. A line that
// names its device gives it. One that names none (an NVMe-oF, NFS/RDMA,
// iSER, SRP or SMB Direct line prints its controller or share, never the
// RDMA device below it) is put on the host's one RDMA device when it has
// exactly one, else on its one adapter when it has no RDMA device and
// one adapter, else on the host; never on the ULP that printed it. why
// says so when the subject is inferred.
func (v view) failureSubject(e record.LogEvent) (subject, why string) {
	if e.Device != "" {
		return e.Device, ""
	}
	switch {
	case len(v.h.Devices) == 1:
		d := v.h.Devices[0].Name
		return d, "the line names no RDMA device; " + d + " is the host's only one"
	case len(v.h.Devices) == 0 && len(v.h.Adapters) == 1:
		a := v.h.Adapters[0].PCIAddress
		return a, "the line names no device; " + a + " is the host's only adapter"
	}
	return "host", ""
}

// isPCIAddress reports whether s looks like domain:bus:dev.fn.
func isPCIAddress(s string) bool {
	n := 0
	for _, c := range s {
		if c == ':' {
			n++
		}
	}
	return n == 2 && len(s) >= 12 && s[len(s)-2] == '.'
}

// logEvents returns the kernel log events of the given kinds, in record
// order.
func (v view) logEvents(kinds ...string) []record.LogEvent {
	var out []record.LogEvent
	for _, e := range v.h.KernelLog {
		if slices.Contains(kinds, e.Kind) {
			out = append(out, e)
		}
	}
	return out
}
