package readiness

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/rule"
	"github.com/rocekb/rocekb/internal/verdict"
	"github.com/rocekb/rocekb/internal/version"
)

// Status is where a host or an adapter stands against a target.
type Status string

const (
	Ready       Status = "ready"        // every adapter is supported as it is
	NeedsAction Status = "needs-action" // supported after a stated action: a stack to install, firmware to update
	Unknown     Status = "unknown"      // the matrix does not decide it; Reasons say what is missing
	Blocked     Status = "blocked"      // a source excludes the target for an adapter
)

// Label is the status as people read it: "needs action".
func (s Status) Label() string { return strings.ReplaceAll(string(s), "-", " ") }

// Statuses lists the statuses worst first.
var Statuses = []Status{Blocked, Unknown, NeedsAction, Ready}

// Rank orders statuses: the higher, the worse. Unknown ranks above needs
// action as the verdict engine ranks it: an action is known, a gap is not.
func (s Status) Rank() int { return len(Statuses) - 1 - slices.Index(Statuses, s) }

// Target is a planned state for the whole fleet. An empty field keeps what
// each host has: no Distro and no Kernel judge each host's own OS, no Stack
// its current stack, no Firmware each adapter's running firmware.
type Target struct {
	Name         string `toml:"name" json:"name,omitempty"`
	Distro       string `toml:"distro,omitempty" json:"distro,omitempty"`
	Kernel       string `toml:"kernel,omitempty" json:"kernel,omitempty"`
	Stack        string `toml:"stack,omitempty" json:"stack,omitempty"`
	StackVersion string `toml:"stack_version,omitempty" json:"stack_version,omitempty"`
	Firmware     string `toml:"firmware,omitempty" json:"firmware,omitempty"`
}

// Label names the target for a person: its name, or its plan.
func (t Target) Label() string {
	if t.Name != "" {
		return t.Name
	}
	var parts []string
	for _, s := range []string{t.Distro, t.Kernel, strings.TrimSpace(t.Stack + " " + t.StackVersion), t.Firmware} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return "as they are"
	}
	return strings.Join(parts, " · ")
}

// Split returns the target with a stack named with its release
// (mlnx-ofed@24.10-1.1.4.0, MLNX_OFED_LINUX-24.10-1.1.4.0) read as the
// stack and its release, unless the target names the release apart.
func (t Target) Split(m *matrix.Matrix) Target {
	if name, rel := m.SplitStack(t.Stack); rel != "" && t.StackVersion == "" {
		t.Stack, t.StackVersion = name, rel
	}
	return t
}

// Check reports why the target cannot be judged against m: a distro or
// stack the matrix does not know, a kernel, stack release or firmware that
// is not a version. A kb.toml target is checked before any host is.
func (t Target) Check(m *matrix.Matrix) error {
	if t.Distro != "" && m.Distro(t.Distro) == nil && m.ResolveDistro(t.Distro).Value == nil {
		return fmt.Errorf("unknown distro %q%s", t.Distro, matrix.DidYouMean(m.ResolveDistro(t.Distro).Suggest))
	}
	if t = t.Split(m); t.Stack != "" {
		if id, r := m.ResolveStack(t.Stack); id == "" {
			return fmt.Errorf("unknown stack %q%s", t.Stack, matrix.DidYouMean(r.Suggest))
		}
	}
	if t.Kernel != "" {
		if _, _, ok := rule.KernelBase(rule.TrimKernel(t.Kernel)); !ok {
			return fmt.Errorf("invalid kernel %q: want an upstream release (6.8) or a kernel release as uname -r prints it", t.Kernel)
		}
	}
	for _, f := range [][2]string{{"stack_version", t.StackVersion}, {"firmware", t.Firmware}} {
		if f[1] == "" {
			continue
		}
		if _, err := version.Parse(f[1]); err != nil {
			return fmt.Errorf("invalid %s %q: %v", f[0], f[1], err)
		}
	}
	return nil
}

// Adapter is one PCI function judged against the target.
type Adapter struct {
	PCI          string          `json:"pci"`
	Adapter      string          `json:"adapter,omitempty"` // matrix adapter id; empty when the matrix does not know it
	Name         string          `json:"name"`
	Firmware     string          `json:"firmware,omitempty"` // running now
	CurrentStack string          `json:"current_stack"`      // inbox, or a stack id with its release
	Status       Status          `json:"status"`             // what the target means for it
	Actions      []string        `json:"actions,omitempty"`  // what needs doing (needs-action)
	Reasons      []string        `json:"reasons,omitempty"`  // why blocked or unknown
	Verdict      verdict.Verdict `json:"verdict"`            // the engine's verdict on the target plan
	OtherPCI     []string        `json:"also_on,omitempty"`  // further functions of the same model judged the same
}

// Host is one host's readiness: its worst adapter decides it.
type Host struct {
	Host     string    `json:"host"`
	File     string    `json:"file,omitempty"` // the record it was read from
	Status   Status    `json:"status"`
	Adapters []Adapter `json:"adapters,omitempty"`
	Reason   string    `json:"reason,omitempty"` // why a host with no adapter to judge is unknown
}

// Report is a fleet against one target.
type Report struct {
	Target Target         `json:"target"`
	Hosts  []Host         `json:"hosts"`  // worst first, then by host
	Totals map[Status]int `json:"totals"` // hosts per status
}

// Judge judges every host against the target with the verdict engine.
func Judge(e *verdict.Engine, m *matrix.Matrix, t Target, hosts []*record.Host, files []string) Report {
	judged := make([]Host, 0, len(hosts))
	for i, h := range hosts {
		hr := JudgeHost(e, m, t, h)
		if i < len(files) {
			hr.File = files[i]
		}
		judged = append(judged, hr)
	}
	return Collect(t, judged)
}

// Collect makes the report of hosts judged one at a time by JudgeHost:
// totals, and the hosts worst first, then by host.
func Collect(t Target, hosts []Host) Report {
	r := Report{Target: t, Totals: map[Status]int{}, Hosts: append([]Host(nil), hosts...)}
	for _, s := range Statuses {
		r.Totals[s] = 0
	}
	for _, h := range r.Hosts {
		r.Totals[h.Status]++
	}
	slices.SortStableFunc(r.Hosts, func(a, b Host) int {
		return cmp.Or(b.Status.Rank()-a.Status.Rank(), strings.Compare(a.Host, b.Host))
	})
	return r
}

// JudgeHost judges one host against the target, for a caller that keeps
// only the answer of each host (the site: a fleet's records are never
// held at once); Collect then makes the report.
func JudgeHost(e *verdict.Engine, m *matrix.Matrix, t Target, h *record.Host) Host {
	out := Host{Host: h.Host.ID, Status: Ready}
	stack, stackVersion := rule.HostStack(m, h.Stack)
	seen := map[string]int{} // model, firmware and stack → index in out.Adapters
	unnamed := 0
	// The PCI id each RDMA device reports (ibv_devinfo's vendor_id and
	// vendor_part_id), by name: a record from ibv_devinfo alone has no
	// adapter entry, or one without a PCI id, yet names the device's id.
	devID := map[string]string{}
	for _, d := range h.Devices {
		if d.PCIID != "" {
			devID[d.Name] = d.PCIID
		}
	}
	linked := map[string]bool{}
	// Adapter entries first, then an RDMA device no entry carries, as a
	// function of its own (its PCI address, or its name when it has none).
	adapters := slices.Clone(h.Adapters)
	for i := range h.Adapters {
		for _, n := range h.RDMADevicesOf(&h.Adapters[i]) {
			linked[n] = true
		}
	}
	for _, d := range h.Devices {
		if linked[d.Name] || d.PCIID == "" {
			continue
		}
		at := d.PCIAddress
		if at == "" {
			at = d.Name
		}
		adapters = append(adapters, record.Adapter{PCIAddress: at, RDMADevices: []string{d.Name}})
	}
	for i := range adapters {
		a := &adapters[i]
		if a.Vendor == "" || a.Device == "" {
			for _, n := range h.RDMADevicesOf(a) {
				if v, d, ok := strings.Cut(devID[n], ":"); ok {
					a.Vendor, a.Device = v, d
					break
				}
			}
		}
		ma := m.Identify(a.Vendor, a.Device, a.SubsystemVendor, a.SubsystemDevice, a.Name)
		if ma != nil && ma.NotRoCE != "" {
			continue // a part the matrix knows is not for RoCE: nothing to judge
		}
		if ma == nil && len(h.RDMADevicesOf(a)) == 0 {
			unnamed++
			continue // an unknown function with no RDMA device: a plain NIC, or one the record does not name
		}
		cur := stack
		if stackVersion != "" {
			cur += " " + stackVersion
		}
		key := a.Vendor + ":" + a.Device + "/" + a.SubsystemVendor + ":" + a.SubsystemDevice + "|" + a.Firmware.Running + "|" + cur
		if j, ok := seen[key]; ok {
			out.Adapters[j].OtherPCI = append(out.Adapters[j].OtherPCI, a.PCIAddress)
			continue
		}
		seen[key] = len(out.Adapters)
		ad := Adapter{PCI: a.PCIAddress, Name: a.Name, Firmware: a.Firmware.Running, CurrentStack: cur}
		if ad.Name == "" {
			ad.Name = "unidentified adapter"
		}
		if ma == nil {
			ad.Status = Unknown
			ad.Reasons = []string{"the matrix does not know PCI id " + a.Vendor + ":" + a.Device + ", which carries an RDMA device"}
			if a.Vendor == "" || a.Device == "" {
				ad.Reasons = []string{"the record names no PCI id for " + a.PCIAddress + ", which carries an RDMA device; a snapshot with lspci -nn would decide it"}
			}
		} else {
			ad.Adapter, ad.Name = ma.ID, ma.Name
			judgeAdapter(e, m, t, h, &ad, stack, stackVersion)
		}
		out.Adapters = append(out.Adapters, ad)
		if ad.Status.Rank() > out.Status.Rank() {
			out.Status = ad.Status
		}
	}
	if len(out.Adapters) == 0 {
		out.Status, out.Reason = Unknown, "the record names no RoCE adapter to judge"
		if unnamed > 0 {
			out.Reason = fmt.Sprintf("the record does not identify its adapters (%d PCI function(s) without a PCI id or name the matrix knows); a snapshot with lspci -nn would decide it", unnamed)
		}
	}
	return out
}

// judgeAdapter asks the engine about the target plan for one adapter and
// turns the verdict into a status. A firmware reason is an action when the
// plan without the firmware is not blocked: firmware can be updated.
func judgeAdapter(e *verdict.Engine, m *matrix.Matrix, t Target, h *record.Host, ad *Adapter, stack, stackVersion string) {
	p := verdict.Plan{Adapter: ad.Adapter, Distro: t.Distro, Kernel: t.Kernel,
		Stack: t.Stack, StackVersion: t.StackVersion, Firmware: t.Firmware}
	if id, _ := m.ResolveStack(p.Stack); id != "" && id != "inbox" && !drives(m, id, ad.Adapter) {
		// A vendor stack for another vendor's adapters (DOCA-OFED on a
		// fleet that also has Intel hosts) leaves this adapter on what it runs.
		p.Stack, p.StackVersion = "", ""
	}
	if p.Distro == "" && p.Kernel == "" {
		p.Distro, p.Kernel = hostOS(m, h)
	}
	install := ""
	if p.Stack == "" {
		p.Stack, p.StackVersion = stack, stackVersion
	} else if id, _ := m.ResolveStack(p.Stack); id != "" && (id != stack || (p.StackVersion != "" && p.StackVersion != stackVersion)) {
		install = "install " + strings.TrimSpace(stackName(m, id)+" "+p.StackVersion)
		if id == "inbox" {
			install = "remove " + stackName(m, stack) + " and use the distribution's inbox drivers"
		}
	}
	if p.Firmware == "" {
		p.Firmware = ad.Firmware
	} else if p.Firmware != ad.Firmware {
		ad.Actions = append(ad.Actions, "update firmware to "+p.Firmware+nowSuffix(ad.Firmware))
	}
	v := e.Judge(p)
	ad.Verdict = v
	fwOnly := map[string]bool{}
	if p.Firmware != "" && (v.Verdict == verdict.Unsupported || v.Verdict == verdict.Conditional) {
		q := p
		q.Firmware = ""
		without := e.Judge(q)
		if without.Verdict != verdict.Unsupported {
			have := map[string]bool{}
			for _, r := range without.Reasons {
				have[r.Text] = true
			}
			for _, r := range v.Reasons {
				if !have[r.Text] && (r.Verdict == verdict.Unsupported || r.Verdict == verdict.Conditional) {
					fwOnly[r.Text] = true
				}
			}
		}
	}
	for _, r := range v.Reasons {
		switch {
		case fwOnly[r.Text]:
			ad.Actions = append(ad.Actions, r.Text)
		case r.Verdict == verdict.Unsupported, r.Verdict == verdict.Undecided:
			ad.Reasons = append(ad.Reasons, r.Text)
		case r.Verdict == verdict.Conditional:
			ad.Actions = append(ad.Actions, r.Text)
		}
	}
	if install != "" {
		ad.Actions = append([]string{install + " (now " + ad.CurrentStack + ")"}, ad.Actions...)
	}
	// The engine's verdict decides; a reason that only informs does not.
	switch {
	case v.Verdict == verdict.Unsupported && hasLevel(v, verdict.Unsupported, fwOnly):
		ad.Status = Blocked
	case v.Verdict == verdict.Undecided:
		ad.Status = Unknown
	case len(ad.Actions) > 0:
		ad.Status = NeedsAction
	default:
		ad.Status = Ready
	}
}

// drives reports whether a stack is from the adapter's vendor (a software
// stack, such as SoftRoCE, from no hardware vendor, drives any).
func drives(m *matrix.Matrix, stack, adapter string) bool {
	s, a := rule.Stack(m, stack), m.Adapter(adapter)
	if s == nil || a == nil {
		return true
	}
	if v := m.Vendor(s.Vendor); v != nil && v.Kind != matrix.KindHardware {
		return true
	}
	return s.Vendor == a.Vendor
}

// hasLevel reports whether a reason other than a firmware action has the level.
func hasLevel(v verdict.Verdict, l verdict.Level, fwOnly map[string]bool) bool {
	for _, r := range v.Reasons {
		if r.Verdict == l && !fwOnly[r.Text] {
			return true
		}
	}
	return false
}

func nowSuffix(fw string) string {
	if fw == "" {
		return ""
	}
	return " (now " + fw + ")"
}

func stackName(m *matrix.Matrix, id string) string {
	if id == "inbox" {
		return "the inbox drivers"
	}
	if s := rule.Stack(m, id); s != nil {
		return s.Name
	}
	return id
}

// hostOS is the host's own distro release when the matrix has it, else
// its kernel release: a target that names neither keeps each host's OS.
func hostOS(m *matrix.Matrix, h *record.Host) (distro, kernel string) {
	if d := rule.HostDistro(m, h); d != nil {
		return d.ID, ""
	}
	return "", h.Host.KernelRelease
}

// Group is hosts that share an adapter model, firmware and current stack,
// and so share the target's answer.
type Group struct {
	Adapter      string   `json:"adapter"`
	Firmware     string   `json:"firmware,omitempty"`
	CurrentStack string   `json:"current_stack"`
	Status       Status   `json:"status"`
	Actions      []string `json:"actions,omitempty"`
	Reasons      []string `json:"reasons,omitempty"`
	Hosts        []string `json:"hosts"`
	Files        []string `json:"files,omitempty"` // the record of each host, in the order of Hosts
}

// Groups folds the report's adapters into groups, worst first, then by the
// number of hosts, most first.
func (r Report) Groups() []Group {
	idx := map[string]int{}
	var gs []Group
	for _, h := range r.Hosts {
		for _, a := range h.Adapters {
			key := a.Name + "|" + a.Firmware + "|" + a.CurrentStack
			j, ok := idx[key]
			if !ok {
				j = len(gs)
				idx[key] = j
				gs = append(gs, Group{Adapter: a.Name, Firmware: a.Firmware, CurrentStack: a.CurrentStack,
					Status: a.Status, Actions: a.Actions, Reasons: a.Reasons})
			}
			if !member(gs[j], h) {
				gs[j].Hosts = append(gs[j].Hosts, h.Host)
				gs[j].Files = append(gs[j].Files, h.File)
			}
		}
	}
	slices.SortStableFunc(gs, func(a, b Group) int {
		return cmp.Or(b.Status.Rank()-a.Status.Rank(), len(b.Hosts)-len(a.Hosts),
			strings.Compare(a.Adapter, b.Adapter), strings.Compare(a.Firmware, b.Firmware), strings.Compare(a.CurrentStack, b.CurrentStack))
	})
	return gs
}

func member(g Group, h Host) bool {
	for i := range g.Hosts {
		if g.Hosts[i] == h.Host && g.Files[i] == h.File {
			return true
		}
	}
	return false
}

// Blocked reports whether any host is blocked.
func (r Report) Blocked() bool { return r.Totals[Blocked] > 0 }
