package rule

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/record"
	"github.com/rocekb/rocekb/internal/version"
)

// OptionalFeature reports whether a firmware_min feature adds to RoCE
// rather than enabling it. Cisco's minimum is 5.1(1x) for IPv4 and 5.1(2x)
// for IPv6: below the IPv6 minimum RoCE v2 still works over IPv4.
func OptionalFeature(feature string) bool { return strings.HasSuffix(feature, "-ipv6") }

// FirmwareMins returns the firmware_min entries in force for an adapter on
// a stack (id and version; "inbox" for the distro stack): entries without a
// stack always apply; entries for a stack apply to it from their
// stack_version on, and for one feature the entry with the latest
// applicable stack_version wins. An unknown stack version takes the lowest
// stated minimum, never a stricter one. The result is sorted by feature.
func FirmwareMins(m *matrix.Matrix, adapter, stack, stackVersion string) []*matrix.FirmwareMin {
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
		c, ok := Compare(cand.StackVersion, cur.StackVersion)
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
					if c, ok := Compare(f.StackVersion, cur.StackVersion); ok && c >= 0 {
						continue
					}
				}
				best[f.Feature] = f
				continue
			}
			if c, ok := Compare(stackVersion, f.StackVersion); !ok || c < 0 {
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

// FirmwareCheck is how a running firmware stands against a firmware_min
// row, by the row's rule: the verdict engine and host diagnosis read a
// row alike through CheckFirmware.
type FirmwareCheck int

const (
	// FirmwareMeets: at or above a minimum or the tested firmware, or the
	// exact firmware.
	FirmwareMeets FirmwareCheck = iota
	// FirmwareIncomparable: the versions do not compare.
	FirmwareIncomparable
	// FirmwareBelow: below a minimum; the feature is unsupported there.
	FirmwareBelow
	// FirmwareNotExact: not the exact firmware the row requires.
	FirmwareNotExact
	// FirmwareOlderThanTested: older than the firmware the release was
	// tested with (a recommended row, of this release or an earlier one).
	FirmwareOlderThanTested
	// FirmwareNotJudged: at or above the firmware an earlier release was
	// tested with, which says nothing of the release in use.
	FirmwareNotJudged
)

// CheckFirmware weighs firmware fw against row f for the stack release
// stackVer ("" when not known).
func CheckFirmware(f *matrix.FirmwareMin, fw, stackVer string) FirmwareCheck {
	c, ok := Compare(fw, f.Min)
	switch {
	case !ok:
		return FirmwareIncomparable
	case f.Rule == matrix.RuleExact:
		if c != 0 {
			return FirmwareNotExact
		}
		return FirmwareMeets
	case f.Rule == matrix.RuleRecommended:
		if c < 0 {
			return FirmwareOlderThanTested
		}
		if EarlierRelease(f, stackVer) {
			return FirmwareNotJudged
		}
		return FirmwareMeets
	case c < 0:
		return FirmwareBelow
	}
	return FirmwareMeets
}

// EarlierRelease reports whether a firmware_min row belongs to an earlier
// release than stackVer: a recommended row is the firmware the vendor
// tested its own release with, and says nothing of a later one.
func EarlierRelease(f *matrix.FirmwareMin, stackVer string) bool {
	if f.StackVersion == "" || stackVer == "" {
		return false
	}
	c, ok := Compare(stackVer, f.StackVersion)
	return !ok || c != 0
}

// MinRule words a firmware minimum for a Ref.
func MinRule(a *matrix.Adapter, f *matrix.FirmwareMin) string {
	s := fmt.Sprintf("%s needs firmware ≥ %s for %s", a.Name, f.Min, f.Feature)
	if f.Stack != "" {
		s += " with " + f.Stack
		if f.StackVersion != "" {
			s += " " + f.StackVersion + " and later"
		}
	}
	return s
}

// stackNameFolder drops what stack names differ by (MLNX_OFED, mlnx-ofed).
var stackNameFolder = strings.NewReplacer("-", "", "_", "", " ", "")

// Stack finds a matrix stack by id or name, ignoring case, dashes and underscores.
func Stack(m *matrix.Matrix, name string) *matrix.Stack {
	norm := func(s string) string { return stackNameFolder.Replace(strings.ToLower(s)) }
	for i := range m.Stacks {
		if norm(m.Stacks[i].ID) == norm(name) || norm(m.Stacks[i].Name) == norm(name) {
			return &m.Stacks[i]
		}
	}
	return nil
}

// HostStack is the stack a host record names, as a matrix stack id (the
// name lower-cased when the matrix has no such stack) and its release;
// "inbox" when the record names none. Diagnosis and fleet readiness both
// start from it.
func HostStack(m *matrix.Matrix, s *record.Stack) (id, version string) {
	if s == nil || s.Name == "" {
		return "inbox", ""
	}
	if ms := Stack(m, s.Name); ms != nil {
		return ms.ID, s.Version
	}
	return strings.ToLower(s.Name), s.Version
}

// Backport returns the distro's backport of a driver, or nil.
func Backport(d *matrix.Distro, driver string) *matrix.Backport {
	for i := range d.Backports {
		if d.Backports[i].Driver == driver {
			return &d.Backports[i]
		}
	}
	return nil
}

// OrDash prints an absent value as "-".
func OrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// osReleaseIDs maps an os-release ID to the matrix's name for its
// releases (the family, or the rebuild of one) where the two differ.
var osReleaseIDs = map[string]string{"ol": "oracle"}

// matrixVersion writes an os-release VERSION_ID as the matrix writes the
// release: SUSE's VERSION_ID 15.5 is the matrix's 15-SP5.
func matrixVersion(name, ver string) string {
	if major, sp, ok := strings.Cut(ver, "."); ok && name == "sles" {
		if sp == "0" {
			return major
		}
		return major + "-SP" + sp
	}
	return ver
}

// HostDistro is the matrix release a host runs: the release of the
// host's os-release ID and VERSION_ID whose kernel base starts the host's
// kernel release (Ubuntu's HWE over its GA kernel, Oracle Linux's UEK over
// its RHCK); for a VERSION_ID that names no release alone, the one its
// PRETTY_NAME or its kernel's dist tag names (openEuler's 22.03 with
// "22.03 (LTS-SP3)" or .oe2203sp3; CentOS's 7 with a 3.10.0-1160 kernel,
// RHEL 7.9's, as a rebuild without an entry is RHEL's); else what the
// matrix resolves the OS to (a Rocky release without an entry is RHEL's).
// Nil when the record names no OS or the matrix lacks it: the host is then
// judged by its kernel. Diagnosis, the stack-release check and fleet
// readiness all start from it.
func HostDistro(m *matrix.Matrix, h *record.Host) *matrix.Distro {
	id, ver := strings.ToLower(h.Host.OS.ID), h.Host.OS.VersionID
	if id == "" || ver == "" {
		return nil
	}
	name := id
	if n, ok := osReleaseIDs[id]; ok {
		name = n
	}
	ver = matrixVersion(name, ver)
	var best *matrix.Distro
	bestLen := -1
	for i := range m.Distros {
		d := &m.Distros[i]
		if d.Version != ver || (d.Rebuild == "" && d.Family != name) || (d.Rebuild != "" && d.Rebuild != name) {
			continue
		}
		n := 0 // how much of the host's kernel release the release's kernel names
		if rel := h.Host.KernelRelease; rel != "" {
			switch {
			case d.Kernel != "" && strings.HasPrefix(rel, d.Kernel):
				n = len(d.Kernel) + 1
			case d.KernelBase != "" && (rel == d.KernelBase || strings.HasPrefix(rel, d.KernelBase+".") || strings.HasPrefix(rel, d.KernelBase+"-")):
				n = len(d.KernelBase)
			}
		}
		if n > bestLen || (n == bestLen && best.Flavour == "hwe" && d.Flavour != "hwe") {
			best, bestLen = d, n
		}
	}
	if best != nil {
		return best
	}
	// A VERSION_ID short of the matrix's release (openEuler's 22.03 for
	// 22.03 LTS SP3): the release PRETTY_NAME names ("openEuler 22.03
	// (LTS-SP3)"), else the one the kernel's dist tag names, of the same
	// family.
	same := func(d *matrix.Distro) bool {
		return d != nil && (d.Rebuild == "" && (d.Family == name || d.Family == "rhel" && matrix.RHELRebuild(name)) || d.Rebuild == name)
	}
	if h.Host.OS.PrettyName != "" {
		if d := m.ResolveDistro(h.Host.OS.PrettyName).Value; same(d) {
			return d
		}
	}
	if d := KernelDistro(m, h.Host.KernelRelease); same(d) {
		return d
	}
	return m.ResolveDistro(id + " " + ver).Value
}

// KernelTag is the RPM dist tag a distro release's kernels carry, which
// names that release in a kernel release (uname -r): RHEL 9.4's kernels
// are .el9_4, openEuler 22.03 LTS SP3's .oe2203sp3, 22.03 LTS's .oe2203
// and every 20.03 LTS release's .oe1. "" for a release whose kernels carry
// no tag of their own, or a tag this table does not know.
func KernelTag(d *matrix.Distro) string {
	switch d.Family {
	case "rhel":
		if d.Rebuild == "" && !strings.ContainsAny(d.Version, "-_") {
			if x, y, ok := strings.Cut(d.Version, "."); ok && !strings.Contains(y, ".") {
				return "el" + x + "_" + y
			}
		}
	case "openeuler":
		// 22.03-LTS-SP3: oe2203sp3; 24.03-LTS: oe2403; 20.03-LTS-*: oe1.
		parts := strings.Split(strings.ToLower(d.Version), "-")
		if parts[0] == "20.03" {
			return "oe1"
		}
		tag := "oe" + strings.ReplaceAll(parts[0], ".", "")
		for _, p := range parts[1:] {
			if strings.HasPrefix(p, "sp") {
				tag += p
			}
		}
		return tag
	}
	return ""
}

// KernelDistro is the matrix release a distro kernel release names: the
// one release whose dist tag (KernelTag) it carries, else the one release
// of its tag's family whose kernel stream (KernelStream) it starts with
// (RHEL 7.9's 3.10.0-1160.102.1.el7, RHEL 8.6's 4.18.0-372.9.1.el8); for a
// Debian kernel, the one release whose own kernel has its ABI name, else
// the one whose own kernel line it is (DebianKeys: 5.10.0-13-amd64 is
// Debian 11.3's, 5.10.0-28-amd64 Debian 11's); nil when it names no single
// release.
func KernelDistro(m *matrix.Matrix, release string) *matrix.Distro {
	// A Debian kernel: its ABI name, else its series (DebianKeys).
	if keys := DebianKeys(release); keys != nil {
		tags := KernelTags(m)
		for _, key := range keys {
			if d := tags[key]; d != nil {
				return d
			}
		}
		return nil
	}
	k, err := version.ParseKernel(release)
	if err != nil || k.Tag == "" {
		return nil
	}
	if d := KernelTags(m)[k.Tag]; d != nil {
		return d
	}
	var found *matrix.Distro
	for i := range m.Distros {
		d := &m.Distros[i]
		if tag, stream := KernelStream(d); tag == k.Tag && InStream(release, stream) {
			if found != nil {
				return nil
			}
			found = d
		}
	}
	return found
}

// KernelStream is the dist tag a release's kernels may carry without its
// minor release (RHEL 8's el8; openEuler's tag, KernelTag) and the start
// every kernel release of it shares: the upstream base and the first
// number of the distro release of the matrix's kernel (RHEL 8.6's
// 4.18.0-372, as Red Hat's insights-core rhel_release_map maps kernels to
// minor releases; openEuler 20.03 LTS SP3's 4.19.90-2112). Both "" when
// the matrix gives the release no kernel release.
func KernelStream(d *matrix.Distro) (tag, stream string) {
	switch d.Family {
	case "rhel":
		if t := KernelTag(d); t != "" {
			tag, _, _ = strings.Cut(t, "_")
		}
	case "openeuler":
		tag = KernelTag(d)
	}
	dash := strings.IndexByte(d.Kernel, '-')
	if tag == "" || dash < 0 {
		return "", ""
	}
	end := dash + 1
	for end < len(d.Kernel) && d.Kernel[end] >= '0' && d.Kernel[end] <= '9' {
		end++
	}
	if end == dash+1 {
		return "", ""
	}
	return tag, d.Kernel[:end]
}

// InStream reports whether a kernel release belongs to a kernel stream
// (KernelStream): it starts with it, and a dot or nothing follows.
func InStream(release, stream string) bool {
	return stream != "" && strings.HasPrefix(release, stream) && (len(release) == len(stream) || release[len(stream)] == '.')
}

// KernelTags maps each name that names a single release of m in a kernel
// release to it: its dist tag (KernelTag) or its Debian ABI keys
// (DebianNames). The engine, the form and their tests read this one table.
func KernelTags(m *matrix.Matrix) map[string]*matrix.Distro {
	tags := map[string]*matrix.Distro{}
	seen := map[string]bool{}
	for i := range m.Distros {
		d := &m.Distros[i]
		names := DebianNames(d)
		if t := KernelTag(d); t != "" {
			names = append(names, t)
		}
		for _, t := range names {
			if seen[t] {
				delete(tags, t)
				continue
			}
			seen[t], tags[t] = true, d
		}
	}
	return tags
}

// uekTag is the dist tag of an Oracle Linux UEK kernel (el8uek, el9uek,
// el10uek): the major release it is built for, and no minor one.
var uekTag = regexp.MustCompile(`^el([0-9]+)uek$`)

// UEKLine is the UEK line a kernel release belongs to and the releases
// that ship it: a kernel whose dist tag is el<N>uek (5.15.0-301.163.5.2
// .el9uek.x86_64) is built for Oracle Linux N, but a UEK update is not
// tied to one update level (Oracle's kernel matrices list, per update
// level, the UEK it starts with and the others it can run), so the
// releases of that line are every Oracle Linux N release (UEK, family
// "oracle") whose kernel has the kernel's x.y series. line is "el9uek
// 5.15"; nil releases when the kernel is not a UEK one or no release of
// the matrix ships its series.
func UEKLine(m *matrix.Matrix, release string) (line string, ds []*matrix.Distro) {
	k, err := version.ParseKernel(release)
	if err != nil {
		return "", nil
	}
	g := uekTag.FindStringSubmatch(k.Tag)
	if g == nil {
		return "", nil
	}
	series := KernelSeries(k.Upstream.String())
	for i := range m.Distros {
		d := &m.Distros[i]
		if d.Family != "oracle" || d.Rebuild != "" {
			continue
		}
		major, _, _ := strings.Cut(d.Version, ".")
		base := d.KernelBase
		if base == "" {
			base, _, _ = KernelBase(d.Kernel)
		}
		if major == g[1] && base != "" && KernelSeries(base) == series {
			ds = append(ds, d)
		}
	}
	if len(ds) == 0 {
		return "", nil
	}
	return k.Tag + " " + series, ds
}

// KernelSeries is an upstream version's x.y series (5.15.0 is 5.15).
func KernelSeries(base string) string {
	parts := strings.SplitN(base, ".", 3)
	if len(parts) < 2 {
		return base
	}
	return parts[0] + "." + parts[1]
}
