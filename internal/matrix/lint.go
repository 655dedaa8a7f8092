package matrix

import (
	"regexp"
	"slices"
	"time"

	"github.com/rocekb/rocekb/internal/diag"
)

// LintOptions tune Lint.
type LintOptions struct {
	// Now is the date staleness is measured against.
	Now time.Time
	// StaleAfter warns about claims whose last_verified is older; zero disables it.
	StaleAfter time.Duration
}

var (
	pciRe = regexp.MustCompile(`^[0-9a-f]{4}:[0-9a-f]{4}$`)
	idRe  = regexp.MustCompile(`^[a-z0-9][a-z0-9._+-]*$`)
	hex4  = regexp.MustCompile(`^[0-9a-f]{4}$`)
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
// required fields, id formats, duplicates, dangling references, claim
// sources and confidence, and stale verification dates. It returns every
// problem, sorted.
func Lint(m *Matrix, opts LintOptions) diag.List {
	l := &linter{m: m, opts: opts}
	l.sources()
	l.entities()
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
func (l *linter) claim(c Claim, what string) {
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

func (l *linter) entities() {
	m := l.m
	seen := map[string]Loc{}
	for _, v := range m.Vendors {
		l.id(v.At, v.ID, "vendor", seen)
		l.claim(v.Claim, "vendor "+v.ID)
		if !slices.Contains([]string{KindHardware, KindSoftware, KindVirtual}, v.Kind) {
			l.errAt(v.At, "kind", "vendor %q: kind must be hardware, software or virtual, not %q", v.ID, v.Kind)
		}
		for _, p := range v.PCIVendors {
			if !hex4.MatchString(p) {
				l.errAt(v.At, "pci_vendors", "vendor %q: PCI vendor id %q must be 4 lower-case hex digits", v.ID, p)
			}
		}
	}
	seen = map[string]Loc{}
	for _, d := range m.Drivers {
		l.id(d.At, d.ID, "driver", seen)
		l.claim(d.Claim, "driver "+d.ID)
		l.ref(d.At, "vendor", "vendor", d.Vendor, d.Vendor == "" || m.Vendor(d.Vendor) != nil)
		l.ref(d.At, "replaced_by", "driver", d.ReplacedBy, m.Driver(d.ReplacedBy) != nil)
	}
	seen = map[string]Loc{}
	pcis := map[string]Loc{}
	for _, a := range m.Adapters {
		what := "adapter " + a.ID
		l.id(a.At, a.ID, "adapter", seen)
		l.claim(a.Claim, what)
		if a.Name == "" {
			l.errAt(a.At, "", "%s has no name", what)
		}
		l.ref(a.At, "vendor", "vendor", a.Vendor, m.Vendor(a.Vendor) != nil)
		if a.Vendor == "" {
			l.errAt(a.At, "", "%s has no vendor", what)
		}
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
			key := p.ID + "/" + p.Subsystem
			if prev, ok := pcis[key]; ok {
				l.errAt(a.At, "pci", "%s: duplicate PCI id %s (also at %s)", what, key, prev)
			} else {
				pcis[key] = a.At
			}
		}
		if len(a.RoCE) == 0 && a.NotRoCE == "" {
			l.errAt(a.At, "", "%s lists no roce versions; set roce or not_roce", what)
		}
		for _, v := range a.RoCE {
			if v != "v1" && v != "v2" {
				l.errAt(a.At, "roce", "%s: RoCE version %q must be v1 or v2", what, v)
			}
		}
		for _, s := range a.Stacks {
			l.ref(a.At, "stacks", "stack", s, l.stack(s) != nil)
		}
		if a.Interrupts != nil {
			l.claim(a.Interrupts.Claim, what+" interrupts")
		}
		for _, n := range a.Constraints {
			l.claim(n.Claim, what+" constraint "+n.ID)
		}
		for _, n := range a.KnownIssues {
			l.claim(n.Claim, what+" known issue "+n.ID)
		}
		for _, s := range a.SupportEnd {
			l.claim(s.Claim, what+" support end")
			l.ref(s.At, "stack", "stack", s.Stack, l.stack(s.Stack) != nil)
		}
	}
	seen = map[string]Loc{}
	for _, s := range m.Stacks {
		l.id(s.At, s.ID, "stack", seen)
		l.claim(s.Claim, "stack "+s.ID)
		l.ref(s.At, "vendor", "vendor", s.Vendor, m.Vendor(s.Vendor) != nil)
		for _, r := range s.Releases {
			l.claim(r.Claim, "stack "+s.ID+" release "+r.Version)
		}
	}
	for _, f := range m.Firmware {
		what := "firmware minimum for " + f.Adapter
		l.claim(f.Claim, what)
		l.ref(f.At, "adapter", "adapter", f.Adapter, m.Adapter(f.Adapter) != nil)
		l.ref(f.At, "stack", "stack", f.Stack, l.stack(f.Stack) != nil)
		if f.Min == "" {
			l.errAt(f.At, "", "%s has no min", what)
		}
	}
	seen = map[string]Loc{}
	for _, d := range m.Distros {
		l.id(d.At, d.ID, "distro", seen)
		l.claim(d.Claim, "distro "+d.ID)
		for _, b := range d.Backports {
			l.claim(b.Claim, "distro "+d.ID+" backport")
			l.ref(b.At, "driver", "driver", b.Driver, m.Driver(b.Driver) != nil)
		}
	}
	for _, r := range m.RoCEDefaults {
		l.claim(r.Claim, "roce_default")
		for _, a := range r.Adapters {
			l.ref(r.At, "adapters", "adapter", a, m.Adapter(a) != nil)
		}
	}
	if m.Protocol != nil {
		l.claim(m.Protocol.Claim, "protocol")
	}
	for _, c := range m.CMModes {
		l.claim(c.Claim, "rdma_cm_mode")
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
