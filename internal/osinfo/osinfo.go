package osinfo

import (
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/rocekb/rocekb/internal/lines"
)

// OSRelease holds the os-release fields the knowledge base needs.
type OSRelease struct {
	ID         string // ID
	IDLike     string // ID_LIKE
	VersionID  string // VERSION_ID
	PrettyName string // PRETTY_NAME
	Name       string // NAME
}

// ParseOSRelease reads an os-release(5) file: KEY=value lines, values
// optionally quoted with shell quoting.
func ParseOSRelease(r io.Reader) (OSRelease, error) {
	var o OSRelease
	err := lines.Each(r, func(raw string) {
		line := strings.TrimSpace(raw)
		if line == "" || line[0] == '#' {
			return
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return
		}
		v = unquote(strings.TrimSpace(v))
		switch k {
		case "ID":
			o.ID = v
		case "ID_LIKE":
			o.IDLike = v
		case "VERSION_ID":
			o.VersionID = v
		case "PRETTY_NAME":
			o.PrettyName = v
		case "NAME":
			o.Name = v
		}
	})
	return o, err
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		if v[0] == '"' {
			if u, err := strconv.Unquote(v); err == nil {
				return u
			}
		}
		return v[1 : len(v)-1]
	}
	return v
}

// ParseUname returns the kernel release from `uname -r` output, from
// `uname -a` output ("Linux <host> <release> …") as sos stores it, with
// or without the host name, or
// from /proc/version ("Linux version <release> (<builder>) …"). Quotes a
// poster put around the line are not part of it.
func ParseUname(r io.Reader) (string, error) {
	var rel string
	err := lines.Each(r, func(raw string) {
		if rel != "" {
			return
		}
		f := strings.Fields(strings.Trim(strings.TrimSpace(raw), "'\"`"))
		switch {
		case len(f) == 0:
		case f[0] == "Linux" && len(f) >= 3 && strings.HasPrefix(f[2], "#") && len(f[1]) > 0 && f[1][0] >= '0' && f[1][0] <= '9':
			// No host name between "Linux" and the release: an empty
			// nodename, or one the poster cut out ("Linux
			// 6.8.0-47-generic #47-Ubuntu SMP …"). The build's "#47…"
			// follows the release.
			rel = f[1]
		case f[0] == "Linux" && len(f) >= 3:
			rel = f[2]
		case len(f) == 1:
			rel = f[0]
		}
	})
	return rel, err
}

// OFED is the vendor stack `ofed_info -s` names.
type OFED struct {
	Name    string // MLNX_OFED, OFED-internal, or "" for a bare -n version
	Version string // e.g. 4.7-3.2.9.0
	Raw     string // the line it was read from
}

var (
	mlnxRE     = regexp.MustCompile(`^MLNX_OFED_LINUX-(\d[\w.\-]*?):?$`)
	internalRE = regexp.MustCompile(`^OFED-internal-(\d[\w.\-]*?):?$`)
	bareRE     = regexp.MustCompile(`^(\d+\.\d+-\d[\w.]*)$`)
)

// ParseOFEDInfo reads `ofed_info -s` (or -n) output. ok is false when no
// line names a stack.
func ParseOFEDInfo(r io.Reader) (o OFED, ok bool, err error) {
	err = lines.Each(r, func(raw string) {
		if ok {
			return
		}
		line := strings.TrimSpace(raw)
		if m := mlnxRE.FindStringSubmatch(line); m != nil {
			o, ok = OFED{Name: "MLNX_OFED", Version: m[1], Raw: line}, true
		} else if m := internalRE.FindStringSubmatch(line); m != nil {
			o, ok = OFED{Name: "OFED-internal", Version: m[1], Raw: line}, true
		} else if m := bareRE.FindStringSubmatch(line); m != nil {
			o, ok = OFED{Version: m[1], Raw: line}, true
		}
	})
	return o, ok, err
}

// ParseHostname returns the first non-empty, non-comment line of a
// hostname file or `hostname` output.
func ParseHostname(r io.Reader) (string, error) {
	var h string
	err := lines.Each(r, func(raw string) {
		line := strings.TrimSpace(raw)
		if h == "" && line != "" && line[0] != '#' && !strings.ContainsAny(line, " \t") {
			h = line
		}
	})
	return h, err
}

// redhatRE reads /etc/redhat-release (and /etc/system-release, which
// Red Hat family distributions keep beside it): "<name> release
// <version> (<codename>)". The pretty name ends there: a paste may run
// on into other text ("CentOS Linux release 8.4.2105, Linux host 4.18.0-…",
// redhat-release and uname -a filled into one line of an issue form).
// What the release line itself prints after the number stays in it: a
// build suffix ("release 7.5-0.14"), a pre-release word ("release 8.5 Beta
// (Ootpa)", "9.0 Alpha (Plow)"), a codename with or without a space
// before it ("release 6.10(Santiago)"); these layouts are in
// testdata/captures/redhat-release, from insights-core's parser tests.
// Before, the pretty name stopped at the number, so a Beta or Alpha
// host's record read as the release's GA.
var redhatRE = regexp.MustCompile(`^(.*?)\s+release\s+(\d+(?:\.\d+)*)(?:-\d[\w.]*)?(?:\s+(?:Beta|Alpha)\b)?(?:\s*\([^)]*\))?`)

// redhatIDs maps the names redhat-release prints to os-release IDs.
var redhatIDs = []struct{ prefix, id string }{
	{"Red Hat Enterprise Linux", "rhel"},
	{"CentOS Stream", "centos"},
	{"CentOS", "centos"},
	{"Rocky Linux", "rocky"},
	{"AlmaLinux", "almalinux"},
	{"Oracle Linux", "ol"},
	{"Fedora", "fedora"},
	{"Scientific Linux", "scientific"},
	{"EulerOS", "euleros"},
	{"openEuler", "openEuler"},
	{"Anolis OS", "anolis"},
	// Its os-release says ID="miraclelinux" beside "MIRACLE LINUX release
	// 8.10 (Peony)" (insights-core's combiners/test_os_release.py).
	{"MIRACLE LINUX", "miraclelinux"},
}

// ParseRedHatRelease reads a redhat-release file's first line into the
// fields of os-release: ID from the distribution's name (empty when it is
// none this knows), VERSION_ID from the release number, PRETTY_NAME the
// line up to its codename.
func ParseRedHatRelease(r io.Reader) (OSRelease, error) {
	var o OSRelease
	err := lines.Each(r, func(raw string) {
		line := strings.TrimSpace(raw)
		if o.PrettyName != "" || line == "" {
			return
		}
		m := redhatRE.FindStringSubmatch(line)
		if m == nil {
			return
		}
		o.PrettyName, o.Name, o.VersionID = m[0], m[1], m[2]
		for _, d := range redhatIDs {
			if strings.HasPrefix(m[1], d.prefix) {
				o.ID = d.id
				break
			}
		}
	})
	return o, err
}
