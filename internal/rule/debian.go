package rule

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/matrix"
)

// A Debian kernel names its release by its ABI name (the Debian kernel
// handbook, "Version numbers and ABIs": a kernel version is
// abiname[-featureset]-flavour). Before Debian 13 the ABI name is the
// upstream version with 0 as its third number and a serial (6.1.0-18),
// and a release's own kernel line is one upstream series (bookworm's is
// 6.1, bullseye's 5.10, buster's 4.19); a backport of a later series to an
// older release marks its serial (0.bpo.N, 0.debNN.N: bullseye's 6.1 is
// 6.1.0-0.deb11.17), so 6.1.0-0.deb11.17 is not bookworm's kernel. From
// Debian 13 the ABI name is the upstream version, +debNN and an optional
// serial (6.12.38+deb13), debNN being the release the build is for,
// backports included (bookworm's 6.12 backport is 6.12.43+deb12, and
// trixie's later series are +deb13 too): the mark and the release's own
// series together say whose kernel it is, never the mark alone.

// debianKernelRe reads a Debian kernel release: the upstream x.y, then
// ".0-serial" (a release's own, before Debian 13), ".0-0.bpo.N" or
// ".0-0.debNN.N" (a backport), or ".z+debNN" or ".z+bpo" and an optional
// ".serial" (from Debian 13; +bpo was bookworm-backports' mark), then the
// [featureset-]flavour. version.ParseKernel reads the same forms as a
// distro release.
var debianKernelRe = regexp.MustCompile(`^([0-9]+\.[0-9]+)(?:\.0-([0-9]+)|\.0-0\.(?:bpo|deb[0-9]+)\.[0-9]+|\.[0-9]+\+(deb[0-9]+|bpo)(?:\.[0-9]+)?)-([A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9][A-Za-z0-9_]*)*)$`)

// debianFlavours are the flavours whose kernels the matrix's Debian
// releases stand for: the default flavour of amd64 and arm64, which the
// Debian kernel team makes those architectures' default kernels and whose
// configuration the matrix's Debian distro_support rows read. A cloud, rt
// or 16k-page kernel is the release's too but builds other drivers
// (Debian 10's cloud-amd64 configuration builds no InfiniBand), so it
// names no release here.
var debianFlavours = []string{"amd64", "arm64"}

// debianNewScheme is the first Debian release whose ABI names are the
// upstream version and +debNN ("In older releases (before Debian 13) this
// version follows the format upstreamversion-serial").
const debianNewScheme = 13

// debianKernel splits a Debian kernel release: its ABI name (6.1.0-18,
// 6.12.38+deb13), upstream series (6.1), the release mark of a new-scheme
// name (deb13; "" before Debian 13) and [featureset-]flavour; own is false
// for a backport's ABI name (0.bpo.N, 0.debNN.N, +bpo).
func debianKernel(release string) (abi, series, mark, flavour string, own, ok bool) {
	g := debianKernelRe.FindStringSubmatch(release)
	if g == nil {
		return "", "", "", "", false, false
	}
	flavour = g[4]
	abi = release[:len(release)-len(flavour)-1]
	own = g[2] != "" || strings.HasPrefix(g[3], "deb")
	mark = g[3]
	if mark == "bpo" {
		mark = ""
	}
	return abi, g[1], mark, flavour, own, true
}

// DebianKeys are the keys a Debian kernel release names a release by in
// KernelTags, nearer first: its ABI name and flavour, which a point
// release's own kernel has (5.10.0-13-amd64), then its series and flavour,
// a release's own kernel line (5.10.0-*-amd64 before Debian 13,
// 6.12.*+deb13-amd64 from it). None for a backport's ABI name (0.bpo.N,
// 0.debNN.N, +bpo) or a release Debian's naming does not read; which
// flavours name a release is KernelTags' to say (DebianNames).
func DebianKeys(release string) []string {
	abi, series, mark, flavour, own, ok := debianKernel(release)
	if !ok || !own {
		return nil
	}
	if mark == "" {
		return []string{abi + "-" + flavour, series + ".0-*-" + flavour}
	}
	return []string{abi + "-" + flavour, series + ".*+" + mark + "-" + flavour}
}

// DebianNames are the keys (DebianKeys) that name Debian release d, one
// per flavour of debianFlavours: a release the matrix gives a kernel for
// (a point release: Debian 11.3's 5.10.0-13-amd64) is named by that
// kernel's ABI name; a release without a point release (Debian 12) by its
// kernel base's series, X.Y.0-* before Debian 13 and X.Y.*+debN from it.
// None for another family, a point release without its kernel (which of
// the series' ABI names are its own the matrix does not say), or a kernel
// Debian's naming does not read as a release's own of those flavours.
func DebianNames(d *matrix.Distro) []string {
	if d.Family != "debian" {
		return nil
	}
	var out []string
	if d.Kernel != "" {
		abi, _, _, flavour, own, ok := debianKernel(d.Kernel)
		if !ok || !own || !slices.Contains(debianFlavours, flavour) {
			return nil
		}
		for _, f := range debianFlavours {
			out = append(out, abi+"-"+f)
		}
		return out
	}
	major, _, point := strings.Cut(d.Version, ".")
	n, err := strconv.Atoi(major)
	parts := strings.Split(d.KernelBase, ".")
	if point || err != nil || len(parts) < 2 {
		return nil
	}
	series := parts[0] + "." + parts[1]
	for _, f := range debianFlavours {
		if n < debianNewScheme {
			out = append(out, series+".0-*-"+f)
		} else {
			out = append(out, series+".*+deb"+major+"-"+f)
		}
	}
	return out
}

// DebianProbe is a kernel release that names Debian release d
// (DebianNames) and that no matrix text holds, for the form's cell of d,
// and its upstream base when it stands for any base of d's series ("" when
// every kernel of d has the same base): a serial of 7919 on d's series
// (6.1.0-7919-amd64, 6.12.7919+deb13-amd64), or d's own kernel's ABI name
// in another flavour than the one the matrix names (5.10.0-13-arm64 for
// 5.10.0-13-amd64), since matrix texts may quote that kernel.
func DebianProbe(d *matrix.Distro) (raw, base string) {
	names := DebianNames(d)
	if len(names) == 0 {
		return "", ""
	}
	if d.Kernel != "" {
		for _, n := range names {
			if n != d.Kernel {
				return n, ""
			}
		}
		return "", ""
	}
	n := names[0]
	if i := strings.Index(n, ".0-*-"); i >= 0 {
		return n[:i] + ".0-7919-" + n[i+len(".0-*-"):], ""
	}
	i := strings.Index(n, ".*+")
	return n[:i] + ".7919+" + n[i+len(".*+"):], n[:i] + ".7919"
}

// debianFlavourOf is a Debian kernel release's [featureset-]flavour.
func debianFlavourOf(release string) string {
	_, _, _, flavour, _, _ := debianKernel(release)
	return flavour
}

// DebianNamedBy says what names Debian release d in a kernel release
// (verdict's namedBy), in d's terms alone: its own kernel's ABI name, or
// its own kernel line; for a point release, which release's line holds
// that kernel too and why the point release is taken. "" when nothing
// names d.
func DebianNamedBy(m *matrix.Matrix, d *matrix.Distro) string {
	names := DebianNames(d)
	if len(names) == 0 {
		return ""
	}
	flavours := "(" + strings.Join(debianFlavours, " or ") + " flavour)"
	key := strings.TrimSuffix(names[0], "-"+debianFlavours[0])
	if d.Kernel != "" {
		how := "the Debian ABI name " + key + " " + flavours + " is that release's own kernel's"
		if ks := DebianKeys(d.Kernel); len(ks) > 1 {
			if suite := KernelTags(m)[ks[1]]; suite != nil && suite.ID != d.ID {
				line := strings.TrimSuffix(ks[1], "-"+debianFlavourOf(d.Kernel))
				how += ": " + suite.Name + "'s kernel line " + strings.Replace(line, "*", "<serial>", 1) + " holds it too, and the point release whose own kernel it is is the nearer name"
			}
		}
		return how
	}
	if strings.Contains(key, "+deb") {
		return "a Debian ABI name " + strings.Replace(key, "*", "<z>", 1) + " " + flavours + " is that release's own kernel line (+debNN on another series is a backport's)"
	}
	return "a Debian ABI name " + strings.Replace(key, "*", "<serial>", 1) + " " + flavours + " is that release's own kernel line (a backport's serial starts 0.bpo. or 0.debNN.)"
}
