package version

import (
	"errors"
	"fmt"
	"strings"
)

// Kind is the format Parse recognised. It changes how a string is split,
// never how two versions compare.
type Kind int

const (
	// Dotted is numbers and letters joined by . - _ + ~, e.g. firmware
	// 16.35.2000, Cisco eNIC 4.0.0.6-802-21, OFED 5.8-1.0.1.1, DOCA 2.9.2.
	Dotted Kind = iota
	// Cisco is a release with a parenthesised build, e.g. 5.1(2x).
	Cisco
	// OFED is a release named with its product prefix, e.g.
	// MLNX_OFED_LINUX-5.8-1.0.1.1; the prefix is not compared.
	OFED
	// Kernel is a kernel release: v2.6.24, 6.8-rc3, or a distro kernel
	// such as 5.14.0-427.13.1.el9_4.x86_64 (see ParseKernel).
	Kernel
)

func (k Kind) String() string {
	switch k {
	case Cisco:
		return "cisco"
	case OFED:
		return "ofed"
	case Kernel:
		return "kernel"
	}
	return "dotted"
}

// MaxLen bounds a version string; anything longer is a syntax error.
const MaxLen = 128

// ofedPrefixes are product names `ofed_info -s` and release file names put
// before the version. They name the product, not the release.
var ofedPrefixes = []string{"MLNX_OFED_LINUX-", "MLNX_OFED-", "DOCA-OFED-", "OFED-"}

// Version is a parsed version string. The zero value is invalid; use Parse.
type Version struct {
	raw    string
	kind   Kind
	label  string // OFED product prefix, without its dash
	segs   []seg
	kernel *KernelRelease
}

// seg is one comparable piece: a run of digits or a run of letters.
type seg struct {
	num   bool
	text  string // digits without leading zeros ("0" for zero), or lower-case letters
	paren bool   // written inside a Cisco (build)
}

// Parse reads a version string of any supported format. It fails on
// anything that is not a version, so lint can report bad syntax: empty
// strings, spaces, characters outside letters, digits and . - _ + ~ ( ),
// empty pieces such as "5..1", unbalanced parentheses, and strings that do
// not start with a digit once a known product prefix or a kernel "v" is
// removed.
func Parse(s string) (Version, error) {
	v := Version{raw: s}
	body := s
	for _, p := range ofedPrefixes {
		if strings.HasPrefix(s, p) {
			v.kind = OFED
			v.label = strings.TrimSuffix(p, "-")
			body = s[len(p):]
			break
		}
	}
	if err := checkSyntax(s, body); err != nil {
		return Version{}, err
	}
	switch {
	case v.kind == OFED:
	case strings.ContainsRune(body, '('):
		v.kind = Cisco
	case looksLikeKernel(body):
		k, err := ParseKernel(body)
		if err != nil {
			return Version{}, err
		}
		v.kind = Kernel
		v.kernel = &k
		v.segs = k.segs()
		return v, nil
	}
	segs, err := split(body, v.kind == Cisco)
	if err != nil {
		return Version{}, fmt.Errorf("version %q: %w", s, err)
	}
	v.segs = segs
	return v, nil
}

// MustParse is Parse for literals known to be valid; it panics otherwise.
func MustParse(s string) Version {
	v, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return v
}

func checkSyntax(raw, body string) error {
	switch {
	case raw == "":
		return errors.New("empty version")
	case len(raw) > MaxLen:
		return fmt.Errorf("version %.20q… is longer than %d characters", raw, MaxLen)
	}
	for _, r := range raw {
		if !isDigit(r) && !isLetter(r) && !strings.ContainsRune(".-_+~()", r) {
			return fmt.Errorf("version %q: unexpected character %q", raw, r)
		}
	}
	b := strings.TrimPrefix(body, "v")
	if b == "" || !isDigit(rune(b[0])) {
		return fmt.Errorf("version %q must start with a digit", raw)
	}
	return nil
}

// split cuts a version body into digit and letter runs. Separators are not
// compared, so 802-21 and 802.21 are the same build (Cisco writes both).
func split(body string, cisco bool) ([]seg, error) {
	var segs []seg
	depth, groups := 0, 0
	prevSep := true // at start, a separator is not allowed either
	for i := 0; i < len(body); {
		c := rune(body[i])
		switch {
		case isDigit(c) || isLetter(c):
			j := i
			for j < len(body) && (isDigit(rune(body[j])) == isDigit(c)) && (isDigit(rune(body[j])) || isLetter(rune(body[j]))) {
				j++
			}
			t := body[i:j]
			if isDigit(c) {
				t = strings.TrimLeft(t, "0")
				if t == "" {
					t = "0"
				}
				segs = append(segs, seg{num: true, text: t, paren: depth > 0})
			} else {
				segs = append(segs, seg{text: strings.ToLower(t), paren: depth > 0})
			}
			i = j
			prevSep = false
			continue
		case c == '(':
			if !cisco || depth > 0 || groups > 0 || prevSep {
				return nil, errors.New("unexpected \"(\"")
			}
			depth++
			groups++
			prevSep = true
		case c == ')':
			if depth == 0 || prevSep {
				return nil, errors.New("unexpected \")\"")
			}
			depth--
			// ")" may end the string or be followed by a separator-free suffix.
			i++
			continue
		default:
			if prevSep {
				return nil, fmt.Errorf("empty piece before %q at offset %d", c, i)
			}
			prevSep = true
		}
		i++
	}
	if depth != 0 {
		return nil, errors.New("unclosed \"(\"")
	}
	if prevSep && len(body) > 0 && body[len(body)-1] != ')' {
		return nil, errors.New("ends with a separator")
	}
	if cisco {
		segs = dropCiscoWildcard(segs)
	}
	return segs, nil
}

// dropCiscoWildcard removes the letter x that ends a Cisco build: Cisco
// writes 5.1(1x) for "any 5.1(1) patch", so as a minimum it means 5.1(1),
// which every lettered 5.1(1) build (5.1(1a), 5.1(1b)…) satisfies.
func dropCiscoWildcard(segs []seg) []seg {
	out := segs[:0]
	for i, s := range segs {
		last := i == len(segs)-1 || !segs[i+1].paren
		if s.paren && !s.num && s.text == "x" && last && i > 0 && segs[i-1].num && segs[i-1].paren {
			continue
		}
		out = append(out, s)
	}
	return out
}

func isDigit(r rune) bool  { return r >= '0' && r <= '9' }
func isLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

// String returns the string as written.
func (v Version) String() string { return v.raw }

// Kind returns the format Parse recognised.
func (v Version) Kind() Kind { return v.kind }

// Label returns the product prefix of an OFED string, e.g. MLNX_OFED_LINUX.
func (v Version) Label() string { return v.label }

// Kernel returns the parts of a kernel release, or nil for other kinds.
func (v Version) Kernel() *KernelRelease { return v.kernel }

// IsZero reports whether v is the zero Version (not parsed).
func (v Version) IsZero() bool { return v.raw == "" }

// prerelease names sort before the release they precede: 6.8-rc3 < 6.8.
var prerelease = map[string]bool{"rc": true, "pre": true, "alpha": true, "beta": true}

// Compare orders a and b: -1, 0 or +1. Pieces compare one by one: numbers
// by value (16.35.2000 < 16.35.10000), letters alphabetically, a number
// above letters; a missing number counts as 0 (5.14 = 5.14.0), a missing
// piece sorts below any letters except rc, pre, alpha and beta, which mark
// a pre-release. Separators and OFED product prefixes are ignored.
//
// Kernel releases compare by upstream base first, then distro release,
// then distro tag; the architecture is ignored. A distro kernel sorts
// above its bare upstream base, but Compare says nothing about which
// upstream features it carries: use KernelRelease.UpstreamAtLeast and the
// matrix's distro backports for that.
func Compare(a, b Version) int {
	n := max(len(a.segs), len(b.segs))
	for i := range n {
		var x, y *seg
		if i < len(a.segs) {
			x = &a.segs[i]
		}
		if i < len(b.segs) {
			y = &b.segs[i]
		}
		if c := cmpSeg(x, y); c != 0 {
			return c
		}
	}
	return 0
}

// AtLeast reports whether v >= min.
func AtLeast(v, min Version) bool { return Compare(v, min) >= 0 }

var zero = seg{num: true, text: "0"}

func cmpSeg(x, y *seg) int {
	switch {
	case x == nil && y == nil:
		return 0
	case x == nil:
		return -cmpSeg(y, nil)
	case y == nil:
		if x.num {
			return cmpNum(x.text, zero.text)
		}
		if prerelease[x.text] {
			return -1
		}
		return 1
	case x.num && y.num:
		return cmpNum(x.text, y.text)
	case x.num:
		return 1
	case y.num:
		return -1
	}
	px, py := prerelease[x.text], prerelease[y.text]
	switch {
	case px && !py:
		return -1
	case py && !px:
		return 1
	}
	return strings.Compare(x.text, y.text)
}

// cmpNum compares digit strings without leading zeros, of any length.
func cmpNum(a, b string) int {
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

// firmwareLabels are what tools print before a firmware version
// (ethtool -i, ibv_devinfo, mlxfwmanager, flint, dmesg, devlink dev info's
// running fw.version, rdma dev's "fw"), folded to lower case, the longer
// of two that start alike first; last, "pkg": the package version
// bnxt_en's ethtool -i prints after the running firmware ("/pkg
// 220.0.83.0"), given alone.
var firmwareLabels = []string{"firmware-version", "fw.version", "fw_ver", "firmware version", "fw version", "firmware", "fw", "pkg"}

// TrimFirmware reads a firmware version as a tool prints it: without its
// label ("firmware-version: ", "fw_ver:", mlxfwmanager's "FW" row), or
// what a dmesg line puts before the label ("mlx5_core 0000:03:00.0:
// firmware version: 14.32.1010"); without the PSID mlx5_core appends in
// parentheses ("22.36.1010 (MT_0000000359)"); and as the first of several
// numbers: mlxfwmanager's current version before the available one
// ("22.31.2006  N/A"), ice's NVM version before its EETRACK id and
// combo image ("4.30 0x8001af27 1.3429.0"), bnxt_en's running firmware
// before its package ("220.0.59.0/pkg 220.0.83.0"). The planned
// configuration's firmware goes through it in the engine and in the form
// alike.
func TrimFirmware(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		// No firmware given, as in every plan of the site's grid: each
		// label's search below made its label with a colon anew.
		return s
	}
	// Lower-cased byte for byte, so that its indexes are s's.
	low := strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
	for _, l := range firmwareLabels {
		// The label's last occurrence that starts a word, then a colon,
		// or (alone at the start) spaces and a number.
		if i := strings.LastIndex(low, l+":"); i >= 0 && (i == 0 || !wordByte(low[i-1])) {
			s = strings.TrimSpace(s[i+len(l)+1:])
			break
		}
		// The label as a word (at the start, or after a space as in rdma
		// dev's "protocol roce fw 231.0.154.0 node_guid …"), then blanks
		// and a number.
		if i := labelWord(low, l); i >= 0 {
			s = strings.TrimSpace(s[i+len(l):])
			break
		}
	}
	if i := strings.Index(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		s = strings.TrimSpace(s[:i])
	}
	if f := strings.Fields(s); len(f) > 1 && f[0][0] >= '0' && f[0][0] <= '9' {
		s = f[0]
	}
	if v, _, ok := strings.Cut(s, "/pkg"); ok && v != "" {
		s = v
	}
	return s
}

// labelWord is the index of the first occurrence of label l in low that
// starts low or follows a blank (space or tab), and is followed by a blank,
// any white space and a digit; -1 when there is none.
func labelWord(low, l string) int {
	for from := 0; from < len(low); {
		j := strings.Index(low[from:], l)
		if j < 0 {
			return -1
		}
		i := from + j
		from = i + 1
		if i > 0 && low[i-1] != ' ' && low[i-1] != '\t' {
			continue
		}
		rest := low[i+len(l):]
		if rest == "" || rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		if rest = strings.TrimSpace(rest); rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			return i
		}
	}
	return -1
}

// wordByte reports whether c may be part of a label's word.
func wordByte(c byte) bool { return c >= 'a' && c <= 'z' || c == '_' || c == '-' }
