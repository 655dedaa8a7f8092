package compat

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
)

// checkAdapterUnknown flags PCI functions the matrix does not know.
//
// Severity: warning when the function looks RDMA-capable (it has an RDMA
// device, its driver is a companion of a matrix RDMA driver, or its PCI
// vendor is a matrix vendor): the engine cannot judge the part people most
// likely care about. info for other network functions (onboard NICs,
// virtio): nothing is wrong with them, the matrix simply does not cover them.
func checkAdapterUnknown(h *record.Host, m *matrix.Matrix) Result {
	v := newView(h, m)
	var r Result
	if len(h.Adapters) == 0 {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "the record lists no PCI network or RDMA function"})
		return r
	}
	for i := range h.Adapters {
		a := &h.Adapters[i]
		if ma := v.match(a); ma != nil {
			text := fmt.Sprintf("%s:%s is %s", a.Vendor, a.Device, ma.Name)
			if a.Vendor == "" || a.Device == "" {
				// Identified by the pci.ids name lspci printed, not by ids.
				text = fmt.Sprintf("lspci names this function %q, the pci.ids name of %s", a.Name, ma.Name)
			}
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass,
				Text: text, Evidence: []Evidence{adapterFact(a, "name", a.Name)},
				Matrix: []Ref{v.ref("adapter "+ma.ID, ma.Claim, pciRule(ma))}})
			continue
		}
		if a.Vendor == "" || a.Device == "" {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the record has no PCI vendor and device id for this function"})
			continue
		}
		id := a.Vendor + ":" + a.Device
		if a.SubsystemVendor != "" {
			id += " (subsystem " + a.SubsystemVendor + ":" + a.SubsystemDevice + ")"
		}
		ev := []Evidence{adapterFact(a, "pci id", id)}
		if a.Name != "" {
			ev = append(ev, adapterFact(a, "name", a.Name))
		}
		sev, why := Info, "it has no RDMA device and its driver is not a RoCE driver the matrix knows, so it is probably a plain network function"
		switch {
		case len(v.rdmaDevicesOf(a)) > 0:
			devs := strings.Join(v.rdmaDevicesOf(a), ", ")
			sev, why = Warning, "it carries the RDMA device(s) "+devs
			ev = append(ev, adapterFact(a, "rdma_devices", devs))
		case a.Driver.Name != "" && ethDriverKnown(m, a.Driver.Name):
			sev, why = Warning, "its driver "+a.Driver.Name+" is the Ethernet side of an RDMA driver the matrix knows"
			ev = append(ev, adapterFact(a, "driver.name", a.Driver.Name))
		case vendorKnown(m, a.Vendor):
			sev, why = Warning, "its PCI vendor "+a.Vendor+" makes RoCE adapters the matrix lists"
		}
		r.Findings = append(r.Findings, Finding{
			Severity: sev, Subject: a.PCIAddress, Adapter: a.PCIAddress,
			Message:     fmt.Sprintf("PCI function %s is not in the matrix", id),
			Explanation: "The engine judges only parts the matrix lists, and gives no verdict for this one rather than guess: " + why + ".",
			Fix:         "If this part is used for RoCE, add it to matrix/<vendor>.toml with a source for its PCI id (see README, 'Add a matrix row'); otherwise ignore this finding.",
			Evidence:    ev,
		})
	}
	return r
}

func pciRule(a *matrix.Adapter) string {
	var ids []string
	for _, p := range a.PCI {
		s := p.ID
		if p.Subsystem != "" {
			s += " subsystem " + p.Subsystem
		}
		ids = append(ids, s)
	}
	return fmt.Sprintf("%s has PCI id %s", a.Name, strings.Join(ids, ", "))
}

func ethDriverKnown(m *matrix.Matrix, name string) bool {
	for _, d := range m.Drivers {
		if slices.Contains(d.EthDrivers, name) {
			return true
		}
	}
	for _, a := range m.Adapters {
		if a.EthDriver == name {
			return true
		}
	}
	return false
}

func vendorKnown(m *matrix.Matrix, pciVendor string) bool {
	for _, v := range m.Vendors {
		if v.Kind == matrix.KindHardware && slices.Contains(v.PCIVendors, pciVendor) {
			return true
		}
	}
	return false
}

// optionalFeature reports whether a firmware_min feature adds to RoCE
// rather than enabling it. Cisco's minimum is 5.1(1x) for IPv4 and 5.1(2x)
// for IPv6: below the IPv6 minimum RoCE v2 still works over IPv4.
func optionalFeature(feature string) bool { return strings.HasSuffix(feature, "-ipv6") }

// featureSeverity is the severity of missing a feature's minimum: a
// warning for optional features, an error otherwise.
func featureSeverity(feature string) Severity {
	if optionalFeature(feature) {
		return Warning
	}
	return Error
}

// firmwareMins returns the firmware_min entries in force for an adapter on
// a stack (id and version; "inbox" for the distro stack): entries without a
// stack always apply; entries for a stack apply to it from their
// stack_version on, and for one feature the entry with the latest
// applicable stack_version wins. An unknown stack version takes the lowest
// stated minimum, never a stricter one. The result is sorted by feature.
func firmwareMins(m *matrix.Matrix, adapter, stack, stackVersion string) []*matrix.FirmwareMin {
	best := map[string]*matrix.FirmwareMin{}
	better := func(cur, cand *matrix.FirmwareMin) bool {
		if cur == nil {
			return true
		}
		if cur.Stack == "" && cand.Stack != "" {
			return true // a stack-specific entry is more precise
		}
		if cur.Stack != "" && cand.Stack == "" {
			return false
		}
		c, ok := compareVersions(cand.StackVersion, cur.StackVersion)
		if !ok {
			return cur.StackVersion == "" && cand.StackVersion != ""
		}
		return c > 0
	}
	for i := range m.Firmware {
		f := &m.Firmware[i]
		if f.Adapter != adapter || f.Min == "" {
			continue
		}
		if f.Stack != "" && f.Stack != stack {
			continue
		}
		if f.StackVersion != "" {
			if stackVersion == "" {
				if cur := best[f.Feature]; cur != nil && cur.Stack == f.Stack {
					if c, ok := compareVersions(f.StackVersion, cur.StackVersion); ok && c >= 0 {
						continue
					}
				}
				best[f.Feature] = f
				continue
			}
			if c, ok := compareVersions(stackVersion, f.StackVersion); !ok || c < 0 {
				continue
			}
		}
		if better(best[f.Feature], f) {
			best[f.Feature] = f
		}
	}
	out := make([]*matrix.FirmwareMin, 0, len(best))
	for _, f := range best {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Feature < out[j].Feature })
	return out
}

func minRule(a *matrix.Adapter, f *matrix.FirmwareMin) string {
	s := fmt.Sprintf("%s needs firmware ≥ %s for %s", a.Name, f.Min, f.Feature)
	if f.Stack != "" {
		s += " with " + f.Stack
		if f.StackVersion != "" {
			s += " " + f.StackVersion + " and later"
		}
	}
	return s
}

// checkFirmwareMin compares running firmware with the matrix minimums.
//
// Severity: error below the minimum for RoCE itself (the vendor does not
// support the part there); warning below the minimum of an optional
// feature only (e.g. Cisco's IPv6 minimum: RoCE v2 over IPv4 still works).
func checkFirmwareMin(h *record.Host, m *matrix.Matrix) Result {
	v := newView(h, m)
	var r Result
	stack, stackVer := v.hostStack()
	for i := range h.Adapters {
		a := &h.Adapters[i]
		ma := v.match(a)
		if ma == nil {
			continue // unjudged notes it
		}
		mins := firmwareMins(m, ma.ID, stack, stackVer)
		if len(mins) == 0 {
			// Every part has some lowest working firmware; the matrix not
			// knowing it is absent data, not a pass.
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the matrix states no minimum firmware for " + ma.Name})
			continue
		}
		if a.Firmware.Running == "" {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the record has no running firmware version for this function"})
			continue
		}
		ev := adapterFact(a, "firmware.running", a.Firmware.Running)
		var refs []Ref
		var below []string
		sev := Severity("")
		unknown := false
		for _, f := range mins {
			ref := v.ref(fmt.Sprintf("firmware_min %s %s", ma.ID, f.Feature), f.Claim, minRule(ma, f))
			c, ok := compareVersions(a.Firmware.Running, f.Min)
			if !ok {
				unknown = true
				continue
			}
			if c >= 0 {
				continue
			}
			refs = append(refs, ref)
			below = append(below, fmt.Sprintf("%s (needs ≥ %s)", f.Feature, f.Min))
			if s := featureSeverity(f.Feature); s.Rank() > sev.Rank() {
				sev = s
			}
		}
		switch {
		case len(below) > 0:
			r.Findings = append(r.Findings, Finding{
				Severity: sev, Subject: a.PCIAddress, Adapter: a.PCIAddress,
				Message:     fmt.Sprintf("%s firmware %s is below the matrix minimum for %s", ma.Name, a.Firmware.Running, strings.Join(below, ", ")),
				Explanation: "The vendor states a lowest firmware for these features; below it the feature is unsupported or missing.",
				Fix:         "Update the adapter firmware to at least the minimum shown, with the vendor's tool, then reset the adapter or reboot so the new firmware runs.",
				Evidence:    []Evidence{ev},
				Matrix:      refs,
			})
		case unknown:
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "firmware " + a.Firmware.Running + " cannot be compared with the matrix minimum", Evidence: []Evidence{ev}})
		default:
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: "firmware " + a.Firmware.Running + " meets every matrix minimum", Evidence: []Evidence{ev}})
		}
	}
	v.unjudged(&r, func(a *record.Adapter) bool { return v.match(a) != nil }, "the firmware minimum")
	return r
}

// placeholderFirmware lists versions drivers print when they have no
// version to report. mlx5 reported 255.255.65535 (0xff…) as the stored
// version when flash held none; the fix "net/mlx5: report 0 or 0xfff..
// versions" (https://patch.msgid.link/20260330194015.53585-3-tariqt@nvidia.com)
// stops that. Remove when kernels without the fix are gone from the field.
var placeholderFirmware = []string{"255.255.65535", "65535.65535.65535", "0.0.0", "0.0.0000"}

// checkFirmwarePending flags adapters whose stored firmware differs from the
// running one.
//
// Severity: warning. Today's behaviour follows the running firmware; the
// stored one takes over at the next reset or reboot, which can change
// behaviour without any other change to the host.
func checkFirmwarePending(h *record.Host, m *matrix.Matrix) Result {
	var r Result
	for i := range h.Adapters {
		a := &h.Adapters[i]
		fw := a.Firmware
		switch {
		case fw.Running == "" || fw.Stored == "":
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the record lacks the running or the stored firmware version (devlink dev info reports both)"})
		case slices.Contains(placeholderFirmware, fw.Stored):
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown,
				Text:     "stored firmware " + fw.Stored + " is a placeholder the driver prints when it has no version, not a pending update",
				Evidence: []Evidence{adapterFact(a, "firmware.stored", fw.Stored)}})
		case fw.Stored != fw.Running:
			r.Findings = append(r.Findings, Finding{
				Severity: Warning, Subject: a.PCIAddress, Adapter: a.PCIAddress,
				Message:     fmt.Sprintf("firmware %s is stored but %s is running: a reset or reboot is pending", fw.Stored, fw.Running),
				Explanation: "devlink reports the version burned in flash as 'stored' and the active one as 'running'. They differ after a firmware update that has not been activated; the stored firmware takes over at the next adapter reset or reboot.",
				Fix:         "Reboot, or reset the adapter (for mlx5: mlxfwreset, or devlink dev reload with action fw_activate where supported), at a time the change is safe.",
				Evidence:    []Evidence{adapterFact(a, "firmware.running", fw.Running), adapterFact(a, "firmware.stored", fw.Stored)},
			})
		default:
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: "stored firmware equals running firmware " + fw.Running})
		}
	}
	if len(h.Adapters) == 0 {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "the record lists no adapter"})
	}
	return r
}

// roceAdapters returns the record adapters the matrix knows as RoCE parts,
// with their matrix entries.
func (v view) roceAdapters() (as []*record.Adapter, ms []*matrix.Adapter) {
	for i := range v.h.Adapters {
		a := &v.h.Adapters[i]
		if ma := v.match(a); ma != nil && len(ma.RoCE) > 0 {
			as = append(as, a)
			ms = append(ms, ma)
		}
	}
	return as, ms
}

// checkMSIXDisabled flags RoCE adapters with MSI-X turned off.
//
// Severity: error when the matrix says the part's RoCE needs MSI-X (Cisco
// VIC on Linux); warning otherwise: the driver falls back to MSI or INTx,
// which the vendor did not ask for but which does not by itself stop RoCE.
func checkMSIXDisabled(h *record.Host, m *matrix.Matrix) Result {
	v := newView(h, m)
	var r Result
	for i := range h.Adapters {
		a := &h.Adapters[i]
		_, name, _, ok := v.providerFor(a)
		if !ok {
			continue
		}
		ma := v.match(a)
		if a.MSIX == nil || a.MSIX.Enabled == nil {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the record has no MSI-X state for this function (lspci -vv shows it)"})
			continue
		}
		if *a.MSIX.Enabled {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: "MSI-X is enabled"})
			continue
		}
		f := Finding{
			Severity: Warning, Subject: a.PCIAddress, Adapter: a.PCIAddress,
			Message:     name + " has MSI-X disabled",
			Explanation: "With MSI-X off, the driver runs on MSI or legacy interrupts, with fewer completion vectors than the adapter offers.",
			Fix:         "Check that the driver is bound (lspci -k) and that MSI-X is not disabled by a kernel parameter (pci=nomsi) or the server's BIOS; on Cisco UCS set the interrupt mode to MSI-X in the adapter policy.",
			Evidence:    []Evidence{adapterFact(a, "msix.enabled", "false")},
		}
		if a.Driver.Name == "" {
			f.Explanation += " No driver is bound to this function, which alone leaves MSI-X off."
		}
		if ma != nil && ma.Interrupts != nil && ma.Interrupts.MSIXOnly {
			f.Severity = Error
			f.Explanation = ma.Name + " supports RoCE on Linux only in MSI-X interrupt mode. " + f.Explanation
			f.Matrix = []Ref{v.ref("adapter "+ma.ID+" interrupts", ma.Interrupts.Claim, ma.Name+" RoCE on Linux needs MSI-X interrupt mode")}
		}
		if v.guessed(a) {
			r.Notes = append(r.Notes, unconfirmed(f))
			continue
		}
		r.Findings = append(r.Findings, f)
	}
	v.unjudged(&r, func(a *record.Adapter) bool {
		_, _, _, ok := v.providerFor(a)
		return ok
	}, "MSI-X")
	return r
}

// checkMSIXFew compares the MSI-X vectors with the matrix minimum.
//
// Severity: error. The vendor states the minimum as a requirement (Cisco:
// "The minimum interrupt count for using RoCEv2 with Linux is 8").
func checkMSIXFew(h *record.Host, m *matrix.Matrix) Result {
	v := newView(h, m)
	var r Result
	as, ms := v.roceAdapters()
	for i, a := range as {
		ma := ms[i]
		if ma.Interrupts == nil || ma.Interrupts.MinVectors == 0 {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: "the matrix states no minimum interrupt count for " + ma.Name})
			continue
		}
		min := ma.Interrupts.MinVectors
		var n *int
		field := ""
		// The interrupt count set in the adapter policy shows as the MSI-X
		// table size; vectors in use is the fallback when lspci is absent.
		if a.MSIX != nil && a.MSIX.Count != nil {
			n, field = a.MSIX.Count, "msix.count"
		} else if a.MSIX != nil && a.MSIX.Vectors != nil {
			n, field = a.MSIX.Vectors, "msix.vectors"
		}
		ref := v.ref("adapter "+ma.ID+" interrupts", ma.Interrupts.Claim, fmt.Sprintf("%s RoCE on Linux needs at least %d interrupts", ma.Name, min))
		if n == nil {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the record has no MSI-X vector count for this function", Matrix: []Ref{ref}})
			continue
		}
		ev := adapterFact(a, field, fmt.Sprint(*n))
		if *n >= min {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: fmt.Sprintf("%d MSI-X vectors, at least %d", *n, min), Evidence: []Evidence{ev}, Matrix: []Ref{ref}})
			continue
		}
		r.Findings = append(r.Findings, Finding{
			Severity: Error, Subject: a.PCIAddress, Adapter: a.PCIAddress,
			Message:     fmt.Sprintf("%s has %d MSI-X vectors; RoCE needs at least %d", ma.Name, *n, min),
			Explanation: "The vendor states a minimum interrupt count for RoCE on Linux; with fewer, RoCE interfaces are not created or do not work.",
			Fix:         fmt.Sprintf("Raise the interrupt count of the vNIC to at least %d (on Cisco UCS: the adapter policy, e.g. Linux-NVMe-RoCE), then reboot the host.", min),
			Evidence:    []Evidence{ev},
			Matrix:      []Ref{ref},
		})
	}
	v.unjudged(&r, func(a *record.Adapter) bool { return v.match(a) != nil }, "the interrupt minimum")
	return r
}

// checkKernel compares the host kernel with the first upstream kernel that
// carries the adapter's inbox RDMA driver.
//
// Severity: error for an upstream kernel older than that release (the
// driver is not in it); warning for a distro kernel, whose vendor may have
// backported the driver although the matrix lists no backport; none when
// the matrix lists a backport for the host's distro. A removed driver is an
// error. Hosts on a vendor stack pass: its modules replace the inbox ones.
func checkKernel(h *record.Host, m *matrix.Matrix) Result {
	v := newView(h, m)
	var r Result
	rel := h.Host.KernelRelease
	if rel == "" {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "the record has no kernel release (uname -r)"})
		return r
	}
	base, distroPart, ok := kernelBase(rel)
	if !ok {
		r.Notes = append(r.Notes, Note{Subject: "host", Status: Unknown, Text: "kernel release " + rel + " does not start with an upstream version"})
		return r
	}
	kev := Evidence{Fact: "kernel release " + rel + " (upstream base " + base + ")", Source: kernelSource(v)}
	stack, _ := v.hostStack()
	distro := hostDistro(m, h)
	for i := range h.Adapters {
		a := &h.Adapters[i]
		prov, name, _, ok := v.providerFor(a)
		if !ok {
			continue
		}
		ma := v.match(a)
		switch v.vendorDriven(a, prov, stack) {
		case Pass:
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: "a vendor stack drives this adapter, so the inbox kernel support does not apply"})
			continue
		case Unknown:
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the record does not say whether a vendor stack (" + stack + ") or the inbox stack drives this adapter"})
			continue
		}
		drv := m.Driver(prov)
		first, refs := inboxKernel(v, ma, drv)
		if drv != nil && drv.RemovedKernel != "" {
			if c, ok := compareVersions(base, drv.RemovedKernel); ok && c >= 0 {
				fix := "Use a kernel older than " + drv.RemovedKernel
				if drv.ReplacedBy != "" {
					fix = "Use the replacement driver " + drv.ReplacedBy
				}
				f := Finding{
					Severity: Error, Subject: a.PCIAddress, Adapter: a.PCIAddress,
					Message:     fmt.Sprintf("%s was removed in kernel %s; this host runs %s", drv.ID, drv.RemovedKernel, base),
					Explanation: "The inbox driver for this adapter is no longer in the kernel.",
					Fix:         fix + ".",
					Evidence:    []Evidence{kev},
					Matrix:      []Ref{v.ref("driver "+drv.ID, drv.Claim, fmt.Sprintf("%s was removed in %s", drv.ID, drv.RemovedKernel))},
				}
				if v.guessed(a) {
					r.Notes = append(r.Notes, unconfirmed(f))
				} else {
					r.Findings = append(r.Findings, f)
				}
				continue
			}
		}
		if first == "" {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "the matrix states no first inbox kernel for " + name})
			continue
		}
		c, ok := compareVersions(base, first)
		if !ok {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Unknown, Text: "kernel " + base + " cannot be compared with " + first})
			continue
		}
		if c >= 0 {
			r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: fmt.Sprintf("kernel %s is at or after %s", base, first), Evidence: []Evidence{kev}, Matrix: refs})
			continue
		}
		if distro != nil {
			if bp := backportFor(distro, prov); bp != nil {
				refs = append(refs, v.ref("distro "+distro.ID+" backport "+bp.Driver, bp.Claim, fmt.Sprintf("%s carries %s: %s", distro.Name, bp.Driver, bp.Text)))
				r.Notes = append(r.Notes, Note{Subject: a.PCIAddress, Adapter: a.PCIAddress, Status: Pass, Text: fmt.Sprintf("kernel base %s predates %s, but %s backports %s", base, first, distro.ID, bp.Driver), Evidence: []Evidence{kev}, Matrix: refs})
				continue
			}
		}
		f := Finding{
			Severity: Error, Subject: a.PCIAddress, Adapter: a.PCIAddress,
			Message:     fmt.Sprintf("kernel %s is older than %s, the first with inbox support for %s", base, first, name),
			Explanation: "The inbox driver this adapter needs is not in upstream kernels before that release.",
			Fix:         fmt.Sprintf("Run a kernel ≥ %s, or install a vendor stack that supports %s on this kernel.", first, name),
			Evidence:    []Evidence{kev},
			Matrix:      refs,
		}
		if drv != nil && drv.FirstKernelBasis == "inferred" && (ma == nil || ma.InboxKernel == "") {
			f.Explanation += " The matrix infers that release from commit dates; no source states it."
		}
		if distroPart != "" {
			f.Severity = Warning
			f.Explanation += " This is a distribution kernel: distributions backport drivers, but the matrix lists no backport of " + prov + " for this host's distribution, so check the distribution's release notes."
		}
		if v.guessed(a) {
			r.Notes = append(r.Notes, unconfirmed(f))
			continue
		}
		r.Findings = append(r.Findings, f)
	}
	v.unjudged(&r, func(a *record.Adapter) bool {
		_, _, _, ok := v.providerFor(a)
		return ok
	}, "inbox kernel support")
	return r
}

// vendorDriven says whether a vendor stack drives an adapter: Pass when it
// does (the driver's origin says so, or the host's stack ships the
// adapter's modules), Found when the inbox stack does, Unknown when the
// record cannot tell.
func (v view) vendorDriven(a *record.Adapter, provider, stack string) Status {
	switch a.Driver.Origin {
	case record.OriginOFED, record.OriginVendor:
		return Pass
	case record.OriginInbox:
		return Found
	}
	if stack == "inbox" {
		// No [stack] table: the collector found no vendor stack. That
		// means inbox only when it could look, i.e. it read the module list.
		if v.modulesKnown() {
			return Found
		}
		return Unknown
	}
	for _, ms := range v.m.Stacks {
		if ms.ID == stack {
			if slices.Contains(ms.Modules, provider) || slices.Contains(ms.Modules, a.Driver.Name) {
				return Pass
			}
			return Found
		}
	}
	return Unknown
}

func kernelSource(v view) string {
	for _, id := range []string{"uname", "proc/sys/kernel/osrelease", "proc/version"} {
		if s := v.source(id); s != nil && s.Status == record.StatusOK {
			return s.ID
		}
	}
	return ""
}

// inboxKernel is the first upstream kernel with inbox RDMA support for an
// adapter: its own inbox_kernel, else its driver's first_kernel.
func inboxKernel(v view, ma *matrix.Adapter, drv *matrix.Driver) (string, []Ref) {
	if ma != nil && ma.InboxKernel != "" {
		return ma.InboxKernel, []Ref{v.ref("adapter "+ma.ID, ma.Claim, fmt.Sprintf("%s is supported inbox from kernel %s", ma.Name, ma.InboxKernel))}
	}
	if drv != nil && drv.InTree && drv.FirstKernel != "" {
		rule := fmt.Sprintf("%s is in the kernel from %s", drv.ID, drv.FirstKernel)
		if drv.FirstKernelBasis != "" {
			rule += " (basis: " + drv.FirstKernelBasis + ")"
		}
		return drv.FirstKernel, []Ref{v.ref("driver "+drv.ID, drv.Claim, rule)}
	}
	return "", nil
}

// hostDistro finds the matrix distro entry for the host's os-release
// (ID-VERSION_ID, e.g. rhel-9.4), or one whose GA kernel is the host's.
func hostDistro(m *matrix.Matrix, h *record.Host) *matrix.Distro {
	want := strings.ToLower(h.Host.OS.ID + "-" + h.Host.OS.VersionID)
	for i := range m.Distros {
		if m.Distros[i].ID == want {
			return &m.Distros[i]
		}
	}
	for i := range m.Distros {
		if h.Host.KernelRelease != "" && m.Distros[i].Kernel != "" && strings.HasPrefix(h.Host.KernelRelease, m.Distros[i].Kernel) {
			return &m.Distros[i]
		}
	}
	return nil
}

func backportFor(d *matrix.Distro, driver string) *matrix.Backport {
	for i := range d.Backports {
		if d.Backports[i].Driver == driver {
			return &d.Backports[i]
		}
	}
	return nil
}
