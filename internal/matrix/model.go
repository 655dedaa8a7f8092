package matrix

import (
	"regexp"
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/version"
)

// Distro returns the distro release with the given id, or nil.
func (m *Matrix) Distro(id string) *Distro {
	for i := range m.Distros {
		if m.Distros[i].ID == id {
			return &m.Distros[i]
		}
	}
	return nil
}

// Stack returns the stack with the given id, or nil.
func (m *Matrix) Stack(id string) *Stack {
	for i := range m.Stacks {
		if m.Stacks[i].ID == id {
			return &m.Stacks[i]
		}
	}
	return nil
}

// DeviceKernel returns the first-kernel row for a PCI id: the row for its
// subsystem when there is one, else the plain row; nil when none is known.
func (m *Matrix) DeviceKernel(id, subsystem string) *PCIKernel {
	var plain *PCIKernel
	for i := range m.PCIKernels {
		k := &m.PCIKernels[i]
		if k.PCI != id {
			continue
		}
		if subsystem != "" && k.Subsystem == subsystem {
			return k
		}
		if k.Subsystem == "" && plain == nil {
			plain = k
		}
	}
	return plain
}

// PartsOf returns the part numbers documented for an adapter, in file order.
func (m *Matrix) PartsOf(adapter string) []PartNumber {
	var out []PartNumber
	for _, p := range m.Parts {
		if p.Adapter == adapter {
			out = append(out, p)
		}
	}
	return out
}

// knownFamily reports whether s is "<family>-<release>" for a distro family
// the matrix knows (rhel-8, sles-12-sp2): release notes often name a major
// release or one the matrix does not list.
func (m *Matrix) knownFamily(s string) bool {
	fam, rest, ok := strings.Cut(s, "-")
	if !ok || rest == "" {
		return false
	}
	for _, d := range m.Distros {
		if d.Family == fam {
			return true
		}
	}
	return false
}

// OSMatches reports whether an OS-list entry (a distro id,
// "<family>-<major>" for every minor of a major release, or
// "<family>-<major>.<minor>+" for that minor and the later ones of its
// major) covers distro d. A rebuild (Oracle Linux with RHCK, AlmaLinux)
// or an HWE kernel release is its own distro id: only an entry naming
// that id covers it, since a vendor list naming RHEL 9.4 or Ubuntu 22.04
// (with its GA kernel) does not name them (OSCoversBase tells that case
// apart).
func OSMatches(entry string, d *Distro) bool {
	if entry == d.ID {
		return true
	}
	if derived(d) {
		return false
	}
	return osCovers(entry, d)
}

// OSCoversBase reports whether an entry that does not name distro d
// covers the release d derives from: the family release a rebuild
// rebuilds, or the GA-kernel release of an HWE kernel. Such a list says
// nothing of d itself.
func OSCoversBase(entry string, d *Distro) bool {
	return entry != d.ID && derived(d) && osCovers(entry, d)
}

// derived reports whether d is a rebuild or an HWE-kernel release of its
// family's release of the same version.
func derived(d *Distro) bool {
	return d.Rebuild != "" || d.KernelFlavour() == "hwe"
}

func osCovers(entry string, d *Distro) bool {
	fam, rel, ok := strings.Cut(entry, "-")
	if !ok || fam != d.Family {
		return false
	}
	if from, later := strings.CutSuffix(rel, "+"); later {
		major, _, _ := strings.Cut(from, ".")
		if d.Version != major && !strings.HasPrefix(d.Version, major+".") {
			return false
		}
		a, errA := version.Parse(d.Version)
		b, errB := version.Parse(from)
		return errA == nil && errB == nil && version.Compare(a, b) >= 0
	}
	return d.Version == rel || strings.HasPrefix(d.Version, rel+".")
}

// driverVersion reads a drivers' version as hosts and tools print it: the
// line (24.10), a dash and at least three numbers (1.1.4.0), then an
// internal build's further numbers (.200, ofed_info's OFED-internal-…) or
// a Network Operator container's build (-0).
var driverVersion = regexp.MustCompile(`^(\d+\.\d+)-(\d+(?:\.\d+){2,})(?:-\d+)?$`)

// sameDriver reports whether two drivers' versions name the same drivers:
// the same line and the same numbers as far as the shorter goes, three at
// least (24.10-1.1.4, the OFED base ofed_info names, is 24.10-1.1.4.0;
// 24.10-1.1.4.0.200 is an internal build of it; 24.10-1 is a line, not
// a driver).
func sameDriver(a, b string) bool {
	ma, mb := driverVersion.FindStringSubmatch(a), driverVersion.FindStringSubmatch(b)
	if ma == nil || mb == nil || ma[1] != mb[1] {
		return false
	}
	na, nb := strings.Split(ma[2], "."), strings.Split(mb[2], ".")
	n := min(len(na), len(nb))
	return slices.Equal(na[:n], nb[:n])
}

// DriverRelease finds the stack_driver row of stack whose drivers version
// ver names: nil when no row does, or when rows of different releases do.
func (m *Matrix) DriverRelease(stack, ver string) *StackDriver {
	var hit *StackDriver
	for i := range m.StackDrivers {
		d := &m.StackDrivers[i]
		if d.Stack != stack || !sameDriver(ver, d.Driver) {
			continue
		}
		if hit != nil && hit.Release != d.Release {
			return nil
		}
		if hit == nil {
			hit = d
		}
	}
	return hit
}
