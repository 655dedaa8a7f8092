package version

import (
	"fmt"
	"regexp"
	"strings"
)

// KernelRelease is a kernel release string (`uname -r`) split into the
// upstream version it derives from and the distro's own parts. A distro
// kernel is the distro's build of an upstream base plus backports: RHEL's
// 5.14.0-427.13.1.el9_4 carries drivers that upstream 5.14.0 lacks, so
// ask UpstreamAtLeast about the base and consult distro backports for the
// rest.
type KernelRelease struct {
	Raw        string  // as written, e.g. 5.14.0-427.13.1.el9_4.x86_64
	Upstream   Version // upstream base, e.g. 5.14.0 (v prefix removed)
	Prerelease string  // upstream pre-release, e.g. rc3 in 6.8-rc3
	Release    string  // distro release, e.g. 427.13.1 (RHEL), 13 (Debian), 91 (Ubuntu), 150500.55.39 (SLES), 0.deb11.17 (a Debian backport), deb13 (Debian 13's +deb13)
	Tag        string  // RPM dist tag, e.g. el9_4, el7, fc30, el9uek, azl3
	Flavour    string  // Debian, Ubuntu and SUSE flavour, e.g. amd64, generic, default
	Arch       string  // e.g. x86_64; not compared
	Variant    string  // RHEL kernel variant after +, e.g. debug, rt
}

var (
	// upstream x.y[.z[.w]], then an optional -rcN.
	kernelUpstreamRe = regexp.MustCompile(`^v?([0-9]+\.[0-9]+(?:\.[0-9]+){0,2})(?:-(rc[0-9]+))?`)
	// the distro part: release digits, then an RPM .tag or a -flavour.
	kernelDistroRe = regexp.MustCompile(`^-([0-9]+(?:\.[0-9]+)*)((?:\.[A-Za-z][A-Za-z0-9_]*)*)((?:-[A-Za-z][A-Za-z0-9_]*)*)((?:\.[A-Za-z][A-Za-z0-9_]*)*)(\+[A-Za-z0-9_]+)?$`)
	// Debian's ABI names the distro part above does not read (the Debian
	// kernel handbook, "Version numbers and ABIs"): a backport's serial
	// 0.bpo.N or 0.debNN.N (6.1.0-0.deb11.17-amd64); from Debian 13 the
	// upstream version, +debNN or +bpo and an optional .serial
	// (6.12.38+deb13-amd64); a flavour whose later parts start with a
	// digit (6.12.30+bpo-arm64-16k).
	kernelDebianRe = regexp.MustCompile(`^(?:-([0-9]+|0\.(?:bpo|deb[0-9]+)\.[0-9]+)|\+((?:bpo|deb[0-9]+)(?:\.[0-9]+)?))-([A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9][A-Za-z0-9_]*)*)$`)
	// looksLikeKernel: v-prefixed, -rcN, a distro part naming letters, or
	// Debian's +debNN or +bpo.
	kernelShapeRe = regexp.MustCompile(`^(v[0-9]|[0-9]+\.[0-9]+(\.[0-9]+){0,2}(-(rc[0-9]|[0-9]+(\.[0-9]+)*[.-][A-Za-z])|\+(bpo|deb[0-9])))`)
)

// arches are architecture suffixes of RPM kernel releases.
var arches = map[string]bool{
	"x86_64": true, "aarch64": true, "ppc64le": true, "ppc64": true, "s390x": true,
	"i686": true, "i386": true, "armv7hl": true, "noarch": true, "riscv64": true,
}

func looksLikeKernel(s string) bool { return kernelShapeRe.MatchString(s) }

// ParseKernel splits a kernel release. It accepts upstream releases
// (v2.6.24, 6.8, 6.8-rc3) and distro releases: RHEL-style
// 5.14.0-427.13.1.el9_4.x86_64, Debian 6.1.0-13-amd64 (and its backports'
// 6.1.0-0.deb11.17-amd64, Debian 13's 6.12.38+deb13-amd64), Ubuntu
// 5.15.0-91-generic, SLES 5.14.21-150500.55.39-default.
func ParseKernel(s string) (KernelRelease, error) {
	k := KernelRelease{Raw: s}
	if err := checkSyntax(s, s); err != nil {
		return k, err
	}
	m := kernelUpstreamRe.FindStringSubmatch(s)
	if m == nil {
		return k, fmt.Errorf("kernel release %q does not start with an upstream x.y version", s)
	}
	up, err := split(m[1], false)
	if err != nil {
		return k, fmt.Errorf("kernel release %q: %w", s, err)
	}
	k.Upstream = Version{raw: m[1], kind: Dotted, segs: up}
	k.Prerelease = m[2]
	rest := s[len(m[0]):]
	if rest == "" {
		return k, nil
	}
	d := kernelDistroRe.FindStringSubmatch(rest)
	if d == nil {
		if g := kernelDebianRe.FindStringSubmatch(rest); g != nil {
			k.Release, k.Flavour = g[1]+g[2], g[3]
			return k, nil
		}
		return k, fmt.Errorf("kernel release %q: cannot read the distro part %q (want -release[.tag][-flavour][.arch])", s, rest)
	}
	k.Release = d[1]
	tags := strings.Split(strings.TrimPrefix(d[2], "."), ".")
	if d[2] == "" {
		tags = nil
	}
	flav := strings.TrimPrefix(d[3], "-")
	post := strings.Split(strings.TrimPrefix(d[4], "."), ".")
	if d[4] == "" {
		post = nil
	}
	// An arch ends the string: 3.10.0-862.el7.x86_64 or 4.18.0-80.el8.x86_64.
	all := append(tags, post...)
	if n := len(all); n > 0 && arches[all[n-1]] {
		k.Arch = all[n-1]
		all = all[:n-1]
	}
	for _, t := range all {
		if arches[t] {
			return k, fmt.Errorf("kernel release %q: architecture %q must come last", s, t)
		}
	}
	if len(post) > 0 && flav != "" && len(all) > len(tags) {
		return k, fmt.Errorf("kernel release %q: unexpected %q after the flavour", s, strings.Join(all[len(tags):], "."))
	}
	k.Tag = strings.Join(all, ".")
	k.Flavour = flav
	if d[5] != "" {
		// RHEL variants: 5.14.0-427.el9.x86_64+debug, +rt, +64k.
		k.Variant = strings.TrimPrefix(d[5], "+")
	}
	return k, nil
}

// IsDistro reports whether the release has a distro part, i.e. is not a
// bare upstream version.
func (k KernelRelease) IsDistro() bool { return k.Release != "" }

// UpstreamAtLeast reports whether the upstream base is at least min (an
// upstream version such as "5.14" or "v4.8"). It does not know about
// backports: a distro kernel may carry a newer driver than its base.
func (k KernelRelease) UpstreamAtLeast(min string) (bool, error) {
	mk, err := ParseKernel(min)
	if err != nil {
		return false, err
	}
	if mk.IsDistro() {
		return false, fmt.Errorf("%q is a distro kernel, not an upstream version", min)
	}
	a := Version{segs: k.upstreamSegs()}
	b := Version{segs: mk.upstreamSegs()}
	return Compare(a, b) >= 0, nil
}

// CompareKernel orders two kernel releases as Compare does.
func CompareKernel(a, b KernelRelease) int {
	return Compare(Version{segs: a.segs()}, Version{segs: b.segs()})
}

// upstreamSegs is the base padded to four numbers, so that 2.6.32.27 and
// 2.6.32-754.el6 line up their base before the distro release.
func (k KernelRelease) upstreamSegs() []seg {
	s := append([]seg(nil), k.Upstream.segs...)
	for len(s) < 4 {
		s = append(s, zero)
	}
	if k.Prerelease != "" {
		p, _ := split(k.Prerelease, false)
		s = append(s, p...)
	}
	return s
}

// segs flattens the release for Compare: base, pre-release, release, tag,
// flavour, variant. The arch is left out.
func (k KernelRelease) segs() []seg {
	s := k.upstreamSegs()
	for _, part := range []string{k.Release, k.Tag, k.Flavour, k.Variant} {
		if part == "" {
			continue
		}
		p, _ := split(part, false)
		s = append(s, p...)
	}
	return s
}
