package fleet

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/diagnose"
	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/rule"
)

// unidentified prefixes the fleet key of functions without PCI ids.
const unidentified = "unidentified:"

// Count is how many hosts (and functions or ports) show one value.
type Count struct {
	Value string   `json:"value"`
	N     int      `json:"n"`     // functions, ports or findings with the value
	Hosts []string `json:"hosts"` // sorted host ids
}

// Model summarises one adapter model across a fleet.
type Model struct {
	Adapter   string  `json:"adapter"` // matrix id; "pci:vvvv:dddd" when the matrix does not know it; "unidentified:<driver>" without PCI ids
	Name      string  `json:"name"`
	Functions int     `json:"functions"`
	Hosts     int     `json:"hosts"`
	Firmware  []Count `json:"firmware"` // running firmware, where the record has it
	// FirmwareUnknown counts the functions whose record has no running
	// firmware: absent is not a value, so they are not in Firmware.
	FirmwareUnknown int     `json:"firmware_unknown,omitempty"`
	Drivers         []Count `json:"drivers"` // driver name, version and origin
	Stacks          []Count `json:"stacks"`  // vendor stack, or "no vendor stack found"
}

// FindingCount counts one check's findings across a fleet.
type FindingCount struct {
	Check    string            `json:"check"`
	Severity diagnose.Severity `json:"severity"` // the worst seen
	N        int               `json:"n"`
	Hosts    []string          `json:"hosts"`
}

// Drift is one adapter model (or the fleet, for RoCE modes) showing more
// than one value where a fleet usually wants one.
type Drift struct {
	Adapter string  `json:"adapter,omitempty"` // empty for fleet-wide drift
	What    string  `json:"what"`              // firmware, driver, stack or roce-mode
	Text    string  `json:"text"`
	Values  []Count `json:"values"`
}

// Summary is the view across many host records.
type Summary struct {
	Hosts     int            `json:"hosts"`
	Models    []Model        `json:"models"`
	Findings  []FindingCount `json:"findings"`
	RoCEModes []Count        `json:"roce_modes"` // RDMA_CM default_roce_mode → Ethernet ports
	Drift     []Drift        `json:"drift"`
}

// tally collects values with the hosts that show them.
type tally map[string]map[string]int // value → host → n

func (t tally) add(value, host string) {
	if t[value] == nil {
		t[value] = map[string]int{}
	}
	t[value][host]++
}

func (t tally) counts() []Count {
	var out []Count
	for v, hosts := range t {
		c := Count{Value: v}
		for h, n := range hosts {
			c.N += n
			c.Hosts = append(c.Hosts, h)
		}
		sort.Strings(c.Hosts)
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].N != out[j].N {
			return out[i].N > out[j].N
		}
		return out[i].Value < out[j].Value
	})
	return out
}

// Summarize builds the fleet view from host diagnoses (Diagnose keeps each
// report's record).
func Summarize(m *matrix.Matrix, reports []*diagnose.Report) Summary {
	if m == nil {
		m = &matrix.Matrix{}
	}
	f := Summary{Hosts: len(reports)}
	type acc struct {
		model               Model
		hosts               map[string]bool
		fw, drivers, stacks tally
	}
	models := map[string]*acc{}
	modes := tally{}
	findings := map[string]*FindingCount{}
	findingHosts := map[string]map[string]bool{}
	for _, rep := range reports {
		h := rep.Record
		host := rep.Host
		if h != nil {
			// No [stack] table means the collector found no vendor stack,
			// which is not proof of inbox drivers.
			stack := "no vendor stack found"
			if h.Stack != nil && h.Stack.Name != "" {
				stack = strings.TrimSpace(h.Stack.Name + " " + h.Stack.Version)
			}
			for i := range h.Adapters {
				a := &h.Adapters[i]
				key, name := "pci:"+a.Vendor+":"+a.Device, a.Name
				if name == "" {
					name = a.Vendor + ":" + a.Device
				}
				if ma := m.Identify(a.Vendor, a.Device, a.SubsystemVendor, a.SubsystemDevice, a.Name); ma != nil {
					key, name = ma.ID, ma.Name
				} else if a.Vendor == "" || a.Device == "" {
					// Functions without PCI ids are no model: group them by
					// driver for the counts, and never call them drift.
					key, name = unidentified+rule.OrDash(a.Driver.Name), "functions without PCI ids, driver "+rule.OrDash(a.Driver.Name)
				}
				ac := models[key]
				if ac == nil {
					ac = &acc{model: Model{Adapter: key, Name: name}, hosts: map[string]bool{}, fw: tally{}, drivers: tally{}, stacks: tally{}}
					models[key] = ac
				}
				ac.model.Functions++
				ac.hosts[host] = true
				if a.Firmware.Running != "" {
					ac.fw.add(a.Firmware.Running, host)
				} else {
					ac.model.FirmwareUnknown++
				}
				ac.drivers.add(driverLabel(hostDriver(h, a)), host)
				ac.stacks.add(stack, host)
			}
			for _, d := range h.Devices {
				for _, p := range d.Ports {
					if strings.EqualFold(p.LinkLayer, "Ethernet") && p.DefaultRoCEMode != "" {
						modes.add(p.DefaultRoCEMode, host)
					}
				}
			}
		}
		for _, fd := range rep.Findings {
			fc := findings[fd.Check]
			if fc == nil {
				fc = &FindingCount{Check: fd.Check}
				findings[fd.Check] = fc
				findingHosts[fd.Check] = map[string]bool{}
			}
			fc.N++
			if fd.Severity.Rank() > fc.Severity.Rank() {
				fc.Severity = fd.Severity
			}
			findingHosts[fd.Check][host] = true
		}
	}
	for _, ac := range models {
		mo := ac.model
		mo.Hosts = len(ac.hosts)
		mo.Firmware, mo.Drivers, mo.Stacks = ac.fw.counts(), ac.drivers.counts(), ac.stacks.counts()
		f.Models = append(f.Models, mo)
		if strings.HasPrefix(mo.Adapter, unidentified) {
			continue
		}
		for _, d := range []struct {
			what   string
			values []Count
		}{{"firmware", mo.Firmware}, {"driver", mo.Drivers}, {"stack", mo.Stacks}} {
			// A value the record lacks ("-") is not a different value,
			// nor is a driver whose version the record lacks beside the
			// same driver with one.
			var known []Count
			for _, c := range d.values {
				if c.Value != "-" && !(d.what == "driver" && subsumed(c.Value, d.values)) {
					known = append(known, c)
				}
			}
			if len(known) > 1 {
				f.Drift = append(f.Drift, Drift{Adapter: mo.Adapter, What: d.what, Values: known,
					Text: fmt.Sprintf("%s runs %d different %ss: %s", mo.Name, len(known), d.what, countList(known))})
			}
		}
	}
	sort.Slice(f.Models, func(i, j int) bool { return f.Models[i].Adapter < f.Models[j].Adapter })
	f.RoCEModes = modes.counts()
	if len(f.RoCEModes) > 1 {
		f.Drift = append(f.Drift, Drift{What: "roce-mode", Values: f.RoCEModes,
			Text: "the fleet mixes RDMA_CM default RoCE modes: " + countList(f.RoCEModes) + "; a RoCE v2 client cannot reach a RoCE v1 server"})
	}
	sort.SliceStable(f.Drift, func(i, j int) bool {
		if f.Drift[i].Adapter != f.Drift[j].Adapter {
			return f.Drift[i].Adapter < f.Drift[j].Adapter
		}
		return f.Drift[i].What < f.Drift[j].What
	})
	for id, fc := range findings {
		for h := range findingHosts[id] {
			fc.Hosts = append(fc.Hosts, h)
		}
		sort.Strings(fc.Hosts)
		f.Findings = append(f.Findings, *fc)
	}
	sort.Slice(f.Findings, func(i, j int) bool { return f.Findings[i].Check < f.Findings[j].Check })
	return f
}

// hostDriver is a function's driver, its version filled in from another
// function of the same host with the same driver and origin when the
// record has it there only (ethtool -i read for one netdev, not the
// other): two functions of one host run one module.
func hostDriver(h *record.Host, a *record.Adapter) record.Driver {
	d := a.Driver
	if d.Version != "" || d.Name == "" {
		return d
	}
	for i := range h.Adapters {
		o := h.Adapters[i].Driver
		if o.Name == d.Name && o.Version != "" && (o.Origin == d.Origin || d.Origin == record.OriginUnknown || d.Origin == "") {
			d.Version = o.Version
			if d.Origin == "" || d.Origin == record.OriginUnknown {
				d.Origin = o.Origin
			}
			return d
		}
	}
	return d
}

// subsumed reports whether a driver label without a version is matched by
// another label of the same driver that has one.
func subsumed(label string, values []Count) bool {
	name, origin, ok := splitLabel(label)
	if !ok {
		return false
	}
	for _, c := range values {
		if c.Value == label {
			continue
		}
		if n, o, _ := splitLabel(c.Value); n == name && (o == origin || origin == "unknown") && strings.HasPrefix(c.Value, name+" ") && !strings.HasPrefix(c.Value, name+" (") {
			return true
		}
	}
	return false
}

// splitLabel splits a driverLabel into the driver's name and origin; ok
// is false when the label has a version.
func splitLabel(label string) (name, origin string, ok bool) {
	name, rest, _ := strings.Cut(label, " ")
	if rest == "" {
		return name, "", true
	}
	if strings.HasPrefix(rest, "(") && strings.HasSuffix(rest, ")") {
		return name, rest[1 : len(rest)-1], true
	}
	i := strings.LastIndex(rest, " (")
	if i >= 0 && strings.HasSuffix(rest, ")") {
		return name, rest[i+2 : len(rest)-1], false
	}
	return name, "", false
}

func driverLabel(d record.Driver) string {
	s := rule.OrDash(d.Name)
	if d.Version != "" {
		s += " " + d.Version
	}
	if d.Origin != "" {
		s += " (" + d.Origin + ")"
	}
	return s
}

func countList(cs []Count) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%s on %d host(s)", c.Value, len(c.Hosts)))
	}
	return strings.Join(parts, ", ")
}
