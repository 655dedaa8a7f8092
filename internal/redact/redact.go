package redact

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/netip"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/rocekb/rocekb/internal/record"
)

// Redactor replaces identifiers by tokens such as mac-3f2a9c: the first
// bytes of HMAC-SHA256(salt, kind+value), so the same value and salt give
// the same token on every host of a fleet, and a token cannot be turned
// back into its value without the salt.
type Redactor struct {
	key   []byte
	hosts []string // host names to replace in free text, longest first
}

// New returns a Redactor keyed by salt. hostnames (FQDN or short) are
// replaced wherever they appear in free text.
func New(salt string, hostnames ...string) *Redactor {
	r := &Redactor{key: []byte(salt)}
	seen := map[string]bool{}
	for _, h := range hostnames {
		h = strings.ToLower(strings.TrimSpace(h))
		short, _, _ := strings.Cut(h, ".")
		for _, n := range []string{h, short} {
			// Very short names and localhost would replace innocent words.
			if len(n) >= 3 && n != "localhost" && !seen[n] {
				seen[n] = true
				r.hosts = append(r.hosts, n)
			}
		}
	}
	slices.SortFunc(r.hosts, func(a, b string) int { return len(b) - len(a) })
	return r
}

// Token returns the token of a normalised value of a kind (mac, ipv4,
// ipv6-global and the other IPv6 scopes, guid, host, serial).
func (r *Redactor) Token(kind, value string) string {
	m := hmac.New(sha256.New, r.key)
	m.Write([]byte(kind + "\x00" + value))
	return kind + "-" + hex.EncodeToString(m.Sum(nil)[:3])
}

// keep lists record fields (by TOML key) that hold versions, ids and
// states, never identifiers: scrubbing them could only damage them (a
// version such as 1.0.1.1 looks like an IPv4 address).
var keep = map[string]bool{
	"fw_ver": true, "version": true, "srcversion": true, "running": true, "stored": true,
	"kernel_release": true, "version_id": true, "psid": true, "board_id": true, "hca_type": true,
	"pci_address": true, "vendor": true, "device": true, "subsystem_vendor": true, "subsystem_device": true,
	"kind": true, "status": true, "origin": true, "type": true, "link_layer": true, "state": true,
	"phys_state": true, "rate": true, "source_kind": true, "collector": true, "default_roce_mode": true,
	"fw_current": true, "fw_available": true, "fw_running": true, "current": true, "available": true,
	"key": true, "summary_key": true, // devlink info keys: fw.app, fw.mgmt.api
}

// Host redacts a record in place and marks it redacted.
func (r *Redactor) Host(h *record.Host) {
	h.Host.ID = r.hostID(h.Host.ID)
	r.walk(reflect.ValueOf(h).Elem(), "")
	h.Host.Redacted = true
}

func (r *Redactor) hostID(id string) string {
	if id == "" || strings.HasPrefix(id, "host-") && len(id) == 11 {
		return id
	}
	return r.Token("host", strings.ToLower(id))
}

var (
	gidType  = reflect.TypeFor[record.GID]()
	hostType = reflect.TypeFor[record.HostInfo]()
	rdmaType = reflect.TypeFor[record.RDMADevice]()
)

// walk scrubs every settable string reachable from v. Fields are found by
// reflection so that fields added to the record later are scrubbed too.
func (r *Redactor) walk(v reflect.Value, key string) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			r.walk(v.Elem(), key)
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			fv := v.Field(i)
			switch {
			case t == hostType && f.Name == "ID":
				continue // done by Host
			case t == gidType && f.Name == "GID":
				fv.SetString(r.GID(fv.String()))
				continue
			case t == rdmaType && f.Name == "NodeGUID":
				fv.SetString(r.GUID(fv.String()))
				continue
			case strings.Contains(name, "serial") && fv.Kind() == reflect.String:
				if fv.String() != "" {
					fv.SetString(r.Token("serial", strings.TrimSpace(fv.String())))
				}
				continue
			case strings.HasSuffix(name, "guid") && fv.Kind() == reflect.String:
				fv.SetString(r.GUID(fv.String()))
				continue
			case strings.Contains(name, "mac") && fv.Kind() == reflect.String:
				fv.SetString(r.Text(fv.String()))
				continue
			}
			r.walk(fv, name)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			r.walk(v.Index(i), key)
		}
	case reflect.Map:
		if v.IsNil() || v.Type().Key().Kind() != reflect.String {
			return
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		iter := v.MapRange()
		for iter.Next() {
			k := reflect.New(v.Type().Key()).Elem()
			k.SetString(r.Text(iter.Key().String()))
			val := reflect.New(v.Type().Elem()).Elem()
			val.Set(iter.Value())
			r.walk(val, key)
			out.SetMapIndex(k, val)
		}
		if v.CanSet() {
			v.Set(out)
		}
	case reflect.String:
		if v.CanSet() && !keep[key] {
			v.SetString(r.Text(v.String()))
		}
	}
}

// GUID redacts a node or port GUID written as 0c42:a103:0065:9e3c or
// 0x0c42a10300659e3c.
func (r *Redactor) GUID(s string) string {
	n := normGUID(s)
	if n == "" {
		return r.Text(s)
	}
	if n == "0000000000000000" {
		return s
	}
	return r.Token("guid", n)
}

func normGUID(s string) string {
	h := strings.ToLower(strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(s), "0x"), "0X"))
	h = strings.ReplaceAll(h, ":", "")
	if len(h) != 16 {
		return ""
	}
	if _, err := hex.DecodeString(h); err != nil {
		return ""
	}
	return h
}

// GID redacts one GID or IPv6 address, written in full (8 groups of 4 hex
// digits) as sysfs and show_gids print it or compressed (2001:db8::1).
// See gid for what is kept.
func (r *Redactor) GID(s string) string {
	a, err := netip.ParseAddr(strings.TrimSpace(s))
	if err != nil || !a.Is6() {
		return r.Text(s)
	}
	return r.gid(s, a)
}

// linkLocal64 is the one subnet prefix that is the same on every host: the
// default GID prefix of InfiniBand and of every RoCE port (fe80::/64).
var linkLocal64 = netip.MustParsePrefix("fe80::/64")

// gid redacts one IPv6 address or GID. The unspecified address and ::1
// stay. In an IPv4-mapped GID (::ffff:a.b.c.d) the IPv4 address becomes the
// same ipv4 token it gets in text and the ::ffff: prefix is kept, so the
// type of GID stays visible. Otherwise the interface id (last 64 bits)
// becomes a guid token, and the subnet prefix (first 64 bits) is kept only
// when it is fe80::/64; any other prefix names a site and a subnet, so it
// becomes a token that keeps its scope: ipv6-global-…, ipv6-unique-local-…
// (fc00::/7), ipv6-link-local-… (the rest of fe80::/10) or
// ipv6-multicast-…. The prefix token is keyed by the /64 alone, so GIDs of
// one subnet share it across hosts, and the interface id token matches that
// of the port's fe80 GID.
func (r *Redactor) gid(text string, a netip.Addr) string {
	a = a.WithZone("")
	if a.IsUnspecified() || a.IsLoopback() {
		return text
	}
	full := len(text) == 39 && strings.Count(text, ":") == 7
	if a.Is4In6() {
		ip := a.Unmap().String()
		if full {
			return text[:30] + r.Token("ipv4", ip) // 0000:0000:0000:0000:0000:ffff:
		}
		return "::ffff:" + r.Token("ipv4", ip)
	}
	b := a.As16()
	iid := ""
	if hex.EncodeToString(b[8:]) != "0000000000000000" {
		iid = r.Token("guid", hex.EncodeToString(b[8:]))
	}
	prefix := netip.PrefixFrom(a, 64).Masked()
	if prefix == linkLocal64 {
		switch {
		case full:
			return text[:20] + iid // fe80:0000:0000:0000:
		case iid == "":
			return "fe80::"
		}
		return "fe80::" + iid
	}
	p := r.Token(ipv6Scope(a), prefix.String())
	if iid == "" {
		return p + "::"
	}
	return p + ":" + iid
}

// ipv6Scope names the token kind of an IPv6 address by its scope (RFC 4291
// section 2.4, RFC 4193 for unique-local).
func ipv6Scope(a netip.Addr) string {
	switch {
	case a.IsLinkLocalUnicast():
		return "ipv6-link-local"
	case a.IsMulticast():
		return "ipv6-multicast"
	case a.IsPrivate(): // fc00::/7
		return "ipv6-unique-local"
	}
	return "ipv6-global"
}

var (
	// reColonHex finds candidates for MAC addresses, IPv6 addresses (GIDs
	// among them) and colon-written GUIDs; each is checked before it is replaced.
	reColonHex = regexp.MustCompile(`(?i)[0-9a-f]{0,4}(?::(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f]{0,4})){2,19}`)
	reMAC      = regexp.MustCompile(`(?i)^[0-9a-f]{2}(?::[0-9a-f]{2}){5,19}$`)
	reGUID4    = regexp.MustCompile(`(?i)^[0-9a-f]{4}(?::[0-9a-f]{4}){3}$`)
	reGUID0x   = regexp.MustCompile(`(?i)\b0x[0-9a-f]{16}\b`)
	reIPv4     = regexp.MustCompile(`\d{1,3}(?:\.\d{1,3}){3}`)
	reToken    = regexp.MustCompile(`(?i)^(mac|ipv4|ipv6-(?:global|unique-local|link-local|multicast)|guid|host|serial|uuid|email|nqn)-[0-9a-f]{6}$`)
	reSerial   = regexp.MustCompile(`(?i)(serial[ _.-]?(?:number|no\.?|num)?["']?\s*[:=]?\s*["']?)([A-Za-z0-9][A-Za-z0-9_-]{4,})`)
	// reSerialLabel is a serial number after one of its short labels: a
	// separator or a space must follow the label, and the value must hold
	// a digit (SN2700 is a switch model, "serial console" is no serial).
	reSerialLabel = regexp.MustCompile(`(?i)(?:^|[^a-z0-9_])((?:s/n|sn|ser\.?\s*no\.?|serial\s*#|service\s+tag)(?:\s*[:=#]\s*|\s+)["']?)([A-Za-z0-9][A-Za-z0-9_-]{4,})`)
	// reSerialShape is an NVIDIA (Mellanox) adapter serial, MT2048X12345,
	// wherever it stands (a VPD product name, a log line).
	reSerialShape = regexp.MustCompile(`\bMT\d{4}[A-Z0-9]\d{5}\b`)
	// reUUID is a UUID (a host NQN's, a file system's, a VM's).
	reUUID = regexp.MustCompile(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
	// reEmail is an e-mail address.
	reEmail = regexp.MustCompile(`(?i)\b[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,24}\b`)
	// reNQN is an NVMe qualified name: nqn.yyyy-mm.<reversed domain>:<name>.
	reNQN = regexp.MustCompile(`(?i)\bnqn\.\d{4}-\d{2}\.[a-z0-9.-]+:[^\s,;"'()\[\]]+`)
	// reHexRun is a run of hex digits with its separators, checked by
	// hexShapes: dash-written MACs and EUI-64s, Cisco's dotted MACs,
	// enx<mac> names and bare MACs and GUIDs.
	reHexRun  = regexp.MustCompile(`(?i)[0-9a-z]+(?:[-.][0-9a-z]+)*`)
	reDashHex = regexp.MustCompile(`(?i)^[0-9a-f]{2}(?:-[0-9a-f]{2}){5,19}$`)
	reDotMAC  = regexp.MustCompile(`(?i)^[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}$`)
	reDotGUID = regexp.MustCompile(`(?i)^[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}$`)
	reMACName = regexp.MustCompile(`(?i)^(enx|wlx)([0-9a-f]{12})$`)
	reHex12   = regexp.MustCompile(`(?i)^(?:0x)?[0-9a-f]{12}$`)
	reHex16   = regexp.MustCompile(`(?i)^[0-9a-f]{16}$`)
	// reMACLabel ends text that names a MAC address before it.
	reMACLabel = regexp.MustCompile(`(?i)(?:mac|hwaddr|lladdr|ether|permaddr|address|addr|eui-48)\s*(?:address)?\s*(?:[:=]|is)?\s*$`)
	// reFQDN is a domain name of at least two labels ending in letters.
	reFQDN = regexp.MustCompile(`(?i)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)+`)
)

// Text redacts identifiers in free text: kernel log lines, reasons, tool
// output, product names, interface names, source ids and paths. It finds
// them by shape, so that an identifier nobody listed is still replaced:
// MAC addresses (aa:bb:…, AA-BB-…, aabb.ccdd.eeff, bare 12 hex digits after
// a MAC label, and inside enx<mac> and wlx<mac> names), EUI-64s and GUIDs
// (colon, dash, 0x and bare 16 hex digits), UUIDs and NVMe qualified names,
// IPv4 and IPv6 addresses, serial numbers after their labels (S/N:, SN,
// sn=, Serial#, serial number) or in NVIDIA's shape, e-mail addresses, the
// host's own names and other fully qualified domain names.
func (r *Redactor) Text(s string) string {
	if s == "" {
		return s
	}
	// Each pattern runs only on text that holds what any match of it
	// must hold (mayHold): most strings of a record hold no identifier,
	// and the regexps' backtracking over them was most of a redacted
	// collection's CPU.
	if strings.Count(s, "-") >= 4 {
		s = reUUID.ReplaceAllStringFunc(s, func(m string) string { return r.Token("uuid", strings.ToLower(m)) })
	}
	if strings.IndexByte(s, '@') >= 0 {
		s = reEmail.ReplaceAllStringFunc(s, func(m string) string { return r.Token("email", strings.ToLower(m)) })
	}
	if mayHold(s, "nqn.") {
		s = r.nqns(s)
	}
	if strings.Count(s, ":") >= 2 {
		s = r.colonHexes(s)
	}
	if mayHold(s, "0x") {
		s = reGUID0x.ReplaceAllStringFunc(s, func(m string) string { return r.GUID(m) })
	}
	if hasRun(s, 12) {
		s = r.hexShapes(s)
	}
	if strings.Count(s, ".") >= 3 {
		s = r.ipv4s(s)
	}
	s = r.serials(s)
	s = r.hostnames(s)
	return r.fqdns(s)
}

// colonHexes replaces the colon-hex candidates that stand alone: one
// followed by a letter is the kept prefix of an already redacted GID
// ("fe80:0000:0000:0000:guid-…") or part of a word.
func (r *Redactor) colonHexes(s string) string {
	locs := reColonHex.FindAllStringIndex(s, -1)
	if locs == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, l := range locs {
		if l[1] < len(s) && isWordish(s[l[1]]) {
			continue
		}
		m := s[l[0]:l[1]]
		out := m
		if l[0] > 0 && (isWordish(s[l[0]-1]) || s[l[0]-1] == '-') {
			// Glued to a word on the left ("ipv4-c611a5::0", "mlx5_core:"):
			// the hex before the first colon belongs to that word.
			if i := strings.Index(m, ":"); i >= 0 {
				if a, ok := r.address(strings.TrimRight(m[i+1:], ":")); ok {
					out = m[:i+1] + a + m[i+1+len(strings.TrimRight(m[i+1:], ":")):]
				}
			}
		} else {
			out = r.colonHex(m)
		}
		b.WriteString(s[last:l[0]])
		b.WriteString(out)
		last = l[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

func (r *Redactor) colonHex(m string) string {
	core := strings.TrimRight(m, ":")
	tail := m[len(core):]
	if out, ok := r.address(core); ok {
		return out + tail
	}
	// A network written with a trailing :: ("2001:db8::/32").
	if strings.HasSuffix(m, "::") {
		if out, ok := r.address(m); ok {
			return out
		}
	}
	// A hex-looking word before a colon ("GID:fe80::1", "dev:08:c0:…") got
	// swallowed into the candidate: try again without it.
	if i := strings.Index(core, ":"); i > 0 {
		if out, ok := r.address(core[i+1:]); ok {
			return core[:i+1] + out + tail
		}
	}
	return m
}

func (r *Redactor) address(core string) (string, bool) {
	switch {
	case reMAC.MatchString(core) && len(core) == 23:
		// Eight pairs are an EUI-64 (a GUID), as in every other spelling.
		return r.GUID(core), true
	case reMAC.MatchString(core):
		return r.Token("mac", strings.ToLower(core)), true
	case reGUID4.MatchString(core):
		return r.GUID(core), true
	}
	if a, err := netip.ParseAddr(core); err == nil && a.Is6() && !a.IsLoopback() && !a.IsUnspecified() {
		return r.gid(core, a), true
	}
	return "", false
}

// ipv4s replaces dotted quads that stand alone: not part of a longer
// dotted or dashed version string such as 5.8-1.0.1.1 or 1.2.3.4.5.
func (r *Redactor) ipv4s(s string) string {
	locs := reIPv4.FindAllStringIndex(s, -1)
	if locs == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, l := range locs {
		m := s[l[0]:l[1]]
		a, err := netip.ParseAddr(m)
		before, after := byte(' '), byte(' ')
		if l[0] > 0 {
			before = s[l[0]-1]
		}
		if l[1] < len(s) {
			after = s[l[1]]
		}
		afterNext := byte(' ')
		if l[1]+1 < len(s) {
			afterNext = s[l[1]+1]
		}
		standalone := !isWordish(before) && before != '.' && before != '-' &&
			!isWordish(after) && after != '-' && !(after == '.' && isDigit(afterNext))
		if err != nil || !a.Is4() || !standalone || a.IsUnspecified() || a.IsLoopback() {
			continue
		}
		b.WriteString(s[last:l[0]])
		b.WriteString(r.Token("ipv4", a.String()))
		last = l[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
func isWordish(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// hostnames replaces known host names, as whole words, ignoring case.
func (r *Redactor) hostnames(s string) string {
	for _, h := range r.hosts {
		lower := asciiLower(s) // same length as s, unlike strings.ToLower
		if !strings.Contains(lower, h) {
			continue
		}
		var b strings.Builder
		i := 0
		for {
			j := strings.Index(lower[i:], h)
			if j < 0 {
				break
			}
			j += i
			end := j + len(h)
			if (j > 0 && isHostChar(lower[j-1])) || (end < len(lower) && isHostChar(lower[end])) {
				b.WriteString(s[i:end])
				i = end
				continue
			}
			b.WriteString(s[i:j])
			b.WriteString(r.Token("host", h))
			i = end
		}
		b.WriteString(s[i:])
		s = b.String()
	}
	return s
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func isHostChar(c byte) bool { return isWordish(c) || c == '-' }

// nqns replaces the name part of NVMe qualified names, which names the
// host or the storage target (nqn.2014-08.com.example:target01); the
// well-known discovery NQN stays.
func (r *Redactor) nqns(s string) string {
	return reNQN.ReplaceAllStringFunc(s, func(m string) string {
		lower := strings.ToLower(m)
		if lower == "nqn.2014-08.org.nvmexpress.discovery" || reToken.MatchString(m[strings.LastIndex(m, ":")+1:]) {
			return m
		}
		// nqn.2014-08.org.nvmexpress:uuid:<uuid> was tokenized as a UUID.
		if strings.HasPrefix(lower, "nqn.2014-08.org.nvmexpress:uuid:") {
			return m
		}
		return "nqn." + r.Token("nqn", lower)
	})
}

// hexShapes replaces the MACs and GUIDs written without colons. A run of
// letters and digits (with - and . inside) is one candidate; it is an
// identifier by its whole shape, never by a part of a longer word.
func (r *Redactor) hexShapes(s string) string {
	locs := reHexRun.FindAllStringIndex(s, -1)
	if locs == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, l := range locs {
		start, end := l[0], l[1]
		if start > 0 && (s[start-1] == '_' || s[start-1] == ':') || end < len(s) && s[end] == '_' ||
			end+1 < len(s) && s[end] == ':' && isHex(s[end+1]) {
			continue // part of a word (mlx5_0) or of a colon-written value
		}
		out, ok := r.hexShape(s[start:end], s[:start])
		if !ok {
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(out)
		last = end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// hexShape redacts one candidate run m, which before precedes.
func (r *Redactor) hexShape(m, before string) (string, bool) {
	lower := strings.ToLower(m)
	hasLetter := strings.ContainsAny(lower, "abcdef")
	switch {
	case reDashHex.MatchString(m):
		h := strings.ReplaceAll(lower, "-", "")
		if len(h) == 16 {
			return r.GUID(h), true // an EUI-64: lspci's Device Serial Number
		}
		return r.Token("mac", colonPairs(h)), true
	case reDotMAC.MatchString(m) && hasLetter:
		return r.Token("mac", colonPairs(strings.ReplaceAll(lower, ".", ""))), true
	case reDotGUID.MatchString(m) && hasLetter:
		return r.GUID(strings.ReplaceAll(lower, ".", "")), true
	case reMACName.MatchString(m):
		sub := reMACName.FindStringSubmatch(m)
		return sub[1] + r.Token("mac", colonPairs(strings.ToLower(sub[2]))), true
	case reHex16.MatchString(m) && hasLetter && strings.ContainsAny(lower, "0123456789"):
		// A bare EUI-64 or GUID: 16 hex digits standing alone.
		return r.GUID(lower), true
	case reHex12.MatchString(m) && reMACLabel.MatchString(tail(before, 24)):
		// Twelve hex digits are a MAC only where a label says so: alone
		// they may be a hash or a counter.
		return r.Token("mac", colonPairs(strings.TrimPrefix(lower, "0x"))), true
	}
	return "", false
}

// colonPairs writes hex digits as a colon-separated MAC: aabbcc → aa:bb:cc.
func colonPairs(h string) string {
	var b strings.Builder
	for i := 0; i < len(h); i += 2 {
		if i > 0 {
			b.WriteByte(':')
		}
		b.WriteString(h[i:min(i+2, len(h))])
	}
	return b.String()
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// serials replaces serial numbers after their labels, and NVIDIA serials
// by their shape.
func (r *Redactor) serials(s string) string {
	if !mayHold(s, "serial") {
		return r.serialLabels(s)
	}
	s = reSerial.ReplaceAllStringFunc(s, func(m string) string {
		sub := reSerial.FindStringSubmatch(m)
		if reToken.MatchString(sub[2]) || reToken.MatchString(m) || !strings.ContainsAny(sub[2], "0123456789") {
			return m // "serial console" is no serial number
		}
		return sub[1] + r.Token("serial", sub[2])
	})
	return r.serialLabels(s)
}

// serialLabels replaces serial numbers after their short labels, and
// NVIDIA serials by their shape.
func (r *Redactor) serialLabels(s string) string {
	// Every label holds "sn", "s/n" or "ser" ("service tag" too).
	if mayHold(s, "sn", "s/n", "ser") {
		s = r.labelled(s)
	}
	if !strings.Contains(s, "MT") {
		return s
	}
	return reSerialShape.ReplaceAllStringFunc(s, func(m string) string { return r.Token("serial", m) })
}

// labelled replaces the values reSerialLabel finds.
func (r *Redactor) labelled(s string) string {
	locs := reSerialLabel.FindAllStringSubmatchIndex(s, -1)
	if locs == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, l := range locs {
		v := s[l[4]:l[5]]
		if reToken.MatchString(v) || !strings.ContainsAny(v, "0123456789") || strings.HasPrefix(strings.ToLower(v), "serial-") {
			continue
		}
		b.WriteString(s[last:l[4]])
		b.WriteString(r.Token("serial", v))
		last = l[5]
	}
	b.WriteString(s[last:])
	return b.String()
}

// mayHold reports whether s may hold one of lowers (ASCII lower case) as
// a case-insensitive regexp matches it: ASCII letters in either case, and
// any text with a byte outside ASCII, where Unicode case folding may
// match one of their letters ("ſ" matches s, "K" matches k).
func mayHold(s string, lowers ...string) bool {
	for _, lower := range lowers {
		n := len(lower)
		for i := 0; i+n <= len(s); i++ {
			j := 0
			for ; j < n; j++ {
				c := s[i+j]
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				if c != lower[j] {
					break
				}
			}
			if j == n {
				return true
			}
		}
	}
	for i := range len(s) {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// hasRun reports whether s has n bytes in a row that reHexRun's matches
// are made of (ASCII letters, digits, '-' and '.'): every shape hexShape
// replaces is at least 12 of them.
func hasRun(s string, n int) bool {
	run := 0
	for i := range len(s) {
		c := s[i]
		if isWordish(c) && c != '_' || c == '-' || c == '.' {
			if run++; run >= n {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// publicTLDs end the domain names fqdns replaces: a name such as
// fw.mgmt.api, mlx5_core.ko or rc.local is a key or a file, not a host.
// .local, .lan and the like count only with three labels or more.
var publicTLDs = map[string]bool{
	"com": true, "net": true, "org": true, "io": true, "edu": true, "gov": true, "mil": true, "int": true,
	"biz": true, "info": true, "co": true, "us": true, "uk": true, "de": true, "cn": true, "jp": true,
	"fr": true, "nl": true, "ru": true, "in": true, "au": true, "ca": true, "kr": true, "tw": true,
	"br": true, "it": true, "es": true, "se": true, "ch": true, "il": true, "sg": true, "hk": true,
	"cloud": true, "example": true, "test": true,
}

var privateTLDs = map[string]bool{
	"local": true, "lan": true, "internal": true, "corp": true, "home": true, "intranet": true,
	"intra": true, "localdomain": true, "priv": true, "private": true, "cluster": true, "svc": true, "domain": true,
}

// publicNames are domains whose names say nothing about the customer and
// help the reader: vendors' and projects' sites in log lines and messages.
var publicNames = []string{"kernel.org", "nvidia.com", "mellanox.com", "redhat.com", "ubuntu.com", "canonical.com",
	"debian.org", "suse.com", "broadcom.com", "intel.com", "microsoft.com", "github.com", "oracle.com", "nvmexpress.org",
	"openfabrics.org", "linux.org", "fedoraproject.org", "centos.org", "rockylinux.org", "almalinux.org", "amazon.com", "amazonaws.com"}

// fqdns replaces fully qualified domain names found by shape: the names
// of other machines (a storage target, a peer) in log lines and paths.
func (r *Redactor) fqdns(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	locs := reFQDN.FindAllStringIndex(s, -1)
	var b strings.Builder
	last := 0
	for _, l := range locs {
		start, end := l[0], l[1]
		m := s[start:end]
		if start > 0 && (isWordish(s[start-1]) || strings.IndexByte("./-@", s[start-1]) >= 0) ||
			end < len(s) && (isWordish(s[end]) || s[end] == '-' || s[end] == '@') {
			continue
		}
		labels := strings.Split(strings.ToLower(m), ".")
		tld := labels[len(labels)-1]
		if !(publicTLDs[tld] || privateTLDs[tld] && len(labels) >= 3) {
			continue
		}
		if !strings.ContainsAny(labels[0], "abcdefghijklmnopqrstuvwxyz") || isPublicName(strings.ToLower(m)) {
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(r.Token("host", strings.ToLower(m)))
		last = end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func isPublicName(name string) bool {
	for _, p := range publicNames {
		if name == p || strings.HasSuffix(name, "."+p) {
			return true
		}
	}
	return false
}
