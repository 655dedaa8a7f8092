package matrix

import (
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/version"
)

// pciKernels checks the per-device first kernels: a driver's first kernel
// says nothing about a device added to it later.
func (l *linter) pciKernels() {
	m := l.m
	seen := map[string]Loc{}
	for _, k := range m.PCIKernels {
		what := "pci_kernel " + k.PCI
		if !pciRe.MatchString(k.PCI) {
			l.errAt(k.At, "pci", "%s: PCI id must be vendor:device in lower-case hex (e.g. 15b3:1017)", what)
		}
		if k.Subsystem != "" && !pciRe.MatchString(k.Subsystem) {
			l.errAt(k.At, "subsystem", "%s: subsystem id %q must be vendor:device in lower-case hex", what, k.Subsystem)
		}
		l.required(k.At, what, "driver", k.Driver)
		l.upstream(k.At, what, "first_kernel", k.FirstKernel)
		l.upstream(k.At, what, "roce_kernel", k.RoCEKernel)
		// A sourced roce_kernel dates the device on its own: the id
		// predates its RDMA driver, and when it entered the table does
		// not change the first release where RoCE works on it.
		if k.FirstKernel == "" && k.RoCEKernel == "" && k.Confidence != Unconfirmed {
			l.errAt(k.At, "", "%s has neither first_kernel nor roce_kernel; give one or set confidence = %q", what, Unconfirmed)
		}
		if k.FirstKernel != "" && k.RoCEKernel != "" && compareUpstream(k.RoCEKernel, k.FirstKernel) < 0 {
			l.errAt(k.At, "roce_kernel", "%s: roce_kernel %s is before first_kernel %s", what, k.RoCEKernel, k.FirstKernel)
		}
		key := k.PCI + "/" + k.Subsystem
		if prev, ok := seen[key]; ok {
			l.errAt(k.At, "pci", "%s is listed twice (also at %s)", what, prev)
		} else {
			seen[key] = k.At
		}
	}
}

// deviceKernelCoverage reports in-tree RoCE adapters whose PCI ids have no
// first-kernel row.
func (l *linter) deviceKernelCoverage() {
	m := l.m
	for _, a := range m.Adapters {
		if len(a.RoCE) == 0 || !m.inTree(a) {
			continue
		}
		for _, p := range a.PCI {
			if m.DeviceKernel(p.ID, p.Subsystem) == nil && a.Confidence != Unconfirmed {
				l.errAt(a.At, "pci", "adapter %s: PCI id %s has no [[pci_kernel]] row (the first kernel whose driver lists it); add one, or one with confidence = %q", a.ID, p.ID, Unconfirmed)
			}
		}
	}
}

// inTree reports whether the adapter's RDMA driver ships in the upstream kernel.
func (m *Matrix) inTree(a Adapter) bool {
	d := m.Driver(a.RDMADriver)
	return d != nil && d.InTree
}

func (l *linter) distroRows() {
	m := l.m
	families, rebuilds, bases := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, d := range m.Distros {
		families[d.Family] = true
		rebuilds[d.Family+" "+d.Rebuild] = true
		bases[d.Family+" "+d.KernelBase] = true
	}
	for _, r := range m.DistroRows {
		what := "distro_support " + r.Family + " " + r.From
		l.required(r.At, what, "family", r.Family)
		if r.Family != "" && !families[r.Family] {
			l.errAt(r.At, "family", "%s: family %q names no distro family", what, r.Family)
		}
		if r.Rebuild != "" && !rebuilds[r.Family+" "+r.Rebuild] {
			l.errAt(r.At, "rebuild", "%s: no %s release is the rebuild %q", what, r.Family, r.Rebuild)
		}
		if r.Flavour != "" {
			l.oneOf(r.At, what, "kernel_flavour", r.Flavour, flavours)
		}
		if r.KernelBase != "" && !bases[r.Family+" "+r.KernelBase] {
			l.errAt(r.At, "kernel_base", "%s: no %s release has the kernel base %q", what, r.Family, r.KernelBase)
		}
		l.required(r.At, what, "from", r.From)
		l.required(r.At, what, "status", r.Status)
		l.oneOf(r.At, what, "status", r.Status, statuses)
		from := l.version(r.At, what, "from", r.From)
		until := l.version(r.At, what, "until", r.Until)
		if !from.IsZero() && !until.IsZero() && version.Compare(until, from) < 0 {
			l.errAt(r.At, "until", "%s: until %s is before from %s", what, r.Until, r.From)
		}
		if len(r.Adapters) == 0 && len(r.Drivers) == 0 {
			l.errAt(r.At, "", "%s names no adapters or drivers", what)
		}
		if r.DriverBase != "" {
			l.upstream(r.At, what, "driver_base", r.DriverBase)
			if len(r.Drivers) == 0 {
				l.errAt(r.At, "driver_base", "%s: driver_base needs drivers: it says which upstream release the named drivers match", what)
			}
		}
		for _, a := range r.Adapters {
			l.ref(r.At, "adapters", "adapter", a, m.Adapter(a) != nil)
		}
		for _, d := range r.Drivers {
			l.ref(r.At, "drivers", "driver", d, m.Driver(d) != nil || m.ethDriver(d))
		}
	}
}

// ethDriver reports whether id is a companion Ethernet or core driver of a
// known RDMA driver (mlx4_core, bnxt_en, ice, ...).
func (m *Matrix) ethDriver(id string) bool {
	for _, d := range m.Drivers {
		for _, e := range d.EthDrivers {
			if e == id {
				return true
			}
		}
	}
	return false
}

// stackRows checks the first/last release rows, and that two rows for the
// same stack and adapter, or a row and the adapter's support_end, agree.
func (l *linter) stackRows() {
	m := l.m
	type span struct {
		first, last string
		at          Loc
	}
	spans := map[string]span{}
	for _, r := range m.StackRows {
		what := "stack_support " + r.Stack
		l.required(r.At, what, "stack", r.Stack)
		l.ref(r.At, "stack", "stack", r.Stack, l.stack(r.Stack) != nil)
		if len(r.Adapters) == 0 {
			l.errAt(r.At, "", "%s names no adapters", what)
		}
		l.oneOf(r.At, what, "status", r.Status, []string{StatusSupported, StatusUnsupported})
		first := l.version(r.At, what, "first", r.First)
		last := l.version(r.At, what, "last", r.Last)
		if !first.IsZero() && !last.IsZero() && version.Compare(last, first) < 0 {
			l.errAt(r.At, "last", "%s: last %s is before first %s", what, r.Last, r.First)
		}
		for _, id := range r.Adapters {
			a := m.Adapter(id)
			l.ref(r.At, "adapters", "adapter", id, a != nil)
			key := r.Stack + "/" + id
			if prev, ok := spans[key]; ok && (differ(prev.first, r.First) || differ(prev.last, r.Last)) {
				l.errAt(r.At, "adapters", "%s: adapter %s is given releases %s..%s here but %s..%s at %s", what, id, orAny(r.First), orAny(r.Last), orAny(prev.first), orAny(prev.last), l.posString(prev.at, "adapters"))
			} else if !ok {
				spans[key] = span{r.First, r.Last, r.At}
			}
			if a == nil {
				continue
			}
			for _, se := range a.SupportEnd {
				if se.Stack != r.Stack || r.Last == "" {
					continue
				}
				if se.DroppedIn != "" && !last.IsZero() && version.AtLeast(last, mustVersion(se.DroppedIn)) {
					l.errAt(r.At, "last", "%s: adapter %s's last release %s is not before its support_end dropped_in %s (at %s)", what, id, r.Last, se.DroppedIn, l.posString(se.At, "dropped_in"))
				}
			}
		}
	}
}

// differ reports two release bounds that both say something and disagree.
func differ(a, b string) bool { return a != "" && b != "" && a != b }

func orAny(s string) string {
	if s == "" {
		return "…"
	}
	return s
}

func mustVersion(s string) version.Version {
	v, err := version.Parse(s)
	if err != nil {
		return version.Version{}
	}
	return v
}

func (l *linter) parts() {
	m := l.m
	seen := map[string]Loc{}
	for _, p := range m.Parts {
		what := "part_number " + p.Number
		l.required(p.At, "part_number", "number", p.Number)
		l.required(p.At, what, "adapter", p.Adapter)
		l.ref(p.At, "adapter", "adapter", p.Adapter, m.Adapter(p.Adapter) != nil)
		key := strings.ToUpper(p.Number)
		if prev, ok := seen[key]; ok {
			l.errAt(p.At, "number", "%s is listed twice (also at %s)", what, prev)
		} else {
			seen[key] = p.At
		}
	}
}

// firmwareLines checks that each line names a vendor, a number and
// defined adapters of that vendor, and that no adapter runs two lines.
func (l *linter) firmwareLines() {
	m := l.m
	seen := map[string]Loc{}
	for _, f := range m.FWLines {
		what := "firmware_line " + f.Major
		l.required(f.At, what, "vendor", f.Vendor)
		l.ref(f.At, "vendor", "vendor", f.Vendor, m.Vendor(f.Vendor) != nil)
		if _, err := strconv.Atoi(f.Major); err != nil {
			l.errAt(f.At, "major", "%s: major %q is not a number", what, f.Major)
		}
		if len(f.Adapters) == 0 {
			l.errAt(f.At, "", "%s names no adapters", what)
		}
		for _, id := range f.Adapters {
			a := m.Adapter(id)
			l.ref(f.At, "adapters", "adapter", id, a != nil)
			if a != nil && a.Vendor != f.Vendor {
				l.errAt(f.At, "adapters", "%s: adapter %s is %s's, not %s's", what, id, a.Vendor, f.Vendor)
			}
			if prev, ok := seen[id]; ok {
				l.errAt(f.At, "adapters", "%s: adapter %s already runs a firmware line (at %s)", what, id, prev)
			} else {
				seen[id] = f.At
			}
		}
	}
}

// stackDrivers checks that each row names a defined stack, a release and
// a drivers' version of the form the engine reads (24.10-1.1.4.0), and
// that no drivers' version of a stack is tied to two releases.
func (l *linter) stackDrivers() {
	m := l.m
	for i, d := range m.StackDrivers {
		what := "stack_driver " + d.Stack + " " + d.Driver
		l.required(d.At, what, "stack", d.Stack)
		l.required(d.At, what, "release", d.Release)
		l.required(d.At, what, "driver", d.Driver)
		l.ref(d.At, "stack", "stack", d.Stack, d.Stack == "" || m.Stack(d.Stack) != nil)
		if d.Driver != "" && !driverVersion.MatchString(d.Driver) {
			l.errAt(d.At, "driver", "%s: driver %q is not a drivers' version (want e.g. 24.10-1.1.4.0)", what, d.Driver)
		}
		for _, o := range m.StackDrivers[:i] {
			if o.Stack == d.Stack && o.Release != d.Release && sameDriver(o.Driver, d.Driver) {
				l.errAt(d.At, "driver", "%s: drivers %s are already tied to %s release %s (at %s)", what, o.Driver, o.Stack, o.Release, o.At)
			}
		}
	}
}

// compareUpstream compares two upstream kernel versions; unparsable ones
// compare equal, since lint reports them apart.
func compareUpstream(a, b string) int {
	ka, err1 := version.ParseKernel(a)
	kb, err2 := version.ParseKernel(b)
	if err1 != nil || err2 != nil {
		return 0
	}
	return version.CompareKernel(ka, kb)
}
