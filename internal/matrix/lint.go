package matrix

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rocekb/rocekb/internal/diag"
	"github.com/rocekb/rocekb/internal/version"
)

// LintOptions tune Lint.
type LintOptions struct {
	// Now is the date staleness is measured against.
	Now time.Time
	// StaleAfter warns about claims whose last_verified is older; zero disables it.
	StaleAfter time.Duration
}

var (
	pciRe       = regexp.MustCompile(`^[0-9a-f]{4}:[0-9a-f]{4}$`)
	idRe        = regexp.MustCompile(`^[a-z0-9][a-z0-9._+-]*$`)
	hex4        = regexp.MustCompile(`^[0-9a-f]{4}$`)
	ethertypeRe = regexp.MustCompile(`^0x[0-9a-f]{4}$`)
)

// Allowed values of enumerated keys.
var (
	kinds       = []string{KindHardware, KindSoftware, KindVirtual}
	transports  = []string{"roce", "iwarp", "ib", "usnic", "srd", "raw"}
	roceModes   = []string{"v1", "v2"}
	bases       = []string{"documented", "abi-doc", "inferred"}
	functions   = []string{"pf", "vf"}
	stackKinds  = []string{"ofed", "vendor", "software"}
	rules       = []string{RuleMinimum, RuleExact, RuleRecommended}
	platforms   = []string{"linux", "windows", "esxi"}
	flavours    = []string{"ga", "hwe"}
	statuses    = []string{StatusSupported, StatusUnsupported, StatusDeprecated, StatusTechPreview}
	roceDefault = "upstream" // roce_default family for the upstream kernel
)

// linter carries the state of one Lint run.
type linter struct {
	m     *Matrix
	opts  LintOptions
	probs diag.List
}

func (l *linter) errAt(at Loc, key, format string, args ...any) {
	l.probs.Add(at.File, l.m.PosOf(at, key), format, args...)
}

func (l *linter) warnAt(at Loc, key, format string, args ...any) {
	l.probs.Warn(at.File, l.m.PosOf(at, key), format, args...)
}

// Lint checks the loaded matrix for everything strict decoding cannot see:
// required fields, id formats, duplicates, dangling references, version
// syntax, firmware minimums that go down across a stack's releases, claim
// sources and confidence, and stale verification dates. It returns every
// problem, sorted.
func Lint(m *Matrix, opts LintOptions) diag.List {
	l := &linter{m: m, opts: opts}
	l.sources()
	m.eachClaim(l.claim)
	l.vendors()
	l.drivers()
	l.adapters()
	l.stacks()
	l.firmware()
	l.distros()
	l.protocol()
	l.kernelOptions()
	l.pciKernels()
	l.distroRows()
	l.stackRows()
	l.parts()
	l.firmwareLines()
	l.stackDrivers()
	l.deviceKernelCoverage()
	l.probs.Sort()
	return l.probs
}

func (l *linter) sources() {
	seen := map[string]Loc{}
	for _, s := range l.m.Sources {
		l.id(s.At, s.ID, "source", seen)
		if s.Title == "" && s.URL == "" {
			l.errAt(s.At, "", "source %q needs a title or url", s.ID)
		}
		if s.Retrieved == nil {
			l.errAt(s.At, "", "source %q has no retrieved date", s.ID)
		} else if !l.opts.Now.IsZero() && s.Retrieved.After(l.opts.Now.Add(24*time.Hour)) {
			l.errAt(s.At, "retrieved", "source %q was retrieved on %s, which is in the future", s.ID, s.Retrieved.Format(time.DateOnly))
		}
	}
}

// id checks that an id is present, well formed and unique within its table.
func (l *linter) id(at Loc, id, what string, seen map[string]Loc) {
	switch {
	case id == "":
		l.errAt(at, "id", "%s has no id", what)
		return
	case !idRe.MatchString(id):
		l.errAt(at, "id", "%s id %q must be lower-case letters, digits and . _ + -", what, id)
	}
	if prev, ok := seen[id]; ok {
		l.errAt(at, "id", "duplicate %s id %q (first defined at %s)", what, id, prev)
		return
	}
	seen[id] = at
}

// claim checks a claim's sources and confidence.
func (l *linter) claim(what string, c Claim) {
	if len(c.Sources) == 0 {
		l.errAt(c.At, "", "%s has no sources", what)
	}
	for _, s := range c.Sources {
		if l.m.Source(s) == nil {
			l.errAt(c.At, "sources", "%s cites undefined source %q", what, s)
		}
	}
	if c.Confidence == "" {
		l.errAt(c.At, "", "%s has no confidence (one of %v)", what, Tiers)
	} else if !slices.Contains(Tiers, c.Confidence) {
		l.errAt(c.At, "confidence", "%s: unknown confidence %q (one of %v)", what, c.Confidence, Tiers)
	}
	if c.LastVerified != nil && l.opts.StaleAfter > 0 && l.opts.Now.Sub(*c.LastVerified) > l.opts.StaleAfter {
		days := int(l.opts.Now.Sub(*c.LastVerified).Hours() / 24)
		l.warnAt(c.At, "last_verified", "%s was last verified %d days ago (threshold %d)", what, days, int(l.opts.StaleAfter.Hours()/24))
	}
}

// ref checks that a reference names a defined entry.
func (l *linter) ref(at Loc, key, kind, id string, ok bool) {
	if id != "" && !ok {
		l.errAt(at, key, "%s %q is not defined", kind, id)
	}
}

// required reports a missing value.
func (l *linter) required(at Loc, what, key, value string) {
	if value == "" {
		l.errAt(at, "", "%s has no %s", what, key)
	}
}

// oneOf checks an enumerated value; empty values are left to required.
func (l *linter) oneOf(at Loc, what, key, value string, allowed []string) {
	if value != "" && !slices.Contains(allowed, value) {
		l.errAt(at, key, "%s: %s %q must be one of %s", what, key, value, strings.Join(allowed, ", "))
	}
}

func (l *linter) allOf(at Loc, what, key string, values, allowed []string) {
	for _, v := range values {
		l.oneOf(at, what, key, v, allowed)
	}
}

// version checks version syntax and returns the parsed value (zero when
// empty or bad).
func (l *linter) version(at Loc, what, key, s string) version.Version {
	if s == "" {
		return version.Version{}
	}
	v, err := version.Parse(s)
	if err != nil {
		l.errAt(at, key, "%s: %s: %v", what, key, err)
		return version.Version{}
	}
	return v
}

// upstream checks that s is an upstream kernel version (v4.8, 5.14), not a
// distro kernel.
func (l *linter) upstream(at Loc, what, key, s string) {
	if s == "" {
		return
	}
	k, err := version.ParseKernel(s)
	switch {
	case err != nil:
		l.errAt(at, key, "%s: %s: %v", what, key, err)
	case k.IsDistro():
		l.errAt(at, key, "%s: %s %q is a distro kernel; give the upstream release (e.g. 5.14)", what, key, s)
	}
}

func (l *linter) vendors() {
	seen := map[string]Loc{}
	for _, v := range l.m.Vendors {
		what := "vendor " + v.ID
		l.id(v.At, v.ID, "vendor", seen)
		l.required(v.At, what, "name", v.Name)
		if v.Kind == "" {
			l.errAt(v.At, "", "%s has no kind (one of %s)", what, strings.Join(kinds, ", "))
		}
		l.oneOf(v.At, what, "kind", v.Kind, kinds)
		for _, p := range v.PCIVendors {
			if !hex4.MatchString(p) {
				l.errAt(v.At, "pci_vendors", "vendor %q: PCI vendor id %q must be 4 lower-case hex digits", v.ID, p)
			}
		}
	}
}

func (l *linter) drivers() {
	m := l.m
	seen := map[string]Loc{}
	for _, d := range m.Drivers {
		what := "driver " + d.ID
		l.id(d.At, d.ID, "driver", seen)
		l.required(d.At, what, "kind", d.Kind)
		l.oneOf(d.At, what, "kind", d.Kind, kinds)
		l.allOf(d.At, what, "transports", d.Transports, transports)
		l.allOf(d.At, what, "roce", d.RoCE, roceModes)
		if len(d.RoCE) > 0 && !slices.Contains(d.Transports, "roce") {
			l.errAt(d.At, "roce", "%s lists RoCE versions but not the roce transport", what)
		}
		l.ref(d.At, "vendor", "vendor", d.Vendor, d.Vendor == "" || m.Vendor(d.Vendor) != nil)
		l.ref(d.At, "replaced_by", "driver", d.ReplacedBy, m.Driver(d.ReplacedBy) != nil)
		l.upstream(d.At, what, "first_kernel", d.FirstKernel)
		l.upstream(d.At, what, "removed_kernel", d.RemovedKernel)
		l.oneOf(d.At, what, "first_kernel_basis", d.FirstKernelBasis, bases)
		if d.FirstKernel != "" && d.FirstKernelBasis == "" {
			l.errAt(d.At, "first_kernel", "%s: first_kernel needs first_kernel_basis (one of %s)", what, strings.Join(bases, ", "))
		}
	}
}

func (l *linter) adapters() {
	m := l.m
	seen := map[string]Loc{}
	pcis := map[string]Loc{}
	for _, a := range m.Adapters {
		what := "adapter " + a.ID
		l.id(a.At, a.ID, "adapter", seen)
		l.required(a.At, what, "name", a.Name)
		l.required(a.At, what, "vendor", a.Vendor)
		l.ref(a.At, "vendor", "vendor", a.Vendor, m.Vendor(a.Vendor) != nil)
		l.ref(a.At, "rdma_driver", "driver", a.RDMADriver, m.Driver(a.RDMADriver) != nil)
		if len(a.PCI) == 0 {
			l.errAt(a.At, "", "%s has no pci ids", what)
		}
		for _, p := range a.PCI {
			if !pciRe.MatchString(p.ID) {
				l.errAt(a.At, "pci", "%s: PCI id %q must be vendor:device in lower-case hex (e.g. 15b3:1017)", what, p.ID)
			}
			if p.Subsystem != "" && !pciRe.MatchString(p.Subsystem) {
				l.errAt(a.At, "pci", "%s: subsystem id %q must be vendor:device in lower-case hex", what, p.Subsystem)
			}
			l.oneOf(a.At, what, "pci", p.Function, functions)
			key := p.ID
			if p.Subsystem != "" {
				key += " subsystem " + p.Subsystem
			}
			if prev, ok := pcis[key]; ok {
				l.errAt(a.At, "pci", "%s: duplicate PCI id %s (also at %s)", what, key, prev)
			} else {
				pcis[key] = a.At
			}
		}
		switch {
		case len(a.RoCE) == 0 && a.NotRoCE == "" && a.Confidence != Unconfirmed:
			l.errAt(a.At, "", "%s lists no roce versions; set roce or not_roce", what)
		case len(a.RoCE) > 0 && a.NotRoCE != "":
			l.errAt(a.At, "not_roce", "%s sets both roce and not_roce", what)
		}
		l.allOf(a.At, what, "roce", a.RoCE, roceModes)
		l.allOf(a.At, what, "transports", a.Transports, transports)
		l.upstream(a.At, what, "inbox_kernel", a.InboxKernel)
		l.oneOf(a.At, what, "inbox_kernel_basis", a.InboxKernelBasis, bases)
		if a.InboxKernel != "" && a.InboxKernelBasis == "" {
			l.errAt(a.At, "inbox_kernel", "%s: inbox_kernel needs inbox_kernel_basis (one of %s)", what, strings.Join(bases, ", "))
		}
		for _, s := range a.Stacks {
			l.ref(a.At, "stacks", "stack", s, l.stack(s) != nil)
		}
		for _, pf := range a.VFOf {
			if pf == a.ID {
				l.errAt(a.At, "vf_of", "%s: vf_of names the adapter itself", what)
				continue
			}
			l.ref(a.At, "vf_of", "adapter", pf, l.m.Adapter(pf) != nil)
		}
		if a.Interrupts != nil && a.Interrupts.MinVectors < 0 {
			l.errAt(a.Interrupts.At, "min_vectors", "%s: min_vectors must not be negative", what)
		}
		notes := map[string]Loc{}
		for _, n := range append(append([]Note(nil), a.Constraints...), a.KnownIssues...) {
			l.id(n.At, n.ID, what+" note", notes)
			l.required(n.At, what+" note "+n.ID, "text", n.Text)
			l.oneOf(n.At, what+" note "+n.ID, "platform", n.Platform, platforms)
			for _, st := range n.Stacks {
				l.ref(n.At, "stacks", "stack", st, st == Inbox || l.stack(st) != nil)
			}
		}
		for _, s := range a.SupportEnd {
			sw := what + " support_end"
			l.required(s.At, sw, "stack", s.Stack)
			l.ref(s.At, "stack", "stack", s.Stack, l.stack(s.Stack) != nil)
			l.required(s.At, sw, "text", s.Text)
			l.version(s.At, sw, "last_release", s.LastRelease)
			l.version(s.At, sw, "dropped_in", s.DroppedIn)
		}
	}
}

func (l *linter) stacks() {
	seen := map[string]Loc{}
	for _, s := range l.m.Stacks {
		what := "stack " + s.ID
		l.id(s.At, s.ID, "stack", seen)
		l.required(s.At, what, "name", s.Name)
		l.ref(s.At, "vendor", "vendor", s.Vendor, l.m.Vendor(s.Vendor) != nil)
		l.oneOf(s.At, what, "kind", s.Kind, stackKinds)
		if s.ReleaseModule != "" && !slices.Contains(s.Modules, s.ReleaseModule) {
			l.errAt(s.At, "release_module", "%s: release_module %q is not one of its modules %v", what, s.ReleaseModule, s.Modules)
		}
		releases := map[string]Loc{}
		for _, r := range s.Releases {
			rw := what + " release " + r.Version
			if r.Version == "" {
				l.errAt(r.At, "", "%s release has no version", what)
				continue
			}
			l.version(r.At, rw, "version", r.Version)
			for _, os := range r.OS {
				if l.m.Distro(os) == nil && !l.m.knownFamily(os) {
					l.errAt(r.At, "os", "%s: os %q names no distro release or family (e.g. rhel-9.4, or rhel-9 for every 9.x)", rw, os)
				}
			}
			for _, w := range r.OSWith {
				if len(w.OS) == 0 || w.Text == "" {
					l.errAt(r.At, "os_with", "%s: an os_with entry needs its os and the action as text", rw)
				}
				for _, os := range w.OS {
					if l.m.Distro(os) == nil && !l.m.knownFamily(os) {
						l.errAt(r.At, "os_with", "%s: os_with %q names no distro release or family (e.g. rhel-9.4, or rhel-9 for every 9.x)", rw, os)
					}
				}
			}
			for _, a := range r.Adapters {
				if l.m.Adapter(a) == nil {
					l.errAt(r.At, "adapters", "%s: adapter %q is not defined", rw, a)
				}
			}
			if prev, ok := releases[r.Version]; ok {
				l.errAt(r.At, "version", "%s: duplicate release %q (first at %s)", what, r.Version, prev)
			} else {
				releases[r.Version] = r.At
			}
		}
	}
}

func (l *linter) firmware() {
	m := l.m
	type step struct {
		f           *FirmwareMin
		min, stackV version.Version
	}
	series := map[string][]step{}
	for i := range m.Firmware {
		f := &m.Firmware[i]
		what := "firmware_min for " + f.Adapter
		l.required(f.At, "firmware_min", "adapter", f.Adapter)
		l.required(f.At, what, "feature", f.Feature)
		l.required(f.At, what, "min", f.Min)
		l.oneOf(f.At, what, "rule", f.Rule, rules)
		l.ref(f.At, "adapter", "adapter", f.Adapter, m.Adapter(f.Adapter) != nil)
		l.ref(f.At, "stack", "stack", f.Stack, l.stack(f.Stack) != nil)
		min := l.version(f.At, what, "min", f.Min)
		l.version(f.At, what, "driver_min", f.DriverMin)
		if f.DriverMin != "" && f.DriverModule == "" {
			l.errAt(f.At, "driver_min", "%s: driver_min needs driver_module", what)
		}
		sv := l.version(f.At, what, "stack_version", f.StackVersion)
		if f.StackVersion != "" && f.Stack == "" {
			l.errAt(f.At, "stack_version", "%s: stack_version needs stack", what)
		}
		if s := l.stack(f.Stack); s != nil && f.StackVersion != "" && len(s.Releases) > 0 && !s.hasRelease(f.StackVersion) {
			l.errAt(f.At, "stack_version", "%s: stack %q has no release %q", what, f.Stack, f.StackVersion)
		}
		// Only minimums must not go down: the firmware a release was
		// tested with (recommended) may be older in a later release.
		if !min.IsZero() && !sv.IsZero() && (f.Rule == "" || f.Rule == RuleMinimum) {
			key := f.Adapter + "\x00" + f.Feature + "\x00" + f.Stack + "\x00" + f.DriverModule
			series[key] = append(series[key], step{f, min, sv})
		}
	}
	// A firmware minimum never goes down in a later release of the same stack:
	// hand-copied matrices do exactly that, and a lower copy lets bad firmware
	// pass. Each drop is reported at the later entry, naming the earlier one.
	keys := make([]string, 0, len(series))
	for k := range series {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		steps := series[k]
		sort.SliceStable(steps, func(i, j int) bool { return version.Compare(steps[i].stackV, steps[j].stackV) < 0 })
		for i := 1; i < len(steps); i++ {
			prev, cur := steps[i-1], steps[i]
			f := cur.f
			if version.Compare(prev.stackV, cur.stackV) == 0 {
				l.errAt(f.At, "stack_version", "firmware_min for %s %s: %s %s is listed twice (also at %s)", f.Adapter, f.Feature, f.Stack, f.StackVersion, l.posString(prev.f.At, "stack_version"))
				continue
			}
			if version.Compare(cur.min, prev.min) < 0 {
				l.errAt(f.At, "min", "firmware_min for %s %s goes down: %s with %s %s is below %s with %s %s (at %s)",
					f.Adapter, f.Feature, f.Min, f.Stack, f.StackVersion, prev.f.Min, prev.f.Stack, prev.f.StackVersion, l.posString(prev.f.At, "min"))
			}
		}
	}
}

// posString formats where key of an entry was written, as file:line:col.
func (l *linter) posString(at Loc, key string) string {
	p := l.m.PosOf(at, key)
	return fmt.Sprintf("%s:%d:%d", at.File, p.Line, p.Col)
}

func (l *linter) distros() {
	m := l.m
	seen := map[string]Loc{}
	families := map[string]bool{}
	for _, d := range m.Distros {
		what := "distro " + d.ID
		l.id(d.At, d.ID, "distro", seen)
		l.required(d.At, what, "family", d.Family)
		l.required(d.At, what, "version", d.Version)
		families[d.Family] = true
		if d.Kernel == "" && d.KernelBase == "" {
			l.errAt(d.At, "", "%s has neither kernel nor kernel_base", what)
		}
		l.upstream(d.At, what, "kernel_base", d.KernelBase)
		l.oneOf(d.At, what, "kernel_flavour", d.Flavour, flavours)
		if d.Kernel != "" {
			k, err := version.ParseKernel(d.Kernel)
			if err != nil {
				l.errAt(d.At, "kernel", "%s: kernel: %v", what, err)
			} else if d.KernelBase != "" {
				base, err := version.ParseKernel(d.KernelBase)
				if err == nil && version.Compare(k.Upstream, base.Upstream) != 0 {
					l.errAt(d.At, "kernel_base", "%s: kernel_base %s does not match the upstream base %s of kernel %s", what, d.KernelBase, k.Upstream, d.Kernel)
				}
			}
		}
		if sk := d.SameKernel; sk != nil {
			l.required(sk.At, what+" same_kernel", "text", sk.Text)
			if d.Rebuild == "" {
				l.errAt(sk.At, "same_kernel", "%s: same_kernel is for a rebuild (rebuild = ...), whose kernel it says is its family release's", what)
			}
		}
		for _, b := range d.Backports {
			l.required(b.At, what+" backport", "driver", b.Driver)
			l.ref(b.At, "driver", "driver", b.Driver, m.Driver(b.Driver) != nil)
		}
	}
	for _, r := range m.RoCEDefaults {
		what := "roce_default"
		l.required(r.At, what, "family", r.Family)
		if r.Family != "" && r.Family != roceDefault && !families[r.Family] {
			l.errAt(r.At, "family", "roce_default: family %q names no distro family (or %q)", r.Family, roceDefault)
		}
		l.required(r.At, what, "mode", r.Mode)
		l.oneOf(r.At, what, "mode", r.Mode, roceModes)
		l.version(r.At, what, "since", r.Since)
		for _, a := range r.Adapters {
			l.ref(r.At, "adapters", "adapter", a, m.Adapter(a) != nil)
		}
	}
}

// kconfigName is a kernel build option's name as a configuration spells it.
var kconfigName = regexp.MustCompile(`^CONFIG_[A-Z0-9_]+$`)

func (l *linter) kernelOptions() {
	seen := map[string]Loc{}
	for _, k := range l.m.KernelOptions {
		if k.Module == "" {
			l.errAt(k.At, "module", "kernel_option: module is empty")
		}
		for _, o := range append([]string{k.Option}, k.Requires...) {
			if !kconfigName.MatchString(o) {
				l.errAt(k.At, "option", "kernel_option %s: %q is not a CONFIG_ name in capitals", k.Module, o)
			}
		}
		if prev, ok := seen[k.Module]; ok {
			l.errAt(k.At, "", "kernel_option %s is listed twice (also at %s)", k.Module, prev)
		} else {
			seen[k.Module] = k.At
		}
	}
}

func (l *linter) protocol() {
	if p := l.m.Protocol; p != nil {
		if !ethertypeRe.MatchString(p.RoCEv1Ethertype) {
			l.errAt(p.At, "roce_v1_ethertype", "protocol: roce_v1_ethertype %q must be 0x and 4 lower-case hex digits", p.RoCEv1Ethertype)
		}
		if p.RoCEv2UDPPort < 1 || p.RoCEv2UDPPort > 65535 {
			l.errAt(p.At, "roce_v2_udp_port", "protocol: roce_v2_udp_port %d is not a UDP port", p.RoCEv2UDPPort)
		}
	}
	seen := map[string]Loc{}
	for _, c := range l.m.CMModes {
		l.oneOf(c.At, "rdma_cm_mode", "client", c.Client, roceModes)
		l.oneOf(c.At, "rdma_cm_mode", "server", c.Server, roceModes)
		key := c.Client + "/" + c.Server
		if prev, ok := seen[key]; ok {
			l.errAt(c.At, "", "rdma_cm_mode client %s server %s is listed twice (also at %s)", c.Client, c.Server, prev)
		} else {
			seen[key] = c.At
		}
	}
}

func (l *linter) stack(id string) *Stack {
	for i := range l.m.Stacks {
		if l.m.Stacks[i].ID == id {
			return &l.m.Stacks[i]
		}
	}
	return nil
}

// HasRelease reports whether v is one of s's releases (equal as versions).
func (s *Stack) HasRelease(v string) bool { return s.hasRelease(v) }

func (s *Stack) hasRelease(v string) bool {
	want, err := version.Parse(v)
	for _, r := range s.Releases {
		if r.Version == v {
			return true
		}
		if err != nil {
			continue
		}
		if got, err := version.Parse(r.Version); err == nil && version.Compare(got, want) == 0 {
			return true
		}
	}
	return false
}
