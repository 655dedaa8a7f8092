package rule

import (
	"slices"

	"github.com/rocekb/rocekb/internal/matrix"
	"github.com/rocekb/rocekb/internal/version"
)

// readFlavours are, per distro family, the kernel flavours whose
// configuration the family's distro_support rows read: Debian's default
// amd64 and arm64 flavours (debianFlavours); Ubuntu's generic kernels, whose
// debian.master and debian.hwe-* annotations the Ubuntu rows read (their
// per-architecture policies cover generic and arm64's generic-64k); SUSE's
// default kernel, whose configuration the SLES rows read. Another flavour
// of the same release is another kernel package with its own configuration:
// Ubuntu's derivative kernels (azure, aws, gcp, nvidia, kvm, lowlatency,
// ...) have their own debian.<flavour>/config/annotations, Debian's cloud
// and rt flavours build other drivers (Debian 10's cloud-amd64 builds no
// InfiniBand), SUSE ships kernel-azure and kernel-rt beside kernel-default.
var readFlavours = map[string][]string{
	"debian": debianFlavours,
	"ubuntu": {"generic", "generic-64k"},
	"sles":   {"default"},
}

// UnreadFlavour reports the flavour of a kernel release of distro d's
// family when it is not one whose configuration d's distro_support rows
// read (6.8.0-1015-azure on Ubuntu 24.04, 6.1.0-18-cloud-amd64 on Debian
// 12): those rows say nothing of it. ok is false for a release with no
// flavour, a read one, or a family the table does not name.
func UnreadFlavour(d *matrix.Distro, release string) (flavour string, ok bool) {
	read, known := readFlavours[d.Family]
	if !known {
		return "", false
	}
	if d.Family == "debian" {
		if _, _, _, f, _, ok := debianKernel(release); ok {
			flavour = f
		}
	} else if k, err := version.ParseKernel(release); err == nil {
		flavour = k.Flavour
	}
	if flavour == "" || slices.Contains(read, flavour) {
		return "", false
	}
	return flavour, true
}
