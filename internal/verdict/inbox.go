package verdict

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/rule"
)

// deviceKernel is the first upstream release from which an adapter's RoCE
// works inbox, read from the [[pci_kernel]] rows of its PCI ids: the RoCE
// kernel when a row gives one, else the first kernel listing the id, and
// never before the RDMA driver itself.
type deviceKernel struct {
	Kernel    string // x.y
	Confirmed bool   // every row it rests on is sourced (a confidence other than unconfirmed, a basis other than inferred)
	Bound     bool   // no row dates some id: Kernel is only a lower bound
	IDOnly    bool   // the deciding row dates the PCI id, not RoCE on it
	// Sure is the latest of the sourced kernels alone: a kernel before it
	// lacks the device whatever the unsourced rows would say.
	Sure string
	Text string // what the rows say, for a reason
	Refs []rule.Ref
}

// sureBefore reports whether kernel base predates the device kernel by
// its sourced rows alone.
func sureBefore(base string, dk deviceKernel) bool {
	c, ok := rule.Compare(base, dk.Sure)
	return dk.Sure != "" && ok && c < 0
}

// sourced reports whether the device kernel rests on sources only.
func (dk deviceKernel) sourced() bool { return dk.Confirmed && !dk.Bound }

// deviceKernelOf reads the device kernel for an adapter. When the plan
// named a PCI id, only that id's rows count; otherwise every physical
// function of the adapter, the latest deciding (every variant works from it).
func deviceKernelOf(m *matrix.Matrix, a *matrix.Adapter, drv *matrix.Driver, named string) deviceKernel {
	ids := planPCI(a, named)
	dk := deviceKernel{Confirmed: true}
	var texts []string
	seen := map[*matrix.PCIKernel]bool{}
	later := func(k, than string) bool {
		c, ok := rule.Compare(k, than)
		return than == "" || ok && c > 0
	}
	for _, p := range ids {
		row := m.DeviceKernel(p.ID, p.Subsystem)
		if row == nil {
			dk.Bound, dk.Confirmed = true, false
			texts = append(texts, fmt.Sprintf("no [[pci_kernel]] row dates %s", p.ID))
			continue
		}
		if seen[row] {
			continue
		}
		seen[row] = true
		k, idOnly := row.RoCEKernel, false
		if k == "" {
			k, idOnly = row.FirstKernel, true
		}
		what := row.PCI
		if row.Subsystem != "" {
			what += "/" + row.Subsystem
		}
		if k == "" {
			dk.Bound, dk.Confirmed = true, false
			texts = append(texts, "the first kernel whose "+row.Driver+" lists "+what+" is not known")
			dk.Refs = append(dk.Refs, rule.Cite(m, "pci_kernel "+what, row.Claim, fmt.Sprintf("%s: first kernel unknown", what)))
			continue
		}
		say := fmt.Sprintf("%s lists %s from Linux %s", row.Driver, what, k)
		if !idOnly {
			say = fmt.Sprintf("RoCE on %s works from Linux %s", what, k)
		}
		if row.Commit != "" {
			say += " (commit " + row.Commit + ")"
		}
		if row.Confidence == matrix.Unconfirmed {
			dk.Confirmed = false
			say += ", a release inferred, not confirmed"
		} else if later(k, dk.Sure) {
			dk.Sure = k
		}
		texts = append(texts, say)
		dk.Refs = append(dk.Refs, rule.Cite(m, "pci_kernel "+what, row.Claim, say))
		if later(k, dk.Kernel) {
			dk.Kernel, dk.IDOnly = k, idOnly
		}
	}
	// Never before the RDMA driver (or the adapter's own inbox kernel).
	floor, basis := drv.FirstKernel, drv.FirstKernelBasis
	sure := drv.Confidence != matrix.Unconfirmed
	if a.InboxKernel != "" && (floor == "" || later(a.InboxKernel, floor)) {
		floor, basis, sure = a.InboxKernel, a.InboxKernelBasis, a.Confidence != matrix.Unconfirmed
	}
	sure = sure && basis != "inferred"
	if floor != "" {
		floorSure := sure && later(floor, dk.Sure)
		if floorSure {
			dk.Sure = floor
		}
		switch {
		case later(floor, dk.Kernel):
			dk.Kernel, dk.IDOnly = floor, false
			say := fmt.Sprintf("%s is in the kernel from %s", drv.ID, floor)
			if !sure {
				dk.Confirmed = false
				say += ", a release inferred, not confirmed"
			}
			texts = append(texts, say)
			dk.Refs = append(dk.Refs, rule.Cite(m, "driver "+drv.ID, drv.Claim, say))
		case floorSure:
			// The sourced driver release, not the device rows, is what
			// excludes older kernels: name it, so an unsupported reason
			// cites the source that decides it.
			say := fmt.Sprintf("%s is in the kernel from %s", drv.ID, floor)
			texts = append(texts, say)
			dk.Refs = append(dk.Refs, rule.Cite(m, "driver "+drv.ID, drv.Claim, say))
		}
	}
	dk.Text = strings.Join(texts, "; ")
	return dk
}

// FirstKernel is the first upstream kernel from which the adapter's RoCE
// works inbox, as Judge reads it (its PCI ids' [[pci_kernel]] rows, never
// before its RDMA driver), and whether every row it rests on is sourced;
// "" when the matrix states none or the driver is not in the kernel.
func FirstKernel(m *matrix.Matrix, a *matrix.Adapter) (kernel string, sourced bool) {
	drv := m.Driver(a.RDMADriver)
	if drv == nil || !drv.InTree || a.NotRoCE != "" {
		return "", false
	}
	dk := deviceKernelOf(m, a, drv, "")
	return dk.Kernel, dk.Kernel != "" && dk.sourced()
}

// planPCI returns the adapter's PCI ids the plan means: the one it named,
// else its physical functions (or every id, for a virtual function model).
func planPCI(a *matrix.Adapter, named string) []matrix.PCIID {
	id, sub := plannedID(named)
	var out, pfs []matrix.PCIID
	for _, p := range a.PCI {
		if p.ID == id && (sub == "" || p.Subsystem == sub) {
			out = append(out, p)
		}
		if p.Function != "vf" {
			pfs = append(pfs, p)
		}
	}
	switch {
	case len(out) > 0:
		return out
	case len(pfs) > 0:
		return pfs
	}
	return a.PCI
}

// plannedID splits what a plan named as its adapter into a PCI id and a
// subsystem id (vvvv:dddd/ssss:ssss, either part possibly empty).
func plannedID(named string) (id, sub string) {
	id, sub, _ = strings.Cut(strings.ToLower(strings.TrimSpace(named)), "/")
	return id, sub
}

func judgeInbox(m *matrix.Matrix, e *Engine, v *Verdict, a *matrix.Adapter, k kernel) {
	drv := m.Driver(a.RDMADriver)
	if a.RDMADriver == "" || drv == nil {
		v.add(Reason{Verdict: Undecided, Text: "the matrix has no RDMA driver entry for " + a.Name + ", so inbox support is unknown; a [[driver]] entry would decide it"})
		return
	}
	if !drv.InTree {
		text := drv.ID + " is not in the upstream kernel; " + a.Name + " needs a vendor stack"
		near := ""
		if len(a.Stacks) > 0 {
			near = "use the vendor stack " + strings.Join(a.Stacks, " or ")
		}
		v.add(Reason{Verdict: Unsupported, Text: text, Nearest: near, Matrix: []rule.Ref{rule.Cite(m, "driver "+drv.ID, drv.Claim, drv.ID+" is not in tree")}})
		return
	}
	dk := e.perAdapter(v.Plan).deviceKernel(m, a, drv, v.Plan.Adapter)
	if dk.Kernel == "" {
		v.add(Reason{Verdict: Undecided, Text: "the matrix states no first kernel for " + a.Name + " or its driver " + drv.ID + "; a [[pci_kernel]] row would decide it"})
		return
	}
	switch {
	case k.Distro != nil:
		judgeDistro(m, e, v, a, drv, dk, k)
	case k.Base == "" && dk.sourced():
		v.add(Reason{Verdict: Conditional, Text: fmt.Sprintf("inbox support for %s needs Linux %s or later; no kernel or distro was given (%s)", a.Name, dk.Kernel, dk.Text), Nearest: "Linux " + dk.Kernel + " or later", Matrix: dk.Refs})
	case k.Base == "":
		v.add(Reason{Verdict: Undecided, Likely: Conditional, Text: fmt.Sprintf("inbox support for %s likely needs Linux %s or later, but that first release is not sourced (%s); no kernel or distro was given; a source dating the device in its driver would decide it", a.Name, dk.Kernel, dk.Text), Nearest: "Linux " + dk.Kernel + " or later", Matrix: dk.Refs})
	case k.Vendor:
		// A distro kernel whose release the matrix does not know: its
		// number says nothing about what it carries.
		c, ok := rule.Compare(k.Base, dk.Kernel)
		switch {
		case !ok:
			v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("kernel %s cannot be compared with %s; a distro release (--distro) would decide it", k.Base, dk.Kernel), Matrix: dk.Refs})
		case c >= 0 && k.Flavour != "":
			v.add(Reason{Verdict: Undecided, Likely: Supported, Text: fmt.Sprintf("%s, the %s flavour, is at or after %s by its upstream base %s, but that does not say whether this flavour builds %s; its kernel configuration (or modinfo %s on it) would decide it", v.Kernel, k.Flavour, dk.Kernel, k.Base, drv.ID, drv.ID), Matrix: dk.Refs})
		case c >= 0:
			v.add(Reason{Verdict: Undecided, Likely: Supported, Text: fmt.Sprintf("%s is a distro or custom kernel, and its number alone (upstream %s, at or after %s) does not say what it builds or carries; its distro release (--distro, with a distro_support row), or for a custom build whether it builds %s (its configuration, or modinfo %s on it), would decide it", v.Kernel, k.Base, dk.Kernel, drv.ID, drv.ID), Matrix: dk.Refs})
		default:
			v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("%s is a distro or custom kernel whose upstream base %s predates %s (%s); such kernels carry backports, so only its release notes (a distro_support row, with --distro), or a custom build's tree and configuration, would decide it", v.Kernel, k.Base, dk.Kernel, dk.Text), Matrix: dk.Refs})
		}
	default:
		judgeUpstream(m, v, a, drv, dk, k.Base)
	}
}

// someVariants words a kernel that lists some of an adapter's PCI ids and
// not others, for a plan that named none: the model's variants differ (an
// E810-XXV SFP id came in 5.7, its backplane ids in 5.15), so the answer
// depends on which the host has, and is neither a yes nor a no. ok is
// false unless the plan named no id, and some physical-function ids are
// listed by base by their sourced rows while others are sourced after it.
func someVariants(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, base, what, near string) (Reason, bool) {
	if id, _ := plannedID(v.Plan.Adapter); slices.ContainsFunc(a.PCI, func(p matrix.PCIID) bool { return p.ID == id }) {
		return Reason{}, false
	}
	drv := m.Driver(a.RDMADriver)
	var in, out []string
	var refs []rule.Ref
	var texts []string
	seen := map[string]bool{}
	for _, p := range planPCI(a, "") {
		if seen[p.ID] {
			continue
		}
		seen[p.ID] = true
		dk := deviceKernelOf(m, a, drv, p.ID)
		c, ok := rule.Compare(base, dk.Kernel)
		switch {
		case sureBefore(base, dk):
			out = append(out, p.ID)
		case ok && c >= 0 && dk.sourced():
			in = append(in, p.ID)
		default:
			return Reason{}, false
		}
		texts = append(texts, dk.Text)
		refs = append(refs, dk.Refs...)
	}
	if len(in) == 0 || len(out) == 0 {
		return Reason{}, false
	}
	return Reason{Verdict: Undecided, Text: fmt.Sprintf("%s lists %s but not %s (%s): whether %s works depends on its PCI id; `lspci -nn` shows it, and --adapter with that id would decide it", what, strings.Join(in, ", "), strings.Join(out, ", "), strings.Join(slices.Compact(texts), "; "), a.Name), Nearest: near, Matrix: slices.CompactFunc(refs, func(x, y rule.Ref) bool { return x.Entry == y.Entry })}, true
}

// judgeUpstream judges an upstream release as released: no stable backports.
func judgeUpstream(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, drv *matrix.Driver, dk deviceKernel, base string) {
	if drv.RemovedKernel != "" {
		if c, ok := rule.Compare(base, drv.RemovedKernel); ok && c >= 0 {
			near := "a kernel before " + drv.RemovedKernel
			if drv.ReplacedBy != "" {
				near = "the replacement driver " + drv.ReplacedBy
			}
			v.add(Reason{Verdict: Unsupported, Text: fmt.Sprintf("%s was removed in kernel %s", drv.ID, drv.RemovedKernel), Nearest: near, Matrix: []rule.Ref{rule.Cite(m, "driver "+drv.ID, drv.Claim, fmt.Sprintf("%s was removed in %s", drv.ID, drv.RemovedKernel))}})
			return
		}
	}
	c, ok := rule.Compare(base, dk.Kernel)
	switch {
	case !ok:
		v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("kernel %s cannot be compared with %s; a kernel release x.y would decide it", base, dk.Kernel), Matrix: dk.Refs})
	case sureBefore(base, dk):
		if r, ok := someVariants(m, v, a, base, "kernel "+base+" (as released)", "Linux "+dk.Kernel+" or later"); ok {
			v.add(r)
			return
		}
		v.add(Reason{Verdict: Unsupported, Text: fmt.Sprintf("kernel %s (as released, without stable backports) is older than %s: %s", base, dk.Kernel, dk.Text), Nearest: "Linux " + dk.Kernel + " or later", Matrix: dk.Refs})
	case c < 0:
		v.add(Reason{Verdict: Undecided, Likely: Unsupported, Text: fmt.Sprintf("kernel %s is likely older than %s, but that first release is not sourced (%s); a source dating the device in its driver would decide it", base, dk.Kernel, dk.Text), Nearest: "Linux " + dk.Kernel + " or later", Matrix: dk.Refs})
	case dk.Bound:
		v.add(Reason{Verdict: Undecided, Likely: Supported, Text: fmt.Sprintf("kernel %s is at or after %s, but the first kernel listing some PCI id of %s is not known (%s); a [[pci_kernel]] row would decide it", base, dk.Kernel, a.Name, dk.Text), Matrix: dk.Refs})
	case dk.IDOnly && a.Confidence == matrix.Unconfirmed:
		v.add(Reason{Verdict: Undecided, Likely: Supported, Text: fmt.Sprintf("kernel %s lists %s (%s), but RoCE on it is not confirmed: the matrix dates the PCI id, not %s support for it; a source for that would decide it", base, a.Name, dk.Text, drv.ID), Matrix: dk.Refs})
	case !dk.Confirmed:
		v.add(Reason{Verdict: Undecided, Likely: Supported, Text: fmt.Sprintf("kernel %s is at or after %s, but that first release is inferred, not confirmed (%s); a source dating the device in its driver would decide it", base, dk.Kernel, dk.Text), Matrix: dk.Refs})
	default:
		v.add(Reason{Verdict: Supported, Text: fmt.Sprintf("kernel %s is at or after %s (%s)", base, dk.Kernel, dk.Text), Matrix: dk.Refs})
	}
}

// backporting lists the distro families whose kernels carry drivers and
// device ids from later upstream releases: their kernel number says
// nothing about what they support.
var backporting = map[string]bool{"rhel": true, "sles": true, "oracle": true}

// rebuilding lists the families whose kernels follow upstream releases,
// so a kernel older than the device's lacks it.
var rebuilding = map[string]bool{"ubuntu": true, "debian": true}

// judgeDistro judges a distro release by its [[distro_support]] rows, and
// only without one by its kernel number, never as plain supported.
func judgeDistro(m *matrix.Matrix, e *Engine, v *Verdict, a *matrix.Adapter, drv *matrix.Driver, dk deviceKernel, k kernel) {
	d := k.Distro
	if row, byAdapter := e.distroRow(m, a, d); row != nil {
		judgeDistroRow(m, v, a, d, dk, row, byAdapter)
		return
	}
	if bp := rule.Backport(d, drv.ID); bp != nil {
		// A backport says the driver ships, not which device ids it lists.
		ref := rule.Cite(m, "distro "+d.ID+" backport "+bp.Driver, bp.Claim, bp.Text)
		if bp.Weak() || !covers(dk, d.KernelBase) {
			v.add(Reason{Verdict: Undecided, Likely: Supported, Text: fmt.Sprintf("%s backports %s: %s; whether it lists %s is not sourced (a distro_support row naming it would decide it)", d.Name, drv.ID, bp.Text, a.Name), Matrix: append([]rule.Ref{ref}, dk.Refs...)})
			return
		}
		v.add(Reason{Verdict: Supported, Text: fmt.Sprintf("%s backports %s: %s", d.Name, drv.ID, bp.Text), Matrix: append([]rule.Ref{ref}, dk.Refs...)})
		return
	}
	c, ok := rule.Compare(k.Base, dk.Kernel)
	refs := append(slices.Clip(dk.Refs), rule.Cite(m, "distro "+d.ID, d.Claim, fmt.Sprintf("%s is based on %s", d.Name, k.Base)))
	if !ok {
		v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("kernel %s cannot be compared with %s; a distro_support row for %s would decide it", k.Base, dk.Kernel, d.Name), Matrix: refs})
		return
	}
	// Worded without the distro and its kernel (the verdict's "ships
	// kernel" reason names both), and citing the distro entry only when
	// the verdict does not already, so the reason is the same on every
	// distro that fares alike and a page writes it once.
	if cites(v.Reasons, "distro "+d.ID) {
		refs = dk.Refs
	}
	switch {
	case c >= 0:
		v.add(Reason{Verdict: Undecided, Likely: Supported, Text: fmt.Sprintf("the distro's kernel base is at or after %s, the device's first kernel, but a distro kernel is not judged by its number: no distro_support row covers %s on this distro; a row from the distro's release notes or kernel configuration would decide it", dk.Kernel, a.Name), Matrix: refs})
	case backporting[d.Family]:
		v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("the distro's kernel base predates %s (%s), but %s kernels backport drivers and device ids; only the distro's release notes (a distro_support row) would decide it", dk.Kernel, dk.Text, d.Family), Matrix: refs})
	case rebuilding[d.Family] && sureBefore(k.Base, dk):
		// These kernels follow upstream releases: a sourced first kernel
		// after the release's base excludes the device.
		if r, ok := someVariants(m, v, a, k.Base, "the distro's kernel", nearestDistro(m, d, dk.Kernel)); ok {
			r.Matrix = append(r.Matrix, refs[len(dk.Refs):]...)
			v.add(r)
			return
		}
		v.add(Reason{Verdict: Unsupported, Text: fmt.Sprintf("the distro's kernel is older than %s (%s), and no distro_support row says this %s release backported it", dk.Kernel, dk.Text, d.Family), Nearest: nearestDistro(m, d, dk.Kernel), Matrix: refs})
	case rebuilding[d.Family]:
		v.add(Reason{Verdict: Undecided, Likely: Unsupported, Text: fmt.Sprintf("the distro's kernel is older than %s (%s), and no distro_support row says this %s release backported it; a row from its release notes would decide it", dk.Kernel, dk.Text, d.Family), Nearest: nearestDistro(m, d, dk.Kernel), Matrix: refs})
	default:
		v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("the distro's kernel base predates %s (%s); whether the distro backports it is not recorded (a distro_support row would decide it)", dk.Kernel, dk.Text), Matrix: refs})
	}
}

// nearestDistro names the earliest release of d's family whose kernel base
// reaches the device's first kernel.
func nearestDistro(m *matrix.Matrix, d *matrix.Distro, need string) string {
	var best *matrix.Distro
	for i := range m.Distros {
		e := &m.Distros[i]
		if e.Family != d.Family {
			continue
		}
		if c, ok := rule.Compare(e.KernelBase, need); !ok || c < 0 {
			continue
		}
		if best == nil || earlier(e, best) {
			best = e
		}
	}
	if best == nil {
		return "a " + d.Family + " release with Linux " + need + " or later"
	}
	return fmt.Sprintf("%s (%s) or later", best.Name, best.KernelBase)
}

// earlier orders releases by version, then kernel base (GA before HWE).
func earlier(a, b *matrix.Distro) bool {
	if c, ok := rule.Compare(a.Version, b.Version); ok && c != 0 {
		return c < 0
	}
	c, _ := rule.Compare(a.KernelBase, b.KernelBase)
	return c < 0
}

// familyHint is what a family's row read for a rebuild says after its
// step: the row is about the family's own kernels, and what would decide
// the rebuild. It is worded without the release's name, which the plan or
// the grid's row shows, so that every rebuild release the one row covers
// shares the reason (and the adapter grid one row for them).
const familyHint = " (the row is about the family's own kernels, not a rebuild's; no source in the matrix says the rebuild's kernel builds the same drivers, so for the rebuild it is a hint, not a verdict; the rebuild's own kernel configuration (CONFIG_MLX5_INFINIBAND, CONFIG_INFINIBAND_BNXT_RE, CONFIG_INFINIBAND_IRDMA … in /boot/config-<kernel>), as a distro_support row with its rebuild name, would decide it)"

// DistroRow returns the [[distro_support]] row that decides an adapter on
// a distro release: rows of its family whose from..until holds the
// release and that name the adapter or, naming no adapter, one of its
// drivers (a row naming adapters is about them: its drivers say whose ids
// it lists, as AlmaLinux's re-added be2net ids of BE3 say nothing of
// Skyhawk, another be2net part). A row naming the adapter beats one
// naming a driver; then the later from wins.
func DistroRow(m *matrix.Matrix, a *matrix.Adapter, d *matrix.Distro) (row *matrix.DistroRow, byAdapter bool) {
	drivers := adapterDrivers(m, a)
	for i := range m.DistroRows {
		r := &m.DistroRows[i]
		if !rule.Covers(r, d) {
			continue
		}
		ad := slices.Contains(r.Adapters, a.ID)
		if !ad && (len(r.Adapters) > 0 || !slices.ContainsFunc(r.Drivers, func(s string) bool { return slices.Contains(drivers, s) })) {
			continue
		}
		// A row about the release's rebuild wins over the family's; then
		// a row naming the adapter over one naming its driver; then the
		// later from.
		switch {
		case row == nil, r.Rebuild != "" && row.Rebuild == "":
		case r.Rebuild == "" && row.Rebuild != "":
			continue
		case ad && !byAdapter:
		case ad == byAdapter:
			if c, ok := rule.Compare(r.From, row.From); !ok || c <= 0 {
				continue
			}
		default:
			continue
		}
		row, byAdapter = r, ad
	}
	return row, byAdapter
}

// adapterDrivers lists the modules an adapter uses: its Ethernet and RDMA
// drivers, the RDMA driver's companions and its PCI ids' drivers.
func adapterDrivers(m *matrix.Matrix, a *matrix.Adapter) []string {
	out := []string{a.RDMADriver, a.EthDriver}
	if drv := m.Driver(a.RDMADriver); drv != nil {
		out = append(out, drv.EthDrivers...)
	}
	for _, p := range a.PCI {
		if k := m.DeviceKernel(p.ID, p.Subsystem); k != nil {
			out = append(out, k.Driver)
		}
	}
	return out
}

// inRelease reports whether version v lies in from..until (until empty:
// open). Versions of different majors compare as numbers: 8.10 > 8.9.

func judgeDistroRow(m *matrix.Matrix, v *Verdict, a *matrix.Adapter, d *matrix.Distro, dk deviceKernel, r *matrix.DistroRow, byAdapter bool) {
	entry := r.Entry()
	// A family's row read for a rebuild (Rocky Linux of RHEL) says what
	// the family's kernel builds; the rebuild's kernel is another build,
	// and without a source saying it is the same its steps are hints.
	if r.Rebuild == "" && !d.FamilyRowsDecide() {
		v.familyRow, v.familyWhy = entry, familyHint
		defer func() { v.familyRow, v.familyWhy = "", "" }()
	}
	ref := rule.Cite(m, entry, r.Claim, r.Text)
	weak := r.Weak()
	// Worded without the distro (the plan names it), so the reason is the
	// same on every release the row covers.
	text := RowLead(entry) + ": " + r.Text
	switch {
	case weak && r.Status != matrix.StatusSupported:
		likely := Conditional
		if r.Status == matrix.StatusUnsupported {
			likely = Unsupported
		}
		v.add(Reason{Verdict: Undecided, Likely: likely, Text: fmt.Sprintf("the distro marks it %s: %s (the row is %s, not a source that states it; the distro's own statement would decide it)", r.Status, text, r.Confidence), Matrix: []rule.Ref{ref}})
		return
	}
	// A row that names the adapter under other drivers than its RDMA
	// driver (AlmaLinux re-adding mlx4_core's ids) says the device is
	// listed, not that its RoCE driver is built: without its RDMA
	// driver it cannot turn a "no" into a yes.
	if a != nil && slices.Contains(r.Adapters, a.ID) && r.Status != matrix.StatusUnsupported && len(r.Drivers) > 0 && a.RDMADriver != "" && !slices.Contains(r.Drivers, a.RDMADriver) {
		// A driver row of the same scope (the rebuild's own, or the
		// family's) saying whether the RDMA driver is built decides it
		// with this one: the ids are listed (this row's step), and the
		// RoCE driver is built or not (that row's). The device's own step
		// is still read against that row as a driver row.
		if dr := rdmaDriverRow(m, a, d, r); dr != nil && r.Status == matrix.StatusSupported && !weak {
			v.add(Reason{Verdict: Supported, Text: text, Matrix: []rule.Ref{ref}})
			judgeDistroRow(m, v, a, d, dk, dr, false)
			return
		}
		v.add(Reason{Verdict: Undecided, Text: fmt.Sprintf("%s; the row is about %s, not %s, the RoCE driver of %s; a row saying this distro builds %s would decide it", strings.TrimSuffix(text, "."), strings.Join(r.Drivers, ", "), a.RDMADriver, a.Name, a.RDMADriver), Matrix: []rule.Ref{ref}})
		return
	}
	switch r.Status {
	case matrix.StatusUnsupported:
		v.add(Reason{Verdict: Unsupported, Text: text, Nearest: nearestRow(m, a, d, r), Matrix: []rule.Ref{ref}})
	case matrix.StatusDeprecated, matrix.StatusTechPreview:
		v.add(Reason{Verdict: Conditional, Text: fmt.Sprintf("the distro marks it %s: %s", r.Status, text), Matrix: []rule.Ref{ref}})
	default:
		// A driver row is read against the upstream release its drivers
		// match: the vendor's stated driver base, else the kernel base.
		base, baseName, older := r.Base(d), "the distro's kernel base", d.Name+"'s kernel"
		// The row's own step, that the distro builds the driver, is a
		// reason of its own, on the row's entry; the device's step is
		// another, on the device's entries. The row's step then reads the
		// same for every adapter the row covers, and a page states it once.
		rowStep := Reason{Verdict: Supported, Text: text, Matrix: []rule.Ref{ref}}
		if weak {
			rowStep = Reason{Verdict: Undecided, Likely: Supported, Text: fmt.Sprintf("%s (the row is %s, not a source that states it; the vendor's or the distro's own statement would decide it)", text, r.Confidence), Matrix: []rule.Ref{ref}}
		}
		if r.DriverBase != "" {
			baseName, older = "the row's driver base", "the row's driver base"
		}
		switch {
		case !byAdapter && rebuilding[d.Family] && sureBefore(base, dk):
			// A driver row says the module is built, not that a device
			// newer than the release's kernel was backported: for a
			// family that follows upstream, the sourced first kernel
			// still excludes it, as it does without a row.
			v.add(rowStep)
			if sv, ok := someVariants(m, v, a, base, older, nearestDistro(m, d, dk.Kernel)); ok {
				sv.Text = "the distro_support row names the driver, and " + sv.Text
				v.add(sv)
				return
			}
			v.add(Reason{Verdict: Unsupported, Text: fmt.Sprintf("the distro_support row names the driver, and %s %s is older than %s (%s)", older, base, dk.Kernel, dk.Text), Nearest: nearestDistro(m, d, dk.Kernel), Matrix: dk.Refs})
		case !byAdapter && !covers(dk, base):
			// A driver row says the driver ships, not that this device
			// id, newer than the release's kernel base, is in it.
			why := fmt.Sprintf("whose first upstream kernel, %s, is after %s %s", dk.Kernel, baseName, base)
			if c, ok := rule.Compare(base, dk.Kernel); dk.Kernel == "" || (ok && c >= 0) {
				why = "whose first upstream kernel no source states"
				if dk.Kernel != "" {
					why += " (" + dk.Kernel + " is inferred)"
				}
			}
			v.add(rowStep)
			v.add(Reason{Verdict: Undecided, Likely: Supported, Text: fmt.Sprintf("the distro_support row names the driver, not %s, %s; a row naming the device would decide it", a.Name, why), Matrix: dk.Refs})
		case weak:
			v.add(rowStep)
		case !byAdapter && a != nil:
			// A driver row says the driver is built; that it holds this
			// device is the device's own step, read against the driver
			// base or the kernel base: say it, with its sources, so every
			// step of the chain is shown. Against the kernel base it is
			// worded without the base, which the plan's kernel (and a
			// grid's distro) shows, so it reads the same on every release.
			v.add(rowStep)
			text := fmt.Sprintf("%s's first upstream kernel, %s, is at or before the distro's kernel base", a.Name, dk.Kernel)
			if r.DriverBase != "" {
				text = fmt.Sprintf("%s's first upstream kernel, %s, is at or before the row's driver base %s", a.Name, dk.Kernel, base)
			}
			v.add(Reason{Verdict: Supported, Text: text, Matrix: dk.Refs})
		default:
			v.add(rowStep)
		}
	}
}

// rdmaDriverRow returns the driver row that says whether a's RDMA driver
// is built on d, of the same scope as r (a row naming a's ids under other
// drivers): covering d, naming no adapter, naming the RDMA driver, with
// r's rebuild (none for a family's row); the later from wins.
func rdmaDriverRow(m *matrix.Matrix, a *matrix.Adapter, d *matrix.Distro, r *matrix.DistroRow) *matrix.DistroRow {
	return latestRow(m, d, func(e *matrix.DistroRow) bool {
		return e != r && len(e.Adapters) == 0 && e.Rebuild == r.Rebuild && slices.Contains(e.Drivers, a.RDMADriver)
	})
}

// covers reports whether a distro kernel base holds the device's first
// upstream kernel.
func covers(dk deviceKernel, base string) bool {
	c, ok := rule.Compare(base, dk.Kernel)
	return ok && c >= 0 && dk.sourced()
}

// nearestRow names the closest releases of the family a supported row
// gives for the adapter.
// A software stack (SoftRoCE) has no adapter: its row's drivers stand in.
func nearestRow(m *matrix.Matrix, a *matrix.Adapter, d *matrix.Distro, not *matrix.DistroRow) string {
	drivers := not.Drivers
	if a != nil {
		drivers = adapterDrivers(m, a)
	}
	var best *matrix.DistroRow
	for i := range m.DistroRows {
		r := &m.DistroRows[i]
		if r == not || r.Family != d.Family || r.Rebuild != "" && r.Rebuild != d.Rebuild || r.Status != matrix.StatusSupported {
			continue
		}
		if !(a != nil && slices.Contains(r.Adapters, a.ID)) && (a != nil && len(r.Adapters) > 0 || !slices.ContainsFunc(r.Drivers, func(s string) bool { return slices.Contains(drivers, s) })) {
			continue
		}
		// A row listing the adapter's ids under other drivers than its
		// RDMA driver (AlmaLinux's re-added be2net ids of BE3) is no
		// supported combination for RoCE by itself (judgeDistroRow).
		if a != nil && a.RDMADriver != "" && slices.Contains(r.Adapters, a.ID) && len(r.Drivers) > 0 && !slices.Contains(r.Drivers, a.RDMADriver) {
			continue
		}
		if best == nil {
			best = r
			continue
		}
		if c, ok := rule.Compare(r.From, best.From); ok && c > 0 {
			best = r
		}
	}
	if best == nil {
		return ""
	}
	if best.Until != "" {
		return fmt.Sprintf("%s %s to %s", d.Family, best.From, best.Until)
	}
	return fmt.Sprintf("%s %s or later", d.Family, best.From)
}

// cites reports whether a reason of rs rests on the matrix entry.
func cites(rs []Reason, entry string) bool {
	return slices.ContainsFunc(rs, func(r Reason) bool {
		return slices.ContainsFunc(r.Matrix, func(ref rule.Ref) bool { return ref.Entry == entry })
	})
}

// RowLead is how a reason's text names the matrix row it rests on, entry
// ("distro_support rhel 8"): "the distro_support row for rhel 8", or ""
// for an entry of no row. A page that shows a reason beside its entry
// reads it to say the entry once.
func RowLead(entry string) string {
	kind, rest, ok := strings.Cut(entry, " ")
	if !ok || rest == "" {
		return ""
	}
	return "the " + kind + " row for " + rest
}
