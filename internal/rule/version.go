package rule

import (
	"regexp"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/version"
)

// Compare orders two version strings (firmware, Cisco releases, driver
// builds, kernels or stack releases) with internal/version. ok is false
// when either does not parse: callers then say "unknown" rather than guess.
func Compare(a, b string) (c int, ok bool) {
	va, ok := parse(a)
	if !ok {
		return 0, false
	}
	vb, ok := parse(b)
	if !ok {
		return 0, false
	}
	return version.Compare(va, vb), true
}

// parsed memoizes parse: a verdict grid compares the same few hundred
// matrix versions millions of times, and parsing was a sixth of judging
// it. The memo stops growing at parsedMax strings, so versions typed into
// a long-running server cannot grow it without bound.
var (
	parsed  sync.Map // string → parsedVersion
	parsedN atomic.Int64
)

const parsedMax = 1 << 14

type parsedVersion struct {
	v  version.Version
	ok bool
}

// parse is version.Parse, memoized; a Version is never changed once
// parsed, so one value serves every caller.
func parse(s string) (version.Version, bool) {
	if p, hit := parsed.Load(s); hit {
		pv := p.(parsedVersion)
		return pv.v, pv.ok
	}
	v, err := version.Parse(s)
	pv := parsedVersion{v, err == nil}
	if parsedN.Load() < parsedMax {
		if _, loaded := parsed.LoadOrStore(s, pv); !loaded {
			parsedN.Add(1)
		}
	}
	return pv.v, pv.ok
}

// KernelBase splits a kernel release (uname -r) into its upstream base
// (5.14.0) and its distro release (427.13.1); distro is empty for an
// upstream release.
func KernelBase(release string) (base, distro string, ok bool) {
	k, err := version.ParseKernel(release)
	if err == nil {
		return k.Upstream.String(), k.Release, true
	}
	// Releases outside the distro grammar. A release number after the
	// base (4.19.0-25-686-pae: Debian's i386 flavour, which the grammar
	// does not read) makes it a distro's kernel, which is never judged by
	// its number. A linux-next build (5.1.0-rc7-next-20190430+) is
	// upstream: its leading x.y[.z] is the base. Any other local version
	// after the base (the "+" of a tree past its tag, Raspberry Pi's
	// 5.10.17-v8+, a NAS vendor's 4.4.302+, 6.1.55-fastswap) is a custom
	// build: which drivers it builds, and what it carries beyond its base,
	// its own configuration and tree say, not its number (Raspberry Pi
	// builds only the drivers its defconfig names, raspberrypi/linux#4117),
	// so it is returned as the distro part, and judged as a vendor kernel.
	if m := leadingVersion.FindString(release); m != "" {
		rest := release[len(m):]
		if r := distroRelease.FindStringSubmatch(rest); r != nil {
			return m, r[1], true
		}
		if rest == "" || linuxNext.MatchString(rest) {
			return m, "", true
		}
		return m, strings.TrimPrefix(rest, "-"), true
	}
	return "", "", false
}

var (
	leadingVersion = regexp.MustCompile(`^[0-9]+\.[0-9]+(\.[0-9]+)?`)
	distroRelease  = regexp.MustCompile(`^-([0-9]+)(?:[-.+_]|$)`)
	// linuxNext is a linux-next build's tail: next-YYYYMMDD after the
	// base or its -rcN, and the "+" of a tree built from it.
	linuxNext = regexp.MustCompile(`^(?:-rc[0-9]+)?-next-[0-9]{8}\+?$`)
)

// InRelease reports whether version v lies in from..until, either end
// open when empty.
func InRelease(v, from, until string) bool {
	if from != "" {
		if c, ok := Compare(v, from); !ok || c < 0 {
			return false
		}
	}
	if until == "" {
		return true
	}
	c, ok := Compare(v, until)
	return ok && c <= 0
}

// Covers reports whether a distro_support row is about release d: its
// family and version span, and, for a row about one rebuild of the family
// (AlmaLinux of RHEL), that rebuild; for a row about one kernel flavour,
// that flavour; for a row about one kernel base, that kernel base.
func Covers(r *matrix.DistroRow, d *matrix.Distro) bool {
	return r.Family == d.Family && (r.Rebuild == "" || r.Rebuild == d.Rebuild) && (r.Flavour == "" || r.Flavour == d.KernelFlavour()) && (r.KernelBase == "" || r.KernelBase == d.KernelBase) && InRelease(d.Version, r.From, r.Until)
}

// kernelPrefixes are what package and file names put before a kernel
// release: kernel-core-5.14.0-427.el9, linux-image-6.1.0-18-amd64.
var kernelPrefixes = []string{"kernel-core-", "kernel-", "linux-image-", "linux-", "vmlinuz-"}

// TrimKernel reads a kernel release as people paste it: a uname -a or
// uname -sr line (the release after "Linux" and the host name), a uname
// -rv line (the release before its build, "#1 SMP ..."), hostnamectl's
// "Kernel: Linux 5.14.0-70.6.1.el9_0.ppc64le", or a package or file name
// (kernel-5.14.0-427.13.1.el9_4, linux-image-6.1.0-18-amd64), as the
// release alone. Anything else comes back as it was. kbgen check and the
// form (static/will.js) read a planned kernel through it alike.
func TrimKernel(s string) string {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "Kernel:"); ok {
		s = strings.TrimSpace(rest)
	}
	if f := strings.Fields(s); len(f) > 1 && strings.HasPrefix(f[1], "#") {
		if _, _, ok := KernelBase(f[0]); ok {
			return f[0]
		}
	}
	if strings.HasPrefix(s, "Linux") { // a release alone is split into no fields
		if f := strings.Fields(s); len(f) > 1 && f[0] == "Linux" {
			for _, w := range f[1:min(len(f), 3)] {
				if _, _, ok := KernelBase(w); ok {
					return w
				}
			}
		}
	}
	for _, p := range kernelPrefixes {
		if rest, ok := strings.CutPrefix(s, p); ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			return rest
		}
	}
	return s
}
