package diagnose

import (
	"strings"

	"github.com/rocekb/rocekb/internal/record"
)

// Tool message kinds the verbs and rxe checks read (record.ToolMessage).
const (
	msgNoDevice        = "no-device"
	msgProviderMissing = "provider-missing"
	msgProviderConfig  = "provider-config-missing"
	msgABIMismatch     = "abi-mismatch"
	msgConfigfsError   = "configfs-error"
	msgWriteError      = "write-error"
)

// messages returns the tool messages of the given kinds, in record order.
func (v view) messages(kinds ...string) []record.ToolMessage {
	var out []record.ToolMessage
	for _, m := range v.h.ToolMessages {
		for _, k := range kinds {
			if m.Kind == k {
				out = append(out, m)
				break
			}
		}
	}
	return out
}

func messageFact(m record.ToolMessage) Evidence {
	f := m.Tool + ": " + m.Text
	if m.Count > 1 {
		f += " (printed " + itoa(m.Count) + " times)"
	}
	return Evidence{Fact: f, Source: m.Source, Line: m.Line}
}

// verbsEmpty says whether verbs sees no RDMA device, with the evidence:
// ibv_devinfo said so, or a device listing was read and lists none. ok is
// false when no source tells.
func (v view) verbsEmpty() (empty bool, ev []Evidence, ok bool) {
	if ms := v.messages(msgNoDevice); len(ms) > 0 {
		for _, m := range ms {
			ev = append(ev, messageFact(m))
		}
		return true, ev, true
	}
	if len(v.h.Devices) > 0 {
		return false, nil, true
	}
	if s := v.readOf(deviceTools...); s != nil {
		return true, []Evidence{{Fact: s.ID + " was read and lists no RDMA device", Source: s.ID}}, true
	}
	if s := v.source("sys/class/infiniband"); s != nil && v.devicesListed() {
		return true, []Evidence{{Fact: "sys/class/infiniband " + s.Status + reasonSuffix(s.Reason), Source: s.ID}}, true
	}
	return false, nil, false
}

// abiProblems are problems the collector recorded about libibverbs warnings
// on tools it keeps no messages for (ibv_devices): a provider that does not
// match the kernel's ABI, or none for a device.
func (v view) abiProblems() []record.Problem {
	var out []record.Problem
	kept := map[string]bool{}
	for _, m := range v.h.ToolMessages {
		kept[m.Source] = true
	}
	for _, p := range v.h.Problems {
		if kept[p.Source] {
			continue // its lines are tool messages already
		}
		if strings.Contains(p.Msg, "does not support the kernel ABI") || strings.Contains(p.Msg, "no userspace device-specific driver") {
			out = append(out, p)
		}
	}
	return out
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	if n == 0 {
		return "0"
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
